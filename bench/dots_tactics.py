"""The Dots tactics suite (tests/core/dots_tactics.py) against hard, run by hand::

    .venv/bin/python bench/dots_tactics.py [--time-limit 1.0] [--level hard] [--verify]

``--level frozen-hard`` runs the player from before issue 30 (bench/frozen_ai), the baseline;
``--level mcts`` the Monte Carlo tree search of bench/dots_mcts.py.

Prints each position with the move played, whether it solves it and the think time, then
the solved share per kind and overall with p50, p95 and max think time.  ``--verify``
instead checks the suite's answers with a full-width alpha-beta over the free points next
to the marks, to each position's depth (slow: minutes).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tools.compiled import apply_frozen_mode, apply_mode

# Before core is imported: dots_mcts and frozen_ai import it, and ai_tournament would
# then find it too late to fall back to the sources when the compiled build is stale.
apply_mode()
apply_frozen_mode()

import dots_mcts  # noqa: E402
import frozen_ai  # noqa: E402
from ai_tournament import percentile  # noqa: E402

from core import ai  # noqa: E402
from core.dots.board import EMPTY, DotsBoard  # noqa: E402
from core.dots.point import Point  # noqa: E402
from tests.core.dots_tactics import TACTICS, Tactic  # noqa: E402


def window(board: DotsBoard, rows: int) -> list[int]:
    """Free points next to a mark of the picture (the filler rows below are left out)."""
    geo = board.geometry
    found: set[int] = set()
    for index in geo.indices:
        point = geo.points[index]
        if point is None or point.y >= rows or board.cell[index] not in (1, 2):
            continue
        for step in geo.ring:
            near = geo.points[index + step]
            if board.cell[index + step] == EMPTY and near is not None and near.y <= rows:
                found.add(index + step)
    return sorted(found)


def gain(board: DotsBoard, child: DotsBoard) -> int:
    """What the mover of ``board`` gained in ``child``."""
    player = board.player
    return (child.score[player] - child.score[1 - player]) - (
        board.score[player] - board.score[1 - player]
    )


def full_width(board: DotsBoard, moves: list[int], depth: int, alpha: int, beta: int) -> int:
    """Best margin change for the side to move over ``depth`` plies on ``moves``."""
    best = -(10**6)
    for index in moves:
        if board.cell[index] != EMPTY:
            continue
        child = board.copy()
        child.place(index)
        won = gain(board, child)
        value = won if depth == 1 else won - full_width(child, moves, depth - 1, -beta, -alpha)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return max(best, 0) if depth == 1 else best


def verify(tactic: Tactic) -> tuple[bool, list[str]]:
    """Whether the listed answers are exactly the best moves; and the best moves found."""
    board = tactic.state().to_board()
    moves = window(board, tactic.rows)
    values = {}
    for index in moves:
        child = board.copy()
        child.place(index)
        # One ply more than the kind needs: the other side's reply to the last move counts.
        values[str(board.geometry.point(index))] = gain(board, child) - full_width(
            child, moves, tactic.depth, -(10**6), 10**6
        )
    top = max(values.values())
    best = sorted(name for name, value in values.items() if value == top)
    return set(best) == set(tactic.answers), best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--verify", action="store_true")
    args = parser.parse_args()
    if args.verify:
        for tactic in TACTICS:
            ok, best = verify(tactic)
            print(f"{tactic.name:<28}{'ok' if ok else 'WRONG':<7}best: {' '.join(best)}")
        return
    solved: dict[str, list[bool]] = defaultdict(list)
    times = []
    for tactic in TACTICS:
        state = tactic.state()
        started = time.perf_counter()
        if args.level == "mcts":
            move = dots_mcts.choose_move(state, seed=1, time_limit=args.time_limit)
        elif args.level.startswith("frozen-"):
            level = args.level.removeprefix("frozen-")
            move = frozen_ai.choose_move(state, level, seed=1, time_limit=args.time_limit)
        else:
            move = ai.choose_move(state, args.level, seed=1, time_limit=args.time_limit)
        elapsed = time.perf_counter() - started
        assert isinstance(move, Point)
        times.append(elapsed * 1000)
        ok = tactic.solved_by(move)
        solved[tactic.kind].append(ok)
        print(
            f"{tactic.name:<28}{tactic.kind:<15}{move!s:<6}{'ok' if ok else '--':<4}"
            f"{elapsed * 1000:>8.0f} ms"
        )
    print(f"\n{args.level} at time limit {args.time_limit:g} s")
    for kind, results in solved.items():
        print(f"{kind:<15}{sum(results):>3}/{len(results)}")
    every = [ok for results in solved.values() for ok in results]
    print(
        f"{'all':<15}{sum(every):>3}/{len(every)} = {100 * sum(every) / len(every):.0f} %   "
        f"think p50 {percentile(times, 0.5):.0f} ms, p95 {percentile(times, 0.95):.0f} ms, "
        f"max {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
