"""How much memory Redis uses, watched so the operator can cap it.

Finished live rooms expire, but correspondence rooms wait as long as needed (by default for
ever), and Redis runs without eviction (an evicted room would be a lost game). So the
operator sets a budget, ``redis_memory_limit_mb``: past it, new rooms are refused with
``server_full`` while every game already going on continues. The figure is read every few
seconds (on a cluster, added up over its primaries) and published as a metric.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from server.background import Background, every
from server.store.redis_client import is_cluster

log = logging.getLogger("tetrad.memory")


async def used_memory(redis: Redis) -> int:
    """Bytes Redis uses for data (on a cluster, added up over its primaries)."""
    if is_cluster(redis):
        by_node: Any = await redis.info("memory", target_nodes=RedisCluster.PRIMARIES)
        return sum(int(info["used_memory"]) for info in by_node.values())
    info: Any = await redis.info("memory")
    return int(info["used_memory"])


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
        # An outage is reported by the requests it fails; the watch only tries again.
        self.background = Background("memory", lambda: every(self.interval, self.read, _ignore))

    @property
    def full(self) -> bool:
        """Whether new rooms must wait: a limit is set and the last reading is over it."""
        return self.limit_bytes > 0 and self.used > self.limit_bytes

    async def read(self) -> int:
        was_full = self.full
        self.used = await used_memory(self.redis)
        self.on_reading(self.used)
        if self.full and not was_full:
            log.warning(
                "Redis holds %.1f MiB, over the limit of %.1f MiB: new rooms are refused",
                self.used / 2**20,
                self.limit_bytes / 2**20,
            )
        elif was_full and not self.full:
            log.info("Redis memory is under its limit again: new rooms are welcome")
        return self.used


def _ignore(error: Exception) -> None:
    return None
