"""Room storage in Redis: documents committed by compare-and-set, versioned events,
presence, the computer-turn lease, rate-limit counters and pub/sub.

The room document is opaque JSON here; the room service owns its meaning.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import NoScriptError

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
    connected: tuple[bool, bool] = (False, False)
    """Which seats have a live connection (presence keys), read in the same round trip."""
    ttl_ms: int | None = None
    """Time left before the room expires, in milliseconds; None if it never expires."""
    spectators: int = 0
    """How many spectator connections (on any process) watch the room."""


@dataclass(frozen=True, slots=True)
class PresenceQuery:
    """One room in a presence round: the seats this process holds, by connection id, and
    the spectator connections it holds."""

    room_id: str
    seats: list[tuple[int, str]]
    ttl: float
    lease: bool = False
    spectators: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PresenceAnswer:
    exists: bool
    refreshed: list[bool]
    holders: tuple[str | None, str | None]
    lease_held: bool
    spectators: int = 0
    """Spectators of the room on every process, expired entries pruned."""


FRAME_KINDS = ("event", "presence", "control")


def frame(kind: str, version: int, text: str) -> str:
    """A pub/sub message: ``kind:version:`` and the JSON text. Readers route on the short
    head and forward the text untouched, without parsing a whole room state."""
    return f"{kind}:{version}:{text}"


def parse_frame(data: bytes | str) -> tuple[str, int, str] | None:
    text = data.decode() if isinstance(data, bytes) else data
    kind, _, rest = text.partition(":")
    version, _, body = rest.partition(":")
    if kind not in FRAME_KINDS or not version.isdigit():
        return None
    return kind, int(version), body


def _now_ms() -> int:
    """Wall-clock milliseconds: spectator entries are scored by their expiry in this clock,
    shared by every process (hosts are expected to keep their clocks in sync)."""
    return int(time.time() * 1000)


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


@dataclass(frozen=True, slots=True)
class CommitResult:
    committed: bool
    version: int
    """The new version if committed, else the version found (0: the room is gone)."""


class LuaScript:
    """A Lua script run by EVALSHA, loaded on first NOSCRIPT.

    redis-py's own ``Script`` object checks ``isinstance(client, Pipeline)`` on every call,
    which goes through ``typing.Protocol`` machinery and cost more CPU than the rest of a
    move's Redis work together; this is the same protocol without that."""

    def __init__(self, redis: Redis, text: str) -> None:
        self.redis = redis
        self.text = text
        self.sha = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self.redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]
        except NoScriptError:
            await self.load()
            return await self.redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]

    def queue(self, pipe: Pipeline, keys: list[str], args: list[Any]) -> None:
        """Add a call to ``pipe`` (load the script first: see :meth:`load`)."""
        pipe.evalsha(self.sha, len(keys), *keys, *args)

    async def load(self) -> None:
        await self.redis.script_load(self.text)


class RoomStore:
    """The one small interface between the room service and Redis."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._commit = LuaScript(redis, COMMIT_SCRIPT)
        self._refresh = LuaScript(redis, REFRESH_SCRIPT)
        self._release = LuaScript(redis, RELEASE_SCRIPT)
        self._touch = LuaScript(redis, TOUCH_SCRIPT)
        self._rate = LuaScript(redis, RATE_SCRIPT)

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self.prefix, room_id)

    async def load(self, room_id: str) -> StoredRoom | None:
        """The room, who is connected, how many watch and its time to live, in one round
        trip. Expired spectator entries are not counted (the presence round deletes them)."""
        keys = self.keys(room_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(keys.room, ["version", "doc"])
        pipe.mget([keys.presence(0), keys.presence(1)])
        pipe.pttl(keys.room)
        pipe.zcount(keys.spectators, f"({_now_ms()}", "+inf")
        (version, doc), (first, second), ttl, watching = await pipe.execute()
        if version is None or doc is None:
            return None
        return StoredRoom(
            int(version),
            _text(doc) or "",
            (first is not None, second is not None),
            int(ttl) if int(ttl) >= 0 else None,
            int(watching),
        )

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
            [keys.room, keys.events],
            [
                -1 if expected_version is None else expected_version,
                new_version,
                doc,
                stored_event,
                frame("event", new_version, message) if message else "",
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
        return bool(await self._touch([keys.room, keys.events], [ttl_seconds * 1000]))

    async def publish(self, room_id: str, kind: str, version: int, message: str) -> None:
        await self.redis.publish(self.keys(room_id).channel, frame(kind, version, message))

    # -- presence ------------------------------------------------------------------------

    async def claim_seat(self, room_id: str, seat: int, connection: str, ttl: float) -> None:
        await self.redis.set(self.keys(room_id).presence(seat), connection, px=int(ttl * 1000))

    async def refresh_seat(self, room_id: str, seat: int, connection: str, ttl: float) -> bool:
        key = self.keys(room_id).presence(seat)
        return bool(await self._refresh([key], [connection, int(ttl * 1000)]))

    async def release_seat(self, room_id: str, seat: int, connection: str) -> bool:
        key = self.keys(room_id).presence(seat)
        return bool(await self._release([key], [connection]))

    async def add_spectator(self, room_id: str, connection: str, ttl: float) -> None:
        """Count ``connection`` as a spectator until ``ttl`` seconds from now (refreshed by
        the presence round of the process holding it)."""
        key = self.keys(room_id).spectators
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(key, {connection: _now_ms() + int(ttl * 1000)})
        pipe.pexpire(key, int(ttl * 1000))
        await pipe.execute()

    async def remove_spectator(self, room_id: str, connection: str) -> bool:
        return bool(await self.redis.zrem(self.keys(room_id).spectators, connection))

    async def spectator_count(self, room_id: str) -> int:
        key = self.keys(room_id).spectators
        return int(await self.redis.zcount(key, f"({_now_ms()}", "+inf"))

    async def connected_seats(self, room_id: str) -> tuple[bool, bool]:
        keys = self.keys(room_id)
        first, second = await self.redis.mget([keys.presence(0), keys.presence(1)])
        return first is not None, second is not None

    async def presence_round(self, queries: list[PresenceQuery]) -> list[PresenceAnswer]:
        """Refresh the seats and spectators this process holds in many rooms and read who
        holds each seat, how many watch (expired spectators pruned), whether each room still
        exists and (if asked) its computer lease: one round trip."""
        if not queries:
            return []
        try:
            results = await self._presence_pipeline(queries)
        except NoScriptError:  # Redis restarted (or flushed its scripts) since we loaded it
            await self._refresh.load()
            results = await self._presence_pipeline(queries)
        answers = []
        for query in queries:
            refreshed = [bool(next(results)) for _ in query.seats]
            first, second = next(results)
            exists = bool(next(results))
            lease = bool(next(results)) if query.lease else False
            if query.spectators:
                next(results)  # ZADD
                next(results)  # PEXPIRE
            next(results)  # ZREMRANGEBYSCORE
            watching = int(next(results))
            answers.append(
                PresenceAnswer(exists, refreshed, (_text(first), _text(second)), lease, watching)
            )
        return answers

    async def _presence_pipeline(self, queries: list[PresenceQuery]) -> Iterator[Any]:
        pipe = self.redis.pipeline(transaction=False)
        now = _now_ms()
        for query in queries:
            keys = self.keys(query.room_id)
            for seat, connection in query.seats:
                self._refresh.queue(
                    pipe, [keys.presence(seat)], [connection, int(query.ttl * 1000)]
                )
            pipe.mget([keys.presence(0), keys.presence(1)])
            pipe.exists(keys.room)
            if query.lease:
                pipe.exists(keys.lease)
            ttl_ms = int(query.ttl * 1000)
            if query.spectators:
                pipe.zadd(keys.spectators, dict.fromkeys(query.spectators, now + ttl_ms))
                pipe.pexpire(keys.spectators, ttl_ms)
            pipe.zremrangebyscore(keys.spectators, "-inf", now)
            pipe.zcard(keys.spectators)
        return iter(await pipe.execute())

    # -- computer-turn lease -------------------------------------------------------------

    async def acquire_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self.redis.set(key, owner, nx=True, px=int(ttl * 1000)))

    async def refresh_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self._refresh([key], [owner, int(ttl * 1000)]))

    async def release_lease(self, room_id: str, owner: str) -> None:
        await self._release([self.keys(room_id).lease], [owner])

    async def lease_held(self, room_id: str) -> bool:
        return bool(await self.redis.exists(self.keys(room_id).lease))

    # -- rate limits -----------------------------------------------------------------------

    async def count_hit(self, bucket: str, subject: str, window_seconds: float) -> int:
        """Count one hit in a fixed window; returns the hits so far in this window."""
        key = rate_key(self.prefix, bucket, subject)
        return int(await self._rate([key], [int(window_seconds * 1000)]))

    async def ping(self) -> bool:
        return bool(await self.redis.ping())  # type: ignore[misc]
