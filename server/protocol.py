"""The wire protocol of a room (version 2), shared by REST and the websocket.

Client commands form one discriminated union on ``type`` (:data:`ClientMessage`), parsed
once at the edge. Every server message is an envelope ``{"protocol": 2, "type": ...,
"room": ..., "version": ...}`` (:data:`ServerMessage`).

* A **snapshot** (:class:`RoomSnapshot`) holds everything needed to draw a room. It is sent
  only in ``welcome`` (on connecting) and in ``resync`` (on request, or when the server
  cannot bring a socket up to date event by event).
* Every other change arrives as an ``event`` message carrying just the change (a move and
  what it closed, a request, a new game...) and the room's :class:`Status` after it. Events
  come in version order, one version per event; a client applies them to the snapshot it
  holds. A version it does not expect means something was missed: it sends one ``sync``.
* Every command is answered by exactly one ``ack`` (or ``error``) carrying its ``ref``.

See ``docs/api.md`` for examples.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from core.boxes import Line
from core.dots import Point
from core.errors import TetradError
from server.errors import ApiError
from server.rooms import model
from server.rooms.model import (
    Action,
    Command,
    GameName,
    Level,
    Mode,
    PlayMove,
    RequestKind,
)
from server.rooms.model import Move as DomainMove

PROTOCOL_VERSION: Literal[2] = 2

Seat = Literal[0, 1]
Coordinate = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Dot = tuple[Coordinate, Coordinate]


def _absent(value: object) -> bool:
    """Optional fields are left out of a message when they hold nothing (or are false)."""
    return value is None or value is False or value == []


def _adapter(form: Any) -> TypeAdapter[Any]:
    """A TypeAdapter of an annotated union (mypy reads the union as a value, not a type)."""
    return TypeAdapter(form)


class Strict(BaseModel):
    """Unknown fields are refused (``bad_request``), never silently dropped."""

    model_config = ConfigDict(extra="forbid")


class LineMove(Strict):
    """A Dots and Boxes move: the line between two adjacent dots ``[[x1, y1], [x2, y2]]``."""

    line: tuple[Dot, Dot]


class PointMove(Strict):
    """A Dots move: the point ``[x, y]`` to mark."""

    point: Dot


Move = LineMove | PointMove
MoveId = Annotated[str, Field(min_length=1, max_length=64)]


# -- client → server ---------------------------------------------------------------------


class ClientBase(Strict):
    ref: str | None = Field(
        default=None, max_length=64, description="echoed in the reply (ack, error, pong...)"
    )


class Hello(ClientBase):
    """First message on a websocket: the seat token (null: watch as a spectator) and the
    last room version this client holds (null: send a snapshot)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    since: int | None = Field(default=None, ge=0)


class MakeMove(ClientBase):
    """Make a move. ``version``: the room version the move was made against (refused with
    ``stale_version`` if the room moved on; omit to play on whatever the room is at).
    ``move_id``: chosen by the client, unique per seat and game; a resend with the same id
    is applied at most once."""

    type: Literal["move"]
    move: Move
    version: int | None = Field(default=None, ge=0)
    move_id: MoveId | None = None


class Offer(ClientBase):
    """Ask for a new game (``restart``) or to end the game by agreement (``end``). If the
    other player already asked for the same, this accepts it. In computer and local rooms,
    and while the guest seat is free, ``restart`` happens at once."""

    type: Literal["offer"]
    kind: RequestKind


class Accept(ClientBase):
    """Accept the other player's pending request of this kind."""

    type: Literal["accept"]
    kind: RequestKind


class Decline(ClientBase):
    """Decline the other player's pending request, or withdraw your own."""

    type: Literal["decline"]
    kind: RequestKind


class Resign(ClientBase):
    """Give up the current game; the other seat wins."""

    type: Literal["resign"]


class Undo(ClientBase):
    """Computer and local rooms: take back your last move and the computer's replies (right
    after a new game: bring the replaced game back)."""

    type: Literal["undo"]


class Hint(ClientBase):
    """Computer and local rooms: ask which move the computer would make (no state change);
    the ``ack`` carries it."""

    type: Literal["hint"]


class SetLevel(ClientBase):
    """Computer rooms: change the computer's level; the board stays."""

    type: Literal["set_level"]
    level: Level


class NewGame(ClientBase):
    """Computer and local rooms: start a new game now; the level stays. ``first`` (computer
    rooms) says who moves first in the new game; default: as before."""

    type: Literal["new_game"]
    first: Literal["human", "computer"] | None = None


class Ping(ClientBase):
    type: Literal["ping"]


class Sync(ClientBase):
    """Bring me up to date from ``since`` (the version I hold): answered by one ``resync``."""

    type: Literal["sync"]
    since: int | None = Field(default=None, ge=0)


RoomAction: TypeAlias = Annotated[
    Offer | Accept | Decline | Resign | Undo | Hint | SetLevel | NewGame,
    Field(discriminator="type"),
]
"""What ``POST /api/rooms/{id}/actions`` accepts: every room command except moves."""

ClientMessage: TypeAlias = Annotated[
    Hello
    | MakeMove
    | Offer
    | Accept
    | Decline
    | Resign
    | Undo
    | Hint
    | SetLevel
    | NewGame
    | Ping
    | Sync,
    Field(discriminator="type"),
]
client_message_adapter: TypeAdapter[ClientMessage] = _adapter(ClientMessage)
room_action_adapter: TypeAdapter[RoomAction] = _adapter(RoomAction)


# -- what a room looks like ----------------------------------------------------------------


class SeatView(BaseModel):
    """One of the two seats: who holds it and whether they are connected right now."""

    seat: Seat
    kind: Literal["human", "computer"]
    taken: bool = Field(description="a human holds this seat (always true for the computer)")
    connected: bool = Field(description="a websocket holds this seat now (computer: true)")
    colour: Literal["gold", "coral"]


class PendingRequestView(BaseModel):
    kind: RequestKind
    seat: Seat = Field(description="who asked")


class OutcomeView(BaseModel):
    """How the game ended (the final scores are the status's ``scores``)."""

    winner: Seat | None
    reason: str = Field(description="board_full, resignation, agreement, grounding or margin")


class DrawnLine(BaseModel):
    line: tuple[Dot, Dot]
    player: Seat | None = Field(description="who drew it (null: drawn at the start)")


class OwnedBox(BaseModel):
    box: Dot = Field(description="the box whose top-left dot this is")
    owner: Seat


class BoxesBoard(BaseModel):
    """A Dots and Boxes position. Playable: every line between adjacent dots not in ``lines``."""

    game: Literal["boxes"] = "boxes"
    rows: int
    cols: int
    lines: list[DrawnLine] = Field(description="drawn lines, start lines first, in order")
    boxes: list[OwnedBox]
    last_move: LineMove | None


class Area(BaseModel):
    """A captured area: outlined by ``chain`` (the captor's marks, in order around it); every
    point of ``inside`` is dead, and a mark inside that is not the captor's is captured."""

    key: Dot = Field(description="its first inside point in row-major order (unique)")
    captor: Seat
    chain: list[Dot]
    inside: list[Dot]


class House(BaseModel):
    """An empty enclosure: both players may still play inside it."""

    key: Dot = Field(
        description="its first inside point in row-major order (unique with the owner)"
    )
    owner: Seat
    chain: list[Dot]
    inside: list[Dot]


class DotsBoard(BaseModel):
    """A Dots position. Playable: every point with no mark that lies in no area."""

    game: Literal["dots"] = "dots"
    width: int
    height: int
    start: Literal["empty", "cross", "four_crosses"]
    win_margin: int | None
    grounding: bool
    marks: list[tuple[int, int, Seat]] = Field(description="[x, y, owner] of every mark")
    areas: list[Area]
    houses: list[House]
    ungrounded: list[Dot] = Field(description="marks lost by grounding, when it ended so")
    last_move: PointMove | None


Board: TypeAlias = Annotated[BoxesBoard | DotsBoard, Field(discriminator="game")]


class Status(BaseModel):
    """The parts of a room every event may change."""

    to_move: Seat
    scores: tuple[int, int]
    outcome: OutcomeView | None = Field(
        default=None, exclude_if=_absent, description="set once the game is over"
    )
    thinking: bool = Field(
        default=False, exclude_if=_absent, description="the computer is about to move"
    )
    allowed: tuple[list[Action], list[Action]] | None = Field(
        default=None,
        exclude_if=_absent,
        description="what each seat may ask for besides moves; sent when it changes",
    )


class RoomSnapshot(BaseModel):
    """Everything needed to draw a room."""

    id: str
    game: GameName
    mode: Mode
    version: int = Field(description="increases by one with every change of the room")
    game_number: int = Field(description="1 for the first game in this room, +1 per new game")
    level: Level | None = Field(description="computer level (computer rooms), else null")
    daily: str | None = Field(default=None, description="UTC date of the daily board, if any")
    computer_seat: Seat | None = None
    seats: list[SeatView]
    spectators: int = Field(ge=0, description="spectator websockets watching now")
    requests: list[PendingRequestView]
    move_count: int = Field(description="moves played in this game")
    status: Status
    board: Board
    expires_in_seconds: int | None = Field(
        description="seconds before the room is deleted unless something happens; null: never"
    )


# -- events --------------------------------------------------------------------------------


class MoveEvent(BaseModel):
    """A move, and what it did. Dots and Boxes: the boxes the line ``closed``. Dots: the
    areas the mark ``captures`` (their marks inside that are not the captor's are captured
    now), the keys of older areas such a capture swallowed, and the houses it made or ended.
    Empty lists are left out."""

    kind: Literal["move"] = "move"
    seat: Seat
    move: Move
    move_id: str | None = Field(default=None, exclude_if=_absent)
    closed: list[Dot] = Field(
        default_factory=list, exclude_if=_absent, description="boxes this line closed"
    )
    captures: list[Area] = Field(
        default_factory=list, exclude_if=_absent, description="areas this mark captured"
    )
    areas_removed: list[Dot] = Field(
        default_factory=list,
        exclude_if=_absent,
        description="keys of areas swallowed by a capture",
    )
    houses_added: list[House] = Field(default_factory=list, exclude_if=_absent)
    houses_removed: list[tuple[int, int, Seat]] = Field(
        default_factory=list,
        exclude_if=_absent,
        description="houses gone, as [x, y, owner]: their key and owner",
    )


class JoinedEvent(BaseModel):
    kind: Literal["joined"] = "joined"
    seat: Seat


class RequestedEvent(BaseModel):
    kind: Literal["requested"] = "requested"
    request: RequestKind
    seat: Seat


class DeclinedEvent(BaseModel):
    """A pending request was declined, withdrawn, or cancelled by a move (``seat`` null)."""

    kind: Literal["declined"] = "declined"
    request: RequestKind
    seat: Seat | None


class NewBoardEvent(BaseModel):
    """A new game started (``restarted``) or moves were taken back (``undone``): the whole
    board, and the computer's seat, which a new game against the computer may swap."""

    kind: Literal["restarted", "undone"]
    game_number: int
    seat: Seat | None = Field(default=None, exclude_if=_absent, description="undone: who asked")
    count: int = Field(default=0, description="undone: moves taken back (0: game restored)")
    computer_seat: Seat | None
    move_count: int
    board: Board


class EndedEvent(BaseModel):
    """The game ended early: by resignation or by agreement."""

    kind: Literal["ended"] = "ended"
    reason: Literal["resignation", "agreement"]
    seat: Seat | None = Field(description="who resigned (null for agreement)")


class LevelEvent(BaseModel):
    kind: Literal["level"] = "level"
    level: Level


RoomEvent: TypeAlias = Annotated[
    MoveEvent
    | JoinedEvent
    | RequestedEvent
    | DeclinedEvent
    | NewBoardEvent
    | EndedEvent
    | LevelEvent,
    Field(discriminator="kind"),
]


# -- server → client -----------------------------------------------------------------------


class Envelope(BaseModel):
    protocol: Literal[2] = PROTOCOL_VERSION
    room: str
    version: int


class EventMessage(Envelope):
    """A room change; ``version`` is the version it leads to. Apply it if ``version`` is one
    more than yours, drop it if it is not more; if it is further ahead, send ``sync``."""

    type: Literal["event"] = "event"
    event: RoomEvent
    status: Status


class WelcomeMessage(Envelope):
    """Reply to ``hello``: your seat (null: spectator), who is connected, and either the
    events since the version you sent (``snapshot`` null) or a ``snapshot``."""

    type: Literal["welcome"] = "welcome"
    seat: Seat | None
    role: Literal["player", "spectator"]
    seats: list[SeatView]
    spectators: int
    events: list[EventMessage] = Field(description="missed events, oldest first")
    snapshot: RoomSnapshot | None


class ResyncMessage(Envelope):
    """Reply to ``sync`` (or sent unasked when this socket missed events): the events after
    the version you hold, or a ``snapshot`` when they are no longer all kept."""

    type: Literal["resync"] = "resync"
    ref: str | None = None
    events: list[EventMessage]
    snapshot: RoomSnapshot | None


class PresenceMessage(Envelope):
    """Who is connected, or how many watch, changed (``version`` is the current one)."""

    type: Literal["presence"] = "presence"
    seats: list[SeatView]
    spectators: int = Field(ge=0)


class HintView(BaseModel):
    """The move the computer (hard) would make, and why where the theory gives a reason."""

    move: Move
    reason: str | None = Field(
        default=None,
        description="why, as a stable code (null for a quiet move). Dots and Boxes: "
        "takes_free_boxes, takes_all, declines_to_keep_control, sacrifice_to_keep_control, "
        "gives_fewest_boxes, keeps_control, safe_line; Dots: captures, double_threat, "
        "blocks_capture, escapes",
    )
    count: int = Field(
        default=0, description="the boxes or marks the reason is about (taken, offered), else 0"
    )


class AckMessage(Envelope):
    """Your command was done (or had been done: ``duplicate``). ``version``: the room's
    version after it. A hint comes back in ``hint``."""

    type: Literal["ack"] = "ack"
    ref: str | None = None
    move_id: str | None = Field(default=None, exclude_if=_absent)
    duplicate: bool = False
    hint: HintView | None = Field(default=None, exclude_if=_absent)


class PongMessage(Envelope):
    type: Literal["pong"] = "pong"
    ref: str | None = None


class ErrorMessage(Envelope):
    """A refused message; the connection stays open. ``code`` is stable (see docs/api.md)."""

    type: Literal["error"] = "error"
    ref: str | None = None
    code: str
    message: str
    details: dict[str, object] | None = Field(default=None, exclude_if=_absent)


ServerMessage: TypeAlias = Annotated[
    WelcomeMessage
    | EventMessage
    | ResyncMessage
    | PresenceMessage
    | AckMessage
    | PongMessage
    | ErrorMessage,
    Field(discriminator="type"),
]
server_message_adapter: TypeAdapter[ServerMessage] = _adapter(ServerMessage)

CLOSE_TAKEN_OVER = 4001
CLOSE_BAD_TOKEN = 4003
CLOSE_ROOM_NOT_FOUND = 4004
CLOSE_HELLO_TIMEOUT = 4008
CLOSE_SLOW_CONSUMER = 4009
CLOSE_ROOM_GONE = 4010


# -- from the wire to the domain -------------------------------------------------------------


def to_move(move: Move) -> DomainMove:
    """The ``core`` move a wire move names (InvalidMove if it names none, e.g. two dots that
    are not adjacent); whether it lies on the board is for the game to say."""
    if isinstance(move, LineMove):
        return Line(move.line[0], move.line[1])
    return Point(move.point[0], move.point[1])


def to_command(message: MakeMove | RoomAction) -> Command:
    """The room command a client message asks for (not ``hint``: it changes nothing)."""
    if isinstance(message, MakeMove):
        try:
            move = to_move(message.move)
        except TetradError as error:
            raise ApiError("invalid_move", error.reason) from error
        return PlayMove(move, message.move_id, message.version)
    if isinstance(message, Offer):
        return model.Offer(message.kind)
    if isinstance(message, Accept):
        return model.Accept(message.kind)
    if isinstance(message, Decline):
        return model.Decline(message.kind)
    if isinstance(message, Resign):
        return model.Resign()
    if isinstance(message, Undo):
        return model.Undo()
    if isinstance(message, SetLevel):
        return model.SetLevel(message.level)
    if isinstance(message, NewGame):
        return model.NewGame(message.first)
    raise ApiError("bad_request", f"{message.type} is not a room command")
