"""The three Dots (encirclement) computer players: easy, normal and hard.

:func:`choose` returns the point a level plays.  Easy and normal live in
:mod:`frozen_ai.dots.search`; hard (:mod:`frozen_ai.dots.hard`) reads the local fight with
the forcing search of :mod:`frozen_ai.dots.fight` and opens the cross start from the book
of :mod:`frozen_ai.dots.book`; :func:`hint` (:mod:`frozen_ai.dots.hint`) is hard's move with a
one-line reason code.
"""

from __future__ import annotations

import time
from random import Random

from core.dots.geometry import Point
from core.dots.state import DotsState
from core.errors import IllegalMove
from frozen_ai.dots.book import book_move
from frozen_ai.dots.fight import Budget
from frozen_ai.dots.hard import hard_move
from frozen_ai.dots.hint import DotsHint, Reason, hint
from frozen_ai.dots.search import RECENT_MARKS, TIME_SHARE, easy_move, normal_move
from frozen_ai.player import Clock, check_level

HARD_NODES = 10**9
"""Hard's node budget in play: the clock stops it first (tests pass a smaller one)."""


def choose(
    state: DotsState,
    level: str,
    rng: Random,
    time_limit: float,
    clock: Clock = time.perf_counter,
    nodes: int = HARD_NODES,
) -> Point:
    """The point the computer at ``level`` plays in ``state``.

    ``nodes`` caps hard's fight search, so a test can stop it deterministically.
    """
    check_level(level)
    if state.is_over:
        raise IllegalMove("the game is over")
    deadline = clock() + TIME_SHARE * time_limit
    board = state.to_board()
    geo = board.geometry
    recent = [geo.index(point) for point in state.moves[-RECENT_MARKS:]]
    if level == "easy":
        index = easy_move(board, rng)
    elif level == "normal":
        index = normal_move(board, recent, rng, deadline, clock)
    else:
        opening = book_move(state)
        if opening is not None:
            return opening
        index = hard_move(board, recent, rng, Budget(nodes, deadline, clock))
    return geo.point(index)


__all__ = ["DotsHint", "Reason", "book_move", "choose", "hint"]
