"""Points and board geometry: the flat array with a border sentinel that the engine works on.

A board of ``width`` × ``height`` points is stored row by row in a flat array with one extra
cell on every side, so the point ``(x, y)`` has index ``(y + 1) * stride + (x + 1)`` with
``stride = width + 2``.  The extra cells form the *border sentinel*: they stand for
everything beyond the edge of the sheet, so a search stepping off the board lands on a cell
it recognises instead of needing bounds checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from core.dots.point import Point
from core.errors import InvalidMove, InvalidOptions
from core.game import Player

__all__ = [
    "EAST",
    "MAX_SIDE",
    "MIN_SIDE",
    "NORTH",
    "SOUTH",
    "START_NAMES",
    "WEST",
    "Geometry",
    "Point",  # where older code looks for it
    "Start",
    "cross_at",
    "geometry",
    "start_marks",
]

MIN_SIDE = 5
MAX_SIDE = 60

Start = Literal["empty", "cross", "four_crosses"]
START_NAMES: tuple[Start, ...] = ("empty", "cross", "four_crosses")


# Directions in clockwise order on the screen (y grows downwards): turning right is +1.
EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3


@dataclass(frozen=True, slots=True, eq=False)
class Geometry:
    """Size of one board and the tables every search on it shares; get it from :func:`geometry`."""

    width: int
    height: int
    stride: int = field(init=False)
    cells: int = field(init=False)
    steps: tuple[int, int, int, int] = field(init=False)
    """Index offsets of the four orthogonal neighbours, by direction EAST, SOUTH, WEST, NORTH."""
    ring: tuple[int, ...] = field(init=False)
    """Index offsets of the eight neighbours clockwise from EAST: E, SE, S, SW, W, NW, N, NE."""
    indices: tuple[int, ...] = field(init=False)
    """Index of every point of the board, row by row."""
    points: tuple[Point | None, ...] = field(init=False)
    """The point at each array index, or None on the border sentinel."""
    edge_first: tuple[tuple[int, ...], ...] = field(init=False)
    """Per index, the four neighbour offsets ordered so the one nearest the edge comes last.

    A depth-first search that pops the last pushed neighbour first therefore runs straight
    for the nearest edge, which makes "is this area open?" cheap on an open board.
    """

    def __post_init__(self) -> None:
        width, height = self.width, self.height
        stride = width + 2
        set_field = object.__setattr__
        set_field(self, "stride", stride)
        set_field(self, "cells", stride * (height + 2))
        set_field(self, "steps", (1, stride, -1, -stride))
        set_field(
            self,
            "ring",
            (1, stride + 1, stride, stride - 1, -1, -stride - 1, -stride, -stride + 1),
        )
        set_field(
            self,
            "indices",
            tuple((y + 1) * stride + x + 1 for y in range(height) for x in range(width)),
        )
        points: list[Point | None] = [None] * self.cells
        order: list[tuple[int, ...]] = [()] * self.cells
        for y in range(height):
            for x in range(width):
                index = (y + 1) * stride + x + 1
                points[index] = Point(x, y)
                distance = {EAST: width - 1 - x, SOUTH: height - 1 - y, WEST: x, NORTH: y}
                ranked = sorted(distance, key=lambda d: (-distance[d], d))
                order[index] = tuple(self.steps[d] for d in ranked)
        set_field(self, "points", tuple(points))
        set_field(self, "edge_first", tuple(order))

    def index(self, point: Point) -> int:
        """Array index of ``point``; InvalidMove if it lies off this board."""
        if not isinstance(point, Point):
            raise InvalidMove(f"a Dots move is a Point, not {point!r}")
        if not (0 <= point.x < self.width and 0 <= point.y < self.height):
            raise InvalidMove(f"{point!r} lies off a {self.width}×{self.height} board")
        return (point.y + 1) * self.stride + point.x + 1

    def contains(self, point: Point) -> bool:
        """Whether ``point`` lies on this board."""
        return 0 <= point.x < self.width and 0 <= point.y < self.height

    def point(self, index: int) -> Point:
        """The point at array ``index``; InvalidMove for an index on the border sentinel."""
        found = self.points[index] if 0 <= index < self.cells else None
        if found is None:
            raise InvalidMove(f"index {index} is not a point of this board")
        return found


def geometry(width: int, height: int) -> Geometry:
    """The shared geometry of a ``width`` × ``height`` board (5 to 60 points a side)."""
    for name, value in (("width", width), ("height", height)):
        if type(value) is not int or not MIN_SIDE <= value <= MAX_SIDE:
            raise InvalidOptions(f"{name} must be an integer from {MIN_SIDE} to {MAX_SIDE}")
    return _geometry(width, height)


@cache
def _geometry(width: int, height: int) -> Geometry:
    return Geometry(width, height)


def cross_at(x: int, y: int) -> tuple[tuple[Point, Player], ...]:
    """A cross with its top-left point at ``(x, y)``: first player on the diagonal ``\\``."""
    return (
        (Point(x, y), 0),
        (Point(x + 1, y + 1), 0),
        (Point(x + 1, y), 1),
        (Point(x, y + 1), 1),
    )


def start_marks(geo: Geometry, start: str) -> tuple[tuple[Point, Player], ...]:
    """The marks a game begins with: none, the centre cross, or four crosses.

    The centre cross has its top-left point at ``x = (W+1)//2 - 1, y = H//2 - 1``.
    Four crosses sit symmetrically a third of the way in from each side, never touching.
    """
    if start == "empty":
        return ()
    if start == "cross":
        return cross_at((geo.width + 1) // 2 - 1, geo.height // 2 - 1)
    if start == "four_crosses":
        left, top = (geo.width - 4) // 3, (geo.height - 4) // 3
        right, bottom = geo.width - 2 - left, geo.height - 2 - top
        return tuple(mark for x in (left, right) for y in (top, bottom) for mark in cross_at(x, y))
    raise InvalidOptions(f"start must be one of {', '.join(START_NAMES)}, not {start!r}")
