"""Finished games waiting for the database, in Redis (:class:`server.rooms.stores.OutboxStore`).

A room's outbox is a list the commit that ends a game appends to (in the same script); a set
notes the rooms whose outbox may hold records, and a scan finds any it missed.
"""

from __future__ import annotations

from redis.asyncio import Redis

from server.store.keys import RoomKeys, outbox_index
from server.store.texts import text, texts


class RedisOutboxStore:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self.prefix, room_id)

    async def mark(self, room_id: str) -> None:
        """Note that ``room_id``'s outbox holds records (after a commit that added one)."""
        await self.redis.sadd(outbox_index(self.prefix), room_id)  # type: ignore[misc]

    async def rooms(self) -> list[str]:
        """The rooms noted as holding records."""
        members = await self.redis.smembers(outbox_index(self.prefix))  # type: ignore[misc]
        return sorted(texts(list(members)))

    async def sweep(self) -> list[str]:
        """Every room whose outbox holds records, found by scanning the keys (slow; a backstop
        for a process that died between a commit and :meth:`mark_outbox`)."""
        pattern = f"{self.prefix}:{{*}}:outbox"
        found = []
        async for key in self.redis.scan_iter(match=pattern, count=1000):
            name = text(key) or ""
            found.append(name[len(self.prefix) + 2 : -len("}:outbox")])
        return sorted(found)

    async def records(self, room_id: str, limit: int = 100) -> list[str]:
        items = await self.redis.lrange(self.keys(room_id).outbox, 0, limit - 1)  # type: ignore[misc]
        return texts(items)

    async def done(self, room_id: str, records: list[str]) -> None:
        """Drop ``records`` (written to the database). By value, not by position: another
        process may be draining the same outbox."""
        key = self.keys(room_id).outbox
        pipe = self.redis.pipeline(transaction=False)
        for record in records:
            pipe.lrem(key, 1, record)
        pipe.llen(key)
        left = (await pipe.execute())[-1]
        if left == 0:
            await self.redis.srem(outbox_index(self.prefix), room_id)  # type: ignore[misc]
            # A commit may have added a record (and noted it) since we looked: note it again.
            if await self.redis.llen(key) > 0:  # type: ignore[misc]
                await self.mark(room_id)
