"""The wire protocol of a room (version 3), shared by REST and the websocket.

Two kinds of types, each defined once:

* **Commands** a client sends form one discriminated union on ``type``
  (:data:`ClientMessage`), validated once at the edge. A room command's message is the
  room domain's own command (:mod:`server.rooms.model`) with the wire's ``type`` and ``ref``
  added, so the reducer receives what was parsed.
* **Messages** the server writes are frozen dataclasses, written to JSON by :func:`encode`
  and by nothing else: an event is encoded once, by the process that commits it, and those
  bytes are published, kept in the room's history and sent to every socket. Every server
  message is an envelope ``{"protocol": 3, "type": ..., "room": ..., "version": ...}``
  (:data:`ServerMessage`).

A **snapshot** (:class:`RoomSnapshot`) holds everything needed to draw a room; it is sent
only in ``welcome`` and ``resync``. Every other change arrives as an ``event`` carrying just
the change and the room's :class:`Status` after it, one version per event. Every command is
answered by exactly one ``ack`` (or ``error``) carrying its ``ref``, after every event up to
the version it names. ``docs/api.md`` is the guide, with examples the tests run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_core import SchemaSerializer

from core.boxes import Line
from core.dots import Point
from core.errors import TetradError
from server.refusals import Refusal
from server.rooms import model
from server.rooms.model import Action, GameName, Level, Mode, PlayMove, RequestKind

PROTOCOL_VERSION: Final = 3

Seat = Literal[0, 1]
Coordinate = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Dot = tuple[Coordinate, Coordinate]
MoveId = Annotated[str, Field(min_length=1, max_length=64)]
Ref = Annotated[
    str | None, Field(max_length=64, description="echoed in the reply (ack, error, pong...)")
]


def _absent(value: object) -> bool:
    """Optional fields are left out of a message when they hold nothing."""
    return value is None or value is False or value == ()


def _adapter(form: Any) -> TypeAdapter[Any]:
    """A TypeAdapter of an annotated union (mypy reads the union as a value, not a type)."""
    return TypeAdapter(form)


_writers: dict[type, SchemaSerializer] = {}
_checked: list[bool] = [False]


def check_writes(checked: bool) -> None:
    """Whether :func:`encode` refuses a value of the wrong type in a field (a bug) instead of
    writing it as best it can. The tests turn it on; it doubles the cost of writing."""
    _checked[0] = checked


def encode(message: object) -> str:
    """The JSON text of a message the server writes: the one writer of every such message.
    (Its serializer is called straight, without TypeAdapter's wrapper: an event and an ack
    are written for every move.)"""
    writer = _writers.get(type(message))
    if writer is None:
        writer = _writers.setdefault(type(message), TypeAdapter(type(message)).serializer)
    return writer.to_json(message, warnings="error" if _checked[0] else False).decode()


# -- moves (both ways) ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineMove:
    """A Dots and Boxes move: the line between two adjacent dots ``[[x1, y1], [x2, y2]]``."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    line: tuple[Dot, Dot]


@dataclass(frozen=True, slots=True)
class PointMove:
    """A Dots move: the point ``[x, y]`` to mark."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    point: Dot


WireMove = LineMove | PointMove
"""A move as the wire writes it (``core``'s moves are :data:`server.rooms.model.Move`)."""


def wire_move(move: model.Move) -> WireMove:
    """The wire form of a ``core`` move."""
    if isinstance(move, Line):
        return LineMove(line=(move[0], move[1]))
    return PointMove(point=(move.x, move.y))


def core_move(move: WireMove) -> model.Move:
    """The ``core`` move a wire move names (``InvalidMove`` if it names none, e.g. two dots
    that are not adjacent); whether it lies on the board is for the game to say."""
    if isinstance(move, LineMove):
        return Line(move.line[0], move.line[1])
    return Point(move.point[0], move.point[1])


# -- client → server -----------------------------------------------------------------------


class Strict(BaseModel):
    """Unknown fields are refused (``bad_request``), never silently dropped."""

    model_config = ConfigDict(extra="forbid")


class ClientBase(Strict):
    ref: Ref = None


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
    and the same move is applied at most once, the same id with another move is refused
    (``move_id_reused``)."""

    type: Literal["move"]
    move: WireMove
    version: int | None = Field(default=None, ge=0)
    move_id: MoveId | None = None


def play_command(message: MakeMove) -> PlayMove:
    """The room command a move message asks for (``invalid_move`` if it names no move)."""
    try:
        move = core_move(message.move)
    except TetradError as error:
        raise Refusal("invalid_move", error.reason) from error
    return PlayMove(move, message.move_id, message.version)


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferMessage(model.Offer):
    """Ask for a new game (``restart``) or to end the game by agreement (``end``). If the
    other player already asked for the same, this accepts it. In computer and local rooms,
    and while the guest seat is free, ``restart`` happens at once."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["offer"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AcceptMessage(model.Accept):
    """Accept the other player's pending request of this kind."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["accept"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclineMessage(model.Decline):
    """Decline the other player's pending request, or withdraw your own."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["decline"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResignMessage(model.Resign):
    """Give up the current game; the other seat wins."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["resign"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UndoMessage(model.Undo):
    """Computer and local rooms: take back your last move and the computer's replies (right
    after a new game: bring the replaced game back)."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["undo"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SetLevelMessage(model.SetLevel):
    """Computer rooms: change the computer's level; the board stays."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["set_level"]
    ref: Ref = None


@dataclass(frozen=True, slots=True, kw_only=True)
class NewGameMessage(model.NewGame):
    """Computer and local rooms: start a new game now; the level stays. ``first`` (computer
    rooms): ``me`` or ``opponent`` moves first in the new game; default: as before."""

    __pydantic_config__ = ConfigDict(extra="forbid")
    type: Literal["new_game"]
    ref: Ref = None


class Hint(ClientBase):
    """Computer and local rooms: ask which move the computer would make (no state change);
    the ``ack`` carries it."""

    type: Literal["hint"]


class LineValues(ClientBase):
    """Dots and Boxes against the computer (not the daily board, not rated): ask what every
    undrawn line of the current position is worth, for the practice overlay (no state
    change); the ``ack`` carries it in ``line_values``."""

    type: Literal["line_values"]


class Ping(ClientBase):
    type: Literal["ping"]


class Sync(ClientBase):
    """Bring me up to date from ``since`` (the version I hold; null: I hold nothing):
    answered by one ``resync``."""

    type: Literal["sync"]
    since: int | None = Field(default=None, ge=0)


RoomCommandMessage = (
    OfferMessage
    | AcceptMessage
    | DeclineMessage
    | ResignMessage
    | UndoMessage
    | SetLevelMessage
    | NewGameMessage
)
"""The messages that are room commands as they stand (all but moves, questions to the
computer and transport)."""

RoomAction: TypeAlias = Annotated[
    RoomCommandMessage | Hint | LineValues, Field(discriminator="type")
]
"""What ``POST /api/rooms/{id}/actions`` accepts: every room command except moves."""

ClientMessage: TypeAlias = Annotated[
    Hello | MakeMove | RoomCommandMessage | Hint | LineValues | Ping | Sync,
    Field(discriminator="type"),
]
client_message_adapter: TypeAdapter[ClientMessage] = _adapter(ClientMessage)
room_action_adapter: TypeAdapter[RoomAction] = _adapter(RoomAction)


# -- what a room looks like ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """One of the two seats: who holds it and whether they are connected right now."""

    seat: Seat
    kind: Literal["human", "computer"]
    taken: Annotated[bool, Field(description="someone holds this seat (the computer always)")]
    connected: Annotated[
        bool, Field(description="a websocket holds this seat now (the computer: true)")
    ]
    colour: Literal["gold", "coral"]
    name: Annotated[
        str | None,
        Field(
            exclude_if=_absent,
            description="the holder's display name, or the bot's account name; absent: none",
        ),
    ] = None
    bot: Annotated[
        bool, Field(exclude_if=_absent, description="a bot account holds this seat (absent: no)")
    ] = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingRequestView:
    kind: RequestKind
    seat: Annotated[Seat, Field(description="who asked")]


@dataclass(frozen=True, slots=True, kw_only=True)
class OutcomeView:
    """How the game ended (the final scores are the status's ``scores``)."""

    winner: Seat | None
    reason: Annotated[
        str, Field(description="board_full, resignation, agreement, time, grounding or margin")
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawnLine:
    line: tuple[Dot, Dot]
    player: Annotated[Seat | None, Field(description="who drew it (null: drawn at the start)")]


@dataclass(frozen=True, slots=True, kw_only=True)
class OwnedBox:
    box: Annotated[Dot, Field(description="the box whose top-left dot this is")]
    owner: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class BoxesBoard:
    """A Dots and Boxes position. Playable: every line between adjacent dots not in ``lines``."""

    game: Literal["boxes"] = "boxes"
    rows: int
    cols: int
    lines: Annotated[
        tuple[DrawnLine, ...], Field(description="drawn lines, start lines first, in order")
    ]
    boxes: tuple[OwnedBox, ...]
    last_move: LineMove | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Area:
    """A captured area: outlined by ``chain`` (the captor's marks, in order around it); every
    point of ``inside`` is dead, and a mark inside that is not the captor's is captured."""

    key: Annotated[Dot, Field(description="its first inside point in row-major order (unique)")]
    captor: Seat
    chain: tuple[Dot, ...]
    inside: tuple[Dot, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class House:
    """An empty enclosure: both players may still play inside it."""

    key: Annotated[
        Dot, Field(description="its first inside point in row-major order (unique with the owner)")
    ]
    owner: Seat
    chain: tuple[Dot, ...]
    inside: tuple[Dot, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DotsBoard:
    """A Dots position. Playable: every point with no mark that lies in no area."""

    game: Literal["dots"] = "dots"
    width: int
    height: int
    start: Literal["empty", "cross", "four_crosses"]
    win_margin: int | None
    grounding: bool
    marks: Annotated[
        tuple[tuple[int, int, Seat], ...], Field(description="[x, y, owner] of every mark")
    ]
    areas: tuple[Area, ...]
    houses: tuple[House, ...]
    ungrounded: Annotated[
        tuple[Dot, ...], Field(description="marks lost by grounding, when it ended so")
    ]
    last_move: PointMove | None


Board: TypeAlias = Annotated[BoxesBoard | DotsBoard, Field(discriminator="game")]

Allowed = tuple[tuple[Action, ...], tuple[Action, ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockView:
    """The players' clocks when the message was written: the time each has left and whose
    clock runs (null: none runs — before the first move, and once the game is over). A
    client counts the running one down from the moment it received the message."""

    left_ms: tuple[int, int]
    running: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeControlView:
    """A room's clocks: ``initial_seconds`` for each player's game and ``increment_seconds``
    added after each of their turns (live); or, ``per_move``, ``initial_seconds`` for every
    turn (correspondence)."""

    initial_seconds: float
    increment_seconds: float
    per_move: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class Status:
    """The parts of a room every event may change. An event carries all of them, so a
    client replaces the status it holds, except ``allowed``: sent when it changed, kept
    from before when absent."""

    to_move: Seat
    scores: tuple[int, int]
    outcome: Annotated[OutcomeView | None, Field(description="set once the game is over")]
    thinking: Annotated[bool, Field(description="the computer is about to move")]
    allowed: Annotated[
        Allowed | None,
        Field(
            exclude_if=_absent,
            description="what each seat may ask for besides moves; absent: unchanged",
        ),
    ] = None
    clock: Annotated[
        ClockView | None,
        Field(exclude_if=_absent, description="rooms with clocks: in every status"),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RoomSnapshot:
    """Everything needed to draw a room."""

    id: str
    game: GameName
    mode: Mode
    version: Annotated[int, Field(description="increases by one with every change of the room")]
    game_number: Annotated[
        int, Field(description="1 for the first game in this room, +1 per new game")
    ]
    level: Annotated[Level | None, Field(description="computer level (computer rooms), else null")]
    daily: Annotated[str | None, Field(description="UTC date of the daily board, if any")] = None
    computer_seat: Seat | None = None
    seats: tuple[SeatView, ...]
    spectators: Annotated[int, Field(ge=0, description="spectator websockets watching now")]
    requests: tuple[PendingRequestView, ...]
    move_count: Annotated[int, Field(description="moves played in this game")]
    status: Status
    board: Board
    expires_in_seconds: Annotated[
        int | None,
        Field(
            description="seconds before the room is deleted unless something happens; null: never"
        ),
    ]
    time_control: Annotated[
        TimeControlView | None, Field(description="the room's clocks; null: none")
    ] = None
    rated: Annotated[
        bool,
        Field(exclude_if=_absent, description="its games count for the bots' ladder (absent: no)"),
    ] = False


# -- events --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveEvent:
    """A move, and what it did. Dots and Boxes: the boxes the line ``closed``. Dots: the
    areas the mark ``captures`` (their marks inside that are not the captor's are captured
    now), the keys of older areas such a capture swallowed, and the houses it made or ended.
    Empty lists are left out."""

    kind: Literal["move"] = "move"
    seat: Seat
    move: WireMove
    move_id: Annotated[MoveId | None, Field(exclude_if=_absent)] = None
    closed: Annotated[
        tuple[Dot, ...], Field(exclude_if=_absent, description="boxes this line closed")
    ] = ()
    captures: Annotated[
        tuple[Area, ...], Field(exclude_if=_absent, description="areas this mark captured")
    ] = ()
    areas_removed: Annotated[
        tuple[Dot, ...],
        Field(exclude_if=_absent, description="keys of areas swallowed by a capture"),
    ] = ()
    houses_added: Annotated[tuple[House, ...], Field(exclude_if=_absent)] = ()
    houses_removed: Annotated[
        tuple[tuple[int, int, Seat], ...],
        Field(exclude_if=_absent, description="houses gone, as [x, y, owner]: key and owner"),
    ] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinedEvent:
    kind: Literal["joined"] = "joined"
    seat: Seat
    name: Annotated[
        str | None, Field(exclude_if=_absent, description="the display name the guest gave")
    ] = None
    bot: Annotated[bool, Field(exclude_if=_absent, description="the guest is a bot account")] = (
        False
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class RequestedEvent:
    kind: Literal["requested"] = "requested"
    request: RequestKind
    seat: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class DeclinedEvent:
    """A pending request was declined, withdrawn, or cancelled by a move (``seat`` null)."""

    kind: Literal["declined"] = "declined"
    request: RequestKind
    seat: Seat | None


@dataclass(frozen=True, slots=True, kw_only=True)
class NewBoardEvent:
    """A new game started (``restarted``) or moves were taken back (``undone``): the whole
    board, and the computer's seat, which a new game against the computer may swap."""

    kind: Literal["restarted", "undone"]
    game_number: int
    seat: Annotated[Seat | None, Field(exclude_if=_absent, description="undone: who asked")] = None
    count: Annotated[int, Field(description="undone: moves taken back (0: game restored)")] = 0
    computer_seat: Seat | None
    move_count: int
    board: Board


@dataclass(frozen=True, slots=True, kw_only=True)
class EndedEvent:
    """The game ended early: by resignation, by agreement, or a player's time ran out."""

    kind: Literal["ended"] = "ended"
    reason: Literal["resignation", "agreement", "time"]
    seat: Annotated[
        Seat | None,
        Field(description="who resigned or ran out of time (null for agreement)"),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelEvent:
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


@dataclass(frozen=True, slots=True, kw_only=True)
class Envelope:
    protocol: Literal[3] = PROTOCOL_VERSION
    room: str
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EventMessage(Envelope):
    """A room change; ``version`` is the version it leads to. Apply it if ``version`` is one
    more than yours, drop it if it is not more; if it is further ahead, send ``sync``."""

    type: Literal["event"] = "event"
    event: RoomEvent
    status: Status


@dataclass(frozen=True, slots=True, kw_only=True)
class WelcomeMessage(Envelope):
    """Reply to ``hello``: your seat (null: spectator), who is connected, and either the
    events since the version you sent (``snapshot`` null) or a ``snapshot``."""

    type: Literal["welcome"] = "welcome"
    seat: Seat | None
    role: Literal["player", "spectator"]
    seats: tuple[SeatView, ...]
    spectators: int
    events: Annotated[tuple[EventMessage, ...], Field(description="missed events, oldest first")]
    snapshot: RoomSnapshot | None
    clock: Annotated[
        ClockView | None,
        Field(
            exclude_if=_absent,
            description="rooms with clocks: the clocks as they are now (the statuses of missed "
            "events tell them as they were when each was written)",
        ),
    ] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResyncMessage(Envelope):
    """Reply to ``sync`` (or sent unasked when this socket missed events): the events after
    the version you hold, or a ``snapshot`` when they are not all kept (or you hold none)."""

    type: Literal["resync"] = "resync"
    ref: str | None = None
    events: tuple[EventMessage, ...]
    snapshot: RoomSnapshot | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PresenceMessage(Envelope):
    """Who is connected, or how many watch, changed (``version`` is the current one)."""

    type: Literal["presence"] = "presence"
    seats: tuple[SeatView, ...]
    spectators: Annotated[int, Field(ge=0)]


@dataclass(frozen=True, slots=True, kw_only=True)
class HintView:
    """The move the computer (hard) would make, and why where the theory gives a reason."""

    move: WireMove
    reason: Annotated[
        str | None,
        Field(
            description="why, as a stable code (null for a quiet move). Dots and Boxes: "
            "takes_free_boxes, takes_all, declines_to_keep_control, "
            "sacrifice_to_keep_control, gives_fewest_boxes, keeps_control, safe_line; "
            "Dots: captures, double_threat, blocks_capture, escapes"
        ),
    ] = None
    count: Annotated[
        int,
        Field(description="the boxes or marks the reason is about (taken, offered), else 0"),
    ] = 0


hint_adapter: TypeAdapter[HintView] = TypeAdapter(HintView)


@dataclass(frozen=True, slots=True, kw_only=True)
class LineValueView:
    """What one undrawn line is worth."""

    move: WireMove
    value: Annotated[
        int,
        Field(
            description="the margin of the remaining boxes the player to move gets by drawing "
            "this line and playing on perfectly (exact); the position's `value` minus it, "
            "halved, is what the line gives away in boxes"
        ),
    ]


@dataclass(frozen=True, slots=True, kw_only=True)
class LineValuesView:
    """The value of the current position and of each of its undrawn lines, as the game
    review gives them (``PositionAnalysis``): exact when the solver finished in time."""

    to_move: Seat
    exact: Annotated[bool, Field(description="`value` and `values` are the solver's exact results")]
    value: Annotated[
        int | None,
        Field(
            description="the margin of the remaining boxes the player to move gets with best "
            "play (exact) or is estimated to get"
        ),
    ]
    complete: Annotated[
        bool, Field(description="every undrawn line was valued in time (exact only)")
    ] = False
    best: Annotated[
        tuple[WireMove, ...],
        Field(description="exact: the best lines found; otherwise the hard level's choice"),
    ] = ()
    values: Annotated[
        tuple[LineValueView, ...],
        Field(description="exact only: each undrawn line valued in time; empty otherwise"),
    ] = ()


line_values_adapter: TypeAdapter[LineValuesView] = TypeAdapter(LineValuesView)


@dataclass(frozen=True, slots=True, kw_only=True)
class AckMessage(Envelope):
    """Your command was done (or had been: ``duplicate``). ``version``: the room's version
    after it; every event up to it was sent on this socket before the ack. A hint comes
    back in ``hint``, line values in ``line_values``."""

    type: Literal["ack"] = "ack"
    ref: str | None = None
    move_id: Annotated[MoveId | None, Field(exclude_if=_absent)] = None
    duplicate: Annotated[
        bool, Field(description="this move_id had been applied; nothing was done now")
    ] = False
    hint: Annotated[HintView | None, Field(exclude_if=_absent)] = None
    line_values: Annotated[LineValuesView | None, Field(exclude_if=_absent)] = None


@dataclass(frozen=True, slots=True, kw_only=True)
class PongMessage(Envelope):
    type: Literal["pong"] = "pong"
    ref: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorMessage(Envelope):
    """A refused message; the connection stays open. ``code`` is stable (see docs/api.md)."""

    type: Literal["error"] = "error"
    ref: str | None = None
    code: str
    message: str
    details: Annotated[dict[str, Any] | None, Field(exclude_if=_absent)] = None
    retry_after: Annotated[
        float | None,
        Field(exclude_if=_absent, description="rate_limited: seconds before a retry is taken"),
    ] = None


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
event_message_adapter: TypeAdapter[EventMessage] = TypeAdapter(EventMessage)

CLOSE_POLICY_VIOLATION = 1008
CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_TAKEN_OVER = 4001
CLOSE_BAD_TOKEN = 4003
CLOSE_ROOM_NOT_FOUND = 4004
CLOSE_HELLO_TIMEOUT = 4008
CLOSE_SLOW_CONSUMER = 4009
CLOSE_ROOM_GONE = 4010
