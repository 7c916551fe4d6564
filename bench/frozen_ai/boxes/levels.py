"""The three Dots and Boxes computer players: easy, normal and hard.

Each is a function of (bitmask tables, drawn lines, random source, time budget) returning a
line number; :func:`choose` wraps them for a :class:`~core.boxes.BoxesState`.

* **easy** takes a box now and then, often plays at random, mostly avoids third sides.
* **normal** takes what is safe to take, never hands out a box while a safe line exists,
  gives the shortest chain when it must, and double-deals when keeping control pays.
* **hard** searches: exactly (see :mod:`frozen_ai.boxes.solver`) whenever the position is
  small enough to finish in time — always on 3×3, and once no safe line is left on 5×5 —
  and otherwise a depth-limited search of the fight for control, scoring positions by
  filling in the remaining safe lines and valuing the chains and loops that result.
"""

from __future__ import annotations

import time
from random import Random

from core.boxes.line import Line
from core.boxes.state import BoxesState
from core.errors import IllegalMove
from frozen_ai.boxes.analysis import (
    bits,
    capture_choices,
    components,
    safe_mask,
    side_counts,
    unsafe_mask,
)
from frozen_ai.boxes.endgame import simple_endgame_value
from frozen_ai.boxes.search import draw
from frozen_ai.boxes.solver import (
    INFINITY,
    Budget,
    SearchTimeout,
    Solver,
    sacrifices,
    take_forced,
)
from frozen_ai.boxes.tables import Tables, tables_for
from frozen_ai.player import LEVELS, Clock, check_level

EASY_TAKES = 0.75
"""How often easy takes a box it could take."""
EASY_CARELESS = 0.2
"""How often easy plays any line at all instead of looking for a safe one."""

ENDGAME_NODES = 3000
"""Node budget of the exact search hard's control search spends on one endgame leaf."""
SEARCH_SHARE = 0.75
"""Share of the time limit hard spends searching; the rest covers set-up and slack."""
EXACT_SHARE = 0.5
"""Share of hard's search time tried on an exact solve while safe lines remain."""
ENDGAME_EXACT_SHARE = 0.8
"""Share of hard's search time tried on an exact solve once no safe line is left."""
EXACT_FREE_LINES = 26
"""Hard tries an exact solve while safe lines remain only with at most this many free lines."""


def choose(
    state: BoxesState,
    level: str,
    rng: Random,
    time_limit: float,
    clock: Clock = time.perf_counter,
) -> Line:
    """The line the computer at ``level`` draws in ``state``."""
    check_level(level)
    if state.is_over:
        raise IllegalMove("the game is over")
    t = tables_for(state.geometry)
    if level == "easy":
        line = easy_line(t, state.drawn, rng)
    elif level == "normal":
        line = normal_line(t, state.drawn, rng)
    else:
        line = hard_line(t, state.drawn, rng, time_limit, clock)
    return t.geo.lines[line]


def capture_lines(t: Tables, drawn: int, counts: list[int]) -> list[int]:
    """The undrawn lines that complete a box right now."""
    return [(t.sides[box] & ~drawn).bit_length() - 1 for box, c in enumerate(counts) if c == 3]


def easy_line(t: Tables, drawn: int, rng: Random) -> int:
    """Easy: usually takes an offered box, often plays carelessly, else plays a safe line."""
    counts = side_counts(t, drawn)
    free = bits(t.geo.all_lines & ~drawn)
    takes = capture_lines(t, drawn, counts)
    if takes and rng.random() < EASY_TAKES:
        return rng.choice(takes)
    if rng.random() < EASY_CARELESS:
        return rng.choice(free)
    safe = bits(safe_mask(t, drawn, counts))
    return rng.choice(safe or free)


def chain_value_estimate(t: Tables, drawn: int, counts: list[int]) -> int:
    """Value for the player to move when no line is safe, treating every chain as independent.

    Exact when no chain touches a junction; otherwise it ignores that chains meeting at a
    junction merge once the junction fills up, which is a fair first guess.
    """
    chains, loops = components(t, drawn, counts)
    return simple_endgame_value(
        tuple(chain.length for chain in chains), tuple(loop.length for loop in loops)
    )


def take_everything(t: Tables, drawn: int) -> tuple[int, int]:
    """Draw capturing lines until nothing is capturable; return lines drawn and boxes taken."""
    taken = 0
    while True:
        counts = side_counts(t, drawn)
        takes = capture_lines(t, drawn, counts)
        if not takes:
            return drawn, taken
        drawn, completed = draw(t.geo, drawn, takes[0])
        taken += completed


def handout_size(t: Tables, drawn: int, decline: int) -> int:
    """How many boxes a double-dealing line leaves capturable (2 for a chain, 4 for a loop)."""
    after, _ = draw(t.geo, drawn, decline)
    return side_counts(t, after).count(3)


def normal_capture(t: Tables, drawn: int, counts: list[int], choices: list[int]) -> int:
    """Normal at the end of an opened chain: double-deal when keeping control pays, else take.

    Declining hands over 2 boxes (4 of a loop) and makes the opponent move in the rest;
    taking everything makes us move in the rest, so declining pays when moving first in
    the rest would cost us more than the boxes handed over (estimated by chain lengths).
    """
    geo = t.geo
    takes = [line for line in choices if draw(geo, drawn, line)[1]]
    declines = [line for line in choices if line not in takes]
    if not declines:
        return takes[0]
    rest, _ = take_everything(t, drawn)
    if rest == geo.all_lines:
        return takes[0]
    rest_counts = side_counts(t, rest)
    if safe_mask(t, rest, rest_counts):
        return takes[0]
    rest_value = chain_value_estimate(t, rest, rest_counts)
    for decline in declines:
        handed = handout_size(t, drawn, decline)
        # Declining now is right only if the handout is all that is left capturable.
        if handed == counts.count(3) + (1 if handed == 2 else 2) and rest_value < -handed:
            return decline
    handed_boxes = {box for line in declines for box in t.line_boxes[line]}
    for line in takes:
        if not handed_boxes & set(t.line_boxes[line]):
            return line
    return takes[0]


def smallest_sacrifice(t: Tables, drawn: int, counts: list[int]) -> int:
    """The line that gives away the shortest chain (or loop), in a way that keeps it short."""
    chains, loops = components(t, drawn, counts)
    offers: list[tuple[int, int, int]] = []
    for chain in chains:
        # The centre of a two-chain stops the opponent from declining it.
        line = chain.lines[1] if chain.length == 2 else chain.lines[0]
        offers.append((chain.length, 0, line))
    for loop in loops:
        offers.append((loop.length, 1, loop.lines[0]))
    return min(offers)[2]


def normal_line(t: Tables, drawn: int, rng: Random) -> int:
    """Normal: take, never hand out a box while a safe line exists, give the least, double-deal."""
    counts = side_counts(t, drawn)
    choices = capture_choices(t, drawn, counts)
    if len(choices) == 1:
        return choices[0]
    if choices:
        return normal_capture(t, drawn, counts, choices)
    safe = bits(safe_mask(t, drawn, counts))
    if safe:
        return rng.choice(safe)
    return smallest_sacrifice(t, drawn, counts)


class ControlSearch:
    """Depth-limited negamax over the fight for control, with a transposition table.

    Leaves with safe lines left are scored by :meth:`estimate`; once no safe line is left,
    by the chain-and-loop value. ``cut`` records whether any leaf was cut off by depth (if
    not, the search saw every line of the safe phase and deeper iterations are pointless).
    """

    def __init__(self, t: Tables, budget: Budget, rng: Random) -> None:
        self.t = t
        self.budget = budget
        self.endgame = Solver(t, Budget(clock=budget.clock))
        self.table: dict[int, tuple[int, int, int]] = {}
        self.fill_order = list(range(t.geo.line_count))
        rng.shuffle(self.fill_order)
        self.cut = False

    def estimate(self, drawn: int) -> int:
        """Score a position with safe lines: fill them in turn, then value the chains."""
        t = self.t
        fill_order = self.fill_order
        moves = 0
        while True:
            counts = side_counts(t, drawn)
            safe = t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
            if not safe:
                break
            for line in fill_order:
                if safe >> line & 1:
                    drawn |= 1 << line
                    moves += 1
                    break
        value = self.endgame_value(drawn, counts)
        return value if moves % 2 == 0 else -value

    def endgame_value(self, drawn: int, counts: list[int]) -> int:
        """Value of a position with no safe line: exact if a small search settles it.

        Chains that meet at a junction merge as it fills, which the chain-length estimate
        ignores; a search of a few thousand nodes usually settles such endgames exactly.
        """
        solver = self.endgame
        solver.budget.nodes = 0
        solver.budget.node_limit = ENDGAME_NODES
        solver.budget.deadline = self.budget.deadline
        try:
            return solver.value(drawn)
        except SearchTimeout:
            if self.budget.deadline is not None and self.budget.clock() > self.budget.deadline:
                raise
            return chain_value_estimate(self.t, drawn, counts)

    def value(self, drawn: int, depth: int, alpha: int, beta: int) -> int:
        """Negamax value to ``depth`` (captures and forced lines do not count as depth)."""
        self.budget.spend()
        t = self.t
        geo = t.geo
        drawn, gained, counts, choices = take_forced(t, drawn)
        if drawn == geo.all_lines:
            return gained
        alpha -= gained
        beta -= gained
        entry = self.table.get(drawn)
        if entry is not None and entry[0] >= depth:
            _, low, high = entry
            if low >= beta or low == high:
                return gained + low
            if high <= alpha:
                return gained + high
            alpha = max(alpha, low)
            beta = min(beta, high)
        else:
            low, high = -INFINITY, INFINITY
        if choices:
            moves = choices
        else:
            safe = geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
            if not safe:
                return gained + self.endgame_value(drawn, counts)
            if depth <= 0:
                self.cut = True
                return gained + self.estimate(drawn)
            line_boxes = t.line_boxes
            moves = sorted(
                bits(safe), key=lambda line: -sum(counts[b] == 1 for b in line_boxes[line])
            )
            moves += sacrifices(t, drawn, counts)[0]
        best = -INFINITY
        start_alpha = alpha
        for line in moves:
            after, completed = draw(geo, drawn, line)
            if completed:
                score = completed + self.value(after, depth, alpha - completed, beta - completed)
            else:
                score = -self.value(after, depth - 1, -beta, -alpha)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best <= start_alpha:
            self.table[drawn] = (depth, low, best)
        elif best >= beta:
            self.table[drawn] = (depth, best, high)
        else:
            self.table[drawn] = (depth, best, best)
        return gained + best

    def best_move(self, drawn: int, depth: int, moves: list[int]) -> tuple[int, int]:
        """The best root line to ``depth`` (trying ``moves`` in order) and its value."""
        geo = self.t.geo
        best_line, best = moves[0], -INFINITY
        for line in moves:
            after, completed = draw(geo, drawn, line)
            if completed:
                score = completed + self.value(after, depth, best - completed, INFINITY)
            else:
                score = -self.value(after, depth - 1, -INFINITY, -best)
            if score > best:
                best, best_line = score, line
        return best_line, best


SHARED_TABLE_LIMIT = 300_000
"""Most exact entries kept between moves for a small board (about 40 MB) before starting over."""

_shared_solvers: dict[tuple[int, int], Solver] = {}


def shared_solver(t: Tables, budget: Budget) -> Solver:
    """The exact solver kept for a small board between moves, so its table keeps growing.

    Exact values never go stale, so on boards where symmetry reduction is on (3×3 and
    smaller) the table is reused from move to move and game to game, up to a size limit.
    """
    key = (t.geo.rows, t.geo.cols)
    solver = _shared_solvers.get(key)
    if solver is None or len(solver.table) > SHARED_TABLE_LIMIT:
        solver = _shared_solvers[key] = Solver(t)
    solver.budget = budget
    return solver


def hard_line(t: Tables, drawn: int, rng: Random, time_limit: float, clock: Clock) -> int:
    """Hard: exact search when it can finish in time, else iterative deepening for control."""
    start = clock()
    deadline = start + time_limit * SEARCH_SHARE
    counts = side_counts(t, drawn)
    choices = capture_choices(t, drawn, counts)
    if len(choices) == 1:
        return choices[0]
    safe = bits(safe_mask(t, drawn, counts))
    rng.shuffle(safe)
    moves = choices or safe + sacrifices(t, drawn, counts)[0]
    free_lines = (t.geo.all_lines & ~drawn).bit_count()
    if not safe or t.symmetric or free_lines <= EXACT_FREE_LINES:
        # Small boards are always solved; elsewhere keep time for the fallback search.
        share = 1.0 if t.symmetric else EXACT_SHARE if safe else ENDGAME_EXACT_SHARE
        exact_deadline = start + (deadline - start) * share
        budget = Budget(deadline=exact_deadline, clock=clock)
        solver = shared_solver(t, budget) if t.symmetric else Solver(t, budget)
        try:
            return solver.best_move(drawn, moves)[0]
        except SearchTimeout:
            pass
    search = ControlSearch(t, Budget(deadline=deadline, clock=clock), rng)
    best_line = moves[0]
    depth = 1
    while True:
        search.cut = False
        try:
            best_line, _ = search.best_move(drawn, depth, moves)
        except SearchTimeout:
            break
        if not search.cut:
            break
        moves.remove(best_line)
        moves.insert(0, best_line)
        depth += 1
    return best_line


__all__ = ["LEVELS", "choose", "easy_line", "hard_line", "normal_line"]
