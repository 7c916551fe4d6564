"""Think time of each Dots computer level on 39×32 middle games, run by hand::

    .venv/bin/python bench/dots_think_time.py [--positions 20] [--marks 150] [--time-limit 1]

Each position is ``--marks`` moves played near the latest marks from the centre, the
way games between people grow. Prints p50, p95 and max per level, and the time limit
as the baseline the hard level is measured against.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from core import ai, dots
from core.dots import Point


def middle_game(width: int, height: int, marks: int, seed: int) -> dots.DotsState:
    """A position after ``marks`` random moves, each within two points of a recent mark."""
    rng = random.Random(seed)
    state = dots.new_game(width, height).play(Point(width // 2, height // 2))
    for _ in range(marks - 1):
        near = {
            Point(p.x + dx, p.y + dy)
            for p in state.moves[-20:]
            for dx in range(-2, 3)
            for dy in range(-2, 3)
            if 0 <= p.x + dx < width and 0 <= p.y + dy < height
        }
        legal = sorted(point for point in near if state.is_legal(point))
        state = state.play(rng.choice(legal or list(state.legal_moves())))
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--marks", type=int, default=150)
    parser.add_argument("--time-limit", type=float, default=1.0)
    args = parser.parse_args()
    positions = [middle_game(39, 32, args.marks, seed) for seed in range(args.positions)]
    limit_ms = args.time_limit * 1000
    print(f"39x32, {args.positions} positions of {args.marks} marks, limit {limit_ms:.0f} ms")
    print(f"{'level':<8}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'max/limit':>11}")
    for level in ai.LEVELS:
        times = []
        for seed, state in enumerate(positions):
            started = time.perf_counter()
            ai.choose_move(state, level, seed=seed, time_limit=args.time_limit)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
        print(
            f"{level:<8}{statistics.median(times):>9.1f}{p95:>9.1f}{times[-1]:>9.1f}"
            f"{times[-1] / limit_ms:>11.2f}"
        )


if __name__ == "__main__":
    main()
