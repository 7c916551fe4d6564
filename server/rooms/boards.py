"""Positions of ``core`` as clients see them: whole boards for snapshots, and what one move
changed for move events, built from the games' typed snapshots and changes."""

from __future__ import annotations

from typing import Any

from core.boxes import BoxesState, Line
from core.dots import DotsState, Point
from core.dots.snapshot import Enclosure
from server.protocol import (
    Area,
    BoxesBoard,
    DotsBoard,
    DrawnLine,
    House,
    LineMove,
    OwnedBox,
    PointMove,
)
from server.rooms.model import AnyGame, Move


def _xy(point: Point) -> tuple[int, int]:
    return (point.x, point.y)


def board_view(game: AnyGame) -> BoxesBoard | DotsBoard:
    """The whole position of ``game``, for a snapshot."""
    if isinstance(game, BoxesState):
        return _boxes_board(game)
    assert isinstance(game, DotsState)
    return _dots_board(game)


def move_event(after: AnyGame, seat: int, move: Move, move_id: str | None) -> dict[str, Any]:
    """The event of ``move``, played by ``seat``, which led to ``after``: the wire form of a
    :class:`~server.protocol.MoveEvent`, written as plain JSON data (a move event is on the
    path of every move, and building the model cost more than the rest of the event; the
    tests hold it to the model's schema and field order)."""
    event: dict[str, Any] = {"kind": "move", "seat": 0 if seat == 0 else 1}
    if isinstance(move, Line):
        event["move"] = {"line": [list(move[0]), list(move[1])]}
    else:
        event["move"] = {"point": [move.x, move.y]}
    if move_id is not None:
        event["move_id"] = move_id
    if isinstance(after, BoxesState):
        closed = after.last_closed
        if closed:
            event["closed"] = [list(box) for box in closed]
    elif isinstance(after, DotsState):
        change = after.change()
        if not change.is_quiet:
            if change.areas_added:
                event["captures"] = [_enclosure_json(a, "captor") for a in change.areas_added]
            if change.areas_removed:
                event["areas_removed"] = [[a.key.x, a.key.y] for a in change.areas_removed]
            if change.houses_added:
                event["houses_added"] = [
                    _enclosure_json(house, "owner") for house in change.houses_added
                ]
            if change.houses_removed:
                event["houses_removed"] = [
                    [house.key.x, house.key.y, house.owner] for house in change.houses_removed
                ]
    return event


def _enclosure_json(found: Enclosure, who: str) -> dict[str, Any]:
    return {
        "key": [found.key.x, found.key.y],
        who: found.owner,
        "chain": [[point.x, point.y] for point in found.chain],
        "inside": [[point.x, point.y] for point in found.inside],
    }


def _boxes_board(game: BoxesState) -> BoxesBoard:
    snap = game.snapshot()
    last = snap.last_move
    return BoxesBoard(
        rows=snap.rows,
        cols=snap.cols,
        lines=[DrawnLine(line=(d.line[0], d.line[1]), player=d.player) for d in snap.lines],
        boxes=[OwnedBox(box=b.box, owner=b.owner) for b in snap.boxes],
        last_move=None if last is None else LineMove(line=(last[0], last[1])),
    )


def _area(area: Enclosure) -> Area:
    return Area(
        key=_xy(area.key),
        captor=area.owner,
        chain=[_xy(p) for p in area.chain],
        inside=[_xy(p) for p in area.inside],
    )


def _house(house: Enclosure) -> House:
    return House(
        key=_xy(house.key),
        owner=house.owner,
        chain=[_xy(p) for p in house.chain],
        inside=[_xy(p) for p in house.inside],
    )


def _dots_board(game: DotsState) -> DotsBoard:
    snap = game.snapshot()
    last = snap.last_move
    return DotsBoard(
        width=snap.width,
        height=snap.height,
        start=snap.start,
        win_margin=snap.win_margin,
        grounding=snap.grounding,
        marks=[(m.point.x, m.point.y, m.owner) for m in snap.marks],
        areas=[_area(area) for area in snap.areas],
        houses=[_house(house) for house in snap.houses],
        ungrounded=[_xy(p) for p in snap.ungrounded],
        last_move=None if last is None else PointMove(point=_xy(last)),
    )
