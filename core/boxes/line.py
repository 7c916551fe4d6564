"""The move of Dots and Boxes: one line between two adjacent dots.

A line is written as its two dots joined by ``-``, each dot named like a spreadsheet cell
(see :mod:`core.notation`): ``a1-b1`` is the top-left horizontal line and ``a1-a2`` the
vertical line below ``a1``.  ``Line.from_str("a1-b1")`` reads it, ``str(line)`` writes it,
and ``repr(line)`` is the code that makes it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import InvalidMove
from core.notation import format_square, parse_square

Dot = tuple[int, int]


def as_dot(value: Any) -> Dot:
    """Read ``value`` as an ``(x, y)`` pair of non-negative integers or raise InvalidMove."""
    if type(value) in (tuple, list) and len(value) == 2:
        x, y = value
        if type(x) is int and type(y) is int and x >= 0 and y >= 0:
            return (x, y)  # the common case, without the Sequence check below
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) != 2
        or not all(type(c) is int for c in value)
    ):
        raise InvalidMove(f"a dot is a pair of integers (x, y), not {value!r}")
    x, y = value
    if x < 0 or y < 0:
        raise InvalidMove(f"dot {(x, y)} has a negative coordinate")
    return (x, y)


class Line(tuple[Dot, Dot]):
    """A line between two horizontally or vertically adjacent dots, stored in a fixed order.

    ``Line((1, 0), (0, 0)) == Line((0, 0), (1, 0))``: the dot nearer the top left comes
    first, so every line has exactly one spelling. A Line is a tuple of its two dots, which
    makes it cheap to hash and compare in search.
    """

    __slots__ = ()

    def __new__(cls, a: Sequence[int], b: Sequence[int]) -> Line:
        first, second = as_dot(a), as_dot(b)
        if abs(first[0] - second[0]) + abs(first[1] - second[1]) != 1:
            raise InvalidMove(f"dots {first} and {second} are not adjacent")
        if second < first:
            first, second = second, first
        return tuple.__new__(cls, (first, second))

    def __getnewargs__(self) -> tuple[Dot, Dot]:
        return (self[0], self[1])

    @property
    def a(self) -> Dot:
        """The end dot nearer the top left."""
        return self[0]

    @property
    def b(self) -> Dot:
        """The other end dot."""
        return self[1]

    @property
    def horizontal(self) -> bool:
        """Whether the line runs left to right (both dots on one row)."""
        return self[0][1] == self[1][1]

    @classmethod
    def from_str(cls, text: str) -> Line:
        """Read a line written as two dots joined by ``-``, e.g. ``a1-b1`` (either order)."""
        if not isinstance(text, str):
            raise InvalidMove(f"a line is written like 'a1-b1', not {text!r}")
        first, dash, second = text.strip().partition("-")
        if not dash:
            raise InvalidMove(f"{text!r} is not a line like 'a1-b1'")
        return cls(parse_square(first), parse_square(second))

    def __str__(self) -> str:
        return f"{format_square(*self[0])}-{format_square(*self[1])}"

    def __repr__(self) -> str:
        return f"Line.from_str({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        """The wire form of the move: ``{"line": [[x1, y1], [x2, y2]]}``."""
        return {"line": [list(self[0]), list(self[1])]}

    @classmethod
    def from_json(cls, data: Any) -> Line:
        """Read the wire form ``{"line": [[x1, y1], [x2, y2]]}`` (dots in either order)."""
        if not isinstance(data, dict) or set(data) != {"line"}:
            raise InvalidMove('a Dots and Boxes move is {"line": [[x1, y1], [x2, y2]]}')
        ends = data["line"]
        if not isinstance(ends, list | tuple) or len(ends) != 2:
            raise InvalidMove("a line has exactly two end dots")
        return cls(ends[0], ends[1])
