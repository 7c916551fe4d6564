"""Exact Dots and Boxes search: negamax on the box margin with alpha-beta pruning.

The value of a position is the best margin (own boxes minus the opponent's, counting only
boxes still unclaimed) the player to move can force; it depends on the drawn lines alone,
so the transposition table is keyed by the drawn-line bitmask, reduced to one canonical
representative over the board's symmetries. What makes the search fast enough in Python:

* forced captures are played without branching (see :func:`capture_choices`): a free box
  is always taken, and at the end of a chain the only choices are "take" or "double-deal";
* a sacrifice is tried once per chain or loop: every way of opening a chain ends, after
  the replies worth considering, in the same position (only the centre of a two-chain
  differs, and it is never worse than its ends), so one search of that position values
  the sacrifice against both replies (see :meth:`Solver.sacrifice_value`);
* once no safe line is left and every chain is independent, the value comes from the
  closed recursion of :mod:`core.ai.boxes.endgame`;
* a budget (a node limit and/or a deadline on an injectable clock) stops the search by
  raising :class:`SearchTimeout`, which is how callers bound their thinking time.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Iterator
from types import ModuleType
from typing import Any, Final

from core.ai.boxes.analysis import (
    CAPTURABLE,
    CLOSED_CHAIN,
    LOOP,
    Offers,
    bits,
    capture_choices,
    chain_offers,
    open_boxes,
    side_counts,
    unsafe_mask,
)
from core.ai.boxes.book import BOOK_DEPTHS, BOOK_SIZE, book_positions, book_values, encode_values
from core.ai.boxes.coins import shape_key
from core.ai.boxes.endgame import simple_endgame_value
from core.ai.boxes.tables import Tables, tables, tables_for
from core.ai.player import Clock
from core.boxes.search import draw
from core.boxes.state import BoxesState
from core.errors import IllegalMove

INFINITY: Final = 1 << 20
ENDGAME_TABLE_LIMIT = 30_000
"""Most endgame values kept by canonical component multiset before the table starts over."""

endgame_table: dict[tuple[int, ...], int] = {}
"""Exact values of positions with no safe line, keyed by their canonical components
(:func:`~core.ai.boxes.coins.shape_key`).

The value depends on the strings-and-coins graph alone, so equal component multisets
anywhere on any board share one entry; every search adds what it solves exactly.
"""


def remember_endgame(key: tuple[int, ...], value: int) -> None:
    """Keep the exact value of the endgame with canonical components ``key``."""
    if len(endgame_table) >= ENDGAME_TABLE_LIMIT:
        endgame_table.clear()
    endgame_table[key] = value


class SearchTimeout(Exception):
    """The search ran out of its node or time budget before it finished."""


def native_kernel() -> ModuleType | None:
    """The C inner loop of :meth:`Solver.value` (``exact_kernel.pyx``), if the compiled build
    made it; without it the Python below searches alike, only slower."""
    try:
        return importlib.import_module("core.ai.boxes.exact_kernel")
    except ImportError:
        return None


KERNEL = native_kernel()


class Budget:
    """How long a search may run: a node limit and/or a deadline on ``clock``."""

    CHECK_EVERY: Final = 8
    """Nodes between clock readings: few enough that a starved process still stops on time."""

    def __init__(
        self,
        deadline: float | None = None,
        node_limit: int | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        self.deadline = deadline
        self.node_limit = node_limit
        self.clock = clock
        self.nodes = 0

    def spend(self) -> None:
        """Count one node; raise SearchTimeout once the node limit or the deadline is passed."""
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise SearchTimeout
        if (
            self.deadline is not None
            and self.nodes % self.CHECK_EVERY == 0
            and self.clock() > self.deadline
        ):
            raise SearchTimeout


def take_forced(
    t: Tables, drawn: int, counts: list[int] | None = None
) -> tuple[int, int, list[int], list[int]]:
    """Play every forced capture; return drawn lines, boxes gained, side counts and choices.

    ``counts`` are the side counts of ``drawn`` if the caller has them (they are not
    changed, and come back as they are if nothing was captured); ``choices`` is empty when
    no box is capturable any more, otherwise it holds the take-or-double-deal lines of
    :func:`capture_choices` (at least two of them).
    """
    gained = 0
    # Counting every box's sides afresh is a good part of a node's cost; a drawn line
    # changes only the counts of the one or two boxes it borders. The caller's counts are
    # copied only once a capture changes them: most nodes have nothing to capture.
    owned = counts is None
    counts = side_counts(t, drawn) if counts is None else counts
    line_boxes = t.line_boxes
    while True:
        choices = capture_choices(t, drawn, counts)
        if len(choices) != 1:
            return drawn, gained, counts, choices
        line = choices[0]
        drawn, completed = draw(t.geo, drawn, line)
        gained += completed
        if not owned:
            counts = counts.copy()
            owned = True
        for box in line_boxes[line]:
            counts[box] += 1


def counts_after(t: Tables, counts: list[int], line: int) -> list[int]:
    """The side counts once ``line`` is drawn, given those before it."""
    after = counts.copy()
    for box in t.line_boxes[line]:
        after[box] += 1
    return after


def sacrifices(t: Tables, drawn: int, counts: list[int]) -> tuple[list[int], bool]:
    """One representative line per chain and loop, shortest first; and whether all are simple.

    A position is simple when every chain runs from the border to the border, so the closed
    endgame recursion applies once no safe line is left.
    """
    offers = chain_offers(t, drawn, counts)
    return offers.ordered_lines(), offers.simple


def safe_lines_in_order(t: Tables, safe: int, counts: list[int]) -> list[int]:
    """The lines of ``safe``, those that give a box its second side first: they shorten the
    fight for parity, and trying them first cuts the tree by about a fifth."""
    line_boxes = t.line_boxes
    return sorted(bits(safe), key=lambda line: -sum(counts[b] == 1 for b in line_boxes[line]))


def then_sacrifices(
    t: Tables, drawn: int, counts: list[int], moves: list[int], pending: bool
) -> Iterator[int]:
    """``moves``, then, if ``pending``, the sacrifices, looked for only once the caller asks
    past ``moves`` (no cutoff yet): they are rarely best while safe lines remain, and finding
    the chains is a good part of a node's cost."""
    yield from moves
    if pending:
        yield from sacrifices(t, drawn, counts)[0]


class Solver:
    """Exact negamax search over one board size, with a transposition table it keeps."""

    def __init__(
        self,
        t: Tables,
        budget: Budget | None = None,
        use_book: bool = True,
        use_components: bool = False,
    ) -> None:
        self.t = t
        self.budget = budget or Budget()
        self.table: dict[int, tuple[int, int]] = {}
        self.use_components = use_components
        """Whether endgame nodes are looked up by canonical components (costly per node;
        no gain measured yet for the control search's leaf solves, see levels.py)."""
        self.kernel: Any = None
        """The native search of this board (see :func:`native_kernel`), if built and able."""
        if KERNEL is not None and not use_components and KERNEL.supports(t):
            self.kernel = KERNEL.Kernel(t, SearchTimeout, simple_endgame_value)
        if use_book and (t.geo.rows, t.geo.cols) == BOOK_SIZE:
            self.table.update((drawn, (value, value)) for drawn, value in book_values().items())

    def value(
        self,
        drawn: int,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
        counts: list[int] | None = None,
        offers: Offers | None = None,
        taken: int = -1,
    ) -> int:
        """The margin the player to move can force from ``drawn`` (fail-soft in the window).

        ``counts``, if given, are the side counts of ``drawn`` (saves counting them). If
        ``offers`` are given, ``drawn`` has no safe line and nothing to take, and its offers
        are those, once number ``taken`` is taken if that is not -1.
        """
        if self.kernel is not None and offers is None:
            # The whole search below this node runs natively, alike (same table and nodes).
            result: int = self.kernel.value(self, drawn, alpha, beta, counts)
            return result
        self.budget.spend()
        t = self.t
        if offers is None or counts is None:
            drawn, gained, counts, choices = take_forced(t, drawn, counts)
            if drawn == t.geo.all_lines:
                return gained
        else:
            gained = 0
            choices = []
        alpha -= gained
        beta -= gained
        remaining = open_boxes(counts)
        if alpha >= remaining:
            return gained + remaining
        if beta <= -remaining:
            return gained - remaining
        key = t.canonical(drawn)
        low, high = self.table.get(key, (-remaining, remaining))
        if low >= beta or low == high:
            return gained + low
        if high <= alpha:
            return gained + high
        alpha = max(alpha, low)
        beta = min(beta, high)
        component_key: tuple[int, ...] | None = None
        safe = 0
        if offers is not None and taken >= 0:
            offers = offers.without(taken, counts)
        if offers is None and not choices:
            safe = t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
            if not safe:
                offers = chain_offers(t, drawn, counts)
        if choices:
            moves = choices
            pending_sacrifices = False
            offers = None
        elif offers is not None:
            if offers.simple:
                exact = simple_endgame_value(offers.chain_lengths, offers.loop_lengths)
                self.table[key] = (exact, exact)
                return gained + exact
            if self.use_components:
                component_key = shape_key(t, drawn)
                known = endgame_table.get(component_key)
                if known is not None:
                    self.table[key] = (known, known)
                    return gained + known
            moves = offers.order
            pending_sacrifices = False
        else:
            moves = safe_lines_in_order(t, safe, counts)
            pending_sacrifices = True
        best = -INFINITY
        start_alpha = alpha
        # Without a safe line, the moves are the numbers of the offers, shortest first.
        for move in then_sacrifices(t, drawn, counts, moves, pending_sacrifices):
            if offers is not None and offers.kinds[move] != CLOSED_CHAIN:
                score = self.sacrifice_value(drawn, counts, offers, move, alpha, beta)
            else:
                line = move if offers is None else offers.lines[move]
                after, completed = draw(t.geo, drawn, line)
                score = self.line_value(
                    after, completed, alpha, beta, counts_after(t, counts, line)
                )
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best <= start_alpha:
            self.table[key] = (low, best)
        elif best >= beta:
            self.table[key] = (best, high)
        else:
            self.table[key] = (best, best)
            if component_key is not None:
                remember_endgame(component_key, best)
        return gained + best

    def line_value(
        self, after: int, completed: int, alpha: int, beta: int, counts: list[int]
    ) -> int:
        """The value of the position ``after`` a line for the player who drew it, who moves
        again if it ``completed`` a box (fail-soft in the window)."""
        if completed:
            return completed + self.value(after, alpha - completed, beta - completed, counts)
        return -self.value(after, -beta, -alpha, counts)

    def sacrifice_value(
        self, drawn: int, counts: list[int], offers: Offers, given: int, alpha: int, beta: int
    ) -> int:
        """The value for the player to move of giving away chain or loop number ``given`` of
        ``offers`` (fail-soft in the window).

        The taker either takes it all and moves in the rest, or takes all but two boxes
        (four of a loop) and declines those, so that the giver moves there; the rest is the
        same position either way, so one search of it values both, instead of one for each
        and the captures on the way.
        """
        lines = offers.masks[given]
        size = offers.sizes[given]
        loop = offers.kinds[given] == LOOP
        rest = drawn | lines
        rest_counts = counts.copy()
        line_boxes = self.t.line_boxes
        for line in bits(lines):
            for box in line_boxes[line]:
                rest_counts[box] += 1
        if not loop and size <= 2:
            # One box, or two given by the centre line: nothing to decline.
            return -size - self.value(rest, -size - beta, -size - alpha, rest_counts, offers, given)
        handed = 4 if loop else 2
        # Against the rest's value v the giver gets min(-size - v, 2 * handed - size + v),
        # at most handed - size: the taker keeps control if that pays.
        if alpha >= handed - size:
            return handed - size
        declined = 2 * handed - size
        value = self.value(rest, alpha - declined, -size - alpha, rest_counts, offers, given)
        if value <= alpha - declined:
            return declined + value
        if value >= -size - alpha:
            return -size - value
        return min(-size - value, declined + value)

    def root_moves(self, drawn: int) -> list[int]:
        """The lines worth searching at the root: one forced capture, or the full reduced set."""
        t = self.t
        counts = side_counts(t, drawn)
        choices = capture_choices(t, drawn, counts)
        if choices:
            return choices
        safe = t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)
        offers, _ = sacrifices(t, drawn, counts)
        return bits(safe) + offers

    def best_move(self, drawn: int, order: list[int] | None = None) -> tuple[int, int]:
        """An optimal line and the value it attains for the player to move."""
        t = self.t
        moves = order if order is not None else self.root_moves(drawn)
        best_line = moves[0]
        best = -INFINITY
        for line in moves:
            after, completed = draw(t.geo, drawn, line)
            # Most lines are no better than the best so far: a null window proves it with
            # fewer nodes, and only a line that beats it is searched fully.
            if best > -INFINITY and self.root_value(after, completed, best, best + 1) <= best:
                continue
            score = self.root_value(after, completed, best, INFINITY)
            if score > best:
                best, best_line = score, line
        return best_line, best

    def root_value(self, after: int, completed: int, alpha: int, beta: int) -> int:
        """The value of a root line for the player to move, who drew it and reached
        ``after`` (fail-soft in the window)."""
        if completed:
            return completed + self.value(after, alpha - completed, beta - completed)
        return -self.value(after, -beta, -alpha)


def solve(state: BoxesState, budget: Budget | None = None) -> int:
    """The exact margin (remaining boxes) the player to move can force from ``state``."""
    if state.is_over:
        raise IllegalMove("the game is over")
    return Solver(tables_for(state.geometry), budget).value(state.drawn)


def line_values(state: BoxesState, budget: Budget | None = None) -> dict[int, int]:
    """The exact value for the player to move of drawing each legal line (for tests and
    benchmarks); raises SearchTimeout once ``budget``, shared by all the lines, runs out."""
    solver = Solver(tables_for(state.geometry), budget)
    geo = state.geometry
    values = {}
    for line in range(geo.line_count):
        if state.drawn >> line & 1:
            continue
        after, completed = draw(geo, state.drawn, line)
        if after == geo.all_lines:
            values[line] = completed
        elif completed:
            values[line] = completed + solver.value(after)
        else:
            values[line] = -solver.value(after)
    return values


def generate_book(
    rows: int = BOOK_SIZE[0], cols: int = BOOK_SIZE[1], depths: tuple[int, ...] = BOOK_DEPTHS
) -> dict[int, str]:
    """Solve every book position from scratch: per depth, the text ``book.py`` keeps."""
    t = tables(rows, cols)
    solver = Solver(t, use_book=False)
    return {
        depth: encode_values(solver.value(drawn) for drawn in book_positions(t, depth))
        for depth in sorted(depths, reverse=True)
    }


__all__ = ["CAPTURABLE", "Budget", "SearchTimeout", "Solver", "line_values", "solve"]
