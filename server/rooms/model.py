"""The room domain: what a room is, what may be asked of it and what can happen to it.

Plain immutable values, no I/O and no wire schemas: :mod:`server.rooms.rules` decides on
them, :mod:`server.rooms.repository` stores them and :mod:`server.rooms.views` turns them
into what clients receive.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, Literal

from core.boxes import Line
from core.dots import Point
from core.game import GameState, Player
from server.refusals import Refusal
from server.rooms.clock import Clock, TimeControl

GameName = Literal["boxes", "dots"]
Mode = Literal["computer", "local", "live", "correspondence"]
Level = Literal["easy", "normal", "hard"]
RequestKind = Literal["restart", "end", "takeback"]
SeatKind = Literal["human", "computer"]
EndReason = Literal["resignation", "agreement", "time"]
FirstMover = Literal["me", "opponent", "random"]
"""Who moves first, from the asker's side: ``me``, ``opponent`` (the computer or the
guest) or ``random`` (drawn by lot)."""

FRIEND_MODES: tuple[Mode, ...] = ("live", "correspondence")
"""Two people, each holding a seat's token."""
ONE_HUMAN_MODES: tuple[Mode, ...] = ("computer", "local")
"""One person: against the computer, or both seats on one device."""

AnyGame = GameState[Any]
Move = Line | Point

Action = Literal[
    "undo",
    "hint",
    "set_level",
    "new_game",
    "offer_restart",
    "offer_end",
    "accept_restart",
    "accept_end",
    "decline_restart",
    "decline_end",
    "offer_takeback",
    "accept_takeback",
    "decline_takeback",
    "resign",
]
"""What a seat may ask for besides a move; computed by :func:`server.rooms.rules.allowed`."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits on a seat: a human holding a token (``token_hash`` None: free) or the computer.
    A seat may carry the display name its holder gave, and whether the holder is a bot
    account (then ``name`` is the bot's account name)."""

    kind: SeatKind
    token_hash: str | None = None
    name: str | None = None
    bot: bool = False

    @property
    def taken(self) -> bool:
        return self.kind == "computer" or self.token_hash is not None


@dataclass(frozen=True, slots=True)
class PendingRequest:
    kind: RequestKind
    seat: Player


@dataclass(frozen=True, slots=True)
class PreviousGame:
    """The game a "new game" replaced in a computer or local room, kept so undo can bring it
    back."""

    game_number: int
    seats: tuple[SeatRecord, SeatRecord]
    game: AnyGame


@dataclass(frozen=True, slots=True)
class Room:
    """Everything about a room except its version (kept by the store) and presence."""

    id: str
    game_name: GameName
    mode: Mode
    seats: tuple[SeatRecord, SeatRecord]
    setup: dict[str, Any]
    """The record of the starting position (options and start lines or marks)."""
    game: AnyGame
    level: Level | None = None
    daily: str | None = None
    """UTC date (ISO) of the daily board this room plays, if any."""
    daily_player: str | None = None
    """Hash of the anonymous id of the browser that plays the daily board."""
    invite_code: str | None = None
    game_number: int = 1
    requests: tuple[PendingRequest, ...] = ()
    previous: PreviousGame | None = None
    ttl_seconds: int = 0
    """Seconds of inactivity before the room is deleted; 0: never."""
    created_at: float = 0.0
    clock: Clock | None = None
    """Friend rooms with a time control: the players' clocks in the current game."""
    rated: bool = False
    """Its games count for the bots' ladder (bots only: against a bot or a computer level)."""

    def with_game(self, game: AnyGame, clock: Clock | None) -> Room:
        """This room with ``game`` in play, its clocks at ``clock`` and no request pending (a
        move cancels them): what ``dataclasses.replace`` gives, made directly since every
        move makes one."""
        return Room(
            id=self.id,
            game_name=self.game_name,
            mode=self.mode,
            seats=self.seats,
            setup=self.setup,
            game=game,
            level=self.level,
            daily=self.daily,
            daily_player=self.daily_player,
            invite_code=self.invite_code,
            game_number=self.game_number,
            requests=(),
            previous=self.previous,
            ttl_seconds=self.ttl_seconds,
            created_at=self.created_at,
            clock=clock,
            rated=self.rated,
        )

    @property
    def computer_seat(self) -> Player | None:
        for index, seat in enumerate(self.seats):
            if seat.kind == "computer":
                return 0 if index == 0 else 1
        return None

    @property
    def is_friend_room(self) -> bool:
        return self.mode in FRIEND_MODES

    @property
    def has_one_human(self) -> bool:
        """One person plays here (against the computer, or both seats on one device)."""
        return self.mode in ONE_HUMAN_MODES

    def presence_slot(self, seat: Player) -> Player:
        """Where the presence of whoever holds ``seat`` is kept: by seat in friend rooms;
        in a room of one person, always slot 0, since a new game may swap their seat."""
        return 0 if self.has_one_human else seat

    @property
    def guest_joined(self) -> bool:
        first, second = self.seats
        return first.taken and second.taken

    @property
    def computer_to_move(self) -> bool:
        seat = self.computer_seat
        return seat is not None and not self.game.is_over and self.game.to_move == seat


@dataclass(frozen=True, slots=True)
class Holder:
    """Who takes a seat when a room is made: a display name (None: none given) and whether
    the holder is a bot account."""

    name: str | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class RoomOptions:
    """A new room as asked for, already validated at the edge."""

    game: str
    mode: Mode | None
    level: Level
    first: FirstMover | None
    """None: the mode's default."""
    options: dict[str, Any]
    daily: bool = False
    daily_player: str | None = None
    """The hash of the browser's anonymous id (the daily board counts one result a day)."""
    position: AnyGame | None = None
    """Continue from here: the game so far (its moves are the room's history); None: a new
    game set up by ``options``."""
    time_control: TimeControl | None = None
    """Friend rooms: the players' clocks (live: a time for the game and an increment;
    correspondence: a time for every move); None: no clocks."""
    holder: Holder = Holder()
    """Who the creator is."""
    guest: Holder | None = None
    """Friend rooms made from an accepted challenge: the other seat is taken at once, by
    this holder (its token hash comes in the opening)."""
    rated: bool = False


@dataclass(frozen=True, slots=True)
class Opening:
    """What a new room gets from outside the rules: ids, the creator's token hash, the
    coin for "random" (0: the creator moves first), the date and the time to live."""

    room_id: str
    invite_code: str
    token_hash: str
    coin: Player
    today: date
    now: float
    room_ttl: int
    correspondence_ttl: int
    guest_token_hash: str | None = None
    """The token hash of the guest's seat, when the room is made with both seats taken."""


# -- commands ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayMove:
    move: Move
    move_id: str | None = None
    version: int | None = None
    """The room version the move was made against (None: whatever the room is at)."""


@dataclass(frozen=True, slots=True)
class Join:
    token_hash: str
    name: str | None = None
    """The display name the guest gave, if any."""


@dataclass(frozen=True, slots=True)
class Offer:
    kind: RequestKind


@dataclass(frozen=True, slots=True)
class Accept:
    kind: RequestKind


@dataclass(frozen=True, slots=True)
class Decline:
    kind: RequestKind


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class SetLevel:
    level: Level


@dataclass(frozen=True, slots=True)
class NewGame:
    first: Literal["me", "opponent"] | None = None
    """Computer rooms: who moves first in the new game, from the asker's side; None: as
    before."""


Command = PlayMove | Join | Offer | Accept | Decline | Resign | Undo | SetLevel | NewGame


# -- events -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveMade:
    seat: Player
    move: Move
    move_id: str | None = None


@dataclass(frozen=True, slots=True)
class Joined:
    seat: Player


@dataclass(frozen=True, slots=True)
class Requested:
    kind: RequestKind
    seat: Player


@dataclass(frozen=True, slots=True)
class Declined:
    """A pending request was declined or withdrawn (``seat``), or cancelled by a move (None)."""

    kind: RequestKind
    seat: Player | None


@dataclass(frozen=True, slots=True)
class Restarted:
    game_number: int


@dataclass(frozen=True, slots=True)
class Ended:
    reason: EndReason
    seat: Player | None


@dataclass(frozen=True, slots=True)
class Undone:
    seat: Player
    count: int
    """Moves taken back; 0 when the undo brought back the game a "new game" replaced."""


@dataclass(frozen=True, slots=True)
class LevelChanged:
    level: Level


Event = MoveMade | Joined | Requested | Declined | Restarted | Ended | Undone | LevelChanged


# -- decisions --------------------------------------------------------------------------

HistoryOp = Literal["keep", "append", "rewrite"]


@dataclass(frozen=True, slots=True)
class Change:
    """What a command does: the room after it and what happened, in order (each event takes
    the next version). ``history`` says how the stored move list changes: ``append`` the
    move just played, or ``rewrite`` it (undo, new game)."""

    room: Room
    events: tuple[Event, ...]
    history: HistoryOp = "keep"
    move_id: str | None = None
    require_present: Player | None = None
    """Live rooms: the seat that must be connected at the instant of the commit."""


Decision = Change | Refusal | None
"""None: nothing to do (the command asks for what already is). A refusal is returned, not
raised: the service decides what to do with it."""
