"""Components found on cells, the plain way: the reference the bitmask code is tested against.

:mod:`core.ai.boxes.coins` finds components on the line bitmask and keys them by number;
these find them coin by coin, as the strings-and-coins picture describes them, so a test
can check the fast path against something written independently of it.
"""

from __future__ import annotations

from core.ai.boxes.coins import (
    BOTTOM,
    LEFT,
    RIGHT,
    SIDES,
    STEP,
    TOP,
    Cell,
    Component,
    Key,
    canonical,
    side_lines,
)
from core.ai.boxes.tables import Tables


def components_of(t: Tables, drawn: int) -> list[Component]:
    """The components of the position ``drawn``: unclaimed boxes joined by undrawn lines."""
    cols = t.geo.cols
    cells: dict[tuple[int, int], int] = {}
    for box, (top, right, bottom, left) in enumerate(side_lines(t)):
        sides = 0
        for line, side in ((top, TOP), (right, RIGHT), (bottom, BOTTOM), (left, LEFT)):
            if not drawn >> line & 1:
                sides |= side
        if sides:
            cells[(box % cols, box // cols)] = sides
    return group(cells)


def group(cells: dict[tuple[int, int], int]) -> list[Component]:
    """Group coins (position → undrawn sides) into components joined by shared strings."""
    seen: set[tuple[int, int]] = set()
    result: list[Component] = []
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        members: list[Cell] = []
        while stack:
            x, y = stack.pop()
            sides = cells[(x, y)]
            members.append((x, y, sides))
            for side in SIDES:
                if sides & side:
                    dx, dy = STEP[side]
                    other = (x + dx, y + dy)
                    if other in cells and other not in seen:
                        seen.add(other)
                        stack.append(other)
        result.append(tuple(sorted(members)))
    return result


def position_key(t: Tables, drawn: int) -> tuple[Key, ...]:
    """The sorted canonical keys of every component: equal for equivalent positions."""
    # Keys compare as tuples: their kinds differ or their second items are alike.
    return tuple(sorted(canonical(c) for c in components_of(t, drawn)))
