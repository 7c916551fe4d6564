"""Room storage in Redis: documents committed by compare-and-set, versioned events,
presence, the computer-turn lease, rate-limit counters and pub/sub.

The room document is opaque JSON here; the room service owns its meaning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from server.store.keys import RoomKeys, rate_key

# KEYS: room hash, events list. ARGV: expected version (-1: create), new version, doc,
# stored event ('' for none), published message ('' for none), channel, events kept, ttl ms.
COMMIT_SCRIPT = """
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '-1' then
  if current then return {0, tonumber(current)} end
else
  if not current then return {-1, 0} end
  if current ~= ARGV[1] then return {0, tonumber(current)} end
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'doc', ARGV[3])
if ARGV[4] ~= '' then
  redis.call('RPUSH', KEYS[2], ARGV[4])
  redis.call('LTRIM', KEYS[2], -tonumber(ARGV[7]), -1)
end
local ttl = tonumber(ARGV[8])
for i = 1, 2 do
  if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
if ARGV[5] ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[5]) end
return {1, tonumber(ARGV[2])}
"""

# KEYS: a key holding an owner id. ARGV: owner, ttl ms. Refresh only if still ours.
REFRESH_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: a key holding an owner id. ARGV: owner. Delete only if still ours.
RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# KEYS: room hash, events list. ARGV: ttl ms. Keep an active room alive.
TOUCH_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ttl = tonumber(ARGV[1])
for i = 1, 2 do
  if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
return 1
"""

RATE_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    version: int
    doc: str


@dataclass(frozen=True, slots=True)
class CommitResult:
    committed: bool
    version: int
    """The new version if committed, else the version found (0: the room is gone)."""


class RoomStore:
    """The one small interface between the room service and Redis."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._commit = redis.register_script(COMMIT_SCRIPT)
        self._refresh = redis.register_script(REFRESH_SCRIPT)
        self._release = redis.register_script(RELEASE_SCRIPT)
        self._touch = redis.register_script(TOUCH_SCRIPT)
        self._rate = redis.register_script(RATE_SCRIPT)

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self.prefix, room_id)

    async def load(self, room_id: str) -> StoredRoom | None:
        values: list[Any] = await self.redis.hmget(  # type: ignore[misc]
            self.keys(room_id).room, ["version", "doc"]
        )
        version, doc = values
        if version is None or doc is None:
            return None
        return StoredRoom(int(version), doc.decode() if isinstance(doc, bytes) else doc)

    async def commit(
        self,
        room_id: str,
        *,
        expected_version: int | None,
        new_version: int,
        doc: str,
        stored_event: str = "",
        message: str = "",
        events_kept: int,
        ttl_seconds: int,
    ) -> CommitResult:
        """Write ``doc`` as ``new_version`` only if the room is still at ``expected_version``
        (``None``: create, only if absent); append the event and publish the message in the
        same atomic step."""
        keys = self.keys(room_id)
        result = await self._commit(
            keys=[keys.room, keys.events],
            args=[
                -1 if expected_version is None else expected_version,
                new_version,
                doc,
                stored_event,
                message,
                keys.channel,
                events_kept,
                ttl_seconds * 1000,
            ],
        )
        status, version = int(result[0]), int(result[1])
        return CommitResult(status == 1, version)

    async def events(self, room_id: str) -> list[str]:
        raw: list[Any] = await self.redis.lrange(self.keys(room_id).events, 0, -1)  # type: ignore[misc]
        return [item.decode() if isinstance(item, bytes) else item for item in raw]

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        keys = self.keys(room_id)
        return bool(await self._touch(keys=[keys.room, keys.events], args=[ttl_seconds * 1000]))

    async def publish(self, room_id: str, message: str) -> None:
        await self.redis.publish(self.keys(room_id).channel, message)

    # -- presence ------------------------------------------------------------------------

    async def claim_seat(self, room_id: str, seat: int, connection: str, ttl: float) -> None:
        await self.redis.set(self.keys(room_id).presence(seat), connection, px=int(ttl * 1000))

    async def refresh_seat(self, room_id: str, seat: int, connection: str, ttl: float) -> bool:
        key = self.keys(room_id).presence(seat)
        return bool(await self._refresh(keys=[key], args=[connection, int(ttl * 1000)]))

    async def release_seat(self, room_id: str, seat: int, connection: str) -> bool:
        key = self.keys(room_id).presence(seat)
        return bool(await self._release(keys=[key], args=[connection]))

    async def connected_seats(self, room_id: str) -> tuple[bool, bool]:
        keys = self.keys(room_id)
        first, second = await self.redis.mget([keys.presence(0), keys.presence(1)])
        return first is not None, second is not None

    # -- computer-turn lease -------------------------------------------------------------

    async def acquire_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self.redis.set(key, owner, nx=True, px=int(ttl * 1000)))

    async def refresh_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self._refresh(keys=[key], args=[owner, int(ttl * 1000)]))

    async def release_lease(self, room_id: str, owner: str) -> None:
        await self._release(keys=[self.keys(room_id).lease], args=[owner])

    async def lease_held(self, room_id: str) -> bool:
        return bool(await self.redis.exists(self.keys(room_id).lease))

    # -- rate limits -----------------------------------------------------------------------

    async def count_hit(self, bucket: str, subject: str, window_seconds: float) -> int:
        """Count one hit in a fixed window; returns the hits so far in this window."""
        key = rate_key(self.prefix, bucket, subject)
        return int(await self._rate(keys=[key], args=[int(window_seconds * 1000)]))

    async def ping(self) -> bool:
        return bool(await self.redis.ping())  # type: ignore[misc]
