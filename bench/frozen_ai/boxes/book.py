"""Exact values of early 3×3 positions, computed by this package's own solver.

Solving 3×3 from a position with a handful of lines drawn takes the exact search seconds
in Python, more than the hard level may think. Every position with one to five lines
drawn (:data:`BOOK_DEPTHS`; up to symmetry, no box with three sides or more) is therefore solved
ahead of time. The positions themselves are not stored: :func:`book_positions` lists them
in a fixed order, and the text below holds one letter per position, its value. With these
values the search from any position of a 3×3 game finishes well within a second.
Regenerate (about a minute) with::

    .venv/bin/python -c "from frozen_ai.boxes.solver import generate_book; print(generate_book())"

``tests/core/test_ai_boxes_solver.py`` checks a sample against a fresh solve.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from frozen_ai.boxes.tables import Tables, tables

BOOK_SIZE = (3, 3)
BOOK_DEPTHS = (1, 2, 3, 4, 5)
_ZERO = ord("j")
"""Values -9..9 are stored as the letters a..s."""

_BOOK_TEXT: dict[int, str] = {
    1: """
mmmm
""",
    2: """
gggggiiigggggggigiggggggggiggigggggggigggii
""",
    3: """
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmkkmmmmkmmmmmkmmmm
""",
    4: """
iiiiiigiigigiigiiiiigiigiiiiigggggggggggggigigiggggiggiiggigiggiiigigiigiiiiigigigiiiggg
giggigggggggggggiggigggggigigggiggigiigiggiggiigggggiggiiiggiigiiiigggigiigigigiigiggggg
ggiggggkgiigigggiggigigigiigggigiggiggiigggiggigigiggiggggggigggggigggggggigggiggigigggg
gggiiggigiigiiggiggiiiggggggiiigggigiigigiggiggggggkgggigigggggggigggggggggggggggiiigggg
gggggggggggggiggggggggiiigiggggggggigiggiiiggggiiigggggiggggiiiggiigggggggiggggggggiggii
igggiggggiggigggggggggggggigigggiiiigiiigiggiiiigigggiiigggggggggggggggggggggiggiggiiggi
giggggggggggggggggiiggggggggggiiggiiigigiggggigggggiiiiggggggggggggggiggggggigigigkiiggi
igggggigigggggigggggggiiiggggggggigigigiigigiggggigigiiigiiggiggiigggggigggigggggggggggg
iiggggiggiggiigiiigiggggiiigggiggggggggggggggggggggggiigggggggggggiggigigggigggggggggggi
ggigiggggggggggggggggggggiggiiigggiggggggggggigggggggggggggggiggggggggiggggiggiggiggiggg
giiiggigiggggigiggiiggggggigiggigiiiiggiigggiiigggiggggigiggigiggggggggggggggigggigiggig
giigigggggiggggggggiggggiigggggggggggiggiiggggiiiiigiigigiiiiggiiggigiiiiiiiggigggiigigg
iiiiigiggiiikgggiiigiggikgigggiiigiiiiggiggiiiiigigiggiiiggggigigigggiiigkgigiigigigggii
kiiigggiiggiigiigigigggggiiigiigiigggggggiggiigiiiigggiikiiikigiggiggggiiiiiiggigggggggg
ggggiiiggggggggggggggggggggggggggggggggggggggggiggggg
""",
    5: """
kmkmmokmkmmmmkmkmmmmmmoommmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmkmkmmmmmmmmokmkmmmmkmkmkmmmmmmm
mmkmmmmmmmmmmmmmmmommmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmkmmmmmmmmmmmmmmokmmmmkmmmmmmmmmm
mmmmmmmmmmmmkmmmmmmmmmmmmmmmmmmmokmmookkmomoookmmmmmmokmmmmoommooommmooommmmmmmmmmmmmmmo
moookmommmmmkmmmmmmmmmmmmmmkmmmmmmmmmmmmmmmmmmmmmomoookmmmmmmmkmmmmmmmmmmmmmmmmmmmmmomom
mmmmmmmmmmmommmmommmmmmmmmmmmmmmmmmmmmomoookmoommmommmommmmmmmmommmmmmmmmmmmmmmmmmmmkkmm
ommmmommmommmmommmmmmmkmmkkmmmmmommmmmmmmmmmmmmmmmmmmkommmmmmkomoookmmmmmmmkmmmmmmmommmm
mmmmmmmmmomommmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmommmmmmmmmmmmmmommmommmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmmmmmkmmmmmmmkmmmmmmmommmmmommmoommmmmmmmmmomommommmmmmmommmmmmmmmmmm
mmmmmmmommmmommmmmmmmmmmmmmmmmmmmmmmmmmmmmmommomommommmmmmmmmmmmmmmmmommmmmmmmmmmmmmmmmm
mmmmmmmmmmmmmmmmmmmmmmommmmmmmmmmommmmommmommmmmmmmmmmmmmmmkmkmmmmmmmmmmmmmmmmmmmmmmkmkm
mkkommommmmmoommmmmmmmkmkmookmommommkmmmmmmoommmmmmoomommmommmmmoomoommommmmommommmmmmmm
mmmmmmmmmmmmmmkmmkmmmmmmmmmmmmmmmommmmmmmmoommmmmmmmmmmoommommoommmomoommomoommmmmmmmmkm
mmmmmmommmomoommmomommommmmmmomommmmmmmmomoommmmmommmmmmmmmmmmmomommmmmkmmmmmkommmmkmmmm
mmmmommmommmmmmmmmmmmmmmmmmmmmmmmmmmommmommmmommmmmmommomommmmmmkmmmmmomomommmmmmmmmmmmm
mmmmmmmommomommmmmmmmmmmmmommomkmommmmmmommmmommoommmmmmmmmmmmmmkommmmmmkmomoommmmommmmm
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmommmkmmmkmmmmmmmmmmmmmmmmmmkmmmmmkmmmmmmmmmmmmmkm
kmmmmomkmmmmmmmmmmmmmmmmmmmmkmmmmmmmmmomkommomommooommmmmmmmoomommmmmmmmmmmmomommooommmm
mmmmmmmmmmommmmmmmmmmommooommmmmmmmmmmmkmmmmmmmmmmmmmmmmmmmmmommommmmmmmmmmmmmmmmmmmmmmm
mmmmmmmmmokmmmmmmmmmmmmoooomomommmomoooommoommmmmommmmmmomommmmomooommmmmmmmmmmmmmmmmmmo
ommmmmmmoomomommmmmmmmommommmmmmmmmommmmmmmmommmmommoommoommmmmmmmmmommmmmmmmmmmommmmmmm
mmmmmmmmommmmmommmmmmmmmommmmmmmmmmmmmmmmmmommmmmmmmmmommmmmmomoookmommmmommmooooooomooo
mmomooomoommommmomomomooommommmmmmmmmmmoommoomomoommmmmmmmmmmmommmomommmommmommmmoommomm
mmommommmmommmmmmmmmomommmomoommmmmmommmmmmmommommmmmoommmmmmmommmmmmmmmmmmmmmmmmoommmmm
ommmmoooommoomomoomommmmmmmommommmmmmmmmmmmmmomommommommmmmommmmmomomommmmomommmmommommm
mmommmmmmmommmommommmmommmomoomommmmmmommmmmmommmmmmmmmomoomomoommmmmmmmmmmmmmommmmmommo
mmmmmooomomomommmmmmmmmmmmmmmmmmmmmoommommommmmkoommmomooooooommmmmkmommooooomommmmmmkoo
mmmomommommomoommoomkmommooooommooooomommmoomoomommmmmmommmmoommmmooommmommmomoommmmoomo
ommmmmmmommooooommmmmmmmmmoommommmmooooommoommommmomoomoommmommmomommmommommmmmmmmmmmmmm
mmmmmmmmmmommmmmmommmmoomooommommmmmmoooooommmmmmoooooommmmmmmomomooommommmmmmmommmmmomm
mmmmmmmmmmmmmmmmmmmmoommmmmmommmmmmmmommmmmmmmmmoommmmommmmmmmommmmmmmmmmmmmmmmmmommmmmm
ommmmmmomommmmmmmmmmmmmmmmmmmmmmmmoooommmmooommmmommmommmmmmmmmmmmmmmmmmommmmmmomomommmm
mmmmmmmmmmmommmmmmmmmmmoomooomoooooooomommoomommmmmmkoommmmkkkmkmokmommomkmmmmmooommmmmm
moomommomommmmmmmmkkkmomomommmmmmmmmmkmmkmmkmmmkmmmmmmmmmmmmkmmomkmmmmmmmmmmommmommmmomm
mmmmmkmmoommomooommmkmmmokmmmmmmkmokommmommkmmmmmomkmmmmmmmmmkmommmmmmmmmommmmkooommkkkm
ookkmmmmmoommmooommmmmooommommmmkoommmmmmmmmommmkmmmmmmmmmmommmmmoommmmmmommmommmmoommmm
mmmmmkomoomomkmmmokmoommkkmmmmkmmmmmmmmmmmommmmommmmmmmmmmommmmmmmmmmmmmmmmmmmmmmmkkkmkm
mmmmmmmmkmmmmmkmmmmmmmkkkmkmmmmommmmmmmmmmkkkmmmmmmmmmmkmmommmmmmommmmmmkkkkmkmomomkmmoo
kmmmmmmmmmmmmommmmmmmmmmmmmkmommmmommmomommmmmmkkmmmmommmmkmmmmmmmmommmmmokmmmkomommmmom
mommommmmmmmmmmmoommmmmkmmmmmmmmmommmmmmommmoommmmmmommommmmoommommmmmmmmmmmmmmkommommom
oommmmmmkmomkmmoommmmmmmmmmmmmmmmooomooommommmoomommmmmoommoommmmmmmmmkkkmmmmmkmmmmmoomo
ooommmkkmoooomommkmmmkoommmmommmmmmommmmoommmmikkommmmmmmmmmommmmimmmmmmmmkmmooomoooommm
oommmmkkokmmmomkmmmokmmmmmmmmommmkmommmmmkmmmmmmmmmmmmmmmmmommmmoomomommommommmmmommmmmm
mmmkkmmmmmomkmmmmommommmmmmmmomkmmkkkomoomommmkmmommmommokokommmoommmoooooooooookkkkkmkm
mkkmmommoomommmkommmkmommomomkmmmmmomooommmoomooommommmoooommmomoommmmmmmmomommmomomooom
mmmmomomoommmmmmmmmmmmmommmomooomommmmmmmmmmmmmmmmommoommomommmmmommmmmommmoomoooooomooo
ooooooomomooooooooomommmmmmmmmmomommmmmoomomommmmmmomoooommooommmmmmmmmmmmmmmoomoooommmm
mmmmmommoommomoomoommmomomommmmmmmmmmmmmmmmmmmmmmommmommmmmmmmmomomommmmmmmmmmmmomomommm
mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmoomommommmmmmmmmmmmmmmmmommmmmmmmmmommmmmmmmmmmmmmmmmm
mmmmmmmmommmmmmommmmmmmmmmmmmmmmommommmmmmmmmmmmmmmmmomoomoomomoooommmmmmmmmmoommmmmmmmm
mmmmmmmommmmmommmmommmommmmmmmmmmmmomommmmmmmmmmmmmmmmmmmmmmmmmmmmmmmkmmmmmmmmmmmmmmmmmm
mmmmmmommmomommmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmomommmommmmmmmmmmmmmmommmmmmmommmmmmmm
""",
}


def encode_values(values: Iterable[int]) -> str:
    """One letter per value, in order."""
    return "".join(chr(_ZERO + value) for value in values)


def book_positions(t: Tables, depth: int) -> list[int]:
    """The canonical positions with ``depth`` lines drawn and no box with three sides or more.

    Built level by level from the positions one line shorter (removing any line of such a
    position leaves another one), which is much cheaper than trying every set of lines.
    """
    return list(_positions_by_depth(t.geo.rows, t.geo.cols, depth))


@cache
def _positions_by_depth(rows: int, cols: int, depth: int) -> tuple[int, ...]:
    """The sorted canonical book positions with ``depth`` lines drawn."""
    if depth == 0:
        return (0,)
    t = tables(rows, cols)
    sides = t.sides
    line_boxes = t.line_boxes
    found = set()
    for parent in _positions_by_depth(rows, cols, depth - 1):
        free = t.geo.all_lines & ~parent
        while free:
            low = free & -free
            free ^= low
            drawn = parent | low
            line = low.bit_length() - 1
            if all((drawn & sides[box]).bit_count() < 3 for box in line_boxes[line]):
                found.add(t.canonical(drawn))
    return tuple(sorted(found))


@cache
def book_values() -> dict[int, int]:
    """The exact value for the player to move of every book position.

    Built on first use (about half a second); a process that will play 3×3 can build it
    ahead of time with :func:`frozen_ai.boxes.warm_up`.
    """
    t = tables(*BOOK_SIZE)
    values: dict[int, int] = {}
    for depth, wrapped in _BOOK_TEXT.items():
        letters = "".join(wrapped.split())
        positions = book_positions(t, depth)
        pairs = zip(positions, letters, strict=True)  # a stale book fails loudly here
        values.update((drawn, ord(letter) - _ZERO) for drawn, letter in pairs)
    return values
