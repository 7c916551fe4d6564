"""Idle correspondence rooms leave Redis for the database, and come back on their next visit.

A correspondence room waits as long as its players need (it never expires), so on a site
that runs for years Redis would fill with games nobody plays any more. A room that never
expires and that nothing touched for ``idle_seconds`` (Redis's own idle time of its hash:
reads count, a visit, a hello, a presence round) goes to the database, as a snapshot of its
keys made by Lua (:data:`SNAPSHOT_SCRIPT`), and its keys leave Redis. Whatever asks for the
room next (a visit, a move, a websocket hello, on any process) finds it missing in Redis;
:class:`ColdAwareRoomStore` then puts the snapshot back (:data:`RESTORE_SCRIPT`) and asks
again: the same version, the same tokens, the same history and command ids.

One process sweeps at a time: a sweep first takes a short lease in Redis (``SET NX PX``
for most of the sweep interval), so N processes do one scan between them, not N.

Nothing is lost to a race: the snapshot is in the database before the keys go, and they
go only if the room is still at the snapshot's version with nobody connected
(:data:`DROP_SCRIPT`), so a move that comes in between keeps the room in Redis (the
snapshot is forgotten), and a move that comes after finds the room gone, brings it back
and is committed on it. Two processes bringing the same room back at once both find it:
the one that finds the database row gone asks Redis again.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import uuid
import zlib

from redis.asyncio import Redis
from sqlalchemy import Engine

from server.db.cold_rooms import cold_room, drop_cold_room, put_cold_room
from server.rooms.stores import (
    AppliedCommand,
    Commit,
    CommitResult,
    RoomStore,
    StoredEvents,
    StoredRoom,
)
from server.store.keys import RoomKeys
from server.store.scripts import LuaScript
from server.store.texts import text

log = logging.getLogger("tetrad.cold_rooms")

SCAN_BATCH = 200
PACKED = "z:"
"""The start of a compressed snapshot (zlib, base64)."""

# KEYS: room hash, moves, events, command ids, command moves, seat 0, seat 1, spectators,
# outbox, computer lease. ARGV: idle seconds. The room's version and its keys as JSON, if it
# never expires, was idle that long, and nobody is connected, no record waits in its outbox
# and no computer thinks for it (nothing here touches the keys' idle time); else false.
SNAPSHOT_SCRIPT = """
local idle = redis.call('OBJECT', 'IDLETIME', KEYS[1])
if not idle or idle < tonumber(ARGV[1]) then return false end
if redis.call('PTTL', KEYS[1]) ~= -1 then return false end
if redis.call('EXISTS', KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]) > 0 then return false end
return {redis.call('HGET', KEYS[1], 'version'), cjson.encode({
  room = redis.call('HGETALL', KEYS[1]),
  moves = redis.call('LRANGE', KEYS[2], 0, -1),
  events = redis.call('LRANGE', KEYS[3], 0, -1),
  mids = redis.call('ZRANGE', KEYS[4], 0, -1, 'WITHSCORES'),
  mid_moves = redis.call('HGETALL', KEYS[5])})}
"""

# KEYS: as SNAPSHOT_SCRIPT's. ARGV: the snapshot's version. Delete the room's keys if it is
# still at that version and nobody connected meanwhile: 1 deleted, 0 not (it moved on or
# someone is there), -1 no room (another process took it out first).
DROP_SCRIPT = """
local version = redis.call('HGET', KEYS[1], 'version')
if not version then return -1 end
if version ~= ARGV[1] then return 0 end
if redis.call('EXISTS', KEYS[6], KEYS[7], KEYS[8], KEYS[9], KEYS[10]) > 0 then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
"""

# KEYS: room hash, moves, events, command ids, command moves. ARGV: a snapshot. Put the
# room back as the snapshot has it, unless it is there already: 1 put back, 0 there.
RESTORE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local room = cjson.decode(ARGV[1])
redis.call('HSET', KEYS[1], unpack(room.room))
for _, move in ipairs(room.moves) do redis.call('RPUSH', KEYS[2], move) end
for _, event in ipairs(room.events) do redis.call('RPUSH', KEYS[3], event) end
for i = 1, #room.mids, 2 do redis.call('ZADD', KEYS[4], room.mids[i + 1], room.mids[i]) end
for i = 1, #room.mid_moves, 2 do
  redis.call('HSET', KEYS[5], room.mid_moves[i], room.mid_moves[i + 1])
end
return 1
"""


def pack(snapshot: str) -> str:
    """A snapshot as the database keeps it, compressed: its events and command moves repeat
    the same JSON shapes, and a room takes about a fifth of the space."""
    return PACKED + base64.b64encode(zlib.compress(snapshot.encode(), 6)).decode()


def unpack(kept: str) -> str:
    if kept.startswith(PACKED):
        return zlib.decompress(base64.b64decode(kept[len(PACKED) :])).decode()
    return kept


def _all_keys(keys: RoomKeys) -> list[str]:
    return [keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves,
            keys.presence(0), keys.presence(1), keys.spectators, keys.outbox,
            keys.lease]  # fmt: skip


def sweep_interval(idle_seconds: float) -> float:
    """How often to look for idle rooms: an eighth of the idle time, at most hourly."""
    return min(3600.0, max(0.5, idle_seconds / 8))


class ColdRooms:
    """Rooms between Redis and the database (see the module docstring)."""

    def __init__(self, redis: Redis, prefix: str, engine: Engine, idle_seconds: int) -> None:
        self.redis = redis
        self.prefix = prefix
        self.engine = engine
        self.idle_seconds = idle_seconds
        self._sweeper = uuid.uuid4().hex
        self._sweep_lease = f"{prefix}:cold-sweep"
        self.frozen = 0
        """Rooms this process moved to the database since start."""
        self.thawed = 0
        """Rooms this process brought back since start."""
        self._snapshot = LuaScript(redis, SNAPSHOT_SCRIPT)
        self._drop = LuaScript(redis, DROP_SCRIPT)
        self._restore = LuaScript(redis, RESTORE_SCRIPT)

    async def sweep(self) -> int:
        """Move every room idle long enough to the database, unless another process swept
        within most of the interval; how many moved."""
        lease_ms = max(1, int(sweep_interval(self.idle_seconds) * 900))
        if not await self.redis.set(self._sweep_lease, self._sweeper, nx=True, px=lease_ms):
            return 0
        moved = 0
        batch: list[str] = []
        pattern = f"{self.prefix}:{{*}}:room"
        async for key in self.redis.scan_iter(match=pattern, count=1000, _type="hash"):
            batch.append(text(key) or "")
            if len(batch) >= SCAN_BATCH:
                moved += await self._sweep_batch(batch)
                batch = []
        if batch:
            moved += await self._sweep_batch(batch)
        if moved:
            log.info("%d idle rooms moved to the database", moved, extra={"rooms": moved})
        return moved

    async def _sweep_batch(self, keys: list[str]) -> int:
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.object("idletime", key)
        idle = await pipe.execute()
        moved = 0
        for key, seconds in zip(keys, idle, strict=True):
            if seconds is not None and int(seconds) >= self.idle_seconds:
                room_id = key[key.index("{") + 1 : key.rindex("}")]
                moved += await self.freeze(room_id)
        return moved

    async def freeze(self, room_id: str) -> bool:
        """Move the room to the database if it is still idle, never expires and nobody is
        there; whether it moved."""
        keys = _all_keys(RoomKeys(self.prefix, room_id))
        found = await self._snapshot(keys, [self.idle_seconds])
        if not found:
            return False
        version, snapshot = int(found[0]), pack(text(found[1]) or "")
        await asyncio.to_thread(put_cold_room, self.engine, room_id, version, snapshot)
        dropped = int(await self._drop(keys, [version]))
        if dropped == 0:  # a move or a visitor came meanwhile: the room stays in Redis
            await asyncio.to_thread(drop_cold_room, self.engine, room_id, version)
            return False
        self.frozen += dropped == 1
        return dropped == 1

    async def thaw(self, room_id: str) -> bool:
        """Bring the room back from the database if it is there; whether Redis has it now
        (False: no such room, hot or cold)."""
        kept = await asyncio.to_thread(cold_room, self.engine, room_id)
        keys = RoomKeys(self.prefix, room_id)
        if kept is None:  # none kept, or another process has just brought it back
            return bool(await self.redis.exists(keys.room))
        version, snapshot = kept
        restored = int(
            await self._restore(
                [keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves],
                [unpack(snapshot)],
            )
        )
        await asyncio.to_thread(drop_cold_room, self.engine, room_id, version)
        if restored:
            self.thawed += 1
            log.info("room back from the database", extra={"room": room_id})
        return True


class ColdAwareRoomStore:
    """A :class:`~server.rooms.stores.RoomStore` in Redis whose rooms may be cold: a room
    Redis does not have is brought back from the database, then asked for again."""

    def __init__(self, hot: RoomStore, cold: ColdRooms) -> None:
        self.hot = hot
        self.cold = cold

    async def load(
        self, room_id: str, *, epoch: int | None = None, moves_from: int = 0
    ) -> StoredRoom | None:
        stored = await self.hot.load(room_id, epoch=epoch, moves_from=moves_from)
        if stored is None and await self.cold.thaw(room_id):
            return await self.hot.load(room_id)
        return stored

    async def version(self, room_id: str) -> int:
        version = await self.hot.version(room_id)
        if version == 0 and await self.cold.thaw(room_id):
            return await self.hot.version(room_id)
        return version

    async def commit(self, room_id: str, commit: Commit) -> CommitResult:
        result = await self.hot.commit(room_id, commit)
        if result.status == "gone" and await self.cold.thaw(room_id):
            return await self.hot.commit(room_id, commit)
        return result

    async def applied_command(self, room_id: str, command_id: str) -> AppliedCommand:
        applied = await self.hot.applied_command(room_id, command_id)
        if applied.version == 0 and await self.cold.thaw(room_id):
            return await self.hot.applied_command(room_id, command_id)
        return applied

    async def events_after(self, room_id: str, since: int) -> StoredEvents:
        events = await self.hot.events_after(room_id, since)
        if events.version == 0 and await self.cold.thaw(room_id):
            return await self.hot.events_after(room_id, since)
        return events

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        touched = await self.hot.touch(room_id, ttl_seconds)
        if not touched and await self.cold.thaw(room_id):
            return await self.hot.touch(room_id, ttl_seconds)
        return touched

    async def expires_in(self, room_id: str) -> float | None:
        return await self.hot.expires_in(room_id)

    async def exist(self, room_ids: list[str]) -> list[bool]:
        found = await self.hot.exist(room_ids)
        return [
            there or await self.cold.thaw(room_id)
            for room_id, there in zip(room_ids, found, strict=True)
        ]
