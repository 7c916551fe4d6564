"""The search path: Dots and Boxes played on bare ints, with no objects made per move.

A position here is ``drawn`` (the line bitmask of :mod:`core.boxes.geometry`) plus the
score difference kept by the caller; the AI and the benchmarks use these functions in
their inner loops, and they agree with :meth:`BoxesState.play` move for move.
"""

from __future__ import annotations

from random import Random

from core.boxes.geometry import Geometry


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
