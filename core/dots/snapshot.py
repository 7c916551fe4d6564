"""Typed pictures of a Dots position for clients: marks, captured areas, houses, changes.

:meth:`core.dots.DotsState.snapshot` gives a whole :class:`DotsSnapshot`;
:meth:`core.dots.DotsState.change` gives the :class:`DotsChange` its last move made.  A
client that holds a snapshot and applies each change in turn (drop the removed areas and
houses by key, add the added ones, put the move's mark) holds the next position: a mark
is captured exactly when it lies inside a visible area of the other player, and a free
point is dead exactly when it lies inside a visible area.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.dots.geometry import Start
from core.dots.point import Point
from core.game import Outcome, Player


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark on the board: where, whose, and whether it lies in the other player's area."""

    point: Point
    owner: Player
    captured: bool


@dataclass(frozen=True, slots=True)
class Enclosure:
    """A closed chain of one player's marks and the points strictly inside it."""

    owner: Player
    chain: tuple[Point, ...]
    """The chain's marks in order round the inside (clockwise on the screen): a polygon."""
    inside: tuple[Point, ...]
    """The points inside, row by row."""

    @property
    def key(self) -> Point:
        """The first point inside, row by row: it names the enclosure among its kind."""
        return self.inside[0]


@dataclass(frozen=True, slots=True)
class Area(Enclosure):
    """A captured area that no later capture swallowed; ``owner`` is its captor.

    Visible areas never overlap, so the key names an area.  Its inside holds everything
    the capture took: the other player's marks (captured), the captor's own marks and the
    empty points, which are dead.
    """


@dataclass(frozen=True, slots=True)
class House(Enclosure):
    """An empty enclosure: a closed region of ``owner``'s chains that still holds a free
    point and has captured nothing; both players may play inside.

    ``inside`` is the region itself (an enclosure inside it is a house of its own), so one
    player's houses never overlap and ``(owner, key)`` names a house.
    """


@dataclass(frozen=True, slots=True)
class DotsChange:
    """What one move changed besides its own mark: the areas and houses that appeared and
    those that went (swallowed by a capture, captured by the house rule, or dissolved).
    """

    move: Point | None
    """The point played; None when the state was not reached by a move."""
    player: Player | None
    """Who played it."""
    areas_added: tuple[Area, ...] = ()
    areas_removed: tuple[Area, ...] = ()
    houses_added: tuple[House, ...] = ()
    houses_removed: tuple[House, ...] = ()

    @property
    def is_quiet(self) -> bool:
        """Whether the move changed no area and no house."""
        return not (
            self.areas_added or self.areas_removed or self.houses_added or self.houses_removed
        )


@dataclass(frozen=True, slots=True)
class DotsSnapshot:
    """The whole position as a client draws it."""

    width: int
    height: int
    start: Start
    win_margin: int | None
    grounding: bool
    marks: tuple[Mark, ...]
    """Every mark, row by row."""
    areas: tuple[Area, ...]
    """The visible captured areas, by key."""
    houses: tuple[House, ...]
    """The houses of both players, by owner then key."""
    ungrounded: tuple[Point, ...]
    """After a grounding ending: the grounder's marks that were not linked to the edge."""
    move_count: int
    last_move: Point | None
    to_move: Player
    scores: tuple[int, int]
    outcome: Outcome | None
