"""Typed pictures of a Dots and Boxes position for clients.

:meth:`core.boxes.BoxesState.snapshot` gives a whole :class:`BoxesSnapshot`;
:meth:`core.boxes.BoxesState.change` gives the :class:`BoxesChange` its last move made:
the line, who drew it and the boxes it closed, which is all a client holding the previous
snapshot needs to hold the next one.
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
class BoxesChange:
    """What one move did: the line drawn, who drew it, and the boxes it closed."""

    move: Line | None
    """The line drawn; None when the state was not reached by a move."""
    player: Player | None
    closed: tuple[Dot, ...] = ()
    """The boxes the line closed (none, one or two), now ``player``'s."""


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
