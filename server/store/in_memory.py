"""The stores of :mod:`server.rooms.stores` kept in this process's memory.

They do what the Redis stores do — a commit at the expected version or nothing, events kept
and published, command ids remembered with their moves, slots and leases that expire,
counters per window — for the room service's tests, which then need neither Redis nor a
second process. One :class:`MemoryData` backs all of them, as one Redis backs the others:
a commit checks a presence slot and fills an outbox in the same step.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from server.rooms.stores import (
    AppliedCommand,
    Commit,
    CommitResult,
    Hits,
    PresenceAnswer,
    PresenceQuery,
    RoomPresence,
    SpectatorsCounted,
    StoredEvents,
    StoredRoom,
    Stores,
)
from server.store.frames import frame, frame_head

COMMAND_IDS_KEPT = 128


@dataclass
class _Room:
    version: int
    meta: str
    epoch: int = 0
    moves: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    commands: dict[str, tuple[int, str]] = field(default_factory=dict)
    expires_at: float | None = None


@dataclass
class MemoryData:
    """Everything the in-memory stores hold, and the clock their expiries follow."""

    clock: Callable[[], float] = time.time
    rooms: dict[str, _Room] = field(default_factory=dict)
    slots: dict[tuple[str, int], tuple[str, float]] = field(default_factory=dict)
    spectators: dict[str, dict[str, float]] = field(default_factory=dict)
    outboxes: dict[str, list[str]] = field(default_factory=dict)
    outbox_index: set[str] = field(default_factory=set)
    leases: dict[str, tuple[str, float]] = field(default_factory=dict)
    counters: dict[str, tuple[int, float]] = field(default_factory=dict)
    published: list[tuple[str, str]] = field(default_factory=list)
    """Every message published, as (room, frame), oldest first."""

    def room(self, room_id: str) -> _Room | None:
        found = self.rooms.get(room_id)
        if found is not None and found.expires_at is not None and found.expires_at <= self.clock():
            del self.rooms[room_id]
            return None
        return found

    def holder(self, room_id: str, slot: int) -> str | None:
        held = self.slots.get((room_id, slot))
        if held is None or held[1] <= self.clock():
            self.slots.pop((room_id, slot), None)
            return None
        return held[0]


class MemoryRoomStore:
    def __init__(self, data: MemoryData, events_kept: int = 32) -> None:
        self.data = data
        self.events_kept = events_kept

    async def load(
        self, room_id: str, *, epoch: int | None = None, moves_from: int = 0
    ) -> StoredRoom | None:
        room = self.data.room(room_id)
        if room is None:
            return None
        start = moves_from if epoch is not None and epoch == room.epoch else 0
        return StoredRoom(room.version, room.meta, room.epoch, room.moves[start:], start)

    async def version(self, room_id: str) -> int:
        room = self.data.room(room_id)
        return 0 if room is None else room.version

    async def commit(self, room_id: str, commit: Commit) -> CommitResult:
        data = self.data
        room = data.room(room_id)
        if commit.expected_version is None:
            if room is not None:
                return CommitResult("moved_on", room.version)
            room = _Room(0, "")
        else:
            if room is None:
                return CommitResult("gone", 0)
            if commit.command_id is not None and commit.command_id in room.commands:
                return CommitResult("duplicate", room.version, room.commands[commit.command_id][1])
            if room.version != commit.expected_version:
                return CommitResult("moved_on", room.version)
        slot = commit.require_present
        if slot is not None and data.holder(room_id, slot) is None:
            return CommitResult("absent", room.version)
        start = room.version
        room.version += len(commit.messages)
        if commit.meta is not None:
            room.meta = commit.meta
        if commit.history == "rewrite":
            room.moves = []
            room.epoch += 1
        room.moves += commit.moves
        room.events = (room.events + commit.messages)[-self.events_kept :]
        if commit.command_id is not None:
            room.commands[commit.command_id] = (room.version, commit.moves[-1])
            while len(room.commands) > COMMAND_IDS_KEPT:
                del room.commands[next(iter(room.commands))]
        if commit.outbox is not None:
            data.outboxes.setdefault(room_id, []).append(commit.outbox)
        room.expires_at = data.clock() + commit.ttl_seconds if commit.ttl_seconds else None
        data.rooms[room_id] = room
        committed_ms = int(data.clock() * 1000)
        for offset, message in enumerate(commit.messages, start=1):
            data.published.append(
                (room_id, frame_head("event", start + offset, committed_ms) + message)
            )
        return CommitResult("committed", room.version)

    async def applied_command(self, room_id: str, command_id: str) -> AppliedCommand:
        room = self.data.room(room_id)
        if room is None:
            return AppliedCommand(0, None)
        applied = room.commands.get(command_id)
        return AppliedCommand(room.version, None if applied is None else applied[1])

    async def events_after(self, room_id: str, since: int) -> StoredEvents:
        room = self.data.room(room_id)
        if room is None:
            return StoredEvents(0, [])
        missed = room.version - since
        return StoredEvents(room.version, room.events[-missed:] if missed > 0 else [])

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        room = self.data.room(room_id)
        if room is None:
            return False
        room.expires_at = self.data.clock() + ttl_seconds if ttl_seconds else None
        return True

    async def expires_in(self, room_id: str) -> float | None:
        room = self.data.room(room_id)
        if room is None or room.expires_at is None:
            return None
        return max(0.0, room.expires_at - self.data.clock())

    async def exist(self, room_ids: list[str]) -> list[bool]:
        return [self.data.room(room_id) is not None for room_id in room_ids]


class MemoryPresenceStore:
    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def claim(self, room_id: str, slot: int, connection: str, ttl: float) -> None:
        self.data.slots[(room_id, slot)] = (connection, self.data.clock() + ttl)

    async def release(self, room_id: str, slot: int, connection: str) -> bool:
        if self.data.holder(room_id, slot) != connection:
            return False
        del self.data.slots[(room_id, slot)]
        return True

    async def add_spectators(
        self, room_id: str, connections: list[str], ttl: float
    ) -> SpectatorsCounted:
        watching = self.data.spectators.setdefault(room_id, {})
        for connection in connections:
            watching[connection] = self.data.clock() + ttl
        room = self.data.room(room_id)
        version = 0 if room is None else room.version
        expires_in = None
        if room is not None and room.expires_at is not None:
            expires_in = max(0.0, room.expires_at - self.data.clock())
        return SpectatorsCounted(await self.read(room_id), version, expires_in)

    async def remove_spectators(self, room_id: str, connections: list[str]) -> int:
        watching = self.data.spectators.get(room_id, {})
        return sum(watching.pop(connection, None) is not None for connection in connections)

    def _watching(self, room_id: str) -> int:
        now = self.data.clock()
        watching = self.data.spectators.get(room_id, {})
        for connection in [c for c, until in watching.items() if until <= now]:
            del watching[connection]
        return len(watching)

    async def read(self, room_id: str) -> RoomPresence:
        held = (self.data.holder(room_id, 0) is not None, self.data.holder(room_id, 1) is not None)
        return RoomPresence(held, self._watching(room_id))

    async def round(self, queries: list[PresenceQuery]) -> list[PresenceAnswer]:
        answers = []
        for query in queries:
            refreshed = []
            for slot, connection in query.slots:
                still = self.data.holder(query.room_id, slot) == connection
                if still:
                    await self.claim(query.room_id, slot, connection, query.ttl)
                refreshed.append(still)
            watching = self.data.spectators.setdefault(query.room_id, {})
            for connection in query.spectators:
                watching[connection] = self.data.clock() + query.ttl
            holders = (self.data.holder(query.room_id, 0), self.data.holder(query.room_id, 1))
            answers.append(PresenceAnswer(refreshed, holders, self._watching(query.room_id)))
        return answers

    async def publish(self, room_id: str, kind: str, version: int, text: str) -> None:
        self.data.published.append((room_id, frame(kind, version, text)))


class MemoryOutboxStore:
    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def mark(self, room_id: str) -> None:
        self.data.outbox_index.add(room_id)

    async def rooms(self) -> list[str]:
        return sorted(self.data.outbox_index)

    async def sweep(self) -> list[str]:
        return sorted(room for room, records in self.data.outboxes.items() if records)

    async def records(self, room_id: str, limit: int = 100) -> list[str]:
        return self.data.outboxes.get(room_id, [])[:limit]

    async def done(self, room_id: str, records: list[str]) -> None:
        waiting = self.data.outboxes.get(room_id, [])
        for record in records:
            if record in waiting:
                waiting.remove(record)
        if not waiting:
            self.data.outbox_index.discard(room_id)


class MemoryLeaseStore:
    def __init__(self, data: MemoryData) -> None:
        self.data = data

    def _holder(self, room_id: str) -> str | None:
        held = self.data.leases.get(room_id)
        if held is None or held[1] <= self.data.clock():
            self.data.leases.pop(room_id, None)
            return None
        return held[0]

    async def acquire(self, room_id: str, owner: str, ttl: float) -> bool:
        if self._holder(room_id) is not None:
            return False
        self.data.leases[room_id] = (owner, self.data.clock() + ttl)
        return True

    async def refresh(self, room_id: str, owner: str, ttl: float) -> bool:
        if self._holder(room_id) != owner:
            return False
        self.data.leases[room_id] = (owner, self.data.clock() + ttl)
        return True

    async def release(self, room_id: str, owner: str) -> None:
        if self._holder(room_id) == owner:
            del self.data.leases[room_id]

    async def held(self, room_ids: list[str]) -> list[bool]:
        return [self._holder(room_id) is not None for room_id in room_ids]


class MemoryLimitStore:
    def __init__(self, data: MemoryData) -> None:
        self.data = data

    async def hit(self, bucket: str, subject: str, window_seconds: float) -> Hits:
        key, now = f"{bucket}:{subject}", self.data.clock()
        count, ends = self.data.counters.get(key, (0, now + window_seconds))
        if ends <= now:
            count, ends = 0, now + window_seconds
        self.data.counters[key] = (count + 1, ends)
        return Hits(count + 1, ends - now)


def memory_stores(data: MemoryData | None = None, events_kept: int = 32) -> Stores:
    """Stores of every concern over one :class:`MemoryData` (a new one if none is given)."""
    data = data or MemoryData()
    return Stores(
        rooms=MemoryRoomStore(data, events_kept),
        presence=MemoryPresenceStore(data),
        outbox=MemoryOutboxStore(data),
        leases=MemoryLeaseStore(data),
        limits=MemoryLimitStore(data),
    )
