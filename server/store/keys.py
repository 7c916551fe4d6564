"""Redis key names. Every key of a room carries the hash tag ``{room_id}`` so that all of a
room's keys live in one Redis Cluster slot and one Lua script may touch them together."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RoomKeys:
    prefix: str
    room_id: str

    @property
    def base(self) -> str:
        return f"{self.prefix}:{{{self.room_id}}}"

    @property
    def room(self) -> str:
        """Hash: ``version`` and ``doc`` (the room document as JSON)."""
        return f"{self.base}:room"

    @property
    def moves(self) -> str:
        """List of the moves of the current game in core's notation (``a1-b1``, ``c5``)."""
        return f"{self.base}:moves"

    @property
    def events(self) -> str:
        """List of the most recent event messages, oldest first: one per version, so the
        last one is the room's version and the ones before it count down from there."""
        return f"{self.base}:events"

    @property
    def move_ids(self) -> str:
        """Sorted set of recent command ids (seat, game and client id), by the version that
        applied them: a resent command is recognised and applied once."""
        return f"{self.base}:mids"

    @property
    def move_id_moves(self) -> str:
        """Hash of the same command ids to the move each played (in core's notation): a
        resend of the same move is recognised, another move under a used id refused."""
        return f"{self.base}:midv"

    @property
    def outbox(self) -> str:
        """List of finished-game records waiting to be written to the database; never
        expires (the records must outlive the room)."""
        return f"{self.base}:outbox"

    @property
    def lease(self) -> str:
        """Short lease of the process that is thinking for the computer seat."""
        return f"{self.base}:ai"

    @property
    def channel(self) -> str:
        """Pub/sub channel of the room: events, presence and takeover notices."""
        return f"{self.base}:ch"

    @property
    def spectators(self) -> str:
        """Sorted set of the spectator connections watching the room, each scored by the
        time (ms since the epoch) it expires unless its process refreshes it."""
        return f"{self.base}:spectators"

    def presence(self, seat: int) -> str:
        """Which connection holds ``seat`` now; expires unless heartbeats refresh it."""
        return f"{self.base}:seat{seat}"


def outbox_index(prefix: str) -> str:
    """Set of the rooms whose outbox may hold records (a hint: a sweep finds the others)."""
    return f"{prefix}:outbox-rooms"


def rate_key(prefix: str, bucket: str, subject: str) -> str:
    return f"{prefix}:rate:{bucket}:{subject}"


def write_probe_key(prefix: str) -> str:
    """String, short-lived: written to learn whether Redis takes writes again after it
    refused them (:mod:`server.store.refused_writes`)."""
    return f"{prefix}:write-probe"
