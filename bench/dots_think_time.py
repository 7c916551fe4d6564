"""Think time of each Dots computer level on middle games of several board sizes, run by hand::

    .venv/bin/python bench/dots_think_time.py [--sizes 10x10,20x20,39x32,60x60]
        [--positions 20] [--marks 150] [--time-limit 1] [--levels easy,normal,hard]

Each position is ``--marks`` moves (at most half the board) played near the latest marks
from the centre, the way games between people grow. Prints, per size and level, the p50,
p95 and max think time (wall clock, as a player waits for it), the time limit as the
baseline it is measured against, and the machine's load while the size ran.

For hard it also prints the longest step between two looks at its clock, in CPU time (the
process's own, whatever the load): the search stops only when it looks, so a step that
long is what it can overrun its deadline by on a quiet machine. On a loaded machine the
wall clock overruns by more, while the process waits for a core (``cpu`` shows how much of
each think it actually ran).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from core import ai, dots
from core.ai import dots as dots_ai
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


class StepClock:
    """The wall clock hard's search reads, noting the longest CPU time between two reads."""

    def __init__(self) -> None:
        self.last = time.process_time()
        self.longest = 0.0

    def __call__(self) -> float:
        now = time.process_time()
        self.longest = max(self.longest, now - self.last)
        self.last = now
        return time.perf_counter()


def think(state: dots.DotsState, level: str, seed: int, time_limit: float) -> tuple[float, float]:
    """Wall and CPU seconds the level takes to choose its move, the way the server calls it."""
    started, cpu = time.perf_counter(), time.process_time()
    ai.choose_move(state, level, seed=seed, time_limit=time_limit)
    return time.perf_counter() - started, time.process_time() - cpu


def longest_step(state: dots.DotsState, seed: int, time_limit: float) -> float:
    """The longest CPU time hard spends between two looks at its clock, to the end."""
    clock = StepClock()
    dots_ai.choose(state, "hard", random.Random(seed), time_limit, clock=clock)
    return max(clock.longest, time.process_time() - clock.last)


def quantile(ordered: list[float], share: float) -> float:
    """The ``share`` quantile of sorted ``ordered`` (nearest rank)."""
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10x10,20x20,39x32,60x60")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--marks", type=int, default=150)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--levels", default=",".join(ai.LEVELS))
    args = parser.parse_args()
    limit_ms = args.time_limit * 1000
    print(f"{args.positions} positions a size, limit {limit_ms:.0f} ms")
    print(
        f"{'size':<7}{'level':<8}{'marks':>6}{'p50 ms':>8}{'p95 ms':>8}{'max ms':>8}"
        f"{'max/limit':>10}{'cpu p50':>8}{'step ms':>8}{'load':>6}"
    )
    for size in args.sizes.split(","):
        width, height = (int(part) for part in size.split("x"))
        marks = min(args.marks, width * height // 2)
        positions = [middle_game(width, height, marks, seed) for seed in range(args.positions)]
        for level in args.levels.split(","):
            walls, cpus = [], []
            for seed, state in enumerate(positions):
                wall, cpu = think(state, level, seed, args.time_limit)
                walls.append(wall * 1000)
                cpus.append(cpu * 1000)
            step = ""
            if level == "hard":
                steps = [
                    longest_step(state, seed, args.time_limit)
                    for seed, state in enumerate(positions)
                ]
                step = f"{max(steps) * 1000:.1f}"
            walls.sort()
            print(
                f"{size:<7}{level:<8}{marks:>6}{statistics.median(walls):>8.0f}"
                f"{quantile(walls, 0.95):>8.0f}{walls[-1]:>8.0f}{walls[-1] / limit_ms:>10.2f}"
                f"{statistics.median(cpus):>8.0f}{step:>8}{os.getloadavg()[0]:>6.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
