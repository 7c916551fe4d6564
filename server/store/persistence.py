"""Does the Redis in use keep its data over a restart? (append-only file, snapshots, none)

Rooms live only in Redis: on a Redis that persists nothing, a restart ends every game in
progress, silently. ``tetrad serve`` warns at start and ``/readyz`` reports what it finds.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis
from redis.exceptions import ResponseError

NONE = "none"
UNKNOWN = "unknown"


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def redis_persistence(redis: Redis) -> str:
    """``"aof"``, ``"rdb"``, ``"aof+rdb"``, ``"none"``, or ``"unknown"`` when the server
    hides its configuration (``CONFIG`` renamed away, as some hosted services do) and
    reports no append-only file."""
    try:
        config: dict[str, str] = {}
        for name in ("appendonly", "save"):  # one pattern a call: Redis 6 takes no more
            found = await redis.config_get(name)
            config.update({_text(k): _text(v) for k, v in found.items()})
        aof = config.get("appendonly") == "yes"
        rdb = bool(config.get("save", "").strip())
    except ResponseError:
        info = await redis.info("persistence")
        if int(info.get("aof_enabled", 0)):
            return "aof"
        return UNKNOWN
    kinds = [name for name, on in (("aof", aof), ("rdb", rdb)) if on]
    return "+".join(kinds) or NONE


def persists(kind: str) -> bool:
    """Whether a result of :func:`redis_persistence` means the data survives a restart
    (unknown counts as yes: nothing to warn about for sure)."""
    return kind != NONE
