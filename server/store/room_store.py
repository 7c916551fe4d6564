"""Room storage in Redis: documents and move lists committed by compare-and-set together
with their versioned events, command ids and finished-game records; presence, the
computer-turn lease, rate-limit counters and pub/sub.

Documents, moves and events are opaque text here; the room repository owns their meaning.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import NoScriptError

from server.store.direct_calls import DirectCalls
from server.store.keys import RoomKeys, outbox_index, rate_key
from server.store.redis_client import is_cluster

# KEYS: room hash, moves, events, command ids (by version), a seat's presence key, outbox,
# command moves (command id -> the move it played).
# ARGV: 1 expected version (-1: create), 2 meta ('' unchanged), 3 history ('' keep, 'a'
# append, 'r' rewrite), 4 command id ('' none), 5 '1' if the presence key must exist,
# 6 ttl ms (0: never expire), 7 events kept, 8 channel, 9 outbox record ('' none),
# 10 n events, 11 k moves, 12 publish command (PUBLISH, or SPUBLISH on a cluster: the
# channel shares the room's slot), then n event messages, then k moves (a command's move is
# the last), then the n frame heads the events are published under
# (see frame_head: the versions they name are the ones this commit gives the events).
# Returns {1, version} committed; {0, version found}; {-1, 0} no room; {2, version now,
# the move the command id played}; {3, version} the presence key is missing.
COMMIT_SCRIPT = """
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '-1' then
  if current then return {0, tonumber(current)} end
  current = '0'
else
  if not current then return {-1, 0} end
  if ARGV[4] ~= '' then
    local played = redis.call('HGET', KEYS[7], ARGV[4])
    if played then return {2, tonumber(current), played} end
  end
  if current ~= ARGV[1] then return {0, tonumber(current)} end
end
if ARGV[5] == '1' and redis.call('EXISTS', KEYS[5]) == 0 then
  return {3, tonumber(current)}
end
local n = tonumber(ARGV[10])
local k = tonumber(ARGV[11])
local version = tonumber(current) + n
redis.call('HSET', KEYS[1], 'version', version)
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'meta', ARGV[2]) end
if ARGV[3] == 'r' then
  redis.call('DEL', KEYS[2])
  redis.call('HINCRBY', KEYS[1], 'epoch', 1)
end
for i = 1, k do redis.call('RPUSH', KEYS[2], ARGV[12 + n + i]) end
for i = 1, n do redis.call('RPUSH', KEYS[3], ARGV[12 + i]) end
redis.call('LTRIM', KEYS[3], -tonumber(ARGV[7]), -1)
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[4], version, ARGV[4])
  redis.call('HSET', KEYS[7], ARGV[4], ARGV[12 + n + k])
  local old = redis.call('ZRANGE', KEYS[4], 0, -129)
  if #old > 0 then
    redis.call('ZREMRANGEBYRANK', KEYS[4], 0, #old - 1)
    redis.call('HDEL', KEYS[7], unpack(old))
  end
end
if ARGV[9] ~= '' then redis.call('RPUSH', KEYS[6], ARGV[9]) end
local ttl = tonumber(ARGV[6])
for _, i in ipairs({1, 2, 3, 4, 7}) do
  if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
for i = 1, n do
  redis.call(ARGV[12], ARGV[8], ARGV[12 + n + k + i] .. ARGV[12 + i])
end
return {1, version}
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

# KEYS: room hash, moves, events, command ids, command moves. ARGV: ttl ms. Keep an active
# room alive.
TOUCH_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ttl = tonumber(ARGV[1])
for i = 1, 5 do
  if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
end
return 1
"""

# KEYS: room hash, moves. ARGV: first move wanted. The room's head and those moves, read
# together (a script rather than MULTI: redis-py runs a cluster's MULTI command by command
# on threads of their own, blocking the event loop).
LOAD_SCRIPT = """
return {redis.call('HMGET', KEYS[1], 'version', 'meta', 'epoch'),
        redis.call('LRANGE', KEYS[2], ARGV[1], -1)}
"""

# KEYS: room hash, events. ARGV: a version. The room's version (0: no room) and the events
# it keeps after that version, read together.
EVENTS_SCRIPT = """
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local missed = version - tonumber(ARGV[1])
local events = {}
if missed > 0 then events = redis.call('LRANGE', KEYS[2], -missed, -1) end
return {version, events}
"""

# KEYS: room hash, command moves. ARGV: command id. The room's version and the move the
# command id played, if it was applied (and is still remembered).
COMMAND_SCRIPT = """
return {redis.call('HGET', KEYS[1], 'version'), redis.call('HGET', KEYS[2], ARGV[1])}
"""

# KEYS: a counter. ARGV: window ms. Count a hit; the hits in this window and the ms left.
RATE_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
"""


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A room as stored: its version, document and history epoch, and its moves from
    ``moves_from`` on (all of them if the epoch is not the one asked about)."""

    version: int
    meta: str
    epoch: int
    moves: list[str]
    moves_from: int


@dataclass(frozen=True, slots=True)
class RoomPresence:
    connected: tuple[bool, bool] = (False, False)
    """Which seats have a live connection (presence keys)."""
    spectators: int = 0
    """How many spectator connections (on any process) watch the room."""
    ttl_ms: int | None = None
    """Time left before the room expires, in milliseconds; None if it never expires."""


@dataclass(frozen=True, slots=True)
class StoredEvents:
    """The room's version (0: no such room) and the event messages it keeps after a version
    (fewer than were made if the oldest are no longer kept), oldest first."""

    version: int
    messages: list[str]


@dataclass(frozen=True, slots=True)
class AppliedCommand:
    """The room's version now, and the move a command id played (None: not applied, or no
    longer remembered)."""

    version: int
    move: str | None


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits counted in a rate limit's window so far, and the seconds left in the window."""

    count: int
    retry_after: float


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


def frame_head(kind: str, version: int, committed_ms: int | None = None) -> str:
    """The head of a pub/sub message: ``kind:version:``, or ``event:version/ms:`` for an
    event stamped with its commit time. Readers route on the short head and forward the
    text after it untouched, without parsing a whole room state."""
    stamp = "" if committed_ms is None else f"/{committed_ms}"
    return f"{kind}:{version}{stamp}:"


def frame(kind: str, version: int, text: str) -> str:
    """A pub/sub message: its head and the JSON text."""
    return frame_head(kind, version) + text


@dataclass(frozen=True, slots=True)
class Frame:
    kind: str
    version: int
    text: str
    committed: float | None = None
    """When the event was committed (seconds since the epoch), if stamped."""


def parse_frame(data: bytes | str) -> Frame | None:
    text = data.decode() if isinstance(data, bytes) else data
    kind, _, rest = text.partition(":")
    head, _, body = rest.partition(":")
    version, _, stamp = head.partition("/")
    if kind not in FRAME_KINDS or not version.isdigit() or not (stamp or "0").isdigit():
        return None
    return Frame(kind, int(version), body, int(stamp) / 1000 if stamp else None)


def _now_ms() -> int:
    """Wall-clock milliseconds: spectator entries are scored by their expiry in this clock,
    shared by every process (hosts are expected to keep their clocks in sync)."""
    return int(time.time() * 1000)


def _text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def _texts(values: list[Any]) -> list[str]:
    return [value.decode() if isinstance(value, bytes) else value for value in values]


CommitStatus = Literal["committed", "moved_on", "gone", "duplicate", "absent"]
_STATUS: dict[int, CommitStatus] = {
    1: "committed",
    0: "moved_on",
    -1: "gone",
    2: "duplicate",
    3: "absent",
}


@dataclass(frozen=True, slots=True)
class CommitResult:
    status: CommitStatus
    version: int
    """committed: the new version; otherwise the version found (0: the room is gone)."""
    played: str | None = None
    """duplicate: the move the command id had played."""


@dataclass(frozen=True, slots=True)
class Commit:
    """One atomic change of a room (see COMMIT_SCRIPT)."""

    expected_version: int | None
    """None: create the room, only if it does not exist."""
    messages: list[str]
    """The event messages, one per new version, in order."""
    meta: str | None = None
    """The new room document, or None to keep it."""
    history: Literal["keep", "append", "rewrite"] = "keep"
    moves: list[str] = field(default_factory=list)
    """append: the moves to add; rewrite: the whole new move list."""
    command_id: str | None = None
    """A command id: the last of ``moves`` is the move it plays."""
    require_present: int | None = None
    """A seat whose presence key must exist at the instant of the commit."""
    outbox: str | None = None
    """A finished-game record to keep for the database."""
    ttl_seconds: int = 0


class LuaScript:
    """A Lua script run by EVALSHA, loaded on first NOSCRIPT.

    redis-py's own ``Script`` object checks ``isinstance(client, Pipeline)`` on every call,
    which goes through ``typing.Protocol`` machinery and cost more CPU than the rest of a
    move's Redis work together; this is the same protocol without that."""

    def __init__(self, redis: Redis, text: str, direct: DirectCalls | None = None) -> None:
        self.redis = redis
        self.text = text
        self.sha = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()
        self.direct = direct
        """Where the calls go when given (see :mod:`server.store.direct_calls`)."""

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._evalsha(keys, args)
        except NoScriptError:
            await self.load()
            return await self._evalsha(keys, args)

    async def _evalsha(self, keys: list[str], args: list[Any]) -> Any:
        if self.direct is not None:
            return await self.direct.execute("EVALSHA", self.sha, len(keys), *keys, *args)
        return await self.redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]

    def queue(self, pipe: Pipeline, keys: list[str], args: list[Any]) -> None:
        """Add a call to ``pipe`` (load the script first: see :meth:`load`)."""
        pipe.evalsha(self.sha, len(keys), *keys, *args)

    async def load(self) -> None:
        await self.redis.script_load(self.text)


class RoomStore:
    """The one small interface between the room service and Redis."""

    def __init__(self, redis: Redis, prefix: str, events_kept: int = 32) -> None:
        self.redis = redis
        self.prefix = prefix
        self.events_kept = events_kept
        # The scripts run on every move's path go straight to the server.
        self._direct = DirectCalls.of(redis)
        self._commit = LuaScript(redis, COMMIT_SCRIPT, self._direct)
        self._refresh = LuaScript(redis, REFRESH_SCRIPT)
        self._release = LuaScript(redis, RELEASE_SCRIPT)
        self._touch = LuaScript(redis, TOUCH_SCRIPT)
        self._rate = LuaScript(redis, RATE_SCRIPT)
        self._load = LuaScript(redis, LOAD_SCRIPT, self._direct)
        self._events = LuaScript(redis, EVENTS_SCRIPT)
        self._command = LuaScript(redis, COMMAND_SCRIPT)
        self.cluster = is_cluster(redis)
        self._publish_command = "SPUBLISH" if self.cluster else "PUBLISH"

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self.prefix, room_id)

    async def aclose(self) -> None:
        """Close the store's own connections (the client is closed by its owner)."""
        if self._direct is not None:
            await self._direct.aclose()

    async def load(
        self, room_id: str, *, epoch: int | None = None, moves_from: int = 0
    ) -> StoredRoom | None:
        """The room, atomically: version, document, epoch and the moves from ``moves_from`` on
        if the history epoch is still ``epoch`` (else all moves, in a second round trip)."""
        keys = self.keys(room_id)
        start = moves_from if epoch is not None else 0
        head, moves = await self._load([keys.room, keys.moves], [start])
        version, meta, found_epoch = head
        if version is None or meta is None:
            return None
        stored_epoch = int(found_epoch or 0)
        if start and stored_epoch != epoch:
            return await self.load(room_id)
        return StoredRoom(int(version), _text(meta) or "", stored_epoch, _texts(moves), start)

    async def presence(self, room_id: str) -> RoomPresence:
        """Who is connected, how many watch and the room's time to live, in one round trip.
        Expired spectator entries are not counted (the presence round deletes them)."""
        keys = self.keys(room_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(keys.presence(0))  # not MGET: a cluster pipeline refuses it
        pipe.get(keys.presence(1))
        pipe.zcount(keys.spectators, f"({_now_ms()}", "+inf")
        pipe.pttl(keys.room)
        first, second, watching, ttl = await pipe.execute()
        return RoomPresence(
            (first is not None, second is not None),
            int(watching),
            int(ttl) if int(ttl) >= 0 else None,
        )

    async def version(self, room_id: str) -> int:
        """The room's version now (0: no such room)."""
        version = await self.redis.hget(self.keys(room_id).room, "version")  # type: ignore[misc]
        return int(version or 0)

    async def commit(self, room_id: str, commit: Commit) -> CommitResult:
        """Apply ``commit`` only if the room is still at its expected version (see
        COMMIT_SCRIPT): write the document and history, keep and publish the events."""
        keys = self.keys(room_id)
        history = {"keep": "", "append": "a", "rewrite": "r"}[commit.history]
        seat = commit.require_present
        # The script commits only at the expected version, so the events' versions are known.
        start = commit.expected_version or 0
        committed_ms = int(time.time() * 1000)
        heads = [
            frame_head("event", start + offset, committed_ms)
            for offset in range(1, len(commit.messages) + 1)
        ]
        result = await self._commit(
            [
                keys.room,
                keys.moves,
                keys.events,
                keys.move_ids,
                keys.presence(seat or 0),
                keys.outbox,
                keys.move_id_moves,
            ],
            [
                -1 if commit.expected_version is None else commit.expected_version,
                commit.meta or "",
                history,
                commit.command_id or "",
                "1" if seat is not None else "",
                commit.ttl_seconds * 1000,
                self.events_kept,
                keys.channel,
                commit.outbox or "",
                len(commit.messages),
                len(commit.moves),
                self._publish_command,
                *commit.messages,
                *commit.moves,
                *heads,
            ],
        )
        played = _text(result[2]) if len(result) > 2 else None
        return CommitResult(_STATUS[int(result[0])], int(result[1]), played)

    async def applied_command(self, room_id: str, command_id: str) -> AppliedCommand:
        """The room's version and the move ``command_id`` played, if it was applied."""
        keys = self.keys(room_id)
        version, move = await self._command([keys.room, keys.move_id_moves], [command_id])
        return AppliedCommand(int(version or 0), _text(move))

    async def events_after(self, room_id: str, since: int) -> StoredEvents:
        """The room's version and the event messages it still keeps after version ``since``."""
        keys = self.keys(room_id)
        version, messages = await self._events([keys.room, keys.events], [since])
        return StoredEvents(int(version), _texts(messages))

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        keys = self.keys(room_id)
        return bool(
            await self._touch(
                [keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves],
                [ttl_seconds * 1000],
            )
        )

    async def publish(self, room_id: str, kind: str, version: int, message: str) -> None:
        channel, text = self.keys(room_id).channel, frame(kind, version, message)
        if self.cluster:
            await self.redis.execute_command("SPUBLISH", channel, text)  # type: ignore[no-untyped-call]
        else:
            await self.redis.publish(channel, text)

    # -- presence ------------------------------------------------------------------------

    async def claim_seat(self, room_id: str, seat: int, connection: str, ttl: float) -> None:
        await self.redis.set(self.keys(room_id).presence(seat), connection, px=int(ttl * 1000))

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

    async def presence_round(self, queries: list[PresenceQuery]) -> list[PresenceAnswer]:
        """Refresh the seats and spectators this process holds in many rooms and read who
        holds each seat, how many watch (expired spectators pruned), whether each room still
        exists and (if asked) its computer lease: one round trip."""
        if not queries:
            return []
        try:
            results, refreshes = await self._presence_pipeline(queries)
        except NoScriptError:  # Redis restarted (or flushed its scripts) since we loaded it
            await self._refresh.load()
            results, refreshes = await self._presence_pipeline(queries)
        answers = []
        for query in queries:
            refreshed = [bool(next(refreshes)) for _ in query.seats]
            first, second = next(results), next(results)
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

    async def _presence_pipeline(
        self, queries: list[PresenceQuery]
    ) -> tuple[Iterator[Any], Iterator[Any]]:
        """The round's replies, and the seat refreshes' (the same iterator on one server: a
        pipeline of everything; on a cluster, whose pipelines take no scripts, the
        refreshes run beside the pipeline, each a script in its room's slot)."""
        pipe = self.redis.pipeline(transaction=False)
        separate: list[Awaitable[Any]] = []
        now = _now_ms()
        for query in queries:
            keys = self.keys(query.room_id)
            for seat, connection in query.seats:
                refresh = ([keys.presence(seat)], [connection, int(query.ttl * 1000)])
                if self.cluster:
                    separate.append(self._refresh(*refresh))
                else:
                    self._refresh.queue(pipe, *refresh)
            pipe.get(keys.presence(0))
            pipe.get(keys.presence(1))
            pipe.exists(keys.room)
            if query.lease:
                pipe.exists(keys.lease)
            ttl_ms = int(query.ttl * 1000)
            if query.spectators:
                pipe.zadd(keys.spectators, dict.fromkeys(query.spectators, now + ttl_ms))
                pipe.pexpire(keys.spectators, ttl_ms)
            pipe.zremrangebyscore(keys.spectators, "-inf", now)
            pipe.zcard(keys.spectators)
        if not self.cluster:
            results = iter(await pipe.execute())
            return results, results
        replies, *refreshed = await asyncio.gather(pipe.execute(), *separate)
        return iter(replies), iter(refreshed)

    # -- finished games waiting for the database -----------------------------------------

    async def mark_outbox(self, room_id: str) -> None:
        """Note that ``room_id``'s outbox holds records (after a commit that added one)."""
        await self.redis.sadd(outbox_index(self.prefix), room_id)  # type: ignore[misc]

    async def outbox_rooms(self) -> list[str]:
        """The rooms noted as holding records."""
        members = await self.redis.smembers(outbox_index(self.prefix))  # type: ignore[misc]
        return sorted(_texts(list(members)))

    async def sweep_outboxes(self) -> list[str]:
        """Every room whose outbox holds records, found by scanning the keys (slow; a backstop
        for a process that died between a commit and :meth:`mark_outbox`)."""
        pattern = f"{self.prefix}:{{*}}:outbox"
        found = []
        async for key in self.redis.scan_iter(match=pattern, count=1000):
            name = _text(key) or ""
            found.append(name[len(self.prefix) + 2 : -len("}:outbox")])
        return sorted(found)

    async def outbox_records(self, room_id: str, limit: int = 100) -> list[str]:
        items = await self.redis.lrange(self.keys(room_id).outbox, 0, limit - 1)  # type: ignore[misc]
        return _texts(items)

    async def outbox_done(self, room_id: str, records: list[str]) -> None:
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
                await self.mark_outbox(room_id)

    # -- computer-turn lease -------------------------------------------------------------

    async def acquire_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self.redis.set(key, owner, nx=True, px=int(ttl * 1000)))

    async def refresh_lease(self, room_id: str, owner: str, ttl: float) -> bool:
        key = self.keys(room_id).lease
        return bool(await self._refresh([key], [owner, int(ttl * 1000)]))

    async def release_lease(self, room_id: str, owner: str) -> None:
        await self._release([self.keys(room_id).lease], [owner])

    # -- rate limits -----------------------------------------------------------------------

    async def count_hit(self, bucket: str, subject: str, window_seconds: float) -> Hits:
        """Count one hit in a fixed window: the hits so far in it and the time it has left."""
        key = rate_key(self.prefix, bucket, subject)
        count, left_ms = await self._rate([key], [int(window_seconds * 1000)])
        return Hits(int(count), max(0, int(left_ms)) / 1000)

    async def ping(self) -> bool:
        return bool(await self.redis.ping())  # type: ignore[misc]
