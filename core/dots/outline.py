"""Outlines for drawing: the ordered chain round each captured area and each house.

The engine keeps only which points each capture took; these helpers rebuild, on demand,
the chain of marks round an area in order, so a client can draw it as a polygon.  They
scan the whole board and are meant for views, never for search.
"""

from __future__ import annotations

from collections.abc import Collection

from core.dots.board import DEAD, EMPTY, DotsBoard
from core.game import Player


def chain_around(board: DotsBoard, inside: Collection[int]) -> list[int]:
    """The marks round a connected area, in order: the area's tightest chain as a polygon.

    Walks the outline of ``inside`` clockwise on the screen from its top-left point,
    listing the outside neighbours met on the way; dead-end spurs of the chain that
    enclose nothing are cut so the polygon has no zero-width spikes.
    """
    area = inside if isinstance(inside, set | frozenset) else set(inside)
    steps = board.geometry.steps
    top = min(area)
    left, right, heading = top - board.geometry.stride, top, 0
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


def visible_areas(board: DotsBoard) -> list[tuple[Player, list[int]]]:
    """Every capture not swallowed by a later one, oldest first: (captor, points inside)."""
    covered: set[int] = set()
    found: list[tuple[Player, list[int]]] = []
    link = board.areas
    while link is not None:
        captor, inside, link = link
        if inside[0] not in covered:
            covered.update(inside)
            found.append((captor, list(inside)))  # type: ignore[arg-type]
    found.reverse()
    return found


def houses(board: DotsBoard) -> list[tuple[Player, list[int], list[int]]]:
    """Every house: (owner, chain, points inside) for each area closed by one player's live
    marks that still holds a free point; nested houses are listed one by one.
    """
    geo = board.geometry
    cell = board.cell
    found: list[tuple[Player, list[int], list[int]]] = []
    for player in (0, 1):
        wall = player + 1
        seen: set[int] = set()
        for start in geo.indices:
            if start in seen or cell[start] == wall:
                continue
            region = {start}
            stack = [start]
            is_open = False
            has_free = False
            while stack:
                index = stack.pop()
                state = cell[index]
                if state == EMPTY:
                    has_free = True
                for step in geo.steps:
                    near = index + step
                    if near in region:
                        continue
                    near_state = cell[near]
                    if near_state == wall:
                        continue
                    if near_state > DEAD:  # the border sentinel: the area is open
                        is_open = True
                        continue
                    region.add(near)
                    stack.append(near)
            seen |= region
            if is_open or not has_free:
                continue
            top = min(region)
            outline = board.walk_outline(top - geo.stride, top, 0, wall)
            inside = board.inside_chain(top, outline, wall)
            found.append((player, chain_around(board, inside), sorted(inside)))
    return found
