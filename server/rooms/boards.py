"""Positions of ``core`` as clients see them: whole boards for snapshots, and what one move
changed for move events, built from the games' typed snapshots and changes."""

from __future__ import annotations

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
    MoveEvent,
    OwnedBox,
    PointMove,
)
from server.rooms.model import AnyGame, Move


def _xy(point: Point) -> tuple[int, int]:
    return (point.x, point.y)


def move_view(move: Move) -> LineMove | PointMove:
    if isinstance(move, Line):
        return LineMove(line=(move[0], move[1]))
    return PointMove(point=_xy(move))


def board_view(game: AnyGame) -> BoxesBoard | DotsBoard:
    """The whole position of ``game``, for a snapshot."""
    if isinstance(game, BoxesState):
        return _boxes_board(game)
    assert isinstance(game, DotsState)
    return _dots_board(game)


def move_event(after: AnyGame, seat: int, move: Move, move_id: str | None) -> MoveEvent:
    """The event of ``move``, played by ``seat``, which led to ``after``."""
    event = MoveEvent(seat=0 if seat == 0 else 1, move=move_view(move), move_id=move_id)
    if isinstance(after, BoxesState):
        event.closed = list(after.last_closed)
    elif isinstance(after, DotsState):
        change = after.change()
        if not change.is_quiet:
            event.captures = [_area(area) for area in change.areas_added]
            event.areas_removed = [_xy(area.key) for area in change.areas_removed]
            event.houses_added = [_house(house) for house in change.houses_added]
            event.houses_removed = [
                (house.key.x, house.key.y, house.owner) for house in change.houses_removed
            ]
    return event


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
