"""The computer's view of one position of a recorded game, for game review.

Dots and Boxes: the exact margin the player to move can force (the solver, within a time
budget), the best moves, and what the move actually played cost; where the solver does not
finish in time, the hard level's move and the value its search plays by, bounded by the
boxes left (an estimate, never marked exact).  Dots: the hard level's move.

Everything here is pure and CPU-bound (the server runs it in its AI worker pool) and uses
only the public entry points of :mod:`core.ai`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random
from typing import Generic, TypeVar

from core import ai
from core.ai.boxes import Budget, SearchTimeout, solve
from core.ai.boxes.analysis import bits, capture_choices, open_boxes, safe_mask, side_counts
from core.ai.boxes.levels import ControlSearch, control_memory
from core.ai.boxes.solver import INFINITY, Solver, sacrifices
from core.ai.boxes.tables import tables_for
from core.ai.player import Clock
from core.boxes.line import Line
from core.boxes.state import BoxesState
from core.dots.point import Point
from core.dots.state import DotsState
from core.errors import IllegalMove
from core.game import Player

MoveT = TypeVar("MoveT", Line, Point)


@dataclass(frozen=True, slots=True)
class Limits:
    """Seconds one position may take: the exact value (and again the played move's), the
    other moves' values; where the solver does not reach, hard's search for its move and
    the value it plays by (``hint_seconds`` and ``estimate_seconds`` together)."""

    exact_seconds: float = 1.0
    moves_seconds: float = 1.0
    hint_seconds: float = 0.15
    estimate_seconds: float = 0.1
    processor_seconds: bool = False
    """Whether the Dots and Boxes seconds are this process's processor time rather than
    time on the clock: an analysis in the background, at a low priority, then does the
    same work whatever else the machine is busy with (a player waiting wants the clock)."""

    def clock(self) -> Clock:
        return time.process_time if self.processor_seconds else time.perf_counter


LINE_MOVES = 5
"""Moves of the best line shown after a mistake: the best move and the best play after it."""
TABLE_LIMIT = 2_000_000
"""Positions an :class:`Endgames` table holds before it starts again (about 300 MB)."""


class Endgames:
    """The exact solver a review asks, with one table of solved positions per board size,
    kept across the lines of a position, the positions of a game and the games a process
    analyses: a position's entry holds whoever reaches it, so each search starts from
    what the ones before found. A search cut short by its budget leaves only bounds that
    hold, so a timeout spoils nothing."""

    def __init__(self, limit: int = TABLE_LIMIT) -> None:
        self.limit = limit
        self._solvers: dict[tuple[int, int], Solver] = {}

    def known(self) -> int:
        """How many positions the tables hold (bounds or values)."""
        return sum(len(solver.table) for solver in self._solvers.values())

    def value(
        self, state: BoxesState, budget: Budget, alpha: int = -INFINITY, beta: int = INFINITY
    ) -> int:
        """The exact margin of the remaining boxes the player to move can force
        (SearchTimeout when ``budget`` runs out); with a window (``alpha``, ``beta``), only
        a bound when the value is outside it: at most ``alpha`` if it says so, at least
        ``beta`` if it says so."""
        if state.is_over:
            raise IllegalMove("the game is over")
        size = (state.rows, state.cols)
        solver = self._solvers.get(size)
        if solver is None or len(solver.table) > self.limit:
            solver = self._solvers[size] = Solver(tables_for(state.geometry))
        solver.budget = budget
        return solver.value(state.drawn, alpha, beta)

    def value_from(self, state: BoxesState, reached: int, budget: Budget) -> int:
        """The exact value of ``state`` when one of its lines is known to reach ``reached``
        exactly (for the player to move in ``state``): the value is at least that, and a
        narrow search proving that no line does better costs far less than a full one."""
        if self.value(state, budget, reached, reached + 1) <= reached:
            return reached
        return self.value(state, budget, reached)  # above ``reached``: exact in (reached, ∞)


@dataclass(frozen=True, slots=True)
class PositionReview(Generic[MoveT]):
    """The computer's verdict on the position before a move (see the module docs)."""

    to_move: Player
    exact: bool
    """Whether ``value`` is the solver's exact result (always False for Dots)."""
    value: int | None
    """Dots and Boxes: the margin of the remaining boxes for the player to move; None: Dots."""
    best: tuple[MoveT, ...]
    """Exact: the best moves found (every one when ``complete``); else the hard level's
    move."""
    played: MoveT | None
    loss: int | None
    """Exact only: how many boxes of margin the played move gave away against best play
    (None too when valuing the played move ran out of time): twice the boxes it cost."""
    complete: bool = False
    """Whether ``best`` is every best move (each legal line was valued in time)."""
    values: tuple[tuple[MoveT, int], ...] = ()
    """Exact only: the exact value of each line valued in time, as ``value`` counts (the
    margin of the remaining boxes for the player to move, after drawing it)."""
    line: tuple[MoveT, ...] = ()
    """After a mistake: the best move and the best play that follows it (a few moves)."""

    @property
    def mistake(self) -> bool | None:
        """Whether the played move loses boxes against best play; None when the move was
        not judged (the position was only estimated, or valuing the move ran out of time)."""
        return None if self.loss is None else self.loss > 0

    @property
    def cost(self) -> int | None:
        """The boxes of the final score the played move gave away against best play (a
        margin moves by two for each box that changes hands)."""
        return None if self.loss is None else self.loss // 2


def move_value(
    state: BoxesState, line: Line, budget: Budget, endgames: Endgames | None = None
) -> int:
    """The exact margin of the remaining boxes, for the player to move in ``state``, after
    drawing ``line`` and playing on perfectly (SearchTimeout when ``budget`` runs out)."""
    after = state.play(line)
    gained = len(after.last_closed)
    if after.is_over:
        return gained
    rest = solve(after, budget) if endgames is None else endgames.value(after, budget)
    return gained + rest if after.to_move == state.to_move else gained - rest


def review_boxes(
    state: BoxesState,
    played: Line | None,
    limits: Limits,
    try_exact: bool = True,
    seed: int = 0,
    next_value: int | None = None,
    endgames: Endgames | None = None,
) -> PositionReview[Line]:
    """The exact value and best moves of ``state`` when the solver finishes within
    ``limits``, else an estimate and the hard level's move; and the cost of ``played``.
    ``next_value``, when known, is the exact value of the position ``played`` leads to
    (it spares solving that position again, and bounds this one's value from below, which
    a narrow search then proves); ``endgames`` keeps the solver's table between calls (a
    fresh one each time without it)."""
    if state.is_over:
        raise IllegalMove("the game is over")
    solver = endgames or Endgames()
    if try_exact:
        clock = limits.clock()
        budget = Budget(deadline=clock() + limits.exact_seconds, clock=clock)
        reached = None if played is None else _played_value(state, played, next_value)
        try:
            if reached is None:
                value = solver.value(state, budget)
            else:
                value = solver.value_from(state, reached, budget)
        except SearchTimeout:
            pass
        else:
            return _exact(state, played, value, limits, next_value, solver)
    seconds = limits.hint_seconds + limits.estimate_seconds
    best, value = hard_estimate(state, seed, seconds, limits.clock())
    return PositionReview(state.to_move, False, value, (best,), played, loss=None)


def _played_value(state: BoxesState, played: Line, next_value: int | None) -> int | None:
    """The exact value of drawing ``played`` in ``state``, when it follows from the exact
    value of the position it leads to (``next_value``) or the game ends with it."""
    after = state.play(played)
    gained = len(after.last_closed)
    if after.is_over:
        return gained
    if next_value is None:
        return None
    return gained + next_value if after.to_move == state.to_move else gained - next_value


def hard_estimate(
    state: BoxesState, seed: int = 0, seconds: float = 0.25, clock: Clock = time.perf_counter
) -> tuple[Line, int]:
    """Hard's move in ``state`` and the value its search plays by (the margin of the
    remaining boxes for the player to move, as the exact value counts), from the search
    hard runs when the exact solver does not finish: iterative deepening over the fight for
    control, leaves valued by their chains and loops, for about ``seconds``. An estimate,
    bounded by what the board allows: at most every box still open, either way."""
    t = tables_for(state.geometry)
    drawn = state.drawn
    counts = side_counts(t, drawn)
    rng = Random(seed)
    choices = capture_choices(t, drawn, counts)
    safe = bits(safe_mask(t, drawn, counts))
    rng.shuffle(safe)
    moves = choices or safe + sacrifices(t, drawn, counts)[0]
    budget = Budget(deadline=clock() + seconds, clock=clock)
    search = ControlSearch(t, budget, rng, control_memory(t, rng, drawn))
    found: tuple[int, int] | None = None
    depth = 1
    while True:
        search.cut = False
        try:
            found = search.best_move(drawn, depth, moves)
        except SearchTimeout:
            break
        if not search.cut:
            break
        moves.remove(found[0])
        moves.insert(0, found[0])
        depth += 1
    if found is None:
        # Not one ply in time (a starved process): the search's own reading of the
        # position as it stands, its safe lines filled in and its chains valued.
        search.budget = Budget()
        search.endgame.budget = Budget()
        found = (moves[0], search.value(drawn, 0, -INFINITY, INFINITY))
    line, value = found
    remaining = open_boxes(counts)
    return t.geo.lines[line], max(-remaining, min(remaining, value))


def _exact(
    state: BoxesState,
    played: Line | None,
    value: int,
    limits: Limits,
    next_value: int | None,
    endgames: Endgames,
) -> PositionReview[Line]:
    loss = None
    clock = limits.clock()
    values: dict[Line, int] = {}
    lines = list(state.legal_moves())
    if played is not None:
        lines.remove(played)  # valued first, on its own budget, so its loss is known
        known = _played_value(state, played, next_value)
        try:
            if known is None:
                deadline = clock() + limits.exact_seconds
                known = move_value(state, played, Budget(deadline, clock=clock), endgames)
            values[played] = known
            loss = value - known
        except SearchTimeout:
            pass
    budget = Budget(deadline=clock() + limits.moves_seconds, clock=clock)
    try:
        for line in lines:
            values[line] = move_value(state, line, budget, endgames)
    except SearchTimeout:
        pass
    complete = len(values) == len(lines) + (played is not None)
    best = sorted((line for line, got in values.items() if got == value), key=_line_order)
    follow: tuple[Line, ...] = ()
    if loss and best:
        follow = _best_line(state, best[0], limits, endgames)
    return PositionReview(
        state.to_move,
        True,
        value,
        tuple(best),
        played,
        loss,
        complete,
        tuple(sorted(values.items(), key=lambda item: _line_order(item[0]))),
        follow,
    )


def _best_line(
    state: BoxesState, first: Line, limits: Limits, endgames: Endgames
) -> tuple[Line, ...]:
    """``first`` and the best play after it, up to :data:`LINE_MOVES` moves (fewer when the
    game ends or the time of ``limits`` runs out): at each position, the first line in
    board order that keeps the position's exact value."""
    line = [first]
    current = state.play(first)
    clock = limits.clock()
    budget = Budget(deadline=clock() + limits.moves_seconds, clock=clock)
    try:
        while len(line) < LINE_MOVES and not current.is_over:
            target = endgames.value(current, budget)
            for move in sorted(current.legal_moves(), key=_line_order):
                if move_value(current, move, budget, endgames) == target:
                    break
            line.append(move)
            current = current.play(move)
    except SearchTimeout:
        pass
    return tuple(line)


def _line_order(line: Line) -> tuple[int, int, int, int]:
    (x1, y1), (x2, y2) = line[0], line[1]
    return (y1, x1, y2, x2)


def review_dots(
    state: DotsState, played: Point | None, limits: Limits, seed: int = 0
) -> PositionReview[Point]:
    """The hard level's move in ``state``, beside the move played."""
    if state.is_over:
        raise IllegalMove("the game is over")
    best = ai.hint(state, "hard", seed=seed, time_limit=limits.hint_seconds)
    return PositionReview(state.to_move, False, None, (best,), played, None)
