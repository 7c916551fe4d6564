"""The stored form of a room (JSON in Redis). Never sent to clients as is: it holds token
hashes and the invite code; :func:`server.rooms.service.RoomService.view` builds what
clients see."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any, Literal

from pydantic import BaseModel, Field

from server.ws.protocol import GameName, Level, Mode, PendingRequest

MOVE_IDS_KEPT = 64


class SeatRecord(BaseModel):
    kind: Literal["human", "computer"]
    token_hash: str | None = Field(default=None, description="sha256 of the seat token")


class RoomDoc(BaseModel):
    id: str
    game: GameName
    mode: Mode
    level: Level | None = None
    daily: str | None = None
    setup: dict[str, Any] = Field(description="record of the starting position")
    record: dict[str, Any] = Field(description="record of the current game")
    seats: list[SeatRecord]
    invite_code: str | None = None
    game_number: int = 1
    requests: list[PendingRequest] = Field(default_factory=list)
    move_ids: dict[str, int] = Field(default_factory=dict)
    ttl_seconds: int = Field(description="0: never expires")
    created_at: float
    updated_at: float

    @property
    def computer_seat(self) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "computer":
                return index
        return None

    def remember_move_id(self, move_id: str, version: int) -> None:
        self.move_ids[move_id] = version
        while len(self.move_ids) > MOVE_IDS_KEPT:
            del self.move_ids[next(iter(self.move_ids))]


def new_token() -> str:
    """A seat token: 192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_room_id() -> str:
    return secrets.token_urlsafe(8)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token_hash: str | None, token: str) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if token_hash is None:
        return False
    return hmac.compare_digest(token_hash, hash_token(token))
