"""Captured areas and houses of a Dots position, kept up to date move by move.

A *visible area* is a capture not swallowed by a later one; visible areas never overlap.
A *house* of a player is a closed region of that player's walls — a set of points joined
horizontally and vertically, none of them the player's live mark, not touching the edge
of the board — that still holds a free point; one player's houses never overlap (the two
players' may).  Each is a :class:`Region`: its owner (the captor of an area) and its points
in row-major order, the first of which is its key.

A move changes only what lies on or next to the points it changed (the new mark and the
points of the areas it captured), so :func:`update_houses` and :func:`update_areas` redo
just those; a move that captured nothing, closed nothing and went on no enclosed point
changes nothing (:meth:`core.dots.DotsState.play` skips them).  :func:`chain_around`
draws the outline of a region on demand.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from core.dots.board import BORDER, EMPTY, DotsBoard
from core.dots.board import Area as BoardArea
from core.dots.geometry import Geometry
from core.game import PLAYERS, Player

RegionKey = int
"""A region's key in the tables below: its first point's index, times two, plus its owner."""


class Region:
    """A captured area or a house: its owner and its points (board indices, row-major)."""

    __slots__ = ("_points", "cells", "owner", "public")

    owner: Player
    cells: tuple[int, ...]
    _points: frozenset[int] | None
    public: object
    """The value a client sees for it, made once by the state that first shows it."""

    def __init__(self, owner: Player, cells: Iterable[int]) -> None:
        self.owner = owner
        self.cells = tuple(sorted(cells))
        self._points = None
        self.public = None

    @property
    def key(self) -> RegionKey:
        """Its key: the index of its first point (row-major), times two, plus its owner."""
        return self.cells[0] * 2 + self.owner

    @property
    def points(self) -> frozenset[int]:
        """Its points as a set (made once, on first use)."""
        points = self._points
        if points is None:
            points = self._points = frozenset(self.cells)
        return points

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Region):
            return NotImplemented
        return self.owner == other.owner and self.cells == other.cells

    def __hash__(self) -> int:
        return hash((self.owner, self.cells))


Regions = dict[RegionKey, Region]
"""Regions by key; a table is never changed once a state holds it."""


def update_areas(
    link: BoardArea | None, areas: Regions, since: BoardArea | None
) -> tuple[Regions, list[int]]:
    """The visible areas after the captures made between a board's ``areas`` link
    ``since`` and its later link ``link``, and the points those captures took; ``areas``
    were the visible ones at ``since``.
    """
    new = []
    while link is not None and link is not since:
        captor, inside, link = link
        new.append((captor, inside))
    if not new:
        return areas, []
    visible = dict(areas)
    taken: list[int] = []
    for captor, inside in reversed(new):
        area = Region(captor, inside)
        # An older area lies inside the new one (swallowed) when its first point does; a
        # key is that point times two plus the owner, so look up whichever side is fewer.
        if len(inside) < len(visible):
            for index in inside:
                visible.pop(index * 2, None)
                visible.pop(index * 2 + 1, None)
        else:
            points = area.points
            for key in list(visible):
                if key >> 1 in points:
                    del visible[key]
        visible[area.key] = area
        taken.extend(inside)
    return visible, taken


def update_houses(board: DotsBoard, houses: Regions, changed: Iterable[int]) -> Regions:
    """The houses after a move, from those before it and the points whose state it changed
    (the new mark and everything its captures took).

    A house is unchanged unless one of its points or of its walls changed, so only the
    houses on or next to a changed point are dropped and worked out again.
    """
    steps = board.geometry.steps
    near = set(changed)
    for index in list(near):
        near.update(index + step for step in steps)
    result = {key: house for key, house in houses.items() if house.points.isdisjoint(near)}
    cell = board.cell
    for player in PLAYERS:
        wall = player + 1
        open_: set[int] = set()
        done: set[int] = set()
        for start in near:
            state = cell[start]
            if state in (wall, BORDER) or start in done or start in open_:
                continue
            region = board.closed_region(start, wall, open_)
            if region is None:
                continue
            done |= region
            if any(cell[index] == EMPTY for index in region):
                house = Region(player, region)
                result[house.key] = house
    return result


def all_houses(board: DotsBoard) -> Regions:
    """Every house of the position, found from scratch (its free points are all flagged in
    ``board.enclosed``, so only those are searched from).
    """
    enclosed = board.enclosed
    cell = board.cell
    result: Regions = {}
    for player in PLAYERS:
        wall = player + 1
        open_: set[int] = set()
        done: set[int] = set()
        for start in board.geometry.indices:
            if not enclosed[start] & wall or cell[start] != EMPTY:
                continue
            if start in done or start in open_:
                continue
            region = board.closed_region(start, wall, open_)
            if region is not None:
                done |= region
                house = Region(player, region)
                result[house.key] = house
    return result


def chain_around(geometry: Geometry, inside: Collection[int]) -> list[int]:
    """The marks round a connected area, in order: the area's outline as a polygon.

    Walks the outline of ``inside`` clockwise on the screen from its top-left point,
    listing the outside neighbours met on the way; dead-end spurs of the chain that
    enclose nothing are cut so the polygon has no zero-width spikes.
    """
    area = inside if isinstance(inside, set | frozenset) else set(inside)
    steps = geometry.steps
    top = min(area)
    left, right, heading = top - geometry.stride, top, 0
    start = (left, right)
    chain = [left]
    while True:
        step = steps[heading]
        ahead = right + step
        if ahead not in area:
            left = ahead
            heading = (heading + 1) & 3
            chain.append(left)
        else:
            ahead_left = left + step
            if ahead_left not in area:
                left, right = ahead_left, ahead
                chain.append(left)
            else:
                right = ahead_left
                heading = (heading + 3) & 3
        if (left, right) == start:
            break
    chain.pop()  # the walk ends where it began
    return _without_spikes(chain)


def _without_spikes(chain: list[int]) -> list[int]:
    kept: list[int] = []
    for point in chain:
        if len(kept) >= 2 and kept[-2] == point:
            kept.pop()
        elif not kept or kept[-1] != point:
            kept.append(point)
    while len(kept) > 2:
        if kept[-1] == kept[1]:
            kept = kept[1:-1]
        elif kept[-2] == kept[0]:
            kept = kept[:-2]
        elif kept[-1] == kept[0]:
            kept.pop()
        else:
            break
    return kept
