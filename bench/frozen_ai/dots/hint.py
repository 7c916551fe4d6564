"""A Dots hint: hard's move and, where the fight gives one, a one-line reason for it.

The reason is a stable code the client translates (with the number of marks for
``captures``):

* ``captures`` — the move itself captures that many marks;
* ``double_threat`` — it leaves two or more captures and no single block stops them all;
* ``blocks_capture`` — it occupies the point where the opponent would capture at once;
* ``escapes`` — the opponent had a forced capture (a threat sequence, a ladder, a double
  threat to come) and after this move has none.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from random import Random
from typing import Literal

from core.dots.board import DotsBoard
from core.dots.point import Point
from core.dots.state import DotsState
from core.errors import IllegalMove
from frozen_ai.dots.book import book_move
from frozen_ai.dots.fight import Budget, OutOfBudget, fight_value
from frozen_ai.dots.hard import hard_move
from frozen_ai.dots.search import (
    RECENT_MARKS,
    TIME_SHARE,
    Closers,
    all_closers,
    closers_after,
    lead,
    threats,
)
from frozen_ai.player import Clock

Reason = Literal["captures", "double_threat", "blocks_capture", "escapes"]
"""Why the hinted move is good, as a code the client words."""

ESCAPE_DEPTH = 5
"""Plies the opponent's forced capture is read to, before and after the hinted move."""
ESCAPE_NODES = 4000
"""Node budget of each of those two readings (they come on top of choosing the move)."""


@dataclass(frozen=True, slots=True)
class DotsHint:
    """A hinted point, the reason for it (None for a quiet move) and the marks it captures."""

    point: Point
    reason: Reason | None
    marks: int = 0


def hint(
    state: DotsState,
    rng: Random,
    time_limit: float,
    clock: Clock = time.perf_counter,
    nodes: int = 10**9,
) -> DotsHint:
    """Hard's move in ``state`` with the reason for it (IllegalMove once the game is over)."""
    if state.is_over:
        raise IllegalMove("the game is over")
    board = state.to_board()
    geo = board.geometry
    opening = book_move(state)
    if opening is not None:
        index = geo.index(opening)
    else:
        recent = [geo.index(point) for point in state.moves[-RECENT_MARKS:]]
        budget = Budget(nodes, clock() + TIME_SHARE * time_limit, clock)
        index = hard_move(board, recent, rng, budget)
    reason, marks = reason_for(board, index, clock)
    return DotsHint(geo.point(index), reason, marks)


def reason_for(
    board: DotsBoard, index: int, clock: Clock = time.perf_counter
) -> tuple[Reason | None, int]:
    """Why the side to move in ``board`` plays ``index``: a reason code and the marks it takes."""
    player = board.player
    closers: Closers = (all_closers(board, 0), all_closers(board, 1))
    child = board.copy()
    child.place(index)
    gain = lead(child, player) - lead(board, player)
    if gain > 0:
        return "captures", gain
    after = closers_after(board, child, closers, index, True)
    if is_double_threat(child, after, player):
        return "double_threat", 0
    if any(gain > 0 for gain, _ in closers[1 - player].values()) and index in closers[1 - player]:
        return "blocks_capture", 0
    focus = (board.last, index) if board.last >= 0 else (index,)
    if forced_gain(board, closers, focus, clock, pass_first=True) > 0 and (
        forced_gain(child, after, focus, clock, pass_first=False) <= 0
    ):
        return "escapes", 0
    return None, 0


def is_double_threat(child: DotsBoard, closers: Closers, player: int) -> bool:
    """Whether ``player`` (who just moved) still captures after any one block of the other side."""
    mine = [point for _, point in threats(closers[player])]
    if len(mine) < 2:
        return False
    for block in mine:
        blocked = child.copy()
        blocked.place(block)
        after = closers_after(child, blocked, closers, block, False)
        if not any(gain > 0 for gain, _ in after[player].values()):
            return False
    return True


def forced_gain(
    board: DotsBoard, closers: Closers, focus: tuple[int, ...], clock: Clock, pass_first: bool
) -> float:
    """What the opponent of the side that moved last wins by force near ``focus``.

    With ``pass_first`` the side to move is skipped (what the opponent would win if the
    move were spent elsewhere); a reading cut short counts as no forced gain.
    """
    board = board.copy()
    if pass_first:
        board.player = 1 - board.player  # type: ignore[assignment]
    budget = Budget(ESCAPE_NODES, float("inf"), clock)
    try:
        return fight_value(board, closers, ESCAPE_DEPTH, -float("inf"), float("inf"), focus, budget)
    except OutOfBudget:
        return 0.0
