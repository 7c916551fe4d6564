"""The search path: Dots and Boxes played on bare ints, with no objects made per move.

A position here is ``drawn`` (the line bitmask of :mod:`core.boxes.geometry`) plus the
score difference kept by the caller; the AI and the benchmarks use these functions in
their inner loops, and they agree with :meth:`BoxesState.play` move for move.
:class:`BoxesBoard` (``state.to_board()``) keeps such a position with whose turn it is and
the scores, for callers who would rather not.
"""

from __future__ import annotations

from random import Random

from core.boxes.geometry import Geometry
from core.game import Player, other


def draw(geo: Geometry, drawn: int, line: int) -> tuple[int, int]:
    """Draw ``line`` on ``drawn``; return the new bitmask and how many boxes it completed."""
    after = drawn | (1 << line)
    sides = geo.box_sides
    completed = 0
    for box in geo.line_boxes[line]:
        mask = sides[box]
        if after & mask == mask:
            completed += 1
    return after, completed


def undrawn_lines(geo: Geometry, drawn: int) -> list[int]:
    """The numbers of the lines not yet drawn, in increasing order."""
    free = geo.all_lines & ~drawn
    result = []
    while free:
        low = free & -free
        result.append(low.bit_length() - 1)
        free ^= low
    return result


def random_playout(geo: Geometry, rng: Random, drawn: int = 0, to_move: int = 0) -> list[int]:
    """Finish the game from ``drawn`` with uniformly random legal lines; return both scores.

    Every step picks uniformly among the lines still undrawn, exactly as a player choosing
    at random from ``legal_moves()`` would.
    """
    free = undrawn_lines(geo, drawn)
    scores = [0, 0]
    sides = geo.box_sides
    line_boxes = geo.line_boxes
    randbelow = rng.randrange
    mover = to_move
    while free:
        pick = randbelow(len(free))
        line = free[pick]
        free[pick] = free[-1]
        free.pop()
        drawn |= 1 << line
        completed = 0
        for box in line_boxes[line]:
            mask = sides[box]
            if drawn & mask == mask:
                completed += 1
        if completed:
            scores[mover] += completed
        else:
            mover ^= 1
    return scores


class BoxesBoard:
    """A Dots and Boxes position that changes in place, for search: whoever gets one from
    ``state.to_board()`` or :meth:`copy` owns it.
    """

    __slots__ = ("drawn", "geometry", "player", "score")

    geometry: Geometry
    drawn: int
    """Bitmask of the drawn lines."""
    player: Player
    """Who draws next."""
    score: list[int]
    """Boxes claimed by player 0 and by player 1."""

    def __init__(self, geo: Geometry, drawn: int, player: Player, score: list[int]) -> None:
        self.geometry = geo
        self.drawn = drawn
        self.player = player
        self.score = score

    def copy(self) -> BoxesBoard:
        """An independent copy that the caller owns."""
        return BoxesBoard(self.geometry, self.drawn, self.player, self.score[:])

    @property
    def is_over(self) -> bool:
        """Whether every line is drawn."""
        return self.drawn == self.geometry.all_lines

    def playable(self) -> list[int]:
        """The numbers of the undrawn lines, in increasing order."""
        return undrawn_lines(self.geometry, self.drawn)

    def place(self, line: int) -> int:
        """The player to move draws line number ``line`` (undrawn); it claims the boxes it
        closes and moves again if it closed any.  Returns how many it closed.
        """
        self.drawn, completed = draw(self.geometry, self.drawn, line)
        if completed:
            self.score[self.player] += completed
        else:
            self.player = other(self.player)
        return completed
