"""The Redis stores of every concern (:mod:`server.rooms.stores`), on one client: the same
client serves one Redis, the master a Sentinel names, or a Redis Cluster (every key of a
room carries the room's hash tag)."""

from __future__ import annotations

from redis.asyncio import Redis

from server.rooms.stores import Stores
from server.store.leases import RedisLeaseStore
from server.store.limits import RedisLimitStore
from server.store.outbox import RedisOutboxStore
from server.store.presence import RedisPresenceStore
from server.store.rooms import RedisRoomStore


class RedisStores:
    def __init__(self, redis: Redis, prefix: str, events_kept: int = 32) -> None:
        self._rooms = RedisRoomStore(redis, prefix, events_kept)
        self._presence = RedisPresenceStore(redis, prefix)
        self.stores = Stores(
            rooms=self._rooms,
            presence=self._presence,
            outbox=RedisOutboxStore(redis, prefix),
            leases=RedisLeaseStore(redis, prefix),
            limits=RedisLimitStore(redis, prefix),
        )

    async def aclose(self) -> None:
        """Close the stores' own connections (the client is closed by its owner)."""
        await self._rooms.aclose()
        await self._presence.aclose()
