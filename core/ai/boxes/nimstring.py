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
which the opponent takes before moving in what is left. Values are memoised per canonical
component (:mod:`core.ai.boxes.coins`), so each shape is worked out once per process.
"""

from __future__ import annotations

from typing import Final

from core.ai.boxes.coins import (
    OPPOSITE,
    SIDES,
    STEP,
    Component,
    Key,
    canonical,
    cells_of,
    components_of,
    kind,
    split,
    string_counts,
)
from core.ai.boxes.solver import Budget, SearchTimeout
from core.ai.boxes.tables import Tables

MAX_STRINGS = 30
"""Components with more strings than this are not valued (the work grows exponentially)."""
MEMO_LIMIT = 50_000
"""Most component values kept (up to a few kB each) before the memo starts over."""

LOONY: Final = -1
"""The outcome of a move that offers a loony position."""

_memo: dict[Key, int] = {}


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``."""
    value = 0
    while value in values:
        value += 1
    return value


def string_count(cells: Component) -> int:
    """How many strings the component has (a string between two coins counts once)."""
    grounded, inner = string_counts(cells)
    return grounded + inner


def cut(
    cells: dict[tuple[int, int], int], at: tuple[int, int], side: int
) -> dict[tuple[int, int], int]:
    """The coins after cutting the string on ``side`` of the coin at ``at``."""
    result = dict(cells)
    result[at] &= ~side
    dx, dy = STEP[side]
    other = (at[0] + dx, at[1] + dy)
    if other in result:
        result[other] &= ~OPPOSITE[side]
    return result


def follow(
    cells: dict[tuple[int, int], int], start: tuple[int, int]
) -> tuple[list[tuple[int, int]], str]:
    """The run of coins the opponent can take one by one from the capturable coin ``start``.

    Returns the coins in order and how the run ends: "ground" or "junction" (its last coin's
    last string leads there), "coin" (it meets another capturable coin: taken from both
    ends) or "alone" (the last coin has no string left once its neighbour is taken).
    """
    run = [start]
    previous: tuple[int, int] | None = None
    here = start
    while True:
        sides = cells[here]
        exits = []
        for side in SIDES:
            if sides & side:
                dx, dy = STEP[side]
                nxt = (here[0] + dx, here[1] + dy)
                if nxt != previous:  # the string back to the coin taken before is cut
                    exits.append(nxt)
        if not exits:
            return run, "alone"
        nxt = exits[0]
        if nxt not in cells:
            return run, "ground"
        strings = cells[nxt].bit_count()
        if strings == 1:
            run.append(nxt)
            return run, "coin"
        if strings >= 3:
            return run, "junction"
        run.append(nxt)
        previous, here = here, nxt


def after_move(
    cells: dict[tuple[int, int], int], at: tuple[int, int], side: int
) -> list[Component] | None:
    """The components the opponent moves in after this cut and its gifts, or None if loony."""
    after = cut(cells, at, side)
    dx, dy = STEP[side]
    ends = [at, (at[0] + dx, at[1] + dy)]
    taken: set[tuple[int, int]] = set()
    for end in ends:
        if end not in after or end in taken or after[end].bit_count() != 1:
            continue
        run, how = follow(after, end)
        if how == "coin":
            if len(run) >= 4:
                return None
        elif len(run) >= 2:
            return None
        taken.update(run)
    if not taken:
        return split(after)
    rest = dict(after)
    for coin in taken:
        sides = rest.pop(coin)
        for s in SIDES:
            if sides & s:
                ddx, ddy = STEP[s]
                neighbour = (coin[0] + ddx, coin[1] + ddy)
                if neighbour in rest:
                    rest[neighbour] &= ~OPPOSITE[s]
    # A coin left with no string was taken with the last one (two at once).
    rest = {pos: s for pos, s in rest.items() if s}
    return split(rest)


def nimber(key: Key, work: Budget | None = None) -> int:
    """The Nimstring value of the component with canonical key ``key`` (memoised).

    ``work`` counts the new shapes worked out (one node each). Raises SearchTimeout for
    components with more than :data:`MAX_STRINGS` strings or once ``work`` is used up;
    values finished before that stay memoised.
    """
    known = _memo.get(key)
    if known is not None:
        return known
    if work is None:
        work = Budget()
    if kind(key) == "chain":
        length = key[1]
        assert isinstance(length, int)
        # A chain of one or two can be given away whole (to a value-0 rest): *1; a long
        # chain can only be opened loonily, so it has no option at all: 0.
        value = 1 if length <= 2 else 0
    elif kind(key) == "loop":
        value = 0  # every cut of a loop is loony
    else:
        cells = cells_of(key)
        if string_count(cells) > MAX_STRINGS:
            raise SearchTimeout
        work.spend()
        value = _component_value(cells, work)
    if len(_memo) >= MEMO_LIMIT:
        _memo.clear()
    _memo[key] = value
    return value


def _component_value(cells: Component, work: Budget) -> int:
    """The mex of the values of every non-loony cut of a component (no coin capturable)."""
    coins = {(x, y): s for x, y, s in cells}
    options: set[int] = set()
    for x, y, sides in cells:
        for side in SIDES:
            if not sides & side:
                continue
            dx, dy = STEP[side]
            neighbour = (x + dx, y + dy)
            if neighbour in coins and neighbour < (x, y):
                continue  # the same string as seen from its top-left coin
            rest = after_move(coins, (x, y), side)
            if rest is None:
                continue
            options.add(value_of(rest, work))
    return mex(options)


def value_of(components: list[Component], work: Budget | None = None) -> int:
    """The nim-sum of the values of these components (no coin capturable in any)."""
    total = 0
    for component in components:
        total ^= nimber(canonical(component), work)
    return total


def position_nimber(t: Tables, drawn: int, work: Budget | None = None) -> int | None:
    """The Nimstring value of a position with no capturable box, or None if too costly."""
    try:
        return value_of(components_of(t, drawn), work)
    except SearchTimeout:
        return None


def memo_size() -> int:
    """How many component shapes have been valued so far."""
    return len(_memo)
