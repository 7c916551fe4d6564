"""A room's board as an engine reads it: whose turn, the scores, and what may be played.

:func:`position_of` makes a :class:`BoxesPosition` or a :class:`DotsPosition` from the
room's snapshot (the generated models of :mod:`tetrad_client.models`). Both answer
:meth:`legal_moves` from the board alone, as docs/api.md says a client should ("playable:
every line between adjacent dots that is not drawn", "every point with no mark that lies
inside no area"); the Dots and Boxes one also counts the sides of boxes, which is what a
greedy bot needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from tetrad_client import models
from tetrad_client.moves import Dot, Line, Move, Point, line


@dataclass
class BasePosition:
    """What both games share: the seat you hold (null: watching), whose turn, the scores and
    the moves of this game in order when the client saw them all (``history``, else None)."""

    seat: int | None
    to_move: int
    scores: tuple[int, int]
    over: bool
    history: list[Move] | None

    @property
    def my_turn(self) -> bool:
        return not self.over and self.seat == self.to_move


@dataclass
class BoxesPosition(BasePosition):
    """A Dots and Boxes position: ``rows`` × ``cols`` boxes, dots ``(0..cols, 0..rows)``."""

    rows: int
    cols: int
    drawn: set[Line] = field(default_factory=set)
    start: list[Line] = field(default_factory=list)
    owners: dict[Dot, int] = field(default_factory=dict)
    game: str = "boxes"

    def all_lines(self) -> list[Line]:
        across = [((x, y), (x + 1, y)) for y in range(self.rows + 1) for x in range(self.cols)]
        down = [((x, y), (x, y + 1)) for y in range(self.rows) for x in range(self.cols + 1)]
        return across + down

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        return [ln for ln in self.all_lines() if ln not in self.drawn]

    def boxes_of(self, ln: Line) -> list[Dot]:
        """The one or two boxes (by their top-left dot) that ``ln`` is a side of."""
        (x1, y1), (_, y2) = ln
        across = y1 == y2  # then the box below and the one above; else right and left
        found = [(x1, y1), (x1, y1 - 1)] if across else [(x1, y1), (x1 - 1, y1)]
        return [(x, y) for x, y in found if 0 <= x < self.cols and 0 <= y < self.rows]

    def sides(self, box: Dot, drawn: set[Line] | None = None) -> int:
        """How many of the box's four sides are drawn."""
        x, y = box
        lines = self.drawn if drawn is None else drawn
        edges = [((x, y), (x + 1, y)), ((x, y + 1), (x + 1, y + 1))]
        edges += [((x, y), (x, y + 1)), ((x + 1, y), (x + 1, y + 1))]
        return sum(edge in lines for edge in edges)

    def closes(self, ln: Line) -> int:
        """How many boxes drawing ``ln`` would close (0, 1 or 2)."""
        return sum(self.sides(box) == 3 for box in self.boxes_of(ln))

    def gives(self, ln: Line) -> int:
        """How many boxes drawing ``ln`` would leave with three sides (for the other player)."""
        return sum(self.sides(box) == 2 for box in self.boxes_of(ln))


@dataclass
class DotsPosition(BasePosition):
    """A Dots position: ``width`` × ``height`` points."""

    width: int
    height: int
    marks: dict[Point, int] = field(default_factory=dict)
    dead: set[Point] = field(default_factory=set)
    start_name: str = "empty"
    game: str = "dots"

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        return [
            (x, y)
            for y in range(self.height)
            for x in range(self.width)
            if (x, y) not in self.marks and (x, y) not in self.dead
        ]

    def neighbours(self, point: Point) -> list[Point]:
        """The up to eight points around ``point``."""
        x, y = point
        return [
            (x + dx, y + dy)
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if (dx or dy) and 0 <= x + dx < self.width and 0 <= y + dy < self.height
        ]


Position: TypeAlias = BoxesPosition | DotsPosition


def position_of(
    state: models.RoomSnapshot, seat: int | None, history: list[Move] | None = None
) -> Position:
    """The position of a room's snapshot, seen from ``seat``."""
    status = state.status
    scores = (status.scores[0], status.scores[1])
    over = status.outcome is not None
    moves = None if history is None else list(history)
    board = state.board
    if isinstance(board, models.BoxesBoard):
        drawn = {line(*entry.line) for entry in board.lines}
        start = [line(*entry.line) for entry in board.lines if entry.player is None]
        owners: dict[Dot, int] = {(box.box[0], box.box[1]): box.owner for box in board.boxes}
        return BoxesPosition(
            seat, status.to_move, scores, over, moves, board.rows, board.cols, drawn, start, owners
        )
    marks: dict[Point, int] = {(x, y): owner for x, y, owner in board.marks}
    dead = {(x, y) for area in board.areas for x, y in area.inside}
    return DotsPosition(
        seat,
        status.to_move,
        scores,
        over,
        moves,
        width=board.width,
        height=board.height,
        marks=marks,
        dead=dead,
        start_name=board.start,
    )
