"""Per-board lookup tables the Dots and Boxes players search with, built once and cached.

Everything is in the numbering of :mod:`core.boxes.geometry`: a position is the ``int``
bitmask of drawn lines, boxes and lines are small integers, and ``GROUND`` stands for the
outside of the board (a border line has a box on one side only).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from core.boxes.geometry import Geometry, geometry
from core.boxes.line import Line

GROUND: Final = -1
"""The pseudo-box beyond a border line."""

CHUNK_BITS: Final = 12
CHUNK_MASK: Final = (1 << CHUNK_BITS) - 1
SYMMETRY_MAX_LINES = 2 * CHUNK_BITS
"""Boards with more lines (beyond 3×3) search without symmetry: twins are rare there."""


@dataclass(frozen=True, eq=False)
class Tables:
    """Neighbour and symmetry tables of one board size."""

    geo: Geometry
    sides: tuple[int, ...]
    """For each box, the bitmask of its four sides."""
    box_lines: tuple[tuple[int, ...], ...]
    """For each box, the numbers of its four sides."""
    across: tuple[int, ...]
    """For each line, the XOR of the boxes on its two sides (``GROUND`` beyond the border), so
    ``across[line] ^ box`` is the box on the other side from ``box``: one lookup in search."""
    line_boxes: tuple[tuple[int, ...], ...]
    """For each line, the one or two boxes it borders."""
    symmetry_chunks: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    """For each symmetry but the identity, the images of every value of the low and high
    ``CHUNK_BITS`` lines (empty when the board is too large for symmetry to pay off)."""

    @property
    def symmetric(self) -> bool:
        """Whether positions are reduced by symmetry (small boards only)."""
        return bool(self.symmetry_chunks)

    def canonical(self, drawn: int) -> int:
        """The smallest image of ``drawn`` under the board's symmetries (the same for twins)."""
        if not self.symmetric:
            return drawn
        best = drawn
        for low, high in self.symmetry_chunks:
            image = low[drawn & CHUNK_MASK] | high[drawn >> CHUNK_BITS]
            best = min(best, image)
        return best


def _dot_symmetries(rows: int, cols: int) -> list[tuple[bool, bool, bool]]:
    """The board's symmetries as (mirror x, mirror y, transpose); transpose only if square."""
    flips = [(mx, my, False) for mx in (False, True) for my in (False, True)]
    if rows == cols:
        flips += [(mx, my, True) for mx in (False, True) for my in (False, True)]
    return flips


def _line_permutation(geo: Geometry, mx: bool, my: bool, transpose: bool) -> list[int]:
    """Where each line goes under one symmetry of the dot grid."""

    def move(dot: tuple[int, int]) -> tuple[int, int]:
        x, y = dot
        if transpose:
            x, y = y, x
        if mx:
            x = geo.cols - x
        if my:
            y = geo.rows - y
        return (x, y)

    return [geo.index_of[Line(move(line.a), move(line.b))] for line in geo.lines]


@cache
def tables(rows: int, cols: int) -> Tables:
    """The cached tables of a board of ``rows`` × ``cols`` boxes."""
    geo = geometry(rows, cols)
    box_lines = tuple(
        tuple(line for line in range(geo.line_count) if mask >> line & 1) for mask in geo.box_sides
    )
    across = tuple(boxes[0] ^ (boxes[1] if len(boxes) == 2 else GROUND) for boxes in geo.line_boxes)
    symmetry_chunks = []
    if geo.line_count <= SYMMETRY_MAX_LINES:
        for mx, my, transpose in _dot_symmetries(rows, cols)[1:]:
            permutation = _line_permutation(geo, mx, my, transpose)
            halves = []
            for first in (0, CHUNK_BITS):
                table = []
                for value in range(1 << CHUNK_BITS):
                    image = 0
                    for bit in range(CHUNK_BITS):
                        line = first + bit
                        if value >> bit & 1 and line < geo.line_count:
                            image |= 1 << permutation[line]
                    table.append(image)
                halves.append(tuple(table))
            symmetry_chunks.append((halves[0], halves[1]))
    return Tables(
        geo=geo,
        sides=geo.box_sides,
        box_lines=box_lines,
        across=across,
        line_boxes=geo.line_boxes,
        symmetry_chunks=tuple(symmetry_chunks),
    )


def tables_for(geo: Geometry) -> Tables:
    """The cached tables of the board ``geo`` describes."""
    return tables(geo.rows, geo.cols)
