"""Nimstring values of strings-and-coins components (Berlekamp, *The Dots and Boxes Game*).

Nimstring is Dots and Boxes where the last player to complete a turn wins, and a capture
obliges the capturer to move again. Its value decides who gets control: the player who
moves to Nimstring value 0 makes the opponent be the first to offer a long chain or loop.
Values are nimbers; a component's value is the mex of the values its moves lead to, and a
position's value is the nim-sum (xor) of its components'.

A move cuts one string. If that leaves coins the opponent can take, either the offer is
*loony* — the opponent may take all or leave the last two coins (four of a loop) and so
choose who moves next; it wins Nimstring for the opponent and is left out of the mex — or
it is a gift of single coins (a short chain of one, or a chain of two cut in the middle),
which the opponent takes before moving in what is left.

Components are worked on the board itself: a component is the bitmask of its undrawn
lines (its strings), a coin is a box, and a string to the ground is a line on the border.
Values are memoised per board by that mask, so a component costs a dictionary lookup each
time it comes again in a game, and working out a new one costs a few bit operations per
string on top of its options' values. Equal shapes elsewhere on the board (moved or
mirrored) are worked out again; measured, that is much cheaper than finding every
component's canonical form (:mod:`frozen_ai.boxes.coins`) to look it up.
"""

from __future__ import annotations

from typing import Final

from frozen_ai.boxes.coins import component_lines
from frozen_ai.boxes.solver import Budget, SearchTimeout
from frozen_ai.boxes.tables import GROUND, Tables

MAX_STRINGS = 30
"""Components with more strings than this are not valued (the work grows exponentially)."""
MEMO_LIMIT = 300_000
"""Most component values kept (a mask and a small int each, about 30 MB) before the memo
starts over."""

LOONY: Final = -1
"""What :func:`after_cut` says of a cut that offers a loony position."""

_memo: dict[tuple[int, int], dict[int, int]] = {}
"""Per board size, the value of each component valued so far, by its strings."""


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``."""
    value = 0
    while value in values:
        value += 1
    return value


def run_from(t: Tables, strings: int, start: int) -> tuple[int, int, str]:
    """The run of coins the opponent can take one by one from the capturable coin ``start``.

    ``strings`` are the component's strings after the cut. Returns the run's coins (a box
    bitmask), how many there are, and how the run ends: "ground" or "junction" (its last
    coin's last string leads there), "coin" (it meets another capturable coin: taken from
    both ends) or "alone" (the last coin's only string led back to the coin before).
    """
    sides = t.sides
    across = t.across
    run = 1 << start
    length = 1
    here = start
    behind = 0
    while True:
        exits = sides[here] & strings & ~behind
        if not exits:
            return run, length, "alone"
        exit_line = exits & -exits
        there = across[exit_line.bit_length() - 1] ^ here
        if there == GROUND:
            return run, length, "ground"
        count = (sides[there] & strings).bit_count()
        if count == 1:
            return run | 1 << there, length + 1, "coin"
        if count >= 3:
            return run, length, "junction"
        run |= 1 << there
        length += 1
        behind = exit_line
        here = there


def after_cut(t: Tables, strings: int, line: int) -> int:
    """The strings left to the opponent once ``line`` is cut and any gift taken, or LOONY."""
    after = strings & ~(1 << line)
    taken = 0
    for end in t.line_boxes[line]:
        if taken >> end & 1 or (t.sides[end] & after).bit_count() != 1:
            continue
        run, length, how = run_from(t, after, end)
        if length >= (4 if how == "coin" else 2):
            return LOONY
        taken |= run
    while taken:
        box = (taken & -taken).bit_length() - 1
        taken &= taken - 1
        after &= ~t.sides[box]
    return after


def split(t: Tables, strings: int) -> list[int]:
    """The components of a set of strings: those joined through shared coins, each a mask."""
    sides = t.sides
    across = t.across
    parts: list[int] = []
    while strings:
        first = strings & -strings
        part = first
        boxes = list(t.line_boxes[first.bit_length() - 1])
        while boxes:
            box = boxes.pop()
            new = sides[box] & strings & ~part
            part |= new
            while new:
                low = new & -new
                new ^= low
                other = across[low.bit_length() - 1] ^ box
                if other != GROUND:
                    boxes.append(other)
        parts.append(part)
        strings &= ~part
    return parts


def component_nimber(
    t: Tables, strings: int, work: Budget | None = None, max_strings: int = MAX_STRINGS
) -> int:
    """The Nimstring value of the component whose strings are ``strings`` (memoised).

    No coin of it may be capturable. ``work`` counts the new components worked out (one
    node each). Raises SearchTimeout for a component not yet valued with more than
    ``max_strings`` strings or once ``work`` is used up; values finished before that stay
    memoised.
    """
    board = (t.geo.rows, t.geo.cols)
    memo = _memo.get(board)
    if memo is None:
        memo = _memo[board] = {}
    known = memo.get(strings)
    if known is not None:
        return known
    if strings.bit_count() > max_strings:
        raise SearchTimeout
    if work is None:
        work = Budget()
    work.spend()
    options: set[int] = set()
    lines = strings
    while lines:
        low = lines & -lines
        lines ^= low
        rest = after_cut(t, strings, low.bit_length() - 1)
        if rest == LOONY:
            continue
        value = 0
        for part in split(t, rest):
            value ^= component_nimber(t, part, work, max_strings)
        options.add(value)
    value = mex(options)
    if memo_size() >= MEMO_LIMIT:
        _memo.clear()
    # Not ``memo``: valuing the options may have started the memo over.
    _memo.setdefault(board, {})[strings] = value
    return value


def position_nimber(
    t: Tables, drawn: int, work: Budget | None = None, max_strings: int = MAX_STRINGS
) -> int | None:
    """The Nimstring value of a position with no capturable box, or None if too costly."""
    total = 0
    try:
        for strings in component_lines(t, drawn):
            total ^= component_nimber(t, strings, work, max_strings)
    except SearchTimeout:
        return None
    return total


def memo_size() -> int:
    """How many components have been valued since the memo last started over."""
    return sum(len(values) for values in _memo.values())
