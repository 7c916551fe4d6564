"""Rooms and their history in Redis (:class:`server.rooms.stores.RoomStore`).

A room is a hash (version, document, history epoch), the list of its current game's moves,
the list of its recent event messages, and its recent command ids with the move each played;
all its keys share the room's hash tag (:mod:`server.store.keys`), so one script commits a
change to all of them at once and publishes its events on the room's channel.
"""

from __future__ import annotations

import functools
import time

from redis.asyncio import Redis

from server.rooms.stores import (
    AppliedCommand,
    Commit,
    CommitResult,
    CommitStatus,
    StoredEvents,
    StoredRoom,
)
from server.store.direct_calls import DirectCalls
from server.store.frames import frame_head
from server.store.keys import RoomKeys
from server.store.redis_client import is_cluster
from server.store.scripts import LuaScript
from server.store.texts import text, texts

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
-- A list whose first item this commit pushed was created by it (and has no lifetime yet).
local created = {}
for i = 1, k do
  if redis.call('RPUSH', KEYS[2], ARGV[12 + n + i]) == 1 then created[2] = true end
end
for i = 1, n do
  if redis.call('RPUSH', KEYS[3], ARGV[12 + i]) == 1 then created[3] = true end
end
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
-- Lifetimes: rewritten for every key only when the room's has run down by a 64th (or is
-- wrong), else set on the keys this commit created; five expiries rewritten a move were a
-- third of what the append-only file and the replicas received. Only a key this commit
-- wrote can be new: the lists say so above, the command ids' keys are asked (a move
-- without an id asks nothing).
local ttl = tonumber(ARGV[6])
local left = redis.call('PTTL', KEYS[1])
local stale = (ttl > 0 and (left < 0 or ttl - left > ttl / 64)) or (ttl == 0 and left >= 0)
if ttl > 0 and not stale and ARGV[4] ~= '' then
  created[4] = redis.call('PTTL', KEYS[4]) == -1
  created[7] = redis.call('PTTL', KEYS[7]) == -1
end
for _, i in ipairs({1, 2, 3, 4, 7}) do
  if stale or (ttl > 0 and created[i]) then
    if ttl > 0 then redis.call('PEXPIRE', KEYS[i], ttl) else redis.call('PERSIST', KEYS[i]) end
  end
end
for i = 1, n do
  redis.call(ARGV[12], ARGV[8], ARGV[12 + n + k + i] .. ARGV[12 + i])
end
return {1, version}
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

_STATUS: dict[int, CommitStatus] = {
    1: "committed",
    0: "moved_on",
    -1: "gone",
    2: "duplicate",
    3: "absent",
}


@functools.lru_cache(maxsize=8192)
def _commit_keys(prefix: str, room_id: str, seat: int) -> tuple[tuple[str, ...], str]:
    """The keys of COMMIT_SCRIPT and the room's channel, named once per room and seat rather
    than formatted anew for every move."""
    keys = RoomKeys(prefix, room_id)
    named = (
        keys.room,
        keys.moves,
        keys.events,
        keys.move_ids,
        keys.presence(seat),
        keys.outbox,
        keys.move_id_moves,
    )
    return named, keys.channel


class RedisRoomStore:
    def __init__(self, redis: Redis, prefix: str, events_kept: int = 32) -> None:
        self.redis = redis
        self.prefix = prefix
        self.events_kept = events_kept
        # The scripts run on every move's path go straight to the server.
        self._direct = DirectCalls.of(redis)
        self._commit = LuaScript(redis, COMMIT_SCRIPT, self._direct)
        self._load = LuaScript(redis, LOAD_SCRIPT, self._direct)
        self._touch = LuaScript(redis, TOUCH_SCRIPT)
        self._events = LuaScript(redis, EVENTS_SCRIPT)
        self._command = LuaScript(redis, COMMAND_SCRIPT)
        self._publish_command = "SPUBLISH" if is_cluster(redis) else "PUBLISH"

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
        return StoredRoom(int(version), text(meta) or "", stored_epoch, texts(moves), start)

    async def version(self, room_id: str) -> int:
        """The room's version now (0: no such room)."""
        version = await self.redis.hget(self.keys(room_id).room, "version")  # type: ignore[misc]
        return int(version or 0)

    async def commit(self, room_id: str, commit: Commit) -> CommitResult:
        """Apply ``commit`` only if the room is still at its expected version (see
        COMMIT_SCRIPT): write the document and history, keep and publish the events."""
        history = {"keep": "", "append": "a", "rewrite": "r"}[commit.history]
        seat = commit.require_present
        # The script commits only at the expected version, so the events' versions are known.
        start = commit.expected_version or 0
        committed_ms = int(time.time() * 1000)
        heads = [
            frame_head("event", start + offset, committed_ms)
            for offset in range(1, len(commit.messages) + 1)
        ]
        keys, channel = _commit_keys(self.prefix, room_id, seat or 0)
        result = await self._commit(
            list(keys),
            [
                -1 if commit.expected_version is None else commit.expected_version,
                commit.meta or "",
                history,
                commit.command_id or "",
                "1" if seat is not None else "",
                commit.ttl_seconds * 1000,
                self.events_kept,
                channel,
                commit.outbox or "",
                len(commit.messages),
                len(commit.moves),
                self._publish_command,
                *commit.messages,
                *commit.moves,
                *heads,
            ],
        )
        played = text(result[2]) if len(result) > 2 else None
        return CommitResult(_STATUS[int(result[0])], int(result[1]), played)

    async def applied_command(self, room_id: str, command_id: str) -> AppliedCommand:
        """The room's version and the move ``command_id`` played, if it was applied."""
        keys = self.keys(room_id)
        version, move = await self._command([keys.room, keys.move_id_moves], [command_id])
        return AppliedCommand(int(version or 0), text(move))

    async def events_after(self, room_id: str, since: int) -> StoredEvents:
        """The room's version and the event messages it still keeps after version ``since``."""
        keys = self.keys(room_id)
        version, messages = await self._events([keys.room, keys.events], [since])
        return StoredEvents(int(version), texts(messages))

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        keys = self.keys(room_id)
        return bool(
            await self._touch(
                [keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves],
                [ttl_seconds * 1000],
            )
        )

    async def expires_in(self, room_id: str) -> float | None:
        left = int(await self.redis.pttl(self.keys(room_id).room))
        return None if left < 0 else left / 1000

    async def exist(self, room_ids: list[str]) -> list[bool]:
        keys = [self.keys(room_id).room for room_id in room_ids]
        if self._direct is not None:  # one write, replies read straight (presence rounds)
            found = await self._direct.pipeline([("EXISTS", key) for key in keys])
        else:
            pipe = self.redis.pipeline(transaction=False)
            for key in keys:
                pipe.exists(key)
            found = await pipe.execute()
        return [bool(one) for one in found]
