"""What every game state offers, so the AI, the server and the tests treat both games alike.

Both games' states follow one pattern: a state is an immutable value whose ``play``
returns a new state.  It keeps its fields in ``__slots__`` (so nothing can be added to
it), under private names set by its constructor, and shows them only through read-only
properties and methods that return new states.  Players are ``0`` and ``1``
(:data:`Player`, :func:`other`); a finished game has an :class:`Outcome`; a game ended
early by a player or by agreement has an :class:`Ending`.  :class:`GameState` is the
protocol both states satisfy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, Self, TypeVar

from core.errors import IllegalMove, InvalidMove, InvalidOptions

Player = Literal[0, 1]
"""Seat number: ``0`` moves first (gold in Dots and Boxes, pen in Dots), ``1`` second."""

PLAYERS: tuple[Player, Player] = (0, 1)

EndReason = Literal["board_full", "resignation", "agreement", "grounding", "margin", "time"]
EndingKind = Literal["resignation", "agreement", "grounding", "time"]


def other(player: Player) -> Player:
    """The other player: 1 for 0 and 0 for 1."""
    return 1 if player == 0 else 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw), why, and the final score."""

    winner: Player | None
    reason: EndReason
    scores: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The outcome as plain JSON data."""
        return {"winner": self.winner, "reason": self.reason, "scores": list(self.scores)}


@dataclass(frozen=True, slots=True)
class Ending:
    """A transition that ended the game before the board was full: a resignation, an
    agreement, a player's time running out, or (in Dots) grounding; ``player`` is who
    resigned, ran out of time or grounded.
    """

    kind: EndingKind
    player: Player | None = None


def ending_to_json(ending: Ending) -> dict[str, Any]:
    """The wire form of an ending: ``{"type": kind}``, with ``"player"`` when it has one."""
    if ending.player is None:
        return {"type": ending.kind}
    return {"type": ending.kind, "player": ending.player}


def ending_from_json(data: object, *kinds: EndingKind) -> Ending:
    """Read an ending made by :func:`ending_to_json`: an agreement, a resignation, a loss
    on time, or one of ``kinds``; InvalidOptions for anything else.
    """
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind == "agreement" and isinstance(data, Mapping) and set(data) == {"type"}:
        return Ending("agreement")
    if (
        (kind in ("resignation", "time") or kind in kinds)
        and isinstance(data, Mapping)
        and set(data) == {"type", "player"}
        and data["player"] in (0, 1)
    ):
        return Ending(kind, as_player(data["player"]))
    raise InvalidOptions(f"unknown game ending {data!r}")


def leader(scores: tuple[int, int]) -> Player | None:
    """The player with the higher score, or ``None`` when the scores are level."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


def as_player(value: object) -> Player:
    """``value`` as a player, or InvalidMove when it is not 0 or 1."""
    if value == 0 and type(value) is int:
        return 0
    if value == 1 and type(value) is int:
        return 1
    raise InvalidMove(f"player is 0 or 1, not {value!r}")


MoveT = TypeVar("MoveT")


class PlayedGame(Generic[MoveT]):
    """What both games' states keep alike: the moves played, how the game ended early,
    and value semantics (two states are equal when their records are).

    The moves live in one list that the states of a game share: a state's moves are its
    first ``_length`` entries, a child appends its own move when its parent's moves end
    the list and copies them otherwise.
    """

    __slots__ = ("_history", "_length")

    _history: list[MoveT]
    _length: int

    @property
    def moves(self) -> tuple[MoveT, ...]:
        """The moves played so far, in order (what a game starts with is not a move)."""
        return tuple(self._history[: self._length])

    @property
    def last_move(self) -> MoveT | None:
        """The last move played, if any."""
        return self._history[self._length - 1] if self._length else None

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, for whatever reason."""
        raise NotImplementedError

    @property
    def winner(self) -> Player | None:
        """The winner of a finished game; None while playing or for a draw."""
        outcome = self.outcome()
        return None if outcome is None else outcome.winner

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        raise NotImplementedError

    def resign(self, player: Player) -> Self:
        """``player`` gives up: the game ends at once and the other player wins."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._ended(Ending("resignation", as_player(player)))

    def lose_on_time(self, player: Player) -> Self:
        """``player``'s time ran out: the game ends at once and the other player wins."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._ended(Ending("time", as_player(player)))

    def end_by_agreement(self) -> Self:
        """Both players agreed to stop: the game ends (how the score counts is the game's)."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._ended(Ending("agreement"))

    def _ended(self, ending: Ending) -> Self:
        raise NotImplementedError

    def _history_with(self, move: MoveT) -> list[MoveT]:
        """The shared list of moves with ``move`` after this state's moves."""
        history = self._history
        if len(history) != self._length:
            history = history[: self._length]
        history.append(move)
        return history

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, PlayedGame)
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


class GameState(Protocol[MoveT]):
    """An immutable position of either game; ``play`` returns a new state."""

    @property
    def to_move(self) -> Player: ...

    @property
    def scores(self) -> tuple[int, int]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> Player | None: ...

    @property
    def moves(self) -> tuple[MoveT, ...]: ...

    @property
    def last_move(self) -> MoveT | None: ...

    @property
    def ending(self) -> Ending | None: ...

    def movers(self) -> list[Player]: ...

    def last_move_by(self, player: Player) -> int | None: ...

    def outcome(self) -> Outcome | None: ...

    def is_legal(self, move: MoveT) -> bool: ...

    def play(self, move: MoveT) -> Self: ...

    def legal_moves(self) -> Sequence[MoveT]: ...

    def resign(self, player: Player) -> Self: ...

    def lose_on_time(self, player: Player) -> Self: ...

    def end_by_agreement(self) -> Self: ...

    def move_to_json(self, move: MoveT) -> dict[str, Any]: ...

    def move_from_json(self, data: Mapping[str, Any]) -> MoveT: ...

    def to_json(self) -> dict[str, Any]: ...
