"""Positions of ``core`` as clients see them: whole boards for snapshots, and what one move
changed for move events. The only module that reads the games' drawing data."""

from __future__ import annotations

from typing import Any

from core.boxes import BoxesState, Line
from core.dots import DotsState, Point
from server.protocol import (
    Area,
    BoxesBoard,
    DotsBoard,
    DrawnLine,
    House,
    LineMove,
    MoveEvent,
    OwnedBox,
    PointMove,
)
from server.rooms.model import AnyGame, Move


def move_view(move: Move) -> LineMove | PointMove:
    if isinstance(move, Line):
        return LineMove(line=(move[0], move[1]))
    return PointMove(point=(move.x, move.y))


def board_view(game: AnyGame) -> BoxesBoard | DotsBoard:
    """The whole position of ``game``, for a snapshot."""
    if isinstance(game, BoxesState):
        return _boxes_board(game)
    assert isinstance(game, DotsState)
    return _dots_board(game)


def move_event(
    before: AnyGame, after: AnyGame, seat: int, move: Move, move_id: str | None
) -> MoveEvent:
    """The event of ``move`` played by ``seat`` on ``before``, which led to ``after``."""
    event = MoveEvent(seat=0 if seat == 0 else 1, move=move_view(move), move_id=move_id)
    if isinstance(after, BoxesState):
        event.closed = _closed(after, move)
    elif isinstance(after, DotsState) and isinstance(before, DotsState):
        _dots_change(before, after, event)
    return event


# -- Dots and Boxes -------------------------------------------------------------------------


def _boxes_board(game: BoxesState) -> BoxesBoard:
    lines = [DrawnLine(line=(line[0], line[1]), player=None) for line in game.start]
    lines += [
        DrawnLine(line=(line[0], line[1]), player=0 if player == 0 else 1)
        for line, player in zip(game.moves, game.movers(), strict=True)
    ]
    geo = game.geometry
    boxes = []
    for index in range(geo.box_count):
        bit = 1 << index
        for owner in (0, 1):
            if game.owned[owner] & bit:
                boxes.append(OwnedBox(box=geo.box_at(index), owner=0 if owner == 0 else 1))
    last = game.moves[-1] if game.moves else None
    return BoxesBoard(
        rows=game.rows,
        cols=game.cols,
        lines=lines,
        boxes=boxes,
        last_move=None if last is None else LineMove(line=(last[0], last[1])),
    )


def _closed(after: BoxesState, move: Move) -> list[tuple[int, int]]:
    """The boxes ``move`` closed: those beside it with all four sides drawn now."""
    geo = after.geometry
    index = geo.index_of[move]  # type: ignore[index]
    drawn = after.drawn
    return [
        geo.box_at(box)
        for box in geo.line_boxes[index]
        if drawn & geo.box_sides[box] == geo.box_sides[box]
    ]


# -- Dots -----------------------------------------------------------------------------------


def _xy(pair: Any) -> tuple[int, int]:
    return (int(pair[0]), int(pair[1]))


def _key(inside: list[Any]) -> tuple[int, int]:
    """The first inside point in row-major order."""
    x, y = min((point[1], point[0]) for point in inside)[::-1]
    return (x, y)


def _areas(view: dict[str, Any]) -> dict[tuple[int, int], Area]:
    areas = {}
    for area in view["areas"]:
        key = _key(area["inside"])
        areas[key] = Area(
            key=key,
            captor=area["captor"],
            chain=[_xy(p) for p in area["chain"]],
            inside=[_xy(p) for p in area["inside"]],
        )
    return areas


def _houses(view: dict[str, Any]) -> dict[tuple[int, int], House]:
    houses = {}
    for house in view["houses"]:
        key = _key(house["inside"])
        houses[key] = House(
            key=key,
            owner=house["owner"],
            chain=[_xy(p) for p in house["chain"]],
            inside=[_xy(p) for p in house["inside"]],
        )
    return houses


def _dots_board(game: DotsState) -> DotsBoard:
    view = game.view()
    last = game.last_move
    return DotsBoard(
        width=game.width,
        height=game.height,
        start=game.start,
        win_margin=game.options.win_margin,
        grounding=game.options.grounding,
        marks=[(m["point"][0], m["point"][1], m["owner"]) for m in view["marks"]],
        areas=list(_areas(view).values()),
        houses=list(_houses(view).values()),
        ungrounded=[_xy(p) for p in view["ungrounded"]],
        last_move=None if last is None else PointMove(point=(last.x, last.y)),
    )


def _dots_change(before: DotsState, after: DotsState, event: MoveEvent) -> None:
    old, new = before.view(), after.view()
    old_areas, new_areas = _areas(old), _areas(new)
    old_houses, new_houses = _houses(old), _houses(new)
    event.captures = [area for key, area in new_areas.items() if old_areas.get(key) != area]
    event.areas_removed = [key for key, area in old_areas.items() if new_areas.get(key) != area]
    event.houses_added = [h for key, h in new_houses.items() if old_houses.get(key) != h]
    event.houses_removed = [key for key, h in old_houses.items() if new_houses.get(key) != h]


__all__ = ["Point", "board_view", "move_event", "move_view"]
