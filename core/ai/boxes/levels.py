"""The three Dots and Boxes computer players: easy, normal and hard.

Each is a function of (bitmask tables, drawn lines, random source, time budget) returning a
line number; :func:`choose` wraps them for a :class:`~core.boxes.BoxesState`.

* **easy** takes a box now and then, often plays at random, mostly avoids third sides.
* **normal** takes what is safe to take, never hands out a box while a safe line exists,
  gives the shortest chain when it must, and double-deals when keeping control pays.
* **hard** searches: exactly (see :mod:`core.ai.boxes.solver`) whenever the position is
  small enough to finish in time — always on 3×3, and once no safe line is left on 5×5 —
  and otherwise a depth-limited search of the fight for control, scoring positions by
  filling in the remaining safe lines and valuing the chains and loops that result. That
  search looks at unlikely lines (sacrifices, late safe lines) shallower first, and keeps
  what it learns from move to move.
"""

from __future__ import annotations

import time
from random import Random
from typing import Final, TypeVar

from core.ai.boxes.analysis import (
    bits,
    capture_choices,
    chain_offers,
    components,
    safe_mask,
    side_counts,
    unsafe_mask,
)
from core.ai.boxes.coins import shape_key
from core.ai.boxes.endgame import simple_endgame_value
from core.ai.boxes.nimstring import position_nimber
from core.ai.boxes.solver import (
    INFINITY,
    Budget,
    SearchTimeout,
    Solver,
    counts_after,
    endgame_table,
    remember_endgame,
    sacrifices,
    safe_lines_in_order,
    take_forced,
    then_sacrifices,
)
from core.ai.boxes.tables import Tables, tables_for
from core.ai.player import LEVELS, Clock, check_level
from core.boxes.line import Line
from core.boxes.search import draw
from core.boxes.state import BoxesState
from core.errors import IllegalMove

EASY_TAKES = 0.75
"""How often easy takes a box it could take."""
EASY_CARELESS = 0.2
"""How often easy plays any line at all instead of looking for a safe one."""

ENDGAME_NODES = 12_000
"""Node budget of the exact search hard's control search spends on one endgame leaf.
Right leaves beat depth here: against frozen hard at 4× the time (ai_tournament.py
--boxes-setting, 60 games each, same seeds), 5×5 at 0.2 s won 50 % with 500, 55 % with
3,000 and 61.7 % with 12,000; 7×7 at 0.1 s 36.7 % with 3,000 and 50 % with 12,000."""
LATE_LINE = 4
"""While safe lines remain, every sacrifice and the safe lines tried after this many are
first searched ``REDUCTION`` plies shallower with a null window, and fully only if that
says they might be best (late-move reductions). On 311 solved 5×5 middle-game positions
(bench/boxes_fight.py) hard at 0.2 s lost 1.18 boxes a position with them, 1.44 without
(two runs), and played the optimal line in 70.1 % of them instead of 65 %."""
REDUCTION = 1
"""How many plies shallower a late line is searched first."""
SEARCH_SHARE = 0.75
"""Share of the time limit hard spends searching; the rest covers set-up and slack."""
FIGHT_SHARE = 0.9
"""Share of the time limit hard spends searching while at most ``FIGHT_SAFE_LINES`` safe
lines are left: that is where control is won or lost (the lines that lose boxes in games
against frozen hard are played there), so it gets the slack the other moves keep."""
FIGHT_SAFE_LINES = 16
"""Safe lines left at most while the fight for control is being decided."""
EXACT_SHARE = 0.5
"""Share of hard's search time tried on an exact solve while safe lines remain."""
ENDGAME_EXACT_SHARE = 0.8
"""Share of hard's search time tried on an exact solve once no safe line is left."""
EXACT_FREE_LINES = 26
"""Hard tries an exact solve while safe lines remain with at most this many free lines..."""
EXACT_SAFE_LINES = 10
"""... or with at most this many safe lines left, when its share of the time is at least
``EXACT_SAFE_TIME``: on 5×5 such a solve takes from a few thousand to a few hundred
thousand nodes, and what an unfinished one learnt is kept for the next move (see
:func:`shared_solver`), so the search reaches exact play before the fight for control is
over."""
EXACT_SAFE_TIME = 0.3
"""Seconds an exact solve tried because few safe lines are left needs at least; with less
(at a short time limit) it seldom finishes, and the control search is better off with
the time. Against frozen hard at 4× the time, 5×5 at 0.2 s (seed 5, 60 games, machine
load 13) won 12 games when it was tried at any time limit."""
ORDER_SHARE = 0.1
"""Share of hard's search time spent at most on ordering the first lines by Nimstring value
(and as much again on dropping equivalent ones)."""
NIMBER_STRINGS = 24
"""Leaves of the control search, and the first lines at its root, are valued by Nimstring
(who wins the fight for control) when no component has more strings than this; 0 turns
it off. Against frozen hard at 4× the time (ai_tournament.py, 60 games a seed), 5×5 at
0.2 s won 50, 50 and 48 of seeds 5, 6 and 8 with it (82.2 %, +3.0 boxes a game), 40 and
50 of seeds 5 and 6 without; 7×7 at 0.1 s won 48, 46 and 49 of seeds 3, 6 and 8 with it
(79.4 %, +9.3), 42, 49 and 44 without (75 %, +6.3). A fixed depth-4 search over 150
solved 5×5 middle games (bench/boxes_search_speed.py, one cold run) found the optimal line
in 84 of them without Nimstring, 99, 107 and 116 with components up to 20, 24 and 30
strings, taking 1.4, 2.1 and 3.7 times as long; at 0.2 s a move, 24 and 30 played alike."""
DISTINCT_ROOT = False
"""Whether root lines with equivalent results are searched once; off, as measured: finding
every root line's components costs a few per cent of the time, and with the compiled build,
on (68.3 %) and off (70 %) were alike (5×5 at 0.2 s against frozen hard at 0.2 s, 60 games)."""
NIMBER_WORK = 60
"""New components one Nimstring valuation may work out (they stay memoised)."""
PRUNE_SHARE = 0.25
"""Share of hard's search time that sorting out a full memory or table may take (see
:func:`arising`); past it, the memory or table starts over."""


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
    offers = chain_offers(t, drawn, counts)
    return simple_endgame_value(offers.chain_lengths, offers.loop_lengths)


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


WHOLE: Final = 1 << 20
"""The depth recorded for a position whose search reached the end of the safe phase
everywhere: its value holds at any depth."""
CONTROL_MEMORY_LIMIT = 400_000
"""Most positions the control search keeps between moves for one board (about 50 MB) before
starting over."""


class ControlMemory:
    """What the control search learns about one board, kept from move to move.

    The positions two lines on from the last search are mostly inside its tree, and safe
    lines commute, so the next search finds many of its positions and leaves already
    searched or scored. Every entry is keyed by the drawn lines alone, so it holds in any
    game on the board, as long as the leaves are filled in the same order. Like the small
    boards' shared solver, it serves one search at a time: the server thinks in worker
    processes, one move at a time each.
    """

    def __init__(self, t: Tables, rng: Random) -> None:
        self.table: dict[int, tuple[int, int, int]] = {}
        """Depth searched, lower and upper bound of each searched position."""
        self.leaves: dict[int, int] = {}
        self.best: dict[int, int] = {}
        self.fill_order = list(range(t.geo.line_count))
        rng.shuffle(self.fill_order)
        self.endgame = Solver(t)
        """The exact search of the leaves with no safe line, and its table."""

    def size(self) -> int:
        """How many positions are kept."""
        return len(self.table) + len(self.leaves) + len(self.best) + len(self.endgame.table)

    def keep_after(self, drawn: int, budget: Budget | None = None) -> None:
        """Forget the positions that cannot arise any more once ``drawn`` is on the board:
        those without every one of its lines. Raises SearchTimeout, all kept, once
        ``budget``'s deadline has passed (see :func:`arising`)."""
        table = arising(self.table, drawn, budget)
        leaves = arising(self.leaves, drawn, budget)
        best = arising(self.best, drawn, budget)
        endgame = arising(self.endgame.table, drawn, budget)
        self.table, self.leaves, self.best, self.endgame.table = table, leaves, best, endgame


Entry = TypeVar("Entry")

PRUNE_CHECK_EVERY: Final = 4096
"""Entries :func:`arising` looks at between two clock readings."""


def arising(
    entries: dict[int, Entry], drawn: int, budget: Budget | None = None
) -> dict[int, Entry]:
    """The entries keyed by positions holding every line of ``drawn``.

    Raises SearchTimeout once ``budget``'s deadline has passed: a full table takes a tenth
    of a second of a core, and many times that on a busy machine.
    """
    if budget is None or budget.deadline is None:
        return {key: entry for key, entry in entries.items() if key & drawn == drawn}
    kept: dict[int, Entry] = {}
    for seen, (key, entry) in enumerate(entries.items(), 1):
        if key & drawn == drawn:
            kept[key] = entry
        if seen % PRUNE_CHECK_EVERY == 0 and budget.clock() > budget.deadline:
            raise SearchTimeout
    return kept


_control_memories: dict[tuple[int, int], ControlMemory] = {}


def control_memory(
    t: Tables, rng: Random, drawn: int = 0, budget: Budget | None = None
) -> ControlMemory:
    """The control search's memory for this board, to search from ``drawn``.

    Once it is too large, it keeps only what can still arise from ``drawn``, the subtree the
    game is in; it starts over if that is still more than half the limit, or if sorting it
    out runs past ``budget``'s deadline.
    """
    key = (t.geo.rows, t.geo.cols)
    memory = _control_memories.get(key)
    if memory is not None and memory.size() > CONTROL_MEMORY_LIMIT:
        try:
            memory.keep_after(drawn, budget)
        except SearchTimeout:
            memory = None
        if memory is not None and memory.size() > CONTROL_MEMORY_LIMIT // 2:
            memory = None
    if memory is None:
        memory = _control_memories[key] = ControlMemory(t, rng)
    return memory


class ControlSearch:
    """Depth-limited negamax over the fight for control, with a transposition table.

    Leaves with safe lines left are scored by :meth:`estimate`; once no safe line is left,
    by the chain-and-loop value. ``cut`` records whether any leaf was cut off by depth (if
    not, the search saw every line of the safe phase and deeper iterations are pointless).
    """

    def __init__(
        self, t: Tables, budget: Budget, rng: Random, memory: ControlMemory | None = None
    ) -> None:
        self.t = t
        self.budget = budget
        # Only the leaves themselves are looked up by components (in endgame_value): keying
        # every node of their solves as well cost more than it saved (a quarter of the time
        # of fixed-depth searches along whole games).
        memory = memory or ControlMemory(t, rng)
        self.endgame = memory.endgame
        self.endgame.budget = Budget(clock=budget.clock)
        self.table = memory.table
        self.fill_order = memory.fill_order
        self.leaves = memory.leaves
        """Values of the leaves scored so far (safe lines commute, so leaves recur often)."""
        self.best = memory.best
        """The best line found in each searched position, tried first when it comes again."""
        self.cut = False
        self.found: int | None = None
        """The best root line so far of the search under way (kept if time runs out)."""
        self.nimbers: dict[int, int | None] = {}
        self.nimber_strings = NIMBER_STRINGS

    def nimber(self, drawn: int) -> int | None:
        """The Nimstring value of a position with no capturable box, if cheap enough."""
        if not self.nimber_strings:
            return None
        if drawn in self.nimbers:
            return self.nimbers[drawn]
        budget = self.budget
        value = position_nimber(
            self.t, drawn, Budget(budget.deadline, NIMBER_WORK, budget.clock), self.nimber_strings
        )
        self.nimbers[drawn] = value
        return value

    def estimate(self, drawn: int) -> int:
        """Score a position with safe lines: fill them in turn, then value the chains.

        Who ends up opening the first long chain follows the order the lines were filled
        in, unless Nimstring values say otherwise: the player to move at the leaf wins the
        fight for control exactly when its value is not 0, and if the filled position's
        value gives the other player that win, the roles in it are swapped.
        """
        known = self.leaves.get(drawn)
        if known is not None:
            return known
        t = self.t
        sides = t.sides
        line_boxes = t.line_boxes
        leaf = drawn
        moves = 0
        counts = side_counts(t, drawn)
        safe = t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
        # Safe lines only ever become unsafe, so one pass over the fill order fills them
        # in the same order as picking the first safe line again after each one.
        for line in self.fill_order:
            if not safe:
                break
            if not safe >> line & 1:
                continue
            drawn |= 1 << line
            safe &= ~(1 << line)
            moves += 1
            for box in line_boxes[line]:
                counts[box] += 1
                if counts[box] == 2:
                    safe &= ~sides[box]
        value = self.endgame_value(drawn, counts)
        # Whether the leaf's player is the one to move once the safe lines are filled.
        keep = moves % 2 == 0
        leaf_nimber = self.nimber(leaf)
        if leaf_nimber is not None:
            filled_nimber = self.nimber(drawn)
            if filled_nimber is not None:
                keep = (leaf_nimber != 0) == (filled_nimber != 0)
        result = value if keep else -value
        self.leaves[leaf] = result
        return result

    def endgame_value(self, drawn: int, counts: list[int]) -> int:
        """Value of a position with no safe line: exact if a small search settles it.

        Chains that meet at a junction merge as it fills, which the chain-length estimate
        ignores; a search of a few thousand nodes usually settles such endgames exactly.
        """
        known = self.leaves.get(drawn)
        if known is not None:
            return known
        key = shape_key(self.t, drawn)
        known = endgame_table.get(key)
        if known is not None:
            self.leaves[drawn] = known
            return known
        value = self.solved(drawn, counts)
        if value is None:
            value = chain_value_estimate(self.t, drawn, counts)
        else:
            remember_endgame(key, value)
        self.leaves[drawn] = value
        return value

    def solved(self, drawn: int, counts: list[int]) -> int | None:
        """The exact value of ``drawn`` if a search of ``ENDGAME_NODES`` nodes settles it."""
        solver = self.endgame
        solver.budget.nodes = 0
        solver.budget.node_limit = ENDGAME_NODES
        solver.budget.deadline = self.budget.deadline
        try:
            return solver.value(drawn, counts=counts)
        except SearchTimeout:
            if self.budget.deadline is not None and self.budget.clock() > self.budget.deadline:
                raise
            return None

    def value(
        self, drawn: int, depth: int, alpha: int, beta: int, counts: list[int] | None = None
    ) -> int:
        """Negamax value to ``depth`` (captures and forced lines do not count as depth).

        ``counts``, if given, are the side counts of ``drawn``.
        """
        self.budget.spend()
        t = self.t
        drawn, gained, counts, choices = take_forced(t, drawn, counts)
        if drawn == t.geo.all_lines:
            return gained
        alpha -= gained
        beta -= gained
        entry = self.table.get(drawn)
        if entry is not None and entry[0] >= depth:
            searched, low, high = entry
            if searched != WHOLE:
                self.cut = True  # what it holds was read from cut-off leaves
            if low >= beta or low == high:
                return gained + low
            if high <= alpha:
                return gained + high
            alpha = max(alpha, low)
            beta = min(beta, high)
        else:
            low, high = -INFINITY, INFINITY
        pending_sacrifices = False
        if choices:
            moves = choices
            safe = 0
        else:
            safe = t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
            if not safe:
                return gained + self.endgame_value(drawn, counts)
            if depth <= 0:
                self.cut = True
                return gained + self.estimate(drawn)
            moves = safe_lines_in_order(t, safe, counts)
            pending_sacrifices = True
        previous_best = self.best.get(drawn)
        if previous_best is not None:
            if pending_sacrifices and not safe >> previous_best & 1:
                moves += sacrifices(t, drawn, counts)[0]
                pending_sacrifices = False
            if previous_best in moves:
                moves.remove(previous_best)
                moves.insert(0, previous_best)
        best = -INFINITY
        best_line = moves[0]
        start_alpha = alpha
        cut_above = self.cut
        self.cut = False
        for index, line in enumerate(then_sacrifices(t, drawn, counts, moves, pending_sacrifices)):
            after, completed = draw(t.geo, drawn, line)
            after_counts = counts_after(t, counts, line)
            if completed:
                score = completed + self.value(
                    after, depth, alpha - completed, beta - completed, after_counts
                )
            elif depth > REDUCTION and safe and (index >= LATE_LINE or not safe >> line & 1):
                # Most late lines fail low: a cheaper look first, whether they might not.
                score = -self.value(after, depth - 1 - REDUCTION, -alpha - 1, -alpha, after_counts)
                if score > alpha:
                    score = -self.value(after, depth - 1, -beta, -alpha, after_counts)
            else:
                score = -self.value(after, depth - 1, -beta, -alpha, after_counts)
            if score > best:
                best = score
                best_line = line
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.best[drawn] = best_line
        searched = depth if self.cut else WHOLE
        self.cut = self.cut or cut_above
        if best <= start_alpha:
            self.table[drawn] = (searched, low, best)
        elif best >= beta:
            self.table[drawn] = (searched, best, high)
        else:
            self.table[drawn] = (searched, best, best)
        return gained + best

    def best_move(self, drawn: int, depth: int, moves: list[int]) -> tuple[int, int]:
        """The best root line to ``depth`` (trying ``moves`` in order) and its value."""
        t = self.t
        best_line, best = moves[0], -INFINITY
        self.found = None
        for line in moves:
            after, completed = draw(t.geo, drawn, line)
            if best > -INFINITY:
                # A null window first, as in the exact search's root; a line that beats
                # the best so far is kept even if its full search runs out of time.
                if self.root_value(after, completed, depth, best, best + 1) <= best:
                    continue
                self.found = line
            score = self.root_value(after, completed, depth, best, INFINITY)
            if score > best:
                best, best_line = score, line
                self.found = line
        return best_line, best

    def root_value(self, after: int, completed: int, depth: int, alpha: int, beta: int) -> int:
        """The value to ``depth`` of a root line that reached ``after`` (fail-soft)."""
        if completed:
            return completed + self.value(after, depth, alpha - completed, beta - completed)
        return -self.value(after, depth - 1, -beta, -alpha)


SHARED_TABLE_LIMIT = 300_000
"""Most exact entries kept between moves for a board (about 40 MB) before pruning."""

_shared_solvers: dict[tuple[int, int], Solver] = {}


def shared_solver(
    t: Tables, budget: Budget, drawn: int = 0, prune_budget: Budget | None = None
) -> Solver:
    """The exact solver kept for a board between moves, so its table keeps growing.

    Exact bounds never go stale, and a search cut short by its budget has stored only
    bounds it finished, so the table is reused from move to move and game to game: the
    next move's search finds much of its tree settled. Once it holds more than
    ``SHARED_TABLE_LIMIT`` entries it keeps those that can still arise from ``drawn``
    (positions holding its lines) and starts over if that is still more than half, or if
    sorting them out runs past ``prune_budget``'s deadline; boards reduced by symmetry
    (3×3 and smaller) key it by canonical images, so they start over.
    """
    key = (t.geo.rows, t.geo.cols)
    solver = _shared_solvers.get(key)
    if solver is not None and len(solver.table) > SHARED_TABLE_LIMIT:
        if not t.symmetric:
            try:
                solver.table = arising(solver.table, drawn, prune_budget)
            except SearchTimeout:
                solver = None
        if solver is None or t.symmetric or len(solver.table) > SHARED_TABLE_LIMIT // 2:
            solver = None
    if solver is None:
        solver = _shared_solvers[key] = Solver(t)
    solver.budget = budget
    return solver


def distinct_moves(
    t: Tables, drawn: int, moves: list[int], budget: Budget | None = None
) -> list[int]:
    """The moves with one representative per resulting position up to equivalence.

    Lines whose results have the same canonical components (the same chain lengthened at
    either end, mirror images, ...) have the same value, so only the first is kept. Once
    ``budget``'s deadline has passed the remaining moves are kept as they are.
    """
    seen: set[tuple[int, ...]] = set()
    result: list[int] = []
    for index, line in enumerate(moves):
        if budget is not None and budget.deadline is not None and budget.clock() > budget.deadline:
            return result + moves[index:]
        key = shape_key(t, drawn | 1 << line)
        if key not in seen:
            seen.add(key)
            result.append(line)
    return result


def nimber_order(
    t: Tables, drawn: int, safe: list[int], deadline: float, clock: Clock
) -> list[int]:
    """Safe lines that leave Nimstring value 0 first: they win the fight for control."""
    if not NIMBER_STRINGS:
        return safe
    winning: list[int] = []
    others: list[int] = []
    for line in safe:
        value = position_nimber(
            t, drawn | 1 << line, Budget(deadline, NIMBER_WORK, clock), NIMBER_STRINGS
        )
        (winning if value == 0 else others).append(line)
    return winning + others


def hard_line(t: Tables, drawn: int, rng: Random, time_limit: float, clock: Clock) -> int:
    """Hard: exact search when it can finish in time, else iterative deepening for control."""
    start = clock()
    counts = side_counts(t, drawn)
    choices = capture_choices(t, drawn, counts)
    if len(choices) == 1:
        return choices[0]
    safe = bits(safe_mask(t, drawn, counts))
    fight = 0 < len(safe) <= FIGHT_SAFE_LINES
    deadline = start + time_limit * (FIGHT_SHARE if fight else SEARCH_SHARE)
    rng.shuffle(safe)
    moves = choices or safe + sacrifices(t, drawn, counts)[0]
    # Pruning a full memory takes a while (a tenth of a second for 400,000 positions, many
    # times that on a busy machine): done first and given up past a share of the time, it
    # shortens this move's searches instead of running past their deadline.
    prune_budget = Budget(start + (deadline - start) * PRUNE_SHARE, clock=clock)
    memory = control_memory(t, rng, drawn, prune_budget)
    free_lines = (t.geo.all_lines & ~drawn).bit_count()
    # Small boards are always solved; elsewhere keep time for the fallback search.
    share = 1.0 if t.symmetric else EXACT_SHARE if safe else ENDGAME_EXACT_SHARE
    few_safe = len(safe) <= EXACT_SAFE_LINES and (deadline - start) * share >= EXACT_SAFE_TIME
    if not safe or t.symmetric or free_lines <= EXACT_FREE_LINES or few_safe:
        exact_deadline = start + (deadline - start) * share
        budget = Budget(deadline=exact_deadline, clock=clock)
        solver = shared_solver(t, budget, drawn, prune_budget)
        try:
            return solver.best_move(drawn, moves)[0]
        except SearchTimeout:
            pass
    if not choices:
        # Theory orders the control search's first lines; the exact search, which looks
        # at every line anyway, is not made to wait for it.
        now = clock()
        safe = nimber_order(t, drawn, safe, now + (deadline - now) * ORDER_SHARE, clock)
        order_budget = Budget(now + (deadline - now) * 2 * ORDER_SHARE, clock=clock)
        moves = safe + sacrifices(t, drawn, counts)[0]
        if DISTINCT_ROOT:
            moves = distinct_moves(t, drawn, moves, order_budget)
    search = ControlSearch(t, Budget(deadline=deadline, clock=clock), rng, memory)
    best_line = moves[0]
    depth = 1
    while True:
        search.cut = False
        try:
            best_line, _ = search.best_move(drawn, depth, moves)
        except SearchTimeout:
            if search.found is not None:
                best_line = search.found
            break
        if not search.cut:
            break
        moves.remove(best_line)
        moves.insert(0, best_line)
        depth += 1
    return best_line


__all__ = ["LEVELS", "choose", "easy_line", "hard_line", "normal_line"]
