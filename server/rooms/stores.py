"""What the room service needs of storage: one small interface per concern.

* :class:`RoomStore` — rooms and their history: a room's document and moves, committed by
  compare-and-set together with its versioned events (kept for catching up, and published
  to every process), its command ids and a finished game's record.
* :class:`PresenceStore` — who holds each seat's connection now, how many watch, and the
  room messages that are not events (presence, takeovers).
* :class:`OutboxStore` — finished games waiting to be written to the database.
* :class:`LeaseStore` — which process is thinking for a room's computer seat.
* :class:`LimitStore` — counters of rate limits.

The service receives them at construction (:class:`Stores`); :mod:`server.store` holds the
Redis implementation that runs in production and :mod:`server.store.in_memory` the one that
the service's tests use. Nothing outside :mod:`server.rooms` talks to a store. Documents,
moves and events are opaque text here: the room repository owns their meaning.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol


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


CommitStatus = Literal["committed", "moved_on", "gone", "duplicate", "absent"]


@dataclass(frozen=True, slots=True)
class CommitResult:
    status: CommitStatus
    version: int
    """committed: the new version; otherwise the version found (0: the room is gone)."""
    played: str | None = None
    """duplicate: the move the command id had played."""


@dataclass(frozen=True, slots=True)
class Commit:
    """One atomic change of a room."""

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
    """A presence slot that must be held at the instant of the commit (live rooms)."""
    outbox: str | None = None
    """A finished-game record to keep for the database."""
    ttl_seconds: int = 0


class RoomStore(Protocol):
    async def load(
        self, room_id: str, *, epoch: int | None = None, moves_from: int = 0
    ) -> StoredRoom | None:
        """The room, atomically: version, document, epoch and the moves from ``moves_from``
        on if the history epoch is still ``epoch`` (else all moves)."""

    async def version(self, room_id: str) -> int:
        """The room's version now (0: no such room)."""

    async def commit(self, room_id: str, commit: Commit) -> CommitResult:
        """Apply ``commit`` only if the room is still at its expected version: write the
        document and history, keep and publish the events, remember the command id, keep the
        finished game's record (with the room's outbox, see :class:`OutboxStore`)."""

    async def applied_command(self, room_id: str, command_id: str) -> AppliedCommand:
        """The room's version and the move ``command_id`` played, if it was applied."""

    async def events_after(self, room_id: str, since: int) -> StoredEvents:
        """The room's version and the event messages it still keeps after ``since``."""

    async def touch(self, room_id: str, ttl_seconds: int) -> bool:
        """Start the room's time to live again (0: it never expires); False if it is gone."""

    async def expires_in(self, room_id: str) -> float | None:
        """Seconds before the room is deleted unless something happens; None: never."""

    async def exist(self, room_ids: list[str]) -> list[bool]:
        """Which of the rooms still exist."""


@dataclass(frozen=True, slots=True)
class RoomPresence:
    connected: tuple[bool, bool] = (False, False)
    """Which presence slots are held by a live connection."""
    spectators: int = 0
    """How many spectator connections (on any process) watch the room."""


@dataclass(frozen=True, slots=True)
class SpectatorsCounted:
    """A room as read in the same round trip as the spectators just counted in."""

    presence: RoomPresence
    """Who is connected and how many watch, those just counted included."""
    version: int
    """The room's version (0: no such room)."""
    expires_in: float | None
    """Seconds before the room is deleted unless something happens; None: never."""


@dataclass(frozen=True, slots=True)
class PresenceQuery:
    """One room in a presence round: the slots this process holds, by connection id, and the
    spectator connections it holds."""

    room_id: str
    slots: list[tuple[int, str]]
    ttl: float
    spectators: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class PresenceAnswer:
    refreshed: list[bool]
    """For each of the query's slots, whether it was still held by its connection."""
    holders: tuple[str | None, str | None]
    """The connection holding each slot now."""
    spectators: int = 0
    """Spectators of the room on every process, expired entries pruned."""


class PresenceStore(Protocol):
    async def claim(self, room_id: str, slot: int, connection: str, ttl: float) -> None:
        """Hold ``slot`` for ``connection`` for ``ttl`` seconds (taking it from another)."""

    async def release(self, room_id: str, slot: int, connection: str) -> bool:
        """Give ``slot`` up if ``connection`` still holds it."""

    async def add_spectators(
        self, room_id: str, connections: list[str], ttl: float
    ) -> SpectatorsCounted:
        """Count ``connections`` as watching for ``ttl`` seconds (refreshed by rounds), and
        read the room's presence, version and expiry: one round trip."""

    async def remove_spectators(self, room_id: str, connections: list[str]) -> int:
        """Stop counting ``connections``; how many of them were counted."""

    async def read(self, room_id: str) -> RoomPresence:
        """Who is connected and how many watch, in one round trip."""

    async def round(self, queries: list[PresenceQuery]) -> list[PresenceAnswer]:
        """Refresh the slots and spectators this process holds in many rooms and read who
        holds each slot and how many watch: one round trip."""

    async def publish(self, room_id: str, kind: str, version: int, text: str) -> None:
        """Send a message that is not an event (presence, control) to the room's sockets on
        every process."""


class OutboxStore(Protocol):
    async def mark(self, room_id: str) -> None:
        """Note that ``room_id``'s outbox holds records (after a commit that added one)."""

    async def rooms(self) -> list[str]:
        """The rooms noted as holding records."""

    async def sweep(self) -> list[str]:
        """Every room whose outbox holds records, found by scanning (slow; a backstop for
        a process that died between a commit and :meth:`mark`)."""

    async def records(self, room_id: str, limit: int = 100) -> list[str]: ...

    async def done(self, room_id: str, records: list[str]) -> None:
        """Drop ``records`` (written to the database), by value: another process may be
        draining the same outbox."""


class LeaseStore(Protocol):
    async def acquire(self, room_id: str, owner: str, ttl: float) -> bool: ...

    async def refresh(self, room_id: str, owner: str, ttl: float) -> bool: ...

    async def release(self, room_id: str, owner: str) -> None: ...

    async def held(self, room_ids: list[str]) -> list[bool]:
        """Whether someone holds each room's lease."""


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits counted in a rate limit's window so far, and the seconds left in the window."""

    count: int
    retry_after: float


class LimitStore(Protocol):
    async def hit(self, bucket: str, subject: str, window_seconds: float) -> Hits:
        """Count one hit of ``subject`` in ``bucket``'s fixed window."""


@dataclass(frozen=True, slots=True)
class Stores:
    """Everything the room service stores, one interface per concern."""

    rooms: RoomStore
    presence: PresenceStore
    outbox: OutboxStore
    leases: LeaseStore
    limits: LimitStore
