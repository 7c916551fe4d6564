"""The wire protocol of a room, as pydantic models shared by REST and the websocket.

Client messages form one discriminated union on ``type`` (:data:`ClientMessage`), parsed
once at the edge. Every server event is an envelope ``{"protocol": 1, "type": ..., "room":
..., "version": ...}`` (:data:`ServerMessage`); ``version`` is the room version the event
leads to (or reflects, for non-versioned events such as ``presence``, ``pong``, ``error``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION: Literal[1] = 1

GameName = Literal["boxes", "dots"]
Mode = Literal["computer", "local", "live", "correspondence"]
Level = Literal["easy", "normal", "hard"]
Seat = Literal[0, 1]
RequestKind = Literal["restart", "end"]

Coordinate = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
Dot = tuple[Coordinate, Coordinate]


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


# -- client → server ------------------------------------------------------------------


class ClientBase(Strict):
    ref: str | None = Field(
        default=None, max_length=64, description="echoed in the reply (error, hint, pong)"
    )


class Hello(ClientBase):
    """First message on a websocket: the seat token (null: watch as a spectator) and the
    last room version this client saw (null: send a full snapshot)."""

    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    since: int | None = Field(default=None, ge=0)


class MakeMove(ClientBase):
    """Make a move. ``version``: the room version the move was made against (a move made
    against an older version is refused with ``stale_version``); ``move_id``: a
    client-chosen id that makes a retry apply at most once."""

    type: Literal["move"]
    move: Move
    version: int | None = Field(default=None, ge=0)
    move_id: str | None = Field(default=None, min_length=1, max_length=64)


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
    """Computer and local rooms: take back your last move and the computer's replies."""

    type: Literal["undo"]


class Hint(ClientBase):
    """Computer and local rooms: ask which move the computer would make (no state change)."""

    type: Literal["hint"]


class SetLevel(ClientBase):
    """Computer rooms: change the computer's level; the board stays."""

    type: Literal["set_level"]
    level: Level


class NewGame(ClientBase):
    """Computer and local rooms: start a new game now; the level stays. ``first``
    (computer rooms) says who moves first in the new game; default: as before."""

    type: Literal["new_game"]
    first: Literal["human", "computer"] | None = None


class Ping(ClientBase):
    type: Literal["ping"]


RoomAction = Annotated[
    Offer | Accept | Decline | Resign | Undo | Hint | SetLevel | NewGame,
    Field(discriminator="type"),
]
"""What ``POST /api/rooms/{id}/actions`` accepts: every room action except moves."""

ClientMessage = Annotated[
    Hello | MakeMove | Offer | Accept | Decline | Resign | Undo | Hint | SetLevel | NewGame | Ping,
    Field(discriminator="type"),
]
client_message_adapter: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
room_action_adapter: TypeAdapter[RoomAction] = TypeAdapter(RoomAction)


# -- the room as clients see it ---------------------------------------------------------


class SeatView(BaseModel):
    """One of the two seats: who holds it and whether they are connected right now."""

    seat: Seat
    kind: Literal["human", "computer"]
    taken: bool = Field(description="a human holds this seat (always true for the computer)")
    connected: bool = Field(description="a websocket holds this seat now (computer: true)")
    colour: Literal["gold", "coral"]


class PendingRequest(BaseModel):
    kind: RequestKind
    seat: Seat = Field(description="who asked")


class OutcomeView(BaseModel):
    winner: Seat | None
    reason: str
    scores: tuple[int, int]


class RoomState(BaseModel):
    """A full snapshot of a room: enough to draw everything."""

    id: str
    game: GameName
    mode: Mode
    version: int = Field(description="increases by one with every change of the room")
    game_number: int = Field(description="1 for the first game in this room, +1 per restart")
    level: Level | None = Field(description="computer level (computer rooms), else null")
    daily: str | None = Field(default=None, description="UTC date of the daily board, if any")
    computer_seat: Seat | None = None
    seats: list[SeatView]
    to_move: Seat
    scores: tuple[int, int]
    is_over: bool
    outcome: OutcomeView | None
    moves: list[dict[str, Any]] = Field(description="moves of this game in wire form, in order")
    last_move: dict[str, Any] | None
    legal_moves: list[dict[str, Any]]
    requests: list[PendingRequest]
    board: dict[str, Any] = Field(
        description="the game's own view() for drawing (lines and boxes, or marks and captures)"
    )
    thinking: bool = Field(default=False, description="the computer is about to move")
    spectators: int = Field(
        ge=0, description="spectator websockets watching the room now (on any server process)"
    )
    expires_in_seconds: int | None = Field(description="null: the room never expires")


# -- room events (stored and replayed) --------------------------------------------------


class MovedEvent(BaseModel):
    kind: Literal["move"] = "move"
    seat: Seat
    move: dict[str, Any]
    move_id: str | None = None


class JoinedEvent(BaseModel):
    kind: Literal["joined"] = "joined"
    seat: Seat


class RequestedEvent(BaseModel):
    kind: Literal["requested"] = "requested"
    request: RequestKind
    seat: Seat


class DeclinedEvent(BaseModel):
    """A pending request was declined, withdrawn, or cancelled by a move."""

    kind: Literal["declined"] = "declined"
    request: RequestKind
    seat: Seat | None = Field(description="who declined (null: cancelled by a move)")


class RestartedEvent(BaseModel):
    kind: Literal["restarted"] = "restarted"
    game_number: int


class EndedEvent(BaseModel):
    """The game ended early: by resignation or by agreement."""

    kind: Literal["ended"] = "ended"
    reason: Literal["resignation", "agreement"]
    seat: Seat | None = Field(description="who resigned (null for agreement)")


class UndoneEvent(BaseModel):
    kind: Literal["undone"] = "undone"
    seat: Seat
    count: int = Field(description="how many moves were taken back")


class LevelEvent(BaseModel):
    kind: Literal["level"] = "level"
    level: Level


RoomEvent = Annotated[
    MovedEvent
    | JoinedEvent
    | RequestedEvent
    | DeclinedEvent
    | RestartedEvent
    | EndedEvent
    | UndoneEvent
    | LevelEvent,
    Field(discriminator="kind"),
]
room_event_adapter: TypeAdapter[RoomEvent] = TypeAdapter(RoomEvent)


class VersionedEvent(BaseModel):
    """One stored room change: the version it produced and what happened."""

    version: int
    event: RoomEvent


# -- server → client --------------------------------------------------------------------


class Envelope(BaseModel):
    protocol: Literal[1] = PROTOCOL_VERSION
    room: str
    version: int


class WelcomeMessage(Envelope):
    """Reply to ``hello``: your seat (null: spectator), the events you missed since the
    version you sent (empty if you sent none or too many were missed — then rely on
    ``state``), and the current state."""

    type: Literal["welcome"] = "welcome"
    seat: Seat | None
    role: Literal["player", "spectator"]
    missed: list[VersionedEvent]
    complete: bool = Field(description="missed holds every event since `since`")
    state: RoomState


class EventMessage(Envelope):
    """A room change, with the state after it. Drop it if ``version`` ≤ the version you
    have; if it is more than one ahead, you missed something: reconnect with ``since``."""

    type: Literal["event"] = "event"
    event: RoomEvent
    state: RoomState


class PresenceMessage(Envelope):
    """Who is connected, or how many watch, changed (not a room change: ``version`` is the
    current one)."""

    type: Literal["presence"] = "presence"
    seats: list[SeatView]
    spectators: int = Field(ge=0, description="spectator websockets watching the room now")


class HintMessage(Envelope):
    type: Literal["hint"] = "hint"
    ref: str | None = None
    move: dict[str, Any]


class AckMessage(Envelope):
    """Reply to a ``move`` whose ``move_id`` was already applied (a retry after a lost reply):
    nothing was played again. ``version`` is the room's current version; if you hold an
    older one, catch up with ``since``. A move that is applied gets no ack: its ``event``
    (carrying the same ``move_id``) is the reply."""

    type: Literal["ack"] = "ack"
    ref: str | None = None
    move_id: str | None = None
    duplicate: bool = True


class PongMessage(Envelope):
    type: Literal["pong"] = "pong"
    ref: str | None = None


class ErrorMessage(Envelope):
    """A refused message; the connection stays open. ``code`` is stable (see docs/api.md)."""

    type: Literal["error"] = "error"
    ref: str | None = None
    code: str
    message: str
    details: dict[str, Any] | None = None


ServerMessage = Annotated[
    WelcomeMessage
    | EventMessage
    | PresenceMessage
    | HintMessage
    | AckMessage
    | PongMessage
    | ErrorMessage,
    Field(discriminator="type"),
]

server_message_adapter: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)

CLOSE_TAKEN_OVER = 4001
CLOSE_BAD_TOKEN = 4003
CLOSE_ROOM_NOT_FOUND = 4004
CLOSE_HELLO_TIMEOUT = 4008
CLOSE_SLOW_CONSUMER = 4009
CLOSE_ROOM_GONE = 4010
