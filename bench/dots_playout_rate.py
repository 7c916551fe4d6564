"""How many capture-aware random playouts pure Python manages per second on Dots, run by hand::

    .venv/bin/python bench/dots_playout_rate.py [--positions 5] [--plies 60] [--seconds 2]

The question behind it: would Monte Carlo tree search with capture-aware playouts beat the
forcing search of core.ai.dots.fight at 1 s a move?  A playout here is what such a search
needs at the least: from a 39×32 middle game, ``--plies`` moves each taking a capture
next to the latest mark when there is one, else a random free point near the latest
marks.  Prints playouts per second and the fight search's nodes per second on the same
positions for comparison.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.dots_think_time import middle_game
from core.ai.dots.fight import Budget
from core.ai.dots.hard import hard_move
from core.ai.dots.search import RECENT_MARKS, free_near, may_close, try_move
from core.dots.board import DotsBoard


def playout(board: DotsBoard, plies: int, rng: random.Random) -> int:
    """Play ``plies`` capture-aware random moves on ``board``; the first player's lead after."""
    recent = [board.last]
    for _ in range(plies):
        if board.is_over:
            break
        player = board.player
        near = sorted(free_near(board, recent[-4:], 1))
        move = -1
        for index in near:
            if may_close(board, index, player):
                closing = try_move(board, index, player)
                if closing is not None and closing[0] > 0:
                    move = index
                    break
        if move < 0:
            move = rng.choice(near) if near else rng.choice(board.playable)
        board.place(move)
        recent.append(move)
    return board.score[0] - board.score[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    rng = random.Random(0)
    playouts = nodes = 0
    spent_playing = spent_searching = 0.0
    for seed in range(args.positions):
        state = middle_game(39, 32, 150, seed)
        board = state.to_board()
        started = time.perf_counter()
        while time.perf_counter() - started < args.seconds:
            playout(board.copy(), args.plies, rng)
            playouts += 1
        spent_playing += time.perf_counter() - started
        geo = board.geometry
        recent = [geo.index(point) for point in state.moves[-RECENT_MARKS:]]
        started = time.perf_counter()
        budget = Budget(10**9, started + args.seconds, time.perf_counter)
        hard_move(board, recent, random.Random(seed), budget)
        spent_searching += time.perf_counter() - started
        nodes += budget.visited
    print(f"39x32 middle games, {args.positions} positions, {args.plies}-ply playouts")
    print(f"capture-aware playouts: {playouts / spent_playing:8.1f} per second")
    print(f"fight search nodes:     {nodes / spent_searching:8.1f} per second")


if __name__ == "__main__":
    main()
