"""Chain and loop analysis of a Dots and Boxes position (Berlekamp's strings-and-coins view).

Think of each unclaimed box as a coin and each undrawn line as a string tied to the one or
two boxes it borders (a border line is tied to the ground). A box with two sides drawn has
two strings left, so boxes like that line up into *chains* (ending at the ground, at a
*junction* box with three or four strings left, or at a capturable box) and *loops*
(closed rings of them). Drawing a line that gives a box its third side hands that box,
and the whole chain behind it, to the opponent; a line that gives no box a third side is
*safe*. Who has to open the first long chain once the safe lines run out is what the game
is about, and the long-chain rule predicts it from the number of long chains.

The low-level functions work on the bitmask of drawn lines and are used inside search;
:func:`analyse` gives the same facts about a :class:`~core.boxes.BoxesState` in terms of
lines and boxes a person can read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from core.ai.boxes.tables import GROUND, Tables, tables_for
from core.boxes.line import Dot, Line
from core.boxes.state import BoxesState
from core.game import Player

CAPTURABLE: Final = -2
"""Chain end marker: the end box itself has three sides drawn, so no line lies beyond it."""

LONG_CHAIN: Final = 3
"""Chains of at least this many boxes are long: giving one away lets the taker keep control."""
INDEX_BITS: Final = 16
INDEX_MASK: Final = (1 << INDEX_BITS) - 1
"""A position has fewer chains and loops than this."""


def side_counts(t: Tables, drawn: int) -> list[int]:
    """How many sides of each box are drawn (4 means the box is claimed)."""
    return [(drawn & mask).bit_count() for mask in t.sides]


def open_boxes(counts: list[int]) -> int:
    """How many boxes are not claimed yet (a loop, not ``count``: compiled, it is faster)."""
    left = 0
    for count in counts:
        if count != 4:
            left += 1
    return left


def unsafe_mask(t: Tables, counts: list[int]) -> int:
    """The lines bordering a box with two or more sides drawn (drawing one would hand a box)."""
    mask = 0
    sides = t.sides
    for box, count in enumerate(counts):
        if count >= 2:
            mask |= sides[box]
    return mask


def safe_mask(t: Tables, drawn: int, counts: list[int]) -> int:
    """The undrawn lines that neither complete a box nor give any box its third side."""
    return t.geo.all_lines & ~drawn & ~unsafe_mask(t, counts)


def bits(mask: int) -> list[int]:
    """The numbers of the set bits of ``mask``, lowest first."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def capture_choices(t: Tables, drawn: int, counts: list[int]) -> list[int]:
    """The lines worth considering while a box is capturable; one line means it is forced.

    Empty when no box has three sides. Taking a box is always right when its fourth side
    gives no other box a third side, or when the chain behind it still holds at least two
    more boxes (the decision to decline can wait until the end of the chain). Otherwise
    the player stands at the end of a chain (or of a four-box remnant of an opened loop)
    and the only choices are to take a box or to double-deal: draw the line that leaves
    the last two boxes (four for a loop) to the opponent, keeping control.
    """
    sides = t.sides
    across = t.across
    choices: list[int] = []
    declines: list[int] = []
    for box, count in enumerate(counts):
        if count != 3:
            continue
        last = sides[box] & ~drawn
        line = last.bit_length() - 1
        nxt = across[line] ^ box
        if nxt == GROUND or counts[nxt] != 2:
            return [line]  # a free box (or two at once): nothing else can be better
        beyond_mask = sides[nxt] & ~drawn & ~last
        beyond_line = beyond_mask.bit_length() - 1
        after = across[beyond_line] ^ nxt
        if after != GROUND and counts[after] == 2:
            far_mask = sides[after] & ~drawn & ~beyond_mask
            far_box = across[far_mask.bit_length() - 1] ^ after
            if far_box == GROUND or counts[far_box] != 3:
                return [line]  # three or more boxes left in this chain: take one now
            # Four boxes left, capturable from both ends: an opened loop's last four.
            if beyond_line not in declines:
                declines.append(beyond_line)
        elif after == GROUND or counts[after] <= 1:
            # The last two boxes of a chain: drawing their far end declines them.
            declines.append(beyond_line)
        if line not in choices:
            choices.append(line)
    return choices + [line for line in declines if line not in choices]


@dataclass(frozen=True, slots=True)
class Chain:
    """Boxes with two sides drawn in a row; ``lines`` are its undrawn lines, end to end.

    Each end is ``GROUND`` (the border), ``CAPTURABLE`` (the end box has three sides, no
    line beyond it) or the number of the junction box it runs into.
    """

    boxes: tuple[int, ...]
    lines: tuple[int, ...]
    ends: tuple[int, int]

    @property
    def length(self) -> int:
        """Number of boxes in the chain."""
        return len(self.boxes)

    @property
    def is_long(self) -> bool:
        """Whether the chain has three boxes or more (the long-chain rule counts these)."""
        return len(self.boxes) >= LONG_CHAIN

    @property
    def is_open(self) -> bool:
        """Whether a box of the chain can be taken now."""
        return CAPTURABLE in self.ends


@dataclass(frozen=True, slots=True)
class Loop:
    """A closed ring of boxes with two sides drawn; ``lines`` are the lines between them."""

    boxes: tuple[int, ...]
    lines: tuple[int, ...]

    @property
    def length(self) -> int:
        """Number of boxes in the loop."""
        return len(self.boxes)


def components(t: Tables, drawn: int, counts: list[int]) -> tuple[list[Chain], list[Loop]]:
    """The chains and loops of the position: maximal runs of boxes with two or three sides."""
    sides = t.sides
    across = t.across
    seen = [False] * len(counts)
    chains: list[Chain] = []
    loops: list[Loop] = []
    for start, count in enumerate(counts):
        if seen[start] or count not in (2, 3):
            continue
        seen[start] = True
        halves: list[tuple[list[int], list[int], int]] = []
        looped: tuple[list[int], list[int]] | None = None
        for first_line in bits(sides[start] & ~drawn):
            line = first_line
            boxes: list[int] = []
            lines: list[int] = [line]
            box = across[line] ^ start
            while True:
                if box == GROUND:
                    end = GROUND
                    break
                if box == start:
                    looped = (boxes, lines)
                    break
                if counts[box] <= 1:
                    end = box
                    break
                boxes.append(box)
                seen[box] = True
                if counts[box] == 3:
                    end = CAPTURABLE
                    break
                line = (sides[box] & ~drawn & ~(1 << line)).bit_length() - 1
                lines.append(line)
                box = across[line] ^ box
            if looped is not None:
                break
            halves.append((boxes, lines, end))
        if looped is not None:
            loops.append(Loop((start, *looped[0]), tuple(looped[1])))
            continue
        if count == 3:
            halves.append(([], [], CAPTURABLE))
        (boxes_a, lines_a, end_a), (boxes_b, lines_b, end_b) = halves
        chains.append(
            Chain(
                boxes=(*reversed(boxes_a), start, *boxes_b),
                lines=(*reversed(lines_a), *lines_b),
                ends=(end_a, end_b),
            )
        )
    return chains, loops


@dataclass(frozen=True, slots=True)
class Offers:
    """The sacrifices open to the player to move: one per chain and loop.

    The lists are per chain or loop, in the order found: the line to give it by, how many
    boxes it holds, its undrawn lines (all drawn once it is taken) and its kind (``CHAIN``,
    ``LOOP`` or ``CLOSED_CHAIN``); ``order`` lists them shortest first, a loop ranking as a
    chain one box longer.
    """

    lines: list[int]
    sizes: list[int]
    masks: list[int]
    kinds: list[int]
    ends: list[tuple[int, int]]
    """The junction box at each end of each chain, or ``GROUND`` where there is none."""
    order: list[int]

    @property
    def chain_lengths(self) -> tuple[int, ...]:
        """How many boxes each chain holds."""
        pairs = zip(self.sizes, self.kinds, strict=True)
        return tuple(size for size, kind in pairs if kind != LOOP)

    @property
    def loop_lengths(self) -> tuple[int, ...]:
        """How many boxes each loop holds."""
        pairs = zip(self.sizes, self.kinds, strict=True)
        return tuple(size for size, kind in pairs if kind == LOOP)

    @property
    def simple(self) -> bool:
        """Whether every chain is independent (no junction at either end)."""
        return all(a == GROUND and b == GROUND for a, b in self.ends)

    def ordered_lines(self) -> list[int]:
        """The lines to give each chain and loop by, shortest first."""
        return [self.lines[index] for index in self.order]

    def without(self, given: int, counts: list[int]) -> Offers | None:
        """The offers left once chain or loop number ``given`` is all taken, or None if
        taking it changes another (``counts`` are the side counts after).

        Taking a chain draws a side of the junction at each of its ends; one that had a
        side drawn then has two and joins the strings on its other sides into one chain.
        """
        for end in self.ends[given]:
            if end != GROUND and counts[end] == 2:
                return None
        kept = [index for index in range(len(self.lines)) if index != given]
        return Offers(
            lines=[self.lines[index] for index in kept],
            sizes=[self.sizes[index] for index in kept],
            masks=[self.masks[index] for index in kept],
            kinds=[self.kinds[index] for index in kept],
            ends=[self.ends[index] for index in kept],
            order=[index - (index > given) for index in self.order if index != given],
        )


CHAIN: Final = 0
LOOP: Final = 1
CLOSED_CHAIN: Final = 2
"""A chain with both ends at one junction box: taking it may leave that box capturable."""


def chain_offers(t: Tables, drawn: int, counts: list[int]) -> Offers:
    """The :class:`Offers` of a position, in one walk over its chains and loops.

    What the search needs of :func:`components` at every node without a safe line, found
    without building the chains. A chain of two is offered by its centre line, which
    forbids the double-deal; any line of a longer chain or a loop will do.
    """
    sides = t.sides
    across = t.across
    seen = [False] * len(counts)
    ranked: list[int] = []
    """Each component's number with its rank above ``INDEX_BITS``: sorting needs no tuples."""
    lines: list[int] = []
    sizes: list[int] = []
    masks: list[int] = []
    kinds: list[int] = []
    ends: list[tuple[int, int]] = []
    for start, count in enumerate(counts):
        if seen[start] or not 2 <= count <= 3:
            continue
        seen[start] = True
        length = 1
        centre = -1
        outer = -1
        mask = 0
        found_ends = [GROUND, GROUND]
        kind = CHAIN
        for half, first_line in enumerate(bits(sides[start] & ~drawn)):
            line = first_line
            mask |= 1 << line
            run = 0
            box = across[line] ^ start
            while box != GROUND:
                if box == start:
                    kind = LOOP  # only ever on the first way round
                    outer = first_line
                    break
                if counts[box] <= 1:
                    if box == found_ends[0]:
                        kind = CLOSED_CHAIN
                    found_ends[half] = box
                    break
                run += 1
                seen[box] = True
                if counts[box] == 3:
                    break
                line = (sides[box] & ~drawn & ~(1 << line)).bit_length() - 1
                mask |= 1 << line
                box = across[line] ^ box
            length += run
            if kind == LOOP:
                break
            if outer < 0:
                outer = line
            if run == 1:
                centre = first_line
        rank = length + 1 if kind == LOOP else length
        ranked.append(rank << INDEX_BITS | len(lines))
        lines.append(centre if length == 2 and kind != LOOP else outer)
        sizes.append(length)
        masks.append(mask)
        kinds.append(kind)
        ends.append((found_ends[0], found_ends[1]))
    ranked.sort()
    order = [entry & INDEX_MASK for entry in ranked]
    return Offers(lines, sizes, masks, kinds, ends, order)


def controller(
    t: Tables, drawn: int, counts: list[int], to_move: Player, long_chains: int
) -> Player | None:
    """Who makes the last move if ``long_chains`` stays the number of long chains (None if 0).

    Every line either claims a box or ends a turn, except that a double-cross claims two
    boxes with one line; so the number of turn-ending lines left is ``free lines - free
    boxes + double-crosses``, and the player in control declines every long chain but the
    last (one double-cross each). Loops add two double-crosses and do not change parity.
    """
    if long_chains == 0:
        return None
    free_lines = (t.geo.all_lines & ~drawn).bit_count()
    free_boxes = sum(1 for count in counts if count < 4)
    turn_ends = free_lines - free_boxes + long_chains - 1
    if turn_ends % 2 == 0:
        return to_move
    return 1 if to_move == 0 else 0


@dataclass(frozen=True, slots=True)
class ChainView:
    """A chain or loop as a person reads it: its boxes and undrawn lines, end to end."""

    boxes: tuple[Dot, ...]
    lines: tuple[Line, ...]
    ends: tuple[str, str]
    """Each end: "ground", "capturable", "junction (x, y)", or "loop" for a loop."""

    @property
    def length(self) -> int:
        """Number of boxes."""
        return len(self.boxes)


@dataclass(frozen=True, slots=True)
class PositionAnalysis:
    """The chain-and-loop facts of a position, from the point of view of the player to move."""

    safe_lines: tuple[Line, ...]
    capturable_boxes: tuple[Dot, ...]
    chains: tuple[ChainView, ...]
    loops: tuple[ChainView, ...]
    long_chains: int
    controller: Player | None
    """Who gets control under the long-chain rule if the long chains stay as they are."""


def analyse(state: BoxesState) -> PositionAnalysis:
    """Safe lines, capturable boxes, chains and loops, and who the long-chain rule favours."""
    t = tables_for(state.geometry)
    geo = t.geo
    drawn = state.drawn
    counts = side_counts(t, drawn)
    chains, loops = components(t, drawn, counts)

    def end_name(end: int) -> str:
        if end == GROUND:
            return "ground"
        if end == CAPTURABLE:
            return "capturable"
        return f"junction {geo.box_at(end)}"

    def view(boxes: tuple[int, ...], lines: tuple[int, ...], ends: tuple[str, str]) -> ChainView:
        return ChainView(
            tuple(geo.box_at(b) for b in boxes), tuple(geo.lines[li] for li in lines), ends
        )

    long_chains = sum(1 for chain in chains if chain.is_long)
    return PositionAnalysis(
        safe_lines=tuple(geo.lines_in(safe_mask(t, drawn, counts))),
        capturable_boxes=tuple(geo.box_at(b) for b, c in enumerate(counts) if c == 3),
        chains=tuple(
            view(c.boxes, c.lines, (end_name(c.ends[0]), end_name(c.ends[1]))) for c in chains
        ),
        loops=tuple(view(lp.boxes, lp.lines, ("loop", "loop")) for lp in loops),
        long_chains=long_chains,
        controller=controller(t, drawn, counts, state.to_move, long_chains),
    )
