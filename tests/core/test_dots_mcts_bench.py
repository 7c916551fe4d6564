"""The MCTS Dots player of bench/dots_mcts.py (a bench, measured against hard by hand).

Its search stops on the clock, so these run it with a deadline already passed: exactly
one playout, whatever the machine's load, and the move then follows the root's priors.
"""

from __future__ import annotations

import random

from bench.dots_mcts import playout, search
from core.dots.board import EMPTY
from tests.core.dots_tactics import TACTICS


def test_one_playout_takes_the_largest_capture_of_every_capture_in_one() -> None:
    for tactic in TACTICS:
        if tactic.kind != "capture1":
            continue
        state = tactic.state()
        board = state.to_board()
        geo = board.geometry
        recent = [geo.index(point) for point in state.moves[-16:]]
        index, playouts = search(board, recent, random.Random(0), deadline=0.0)
        assert playouts == 1
        assert tactic.solved_by(geo.point(index)), tactic.name


def test_a_playout_plays_legal_moves_in_turn() -> None:
    state = TACTICS[0].state()
    board = state.to_board()
    start = board.moves
    played: list[int] = []
    before = board.copy()
    playout(board, [board.last], random.Random(1), played)
    assert played and board.moves == start + len(played)
    assert all(before.cell[index] == EMPTY for index in played)
    assert len(set(played)) == len(played)
