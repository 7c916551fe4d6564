"""The computer's view of one position of a recorded game, for game review.

Dots and Boxes: the exact margin the player to move can force (the solver, within a time
budget), the best moves, and what the move actually played cost; where the solver does not
finish in time, an estimate and the hard level's move instead.  Dots: the hard level's move.

Everything here is pure and CPU-bound (the server runs it in its AI worker pool) and uses
only the public entry points of :mod:`core.ai`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Generic, TypeVar

from core import ai
from core.ai.boxes import Budget, SearchTimeout, solve
from core.boxes.line import Line
from core.boxes.state import BoxesState
from core.dots.point import Point
from core.dots.state import DotsState
from core.errors import IllegalMove
from core.game import Player

MoveT = TypeVar("MoveT", Line, Point)

ESTIMATE_PLAYOUTS = 16
"""Playouts averaged for an estimate where the solver does not reach."""
PLAYOUT_EXACT_LINES = 28
"""Undrawn lines at which a playout hands over to the solver (milliseconds from there)."""
PLAYOUT_NODES = 20_000
"""Node budget of the solver at the end of a playout (past it the playout goes on)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Seconds one position may take: the exact value (and again the played move's), the
    other moves' values, the hint."""

    exact_seconds: float = 1.0
    moves_seconds: float = 1.0
    hint_seconds: float = 0.15


@dataclass(frozen=True, slots=True)
class PositionReview(Generic[MoveT]):
    """The computer's verdict on the position before a move (see the module docs)."""

    to_move: Player
    exact: bool
    """Whether ``value`` is the solver's exact result (always False for Dots)."""
    value: int | None
    """Dots and Boxes: the margin of the remaining boxes for the player to move; None: Dots."""
    best: tuple[MoveT, ...]
    """Exact: the best moves found (every best move unless the budget ran out); else the
    hard level's move."""
    played: MoveT | None
    loss: int | None
    """Exact only: how many boxes of margin the played move gave away against best play
    (None too when valuing the played move ran out of time)."""

    @property
    def mistake(self) -> bool:
        """Whether the played move loses boxes against best play."""
        return self.loss is not None and self.loss > 0


def move_value(state: BoxesState, line: Line, budget: Budget) -> int:
    """The exact margin of the remaining boxes, for the player to move in ``state``, after
    drawing ``line`` and playing on perfectly (SearchTimeout when ``budget`` runs out)."""
    after = state.play(line)
    gained = len(after.last_closed)
    if after.is_over:
        return gained
    rest = solve(after, budget)
    return gained + rest if after.to_move == state.to_move else gained - rest


def review_boxes(
    state: BoxesState,
    played: Line | None,
    limits: Limits,
    try_exact: bool = True,
    seed: int = 0,
    next_value: int | None = None,
) -> PositionReview[Line]:
    """The exact value and best moves of ``state`` when the solver finishes within
    ``limits``, else an estimate and the hard level's move; and the cost of ``played``.
    ``next_value``, when known, is the exact value of the position ``played`` leads to
    (it spares solving that position again)."""
    if state.is_over:
        raise IllegalMove("the game is over")
    if try_exact:
        try:
            value = solve(state, Budget(deadline=time.perf_counter() + limits.exact_seconds))
        except SearchTimeout:
            pass
        else:
            return _exact(state, played, value, limits, next_value)
    best = ai.hint(state, "hard", seed=seed, time_limit=limits.hint_seconds)
    return PositionReview(state.to_move, False, estimate(state, seed), (best,), played, loss=None)


def _exact(
    state: BoxesState,
    played: Line | None,
    value: int,
    limits: Limits,
    next_value: int | None,
) -> PositionReview[Line]:
    loss = None
    best: list[Line] = []
    lines = list(state.legal_moves())
    if played is not None:
        lines.remove(played)  # valued first, on its own budget, so its loss is known
        after = state.play(played)
        try:
            if next_value is not None and not after.is_over:
                gained = len(after.last_closed)
                same = after.to_move == state.to_move
                loss = value - (gained + next_value if same else gained - next_value)
            else:
                deadline = time.perf_counter() + limits.exact_seconds
                loss = value - move_value(state, played, Budget(deadline=deadline))
        except SearchTimeout:
            pass
        if loss == 0:
            best.append(played)
    budget = Budget(deadline=time.perf_counter() + limits.moves_seconds)
    try:
        for line in lines:
            if move_value(state, line, budget) == value:
                best.append(line)
    except SearchTimeout:
        pass
    return PositionReview(
        state.to_move, True, value, tuple(sorted(best, key=_line_order)), played, loss
    )


def _line_order(line: Line) -> tuple[int, int, int, int]:
    (x1, y1), (x2, y2) = line[0], line[1]
    return (y1, x1, y2, x2)


def estimate(state: BoxesState, seed: int = 0) -> int:
    """A rough margin of the remaining boxes for the player to move: the mean of a few
    playouts at the normal level, each finished exactly once the solver is quick."""
    total = 0
    for playout in range(ESTIMATE_PLAYOUTS):
        total += _playout(state, seed * ESTIMATE_PLAYOUTS + playout)
    return round(total / ESTIMATE_PLAYOUTS)


def _playout(state: BoxesState, seed: int) -> int:
    me = state.to_move
    base = state.scores[me] - state.scores[1 - me]
    current = state
    while not current.is_over:
        if len(current.legal_moves()) <= PLAYOUT_EXACT_LINES:
            try:
                rest = solve(current, Budget(node_limit=PLAYOUT_NODES))
            except SearchTimeout:
                pass
            else:
                mine = current.scores[me] - current.scores[1 - me]
                return mine - base + (rest if current.to_move == me else -rest)
        current = current.play(ai.choose_move(current, "normal", seed=seed, time_limit=1.0))
        seed += 1
    return current.scores[me] - current.scores[1 - me] - base


def review_dots(
    state: DotsState, played: Point | None, limits: Limits, seed: int = 0
) -> PositionReview[Point]:
    """The hard level's move in ``state``, beside the move played."""
    if state.is_over:
        raise IllegalMove("the game is over")
    best = ai.hint(state, "hard", seed=seed, time_limit=limits.hint_seconds)
    return PositionReview(state.to_move, False, None, (best,), played, None)
