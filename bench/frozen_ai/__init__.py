"""The computer players of both games, behind one call::

    from core import ai
    move = ai.choose_move(state, level="hard", seed=1, time_limit=1.0)

``choose_move`` is pure and CPU-bound: the same state, level and seed give the same move
(as long as the search is not cut short by the clock), and it returns within about the
time limit. ``hint`` is the move the computer would play, shown to a human on request;
``hint_with_reason`` adds why, as a reason code where the theory gives one (Dots and Boxes:
see :mod:`frozen_ai.boxes.reasons`).
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random
from typing import Generic, TypeVar, overload

from core.boxes.line import Line
from core.boxes.state import BoxesState
from core.dots.point import Point
from core.dots.state import DotsState
from core.errors import IllegalMove, InvalidOptions
from frozen_ai import boxes, dots
from frozen_ai.boxes.reasons import REASONS, reason_for
from frozen_ai.boxes.tables import tables_for
from frozen_ai.player import LEVELS, check_level

DEFAULT_TIME_LIMIT = 1.0


def _check(state: BoxesState | DotsState, level: str, time_limit: float) -> None:
    """Refuse an unknown level, a non-positive time limit or a finished game."""
    check_level(level)
    if not time_limit > 0:
        raise InvalidOptions(f"time_limit must be positive, not {time_limit!r}")
    if state.is_over:
        raise IllegalMove("the game is over")


@overload
def choose_move(
    state: BoxesState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Line: ...
@overload
def choose_move(
    state: DotsState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Point: ...
def choose_move(
    state: BoxesState | DotsState,
    level: str = "hard",
    seed: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Line | Point:
    """The move the computer at ``level`` plays in ``state`` (a ``Line`` or a ``dots.Point``).

    Raises InvalidOptions for an unknown level or a non-positive time limit and IllegalMove
    once the game is over. ``seed`` makes the choice reproducible.
    """
    _check(state, level, time_limit)
    rng = Random(seed)
    if isinstance(state, BoxesState):
        return boxes.choose(state, level, rng, time_limit)
    if isinstance(state, DotsState):
        return dots.choose(state, level, rng, time_limit)
    raise InvalidOptions(f"the computer cannot play {type(state).__name__}")


@overload
def hint(
    state: BoxesState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Line: ...
@overload
def hint(
    state: DotsState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Point: ...
def hint(
    state: BoxesState | DotsState,
    level: str = "hard",
    seed: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Line | Point:
    """The move the computer would suggest: what ``level`` (hard unless the room says) plays."""
    return choose_move(state, level, seed=seed, time_limit=time_limit)


Move = TypeVar("Move", Line, Point)


@dataclass(frozen=True, slots=True)
class Hint(Generic[Move]):
    """A suggested move and why: a code of ``REASONS`` (None if the theory gives none)."""

    move: Move
    reason: str | None
    boxes: int = 0
    """How many boxes the reason is about (taken, handed over, offered), else 0."""


@overload
def hint_with_reason(
    state: BoxesState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Hint[Line]: ...
@overload
def hint_with_reason(
    state: DotsState, level: str = ..., seed: int | None = ..., time_limit: float = ...
) -> Hint[Point]: ...
def hint_with_reason(
    state: BoxesState | DotsState,
    level: str = "hard",
    seed: int | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Hint[Line] | Hint[Point]:
    """The hint of :func:`hint` with the reason for it where the theory (Dots and Boxes) or
    the fight around the last marks (Dots: captures, double threat, block, escape) gives one.

    The reason costs at most a fifth of a second on top of the move's own time limit.
    """
    if isinstance(state, BoxesState):
        line = choose_move(state, level, seed=seed, time_limit=time_limit)
        geo = state.geometry
        why = reason_for(tables_for(geo), state.drawn, geo.index_of[line])
        return Hint(line, why.code, why.boxes)
    _check(state, level, time_limit)
    if level != "hard":
        return Hint(choose_move(state, level, seed=seed, time_limit=time_limit), None)
    found = dots.hint(state, Random(seed), time_limit)
    return Hint(found.point, found.reason, found.marks)


__all__ = [
    "DEFAULT_TIME_LIMIT",
    "LEVELS",
    "REASONS",
    "Hint",
    "choose_move",
    "hint",
    "hint_with_reason",
]
