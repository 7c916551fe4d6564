"""Which process thinks for a room's computer seat: a short lease in Redis
(:class:`server.rooms.stores.LeaseStore`), refreshed while it thinks."""

from __future__ import annotations

from redis.asyncio import Redis

from server.store.keys import RoomKeys
from server.store.presence import REFRESH_SCRIPT, RELEASE_SCRIPT
from server.store.scripts import LuaScript


class RedisLeaseStore:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._refresh = LuaScript(redis, REFRESH_SCRIPT)
        self._release = LuaScript(redis, RELEASE_SCRIPT)

    def _key(self, room_id: str) -> str:
        return RoomKeys(self.prefix, room_id).lease

    async def acquire(self, room_id: str, owner: str, ttl: float) -> bool:
        return bool(await self.redis.set(self._key(room_id), owner, nx=True, px=int(ttl * 1000)))

    async def refresh(self, room_id: str, owner: str, ttl: float) -> bool:
        return bool(await self._refresh([self._key(room_id)], [owner, int(ttl * 1000)]))

    async def release(self, room_id: str, owner: str) -> None:
        await self._release([self._key(room_id)], [owner])

    async def held(self, room_ids: list[str]) -> list[bool]:
        pipe = self.redis.pipeline(transaction=False)
        for room_id in room_ids:
            pipe.exists(self._key(room_id))
        return [bool(found) for found in await pipe.execute()]
