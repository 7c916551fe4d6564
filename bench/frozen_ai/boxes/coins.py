"""The strings-and-coins (dual) picture of a position, split into canonical components.

Each unclaimed box is a coin and each undrawn line a string tied to the coin(s) it borders
(a border line ties its coin to the ground). Coins joined by strings form *components*;
the ground joins nothing, so components are independent games whose values combine. A
component is stored as a sorted tuple of ``(x, y, sides)`` cells, ``sides`` being the
bitmask of its undrawn sides (:data:`TOP`, :data:`RIGHT`, :data:`BOTTOM`, :data:`LEFT`): an
undrawn side leads to the neighbouring cell if that cell belongs to the component and to
the ground otherwise, so the cells alone describe the component's strings.

A component's canonical key is the same for equal components wherever they lie: a chain
of ``n`` coins with both ends at the ground is ``("chain", n)``, a ring is ``("loop", n)``,
and any other shape is its smallest image under translation, rotation and reflection.
The multiset of the keys identifies the position up to these equivalences; the endgame
transposition tables are keyed by it, each key numbered once (:func:`shape_key`) so that
looking a position up is cheap. Components are found on the line bitmask
(:func:`component_lines`) and turned into cells only to be given a key.
"""

from __future__ import annotations

from functools import cache
from itertools import count

from frozen_ai.boxes.tables import GROUND, Tables

TOP, RIGHT, BOTTOM, LEFT = 1, 2, 4, 8
SIDES = (TOP, RIGHT, BOTTOM, LEFT)
STEP = {TOP: (0, -1), RIGHT: (1, 0), BOTTOM: (0, 1), LEFT: (-1, 0)}
"""Where the cell across each side lies."""

Cell = tuple[int, int, int]
"""A coin: its box's column and row and the bitmask of its undrawn sides."""
Component = tuple[Cell, ...]
"""The coins of one component, sorted."""
Key = tuple[object, ...]
"""A component's canonical key: ("chain", n), ("loop", n) or ("other", cells)."""


@cache
def side_lines(t: Tables) -> tuple[tuple[int, int, int, int], ...]:
    """For each box, the numbers of its top, right, bottom and left lines."""
    geo = t.geo
    result = []
    for box in range(geo.rows * geo.cols):
        x, y = geo.box_at(box)
        corners = ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))
        lines = []
        for index in range(4):
            a, b = corners[index], corners[(index + 1) % 4]
            lines.append(next(li for li in t.box_lines[box] if set(geo.lines[li]) == {a, b}))
        result.append((lines[0], lines[1], lines[2], lines[3]))
    return tuple(result)


def degree(sides: int) -> int:
    """How many strings a coin with these undrawn sides has."""
    return sides.bit_count()


def _image_sides(sides: int, index: int) -> int:
    """Where the undrawn sides of a coin go under symmetry ``index`` of the square."""
    top, right, bottom, left = (sides & TOP, sides & RIGHT, sides & BOTTOM, sides & LEFT)
    if index & 4:  # transpose: top <-> left, right <-> bottom
        top, left, right, bottom = left, top, bottom, right
    if index & 1:  # mirror left-right
        left, right = right, left
    if index & 2:  # mirror top-bottom
        top, bottom = bottom, top
    flags = (TOP if top else 0) | (RIGHT if right else 0)
    return flags | (BOTTOM if bottom else 0) | (LEFT if left else 0)


_SIDE_IMAGES = tuple(tuple(_image_sides(sides, index) for sides in range(16)) for index in range(8))
"""For each symmetry, the image of every undrawn-sides mask."""


def _transform(cells: Component, index: int) -> Component:
    """One of the eight symmetries of the square applied to a component, moved to (0, 0)."""
    images = _SIDE_IMAGES[index]
    if index & 4:
        moved = [(y, x, images[sides]) for x, y, sides in cells]
    else:
        moved = [(x, y, images[sides]) for x, y, sides in cells]
    if index & 1:
        moved = [(-x, y, sides) for x, y, sides in moved]
    if index & 2:
        moved = [(x, -y, sides) for x, y, sides in moved]
    min_x = min(c[0] for c in moved)
    min_y = min(c[1] for c in moved)
    return tuple(sorted([(x - min_x, y - min_y, s) for x, y, s in moved]))


def string_counts(cells: Component) -> tuple[int, int]:
    """How many strings of the component lead to the ground, and how many join two coins."""
    inside = {(x, y) for x, y, _ in cells}
    grounded = ends = 0
    for x, y, sides in cells:
        for side in SIDES:
            if sides & side:
                dx, dy = STEP[side]
                if (x + dx, y + dy) in inside:
                    ends += 1
                else:
                    grounded += 1
    return grounded, ends // 2


CANONICAL_MEMO_LIMIT = 30_000
"""Most components whose key is remembered as they lie on the board (about 40 MB)."""

_canonical_memo: dict[Component, Key] = {}


def canonical(cells: Component) -> Key:
    """The key equal components share: chain or loop by length, else the least image."""
    known = _canonical_memo.get(cells)
    if known is not None:
        return known
    key = _canonical(cells)
    if len(_canonical_memo) >= CANONICAL_MEMO_LIMIT:
        _canonical_memo.clear()
    _canonical_memo[cells] = key
    return key


def _canonical(cells: Component) -> Key:
    """:func:`canonical` worked out afresh."""
    if all(degree(s) == 2 for _, _, s in cells):
        grounded = string_counts(cells)[0]
        if grounded == 2:
            return ("chain", len(cells))
        if grounded == 0:
            return ("loop", len(cells))
    return ("other", min(_transform(cells, index) for index in range(8)))


SHAPE_MEMO_LIMIT = 200_000
"""Most component shapes numbered before the numbering starts over (about 60 MB)."""

_shape_numbers: dict[Key, int] = {}
_new_shape_numbers = count()
_shapes_by_lines: dict[tuple[int, int], dict[int, int]] = {}
"""Per board size, the shape number of each component by its undrawn lines."""


def shape_key(t: Tables, drawn: int) -> tuple[int, ...]:
    """The sorted numbers of the components' canonical keys: equal for equivalent positions.

    Components are found on the line bitmask, and each one's canonical key is remembered
    by its undrawn lines and numbered, so a component seen before costs a lookup. A number
    is never given to two shapes (numbering starting over hands out new ones), so keys
    made before that only stop matching.
    """
    board = (t.geo.rows, t.geo.cols)
    known = _shapes_by_lines.get(board)
    if known is None or len(_shape_numbers) >= SHAPE_MEMO_LIMIT:
        if known is not None:
            _shape_numbers.clear()
            _shapes_by_lines.clear()
        known = _shapes_by_lines[board] = {}
    numbers: list[int] = []
    for lines in component_lines(t, drawn):
        number = known.get(lines)
        if number is None:
            key = canonical(cells_of_lines(t, lines))
            found = _shape_numbers.get(key)
            if found is None:
                found = _shape_numbers[key] = next(_new_shape_numbers)
            number = known[lines] = found
        numbers.append(number)
    numbers.sort()
    return tuple(numbers)


def component_lines(t: Tables, drawn: int) -> list[int]:
    """The undrawn lines of each component of ``drawn`` (coins joined by undrawn lines)."""
    free = t.geo.all_lines & ~drawn
    sides = t.sides
    across = t.across
    seen = [False] * len(sides)
    result: list[int] = []
    for start, own in enumerate(sides):
        if seen[start] or not own & free:
            continue
        seen[start] = True
        stack = [start]
        lines = 0
        while stack:
            box = stack.pop()
            strings = sides[box] & free
            lines |= strings
            while strings:
                low = strings & -strings
                strings ^= low
                other = across[low.bit_length() - 1] ^ box
                if other != GROUND and not seen[other]:
                    seen[other] = True
                    stack.append(other)
        result.append(lines)
    return result


def cells_of_lines(t: Tables, lines: int) -> Component:
    """The coins of the component whose undrawn lines are ``lines``, sorted."""
    cols = t.geo.cols
    cells: list[Cell] = []
    for box, (top, right, bottom, left) in enumerate(side_lines(t)):
        sides = 0
        if lines >> top & 1:
            sides |= TOP
        if lines >> right & 1:
            sides |= RIGHT
        if lines >> bottom & 1:
            sides |= BOTTOM
        if lines >> left & 1:
            sides |= LEFT
        if sides:
            cells.append((box % cols, box // cols, sides))
    return tuple(sorted(cells))
