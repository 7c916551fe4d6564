"""Hard's opening book for the cross start (two marks each, crossed, in the centre).

Coordinates here are relative to the cross's top-left point: the first player holds
``(0, 0)`` and ``(1, 1)``, the second ``(1, 0)`` and ``(0, 1)``.  The cross looks the same
after swapping x and y and after a half turn about its centre, so each line is stored once
and found under any of those four views.  The lines, reasoned by hand:

* First move: put a mark diagonally next to an own cross mark and orthogonally next to an
  opponent's, e.g. ``(2, 0)``: with ``(0, 0)`` and ``(1, 1)`` it leaves the opponent's
  ``(1, 0)`` one point short of a ring, so the reply is forced and the mark stays linked.
* The reply to that threat: block at the ring's gap, ``(1, -1)``; any other move loses a mark.
* After the block the first player's ``(0, 0)`` touches three opponent marks: cover it
  with ``(0, -1)``, which links to it, stops the ring round it and presses on the
  opponent's new pair from the other side.
"""

from __future__ import annotations

from collections.abc import Callable

from core.dots.geometry import start_marks
from core.dots.point import Point
from core.dots.state import DotsState

Rel = tuple[int, int]
"""A point relative to the cross's top-left point."""

BOOK: dict[tuple[Rel, ...], Rel] = {
    (): (2, 0),
    ((2, 0),): (1, -1),
    ((2, 0), (1, -1)): (0, -1),
}
"""Moves played since the start (relative, in one of the four views) → the book's reply."""

VIEWS: tuple[Callable[[Rel], Rel], ...] = (
    lambda p: p,
    lambda p: (p[1], p[0]),
    lambda p: (1 - p[0], 1 - p[1]),
    lambda p: (1 - p[1], 1 - p[0]),
)
"""The four symmetries of the cross; each is its own inverse."""


def book_move(state: DotsState) -> Point | None:
    """The book's reply in ``state``, or None when the game has left the book."""
    if state.start != "cross" or len(state.moves) >= max(map(len, BOOK)) + 1:
        return None
    origin = min(point for point, _ in start_marks(state.geometry, "cross"))
    played = [(point.x - origin.x, point.y - origin.y) for point in state.moves]
    for view in VIEWS:
        reply = BOOK.get(tuple(view(point) for point in played))
        if reply is None:
            continue
        x, y = view(reply)
        point = Point(origin.x + x, origin.y + y)
        if state.geometry.contains(point) and state.is_legal(point):
            return point
    return None
