"""How much memory Redis uses, watched so the operator can cap it.

Finished live rooms expire, but correspondence rooms wait as long as needed (by default for
ever), and Redis runs without eviction (an evicted room would be a lost game). So the
operator sets a budget, ``redis_memory_limit_mb``: past it, new rooms are refused with
``server_full`` while every game already going on continues. The figure is read every few
seconds (on a cluster, added up over its primaries) and published as a metric.

Redis's own ``maxmemory`` is a limit too, a harder one: there Redis refuses every write, moves
included. So new rooms are refused as well once any Redis (any primary of a cluster) uses
more than :data:`MAXMEMORY_SHARE` of its ``maxmemory``, budget or not: the games going on keep
the rest, and a server never reaches the refused writes by accident.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from server.background import Background, every
from server.store.redis_client import is_cluster

log = logging.getLogger("tetrad.memory")


MAXMEMORY_SHARE = 0.9
"""New rooms wait once a Redis uses this share of its ``maxmemory``."""


@dataclass(frozen=True, slots=True)
class Reading:
    used: int
    """Bytes Redis uses for data (on a cluster, added up over its primaries)."""
    near_maxmemory: bool
    """Whether a Redis (a primary of a cluster) is past its share of ``maxmemory``."""


async def read_memory(redis: Redis) -> Reading:
    if is_cluster(redis):
        by_node: Any = await redis.info("memory", target_nodes=RedisCluster.PRIMARIES)
        infos = list(by_node.values())
    else:
        infos = [await redis.info("memory")]
    near = any(
        0 < int(info.get("maxmemory", 0)) * MAXMEMORY_SHARE < int(info["used_memory"])
        for info in infos
    )
    return Reading(sum(int(info["used_memory"]) for info in infos), near)


class MemoryWatch:
    def __init__(
        self,
        redis: Redis,
        limit_bytes: int,
        *,
        interval: float = 10.0,
        on_reading: Callable[[int], None] = lambda used: None,
    ) -> None:
        self.redis = redis
        self.limit_bytes = limit_bytes
        self.interval = interval
        self.on_reading = on_reading
        self.used = 0
        """The last reading, in bytes (0 before the first)."""
        self.near_maxmemory = False
        """Whether the last reading found a Redis near its own ``maxmemory``."""
        # An outage is reported by the requests it fails; the watch only tries again.
        self.background = Background("memory", lambda: every(self.interval, self.read, _ignore))

    @property
    def full(self) -> bool:
        """Whether new rooms must wait: the last reading is over the limit set, or found a
        Redis near its ``maxmemory``."""
        return self.near_maxmemory or (self.limit_bytes > 0 and self.used > self.limit_bytes)

    async def read(self) -> int:
        was_full = self.full
        reading = await read_memory(self.redis)
        self.used, self.near_maxmemory = reading.used, reading.near_maxmemory
        self.on_reading(self.used)
        if self.full and not was_full:
            log.warning(
                "Redis holds %.1f MiB, over %s: new rooms are refused",
                self.used / 2**20,
                f"{MAXMEMORY_SHARE:.0%} of its maxmemory"
                if self.near_maxmemory
                else f"the limit of {self.limit_bytes / 2**20:.1f} MiB",
            )
        elif was_full and not self.full:
            log.info("Redis memory is under its limit again: new rooms are welcome")
        return self.used


def _ignore(error: Exception) -> None:
    return None
