"""The move of Dots: one point of the board.

A point is written like a spreadsheet cell (see :mod:`core.notation`): column letters from
``a`` at the left edge, row number from ``1`` at the top, so ``Point(2, 4)`` is ``c5``.
``Point.from_str("c5")`` reads it, ``str(point)`` writes it, and ``repr(point)`` is the code
that makes it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core.errors import InvalidMove
from core.notation import format_square, parse_square


@dataclass(frozen=True, slots=True, order=True)
class Point:
    """A point of the board, ``(0, 0)`` being the top-left corner; a Dots move is a point."""

    x: int
    y: int

    def __post_init__(self) -> None:
        for value in (self.x, self.y):
            # bool is an int subclass; True is not a coordinate.
            if type(value) is not int:
                raise InvalidMove(f"a point has integer coordinates, not {value!r}")

    @classmethod
    def from_str(cls, text: str) -> Point:
        """Read a point written like ``c5``; InvalidMove for anything else."""
        if not isinstance(text, str):
            raise InvalidMove(f"a point is written like 'c5', not {text!r}")
        x, y = parse_square(text.strip())
        return cls(x, y)

    def __str__(self) -> str:
        if self.x < 0 or self.y < 0:
            return f"({self.x}, {self.y})"
        return format_square(self.x, self.y)

    def __repr__(self) -> str:
        if self.x < 0 or self.y < 0:
            return f"Point({self.x}, {self.y})"
        return f"Point.from_str({format_square(self.x, self.y)!r})"

    def to_json(self) -> dict[str, Any]:
        """The wire form of the move that puts a mark on this point: ``{"point": [x, y]}``."""
        return {"point": [self.x, self.y]}

    @classmethod
    def from_json(cls, data: Any) -> Point:
        """Read ``{"point": [x, y]}``; anything else raises InvalidMove."""
        if not isinstance(data, Mapping) or set(data) != {"point"}:
            raise InvalidMove('a Dots move is {"point": [x, y]}')
        return cls.from_pair(data["point"])

    @classmethod
    def from_pair(cls, pair: Any) -> Point:
        """Read an ``[x, y]`` list or tuple of integers; anything else raises InvalidMove."""
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise InvalidMove(f"a point is a pair [x, y] of integers, not {pair!r}")
        return cls(pair[0], pair[1])
