"""REST request and response bodies (the room itself is :class:`server.protocol.RoomSnapshot`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from server.protocol import EventMessage, HintView, Move, MoveId, RoomSnapshot, Seat, Strict
from server.rooms.model import Level, Mode

FirstMover = Literal["me", "opponent", "random"]


class CreateRoomBase(Strict):
    mode: Mode | None = Field(
        default=None, description="default: live for Dots and Boxes, correspondence for Dots"
    )
    level: Level = Field(default="normal", description="computer level (computer rooms)")
    first: FirstMover | None = Field(
        default=None,
        description="who moves first: me (the creator), opponent (computer or guest) or "
        "random; default: me, except correspondence rooms, drawn by lot",
    )


class CreateBoxesRoom(CreateRoomBase):
    game: Literal["boxes"]
    rows: int = Field(default=5, ge=1, le=10, description="boxes down")
    cols: int = Field(default=5, ge=1, le=10, description="boxes across")
    daily: bool = Field(
        default=False,
        description="play today's daily board (5×5 vs computer normal, you first); "
        "other options are ignored",
    )
    daily_player: str | None = Field(
        default=None,
        min_length=16,
        max_length=64,
        description="daily board: an anonymous id the browser keeps (≥ 128 random bits); "
        "only the first finished game of each id counts in the day's results",
    )


class CreateDotsRoom(CreateRoomBase):
    game: Literal["dots"]
    width: int = Field(default=20, ge=5, le=60)
    height: int = Field(default=20, ge=5, le=60)
    start: Literal["empty", "cross", "four_crosses"] = "empty"


CreateRoom = Annotated[CreateBoxesRoom | CreateDotsRoom, Field(discriminator="game")]


class SeatGrant(BaseModel):
    """A seat you hold. Keep ``token`` secret: it is the only key to the seat."""

    room_id: str
    seat: Seat | None = Field(description="null: you watch as a spectator")
    role: Literal["player", "spectator"]
    token: str | None = Field(description="seat token; send as `Authorization: Bearer …`")
    invite_code: str | None = Field(description="friend rooms: the code a guest joins with")
    invite_url: str | None = Field(description="friend rooms: the link to send to a friend")
    state: RoomSnapshot


class JoinRoom(Strict):
    invite_code: str = Field(min_length=1, max_length=64)


class YourSeat(BaseModel):
    seat: Seat
    invite_code: str | None
    invite_url: str | None


class RoomStateResponse(BaseModel):
    """The room; ``you`` is filled when a valid seat token was sent."""

    state: RoomSnapshot
    you: YourSeat | None = None


class MoveRequest(Strict):
    move: Move
    version: int | None = Field(
        default=None, ge=0, description="room version the move was made against"
    )
    move_id: MoveId | None = Field(
        default=None, description="unique per seat and game; makes retries idempotent"
    )


class ActionResult(BaseModel):
    """Result of a move or action: the room version after it (read the changes from the
    events, or the room)."""

    version: int
    duplicate: bool = Field(default=False, description="this move_id was already applied")
    hint: HintView | None = Field(default=None, description="for the hint action")


class EventsPage(BaseModel):
    """The events after ``since``, oldest first, or (when some were no longer kept)
    ``snapshot``: the room as it is now."""

    version: int
    events: list[EventMessage]
    snapshot: RoomSnapshot | None


class DailyBoard(BaseModel):
    date: date
    rows: int
    cols: int
    lines: list[dict[str, Any]] = Field(description="lines drawn at the start, in wire form")
    level: Level
    first: Literal["human"]


class DailyScore(BaseModel):
    boxes: int = Field(description="boxes the player took")
    players: int = Field(description="players who finished the day's board with that many")


class DailyResults(BaseModel):
    """Everybody's results on one day's board, to compare yours with."""

    date: date
    boxes_total: int = Field(description="boxes on the daily board")
    players: int = Field(description="players who finished that day's board")
    wins: int = Field(description="players who took more boxes than the computer")
    draws: int
    losses: int
    distribution: list[DailyScore] = Field(
        description="players per number of boxes taken, fewest boxes first; absent counts are 0"
    )


class FinishedGameView(BaseModel):
    id: str
    room_id: str
    game: str
    mode: str
    game_number: int
    winner: Seat | None
    reason: str
    scores: tuple[int, int]
    finished_at: datetime
    daily: date | None
    record: dict[str, Any]


class ErrorBody(BaseModel):
    code: str
    message: str
    details: dict[str, Any] | None = None


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    checks: dict[str, str] = Field(default_factory=dict)
