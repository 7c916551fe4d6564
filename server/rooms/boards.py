"""Positions of ``core`` in the wire's shapes: whole boards for snapshots, and what one move
changed for move events, built from the games' typed snapshots and changes."""

from __future__ import annotations

from core.boxes import BoxesState
from core.dots import DotsState, Point
from core.dots.snapshot import Enclosure
from core.game import Player
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
    wire_move,
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


def move_event(after: AnyGame, seat: Player, move: Move, move_id: str | None) -> MoveEvent:
    """The event of ``move``, played by ``seat``, which led to ``after``."""
    if isinstance(after, BoxesState):
        return MoveEvent(seat=seat, move=wire_move(move), move_id=move_id, closed=after.last_closed)
    assert isinstance(after, DotsState)
    change = after.change()
    if change.is_quiet:
        return MoveEvent(seat=seat, move=wire_move(move), move_id=move_id)
    return MoveEvent(
        seat=seat,
        move=wire_move(move),
        move_id=move_id,
        captures=tuple(area(found) for found in change.areas_added),
        areas_removed=tuple(_xy(found.key) for found in change.areas_removed),
        houses_added=tuple(house(found) for found in change.houses_added),
        houses_removed=tuple(
            (found.key.x, found.key.y, found.owner) for found in change.houses_removed
        ),
    )


def area(found: Enclosure) -> Area:
    """A capture as the wire writes it."""
    return Area(
        key=_xy(found.key),
        captor=found.owner,
        chain=tuple(_xy(p) for p in found.chain),
        inside=tuple(_xy(p) for p in found.inside),
    )


def house(found: Enclosure) -> House:
    """An empty enclosure as the wire writes it."""
    return House(
        key=_xy(found.key),
        owner=found.owner,
        chain=tuple(_xy(p) for p in found.chain),
        inside=tuple(_xy(p) for p in found.inside),
    )


def _boxes_board(game: BoxesState) -> BoxesBoard:
    snap = game.snapshot()
    last = snap.last_move
    return BoxesBoard(
        rows=snap.rows,
        cols=snap.cols,
        lines=tuple(DrawnLine(line=(d.line[0], d.line[1]), player=d.player) for d in snap.lines),
        boxes=tuple(OwnedBox(box=b.box, owner=b.owner) for b in snap.boxes),
        last_move=None if last is None else LineMove(line=(last[0], last[1])),
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
        marks=tuple((m.point.x, m.point.y, m.owner) for m in snap.marks),
        areas=tuple(area(found) for found in snap.areas),
        houses=tuple(house(found) for found in snap.houses),
        ungrounded=tuple(_xy(p) for p in snap.ungrounded),
        last_move=None if last is None else PointMove(point=_xy(last)),
    )
