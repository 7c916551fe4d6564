"""Typed pictures of a Dots and Boxes position for clients.

:meth:`core.boxes.BoxesState.snapshot` gives a whole :class:`BoxesSnapshot`. What a move
changed is its line, who drew it and the boxes it closed (``BoxesState.last_closed``): all a
client holding the previous snapshot needs to hold the next one.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.boxes.line import Dot, Line
from core.game import Outcome, Player


@dataclass(frozen=True, slots=True)
class DrawnLine:
    """A line on the board and who drew it (``None`` for a start line)."""

    line: Line
    player: Player | None


@dataclass(frozen=True, slots=True)
class OwnedBox:
    """A claimed box, by its top-left dot, and who claimed it."""

    box: Dot
    owner: Player


@dataclass(frozen=True, slots=True)
class BoxesSnapshot:
    """The whole position as a client draws it."""

    rows: int
    cols: int
    start: tuple[Line, ...]
    lines: tuple[DrawnLine, ...]
    """Every drawn line: the start lines first, then the moves in order."""
    boxes: tuple[OwnedBox, ...]
    """The claimed boxes, row by row."""
    move_count: int
    last_move: Line | None
    to_move: Player
    scores: tuple[int, int]
    outcome: Outcome | None
