"""REST request and response bodies (the room itself is :class:`server.protocol.RoomSnapshot`)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from server.protocol import (
    Board,
    EventMessage,
    HintView,
    LineMove,
    LineValuesView,
    MoveEvent,
    MoveId,
    RoomSnapshot,
    Seat,
    Strict,
    WireMove,
)
from server.rooms.model import FirstMover, GameName, Level, Mode

RecordInput = Annotated[
    str | dict[str, Any],
    Field(
        description="a game record: the text notation (`boxes 3x2; a1-b1 a1-a2`) or the JSON "
        "record of `GET /api/games/{id}` (`record`)"
    ),
]


class RecordBody(Strict):
    """A record to review or analyse."""

    record: RecordInput


class ContinueFrom(Strict):
    """Start a computer or local room from a position of a recorded game: the record's
    first ``ply`` moves are played (they are the room's history: undo takes them back;
    a new game starts from the record's own starting position)."""

    record: RecordInput
    ply: int = Field(ge=0, description="moves of the record to play before the room starts")


class ClockOption(Strict):
    """Clocks for a friend room: ``minutes`` for each player's whole game and ``increment``
    seconds added after each of their turns (live rooms), or ``days_per_move`` for every
    turn (correspondence rooms). A player whose time runs out loses."""

    minutes: float | None = Field(default=None, gt=0, le=180)
    increment: int = Field(default=0, ge=0, le=60)
    days_per_move: int | None = Field(default=None, ge=1, le=30)


DisplayName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=24,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="the name shown on your seat (a bot is named by its account)",
    ),
]


class CreateRoomBase(Strict):
    name: DisplayName | None = None
    rated: bool = Field(
        default=False,
        description="a bot's computer room whose game counts for the ladder (send the bot's "
        "token); a rated game allows only moves and resigning",
    )
    mode: Mode | None = Field(
        default=None, description="default: live for Dots and Boxes, correspondence for Dots"
    )
    level: Level = Field(default="normal", description="computer level (computer rooms)")
    first: FirstMover | None = Field(
        default=None,
        description="who moves first: me (the creator), opponent (computer or guest) or "
        "random; default: me, except correspondence rooms, drawn by lot",
    )
    clock: ClockOption | None = Field(
        default=None, description="friend rooms: clocks (default: none)"
    )
    from_: ContinueFrom | None = Field(
        default=None,
        alias="from",
        description="computer and local rooms: start from a position of a recorded game "
        "(the game and its size come from the record)",
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
    name: DisplayName | None = None


class YourSeat(BaseModel):
    seat: Seat
    invite_code: str | None
    invite_url: str | None


class RoomStateResponse(BaseModel):
    """The room; ``you`` is filled when a valid seat token was sent."""

    state: RoomSnapshot
    you: YourSeat | None = None


class MoveRequest(Strict):
    move: WireMove
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
    line_values: LineValuesView | None = Field(
        default=None,
        description="for the line_values action (left out otherwise)",
        exclude_if=lambda value: value is None,
    )


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
    lines: list[LineMove] = Field(description="the lines drawn at the start")
    level: Level
    first: Literal["me"] = Field(description="you move first on the daily board")


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
    """Every refusal: a stable ``code`` for programs and a ``message`` for people."""

    code: str
    message: str
    details: dict[str, Any] | None = Field(default=None, description="facts about the refusal")
    retry_after: float | None = Field(
        default=None,
        description="rate_limited, unavailable: seconds before a retry is taken "
        "(also the `Retry-After` header, rounded up)",
    )


class Health(BaseModel):
    status: Literal["ok", "unavailable"]
    checks: dict[str, str] = Field(default_factory=dict)


# -- review, export, analysis ----------------------------------------------------------


class ReviewSeat(BaseModel):
    seat: Seat
    kind: Literal["human", "computer"] | None = Field(
        description="null when the record does not say (imported records, older games)"
    )
    colour: Literal["gold", "coral"]
    name: str | None = Field(
        default=None,
        exclude_if=lambda value: value is None,
        description="the bot's account name, or the name a person gave; absent: none",
    )
    bot: bool = Field(
        default=False, exclude_if=lambda value: not value, description="a bot account played it"
    )


class ReviewResult(BaseModel):
    winner: Seat | None
    reason: str = Field(description="board_full, resignation, agreement, grounding or margin")
    scores: tuple[int, int]


class ReviewMove(BaseModel):
    """One move of the game and what it did."""

    ply: int = Field(description="1 for the first move")
    notation: str = Field(description="the move in the text notation, e.g. `a1-b1` or `c5`")
    seat: Seat
    change: MoveEvent = Field(
        description="the move as a protocol-2 move event: apply it as the websocket's"
    )
    scores: tuple[int, int] = Field(description="the scores after this move")
    to_move: Seat = Field(description="whose turn it is after this move")


class GameReview(BaseModel):
    """A whole game to step through: the starting board and every move's change."""

    id: str | None = Field(description="the finished game's id; null for an imported record")
    game: GameName
    mode: Mode | None = Field(description="null for an imported record")
    level: Level | None = Field(default=None, description="computer level, if known")
    size: tuple[int, int] = Field(
        description="Dots and Boxes: [cols, rows] of boxes; Dots: [width, height] of points"
    )
    seats: list[ReviewSeat]
    result: ReviewResult | None = Field(description="null while the recorded game goes on")
    finished_at: datetime | None
    daily: date | None = None
    notation: str = Field(description="the record in the text notation")
    record: dict[str, Any] = Field(description="the JSON record")
    start: Board = Field(description="the board before the first move (as in `welcome`)")
    moves: list[ReviewMove]
    final: Board = Field(
        description="the board at the end: the last move's board, and for a Dots game "
        "ended by grounding the marks it lost (`ungrounded`)"
    )


AnalysisStatus = Literal["running", "done", "failed"]


class LineValue(BaseModel):
    """The exact value of one undrawn line of an analysed Dots and Boxes position."""

    move: WireMove
    value: int = Field(
        description="the margin of the remaining boxes the player to move gets by drawing "
        "this line and playing on perfectly (exact); `value` minus it, halved, is what the "
        "line costs in boxes"
    )


class PositionAnalysis(BaseModel):
    """The computer's view of the position before move ``ply + 1``."""

    ply: int = Field(description="moves played before this position (0: the start)")
    to_move: Seat
    exact: bool = Field(
        description="Dots and Boxes: `value` and `margin` are the solver's exact results; "
        "false: estimates (and for Dots, where there is no value)"
    )
    value: int | None = Field(
        description="Dots and Boxes: the margin of the remaining boxes the player to move "
        "gets with best play (exact) or is estimated to get; null for Dots"
    )
    margin: int | None = Field(
        description="Dots and Boxes: the final score difference, seat 0 minus seat 1, with "
        "best play from here (exact) or as estimated; null for Dots"
    )
    best: list[WireMove] = Field(
        description="exact: the best moves found (every one when `complete`); otherwise "
        "the hard level's choice"
    )
    complete: bool = Field(
        default=False,
        description="whether `best` lists every best move (every line was valued in time); "
        "false for estimates and Dots, where `best` is the hard level's choice",
    )
    played: WireMove | None = Field(description="the move the game went on with")
    loss: int | None = Field(
        description="judged moves only: the margin the played move gave away against best "
        "play (twice `cost`); null when the move was not judged"
    )
    cost: int | None = Field(
        default=None,
        description="judged moves only: the boxes of the final score the played move gave "
        "away against best play; null when the move was not judged",
    )
    mistake: bool | None = Field(
        description="the played move gives boxes away (`cost` > 0); null when it was not "
        "judged (the position was only estimated, or valuing the move ran out of time)"
    )
    line: list[WireMove] = Field(
        default_factory=list,
        description="after a mistake: the best move and the best play that follows it "
        "(up to five moves); empty otherwise",
    )
    values: list[LineValue] = Field(
        default_factory=list,
        description="exact positions: the exact value of each undrawn line valued in time "
        "(every one when `complete`); empty for estimates and Dots",
    )


class PlayerSummary(BaseModel):
    """How one seat played, over the moves the analysis judged."""

    seat: Seat
    judged: int = Field(description="this seat's moves judged exactly")
    mistakes: int = Field(description="judged moves that gave away 1 or 2 boxes")
    blunders: int = Field(description="judged moves that gave away 3 boxes or more")
    lost: int = Field(description="boxes given away in all by the judged moves")
    accuracy: float | None = Field(
        description="the share of judged moves that were best (gave nothing away), "
        "0 to 100; null when none was judged"
    )


class AnalysisView(BaseModel):
    """A game's analysis, as far as it has gone (poll until `status` is not `running`)."""

    id: str = Field(description="the analysis id (the same record always gets the same id)")
    game: GameName
    status: AnalysisStatus
    done: int = Field(description="positions analysed")
    total: int = Field(description="positions to analyse: one before each move")
    positions: list[PositionAnalysis] = Field(
        description="analysed positions, by ply: all of them, or with `since` above 0 only "
        "those analysed after the first `since` (what a poll asking `?since=` lacks)"
    )
    since: int = Field(
        0,
        description="how many analysed positions (in the order they were analysed) the "
        "reply leaves out: 0 (all), or the poll's `since` when the server still has them",
    )
    players: list[PlayerSummary] = Field(
        description="Dots and Boxes: each seat's judged moves, mistakes, blunders and "
        "accuracy over the positions analysed so far"
    )
