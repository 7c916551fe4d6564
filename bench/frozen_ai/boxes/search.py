"""``draw`` as ``core.boxes.search`` had it, kept here so that the frozen players never run
today's search code, compiled or not."""

from __future__ import annotations

from core.boxes.geometry import Geometry


def draw(geo: Geometry, drawn: int, line: int) -> tuple[int, int]:
    """Draw ``line`` on ``drawn``; return the new bitmask and how many boxes it completed."""
    after = drawn | (1 << line)
    sides = geo.box_sides
    completed = 0
    for box in geo.line_boxes[line]:
        mask = sides[box]
        if after & mask == mask:
            completed += 1
    return after, completed
