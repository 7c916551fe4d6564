"""Board geometry of Dots and Boxes: line and box numbering and the tables search relies on.

Lines are numbered horizontal first, row by row, then vertical, row by row. A position is
then just an ``int`` whose bit ``i`` is set when line ``i`` is drawn, and the tables below
say which lines surround each box, built once per board size and cached.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import compress

from core.boxes.line import Dot, Line, as_dot
from core.errors import InvalidMove, InvalidOptions

MIN_SIDE = 1
MAX_SIDE = 10
_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")


@dataclass(frozen=True, eq=False)
class Geometry:
    """Numbering of lines and boxes on a board of ``rows`` × ``cols`` boxes."""

    rows: int
    cols: int
    line_count: int = field(init=False)
    box_count: int = field(init=False)
    all_lines: int = field(init=False)
    box_sides: tuple[int, ...] = field(init=False)
    """For each box, the bitmask of its four sides."""
    line_boxes: tuple[tuple[int, ...], ...] = field(init=False)
    """For each line, the one or two boxes it borders."""
    lines: tuple[Line, ...] = field(init=False)
    """The Line value of each line index."""
    index_of: dict[Line, int] = field(init=False)
    """The line index of each Line on this board."""

    def __post_init__(self) -> None:
        rows, cols = self.rows, self.cols
        horizontal = (rows + 1) * cols
        count = horizontal + rows * (cols + 1)
        lines: list[Line] = [Line((0, 0), (1, 0))] * count
        for y in range(rows + 1):
            for x in range(cols):
                lines[y * cols + x] = Line((x, y), (x + 1, y))
        for y in range(rows):
            for x in range(cols + 1):
                lines[horizontal + y * (cols + 1) + x] = Line((x, y), (x, y + 1))
        sides: list[int] = []
        borders: list[list[int]] = [[] for _ in range(count)]
        for y in range(rows):
            for x in range(cols):
                box = y * cols + x
                around = (
                    y * cols + x,
                    (y + 1) * cols + x,
                    horizontal + y * (cols + 1) + x,
                    horizontal + y * (cols + 1) + x + 1,
                )
                mask = 0
                for line in around:
                    mask |= 1 << line
                    borders[line].append(box)
                sides.append(mask)
        put = object.__setattr__
        put(self, "line_count", count)
        put(self, "box_count", rows * cols)
        put(self, "all_lines", (1 << count) - 1)
        put(self, "box_sides", tuple(sides))
        put(self, "line_boxes", tuple(tuple(b) for b in borders))
        put(self, "lines", tuple(lines))
        put(self, "index_of", {line: index for index, line in enumerate(lines)})

    def line_index(self, line: Line) -> int:
        """The number of ``line`` on this board; InvalidMove when it lies off the board."""
        index = self.index_of.get(line)
        if index is None:
            raise InvalidMove(f"{line!r} lies off a {self.rows}×{self.cols} board")
        return index

    def box_index(self, box: Sequence[int]) -> int:
        """The number of the box whose top-left dot is ``box``; InvalidMove when off the board."""
        x, y = as_dot(box)
        if not (0 <= x < self.cols and 0 <= y < self.rows):
            raise InvalidMove(f"box {box} lies off a {self.rows}×{self.cols} board")
        return y * self.cols + x

    def box_at(self, index: int) -> Dot:
        """The top-left dot of box number ``index``."""
        return (index % self.cols, index // self.cols)

    def lines_in(self, mask: int) -> Iterator[Line]:
        """The Line values of the set bits of ``mask``, in line-number order."""
        # bin() and translate() run in C, which keeps move generation cheap in search.
        selectors = bin(mask)[:1:-1].encode().translate(_BITS_TO_BYTES)
        return compress(self.lines, selectors)


def geometry(rows: int, cols: int) -> Geometry:
    """The cached geometry of a board of ``rows`` × ``cols`` boxes (each side 1 to 10)."""
    # Checked before the cache is asked: True == 1 and hashes alike, so a cache that saw a
    # 1×1 board would otherwise answer for rows=True.
    for name, side in (("rows", rows), ("cols", cols)):
        if type(side) is not int or not MIN_SIDE <= side <= MAX_SIDE:
            raise InvalidOptions(f"{name} must be an integer from {MIN_SIDE} to {MAX_SIDE}")
    return _geometry(rows, cols)


@cache
def _geometry(rows: int, cols: int) -> Geometry:
    return Geometry(rows, cols)
