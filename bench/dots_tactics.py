"""The Dots tactics suite (tests/core/dots_tactics.py) against hard, run by hand::

    .venv/bin/python bench/dots_tactics.py [--time-limit 1.0] [--level hard] [--verify]
        [--only NAME,...]

``--level frozen-hard`` runs the player from before issue 30 (bench/frozen_ai), the baseline;
``--level mcts`` the Monte Carlo tree search of bench/dots_mcts.py.

Prints each position with the move played, whether it solves it and the think time, then
the solved share per kind and overall with p50, p95 and max think time.  ``--verify``
instead checks the suite's answers with a full-width alpha-beta over the free points next
to the marks, to each position's depth (slow: tens of minutes); the points next to each
mark put during the search join its window, so a ladder's path is searched to its end.
A picture set on the big boards is verified once, on the first of them as the picture
shows it: the views are symmetries of the rules, and the search's window (the picture's
rows and the one below, far from the far edges and the filler marks) is the same on
every big board.
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


def in_picture(board: DotsBoard, index: int, rows: int) -> bool:
    """Whether ``index`` is a point of the picture's rows or the row just below them."""
    point = board.geometry.points[index]
    return point is not None and point.y <= rows


def window(board: DotsBoard, rows: int) -> list[int]:
    """Free points next to a mark of the picture (the filler rows below are left out)."""
    geo = board.geometry
    found: set[int] = set()
    for index in geo.indices:
        point = geo.points[index]
        if point is None or point.y >= rows or board.cell[index] not in (1, 2):
            continue
        for step in geo.ring:
            if board.cell[index + step] == EMPTY and in_picture(board, index + step, rows):
                found.add(index + step)
    return sorted(found)


def widened(board: DotsBoard, moves: list[int], index: int, rows: int) -> list[int]:
    """``moves`` and the free points next to the mark just put on ``index``: the window
    follows the marks, so a ladder's or a net's later points are searched too."""
    around = [
        index + step
        for step in board.geometry.ring
        if board.cell[index + step] == EMPTY and in_picture(board, index + step, rows)
    ]
    return moves + [point for point in around if point not in moves]


def gain(board: DotsBoard, child: DotsBoard) -> int:
    """What the mover of ``board`` gained in ``child``."""
    player = board.player
    return (child.score[player] - child.score[1 - player]) - (
        board.score[player] - board.score[1 - player]
    )


def full_width(
    board: DotsBoard, moves: list[int], depth: int, alpha: int, beta: int, rows: int
) -> int:
    """Best margin change for the side to move over ``depth`` plies, on the free points of
    ``moves`` and, after each mark, the free points next to it (:func:`widened`)."""
    best = -(10**6)
    for index in moves:
        if board.cell[index] != EMPTY:
            continue
        child = board.copy()
        child.place(index)
        won = gain(board, child)
        if depth == 1:
            value = won
        else:
            after = widened(child, moves, index, rows)
            value = won - full_width(child, after, depth - 1, -beta, -alpha, rows)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return max(best, 0) if depth == 1 else best


def verify(tactic: Tactic) -> tuple[bool, list[str]]:
    """Whether the listed answers are exactly the best moves; and the best moves found.

    A position seen in another view is verified as the picture shows it (view 0).
    """
    board = tactic.unviewed().state().to_board()
    moves = window(board, tactic.rows)
    values = {}
    for index in moves:
        child = board.copy()
        child.place(index)
        # One ply more than the kind needs: the other side's reply to the last move counts.
        values[str(board.geometry.point(index))] = gain(board, child) - full_width(
            child,
            widened(child, moves, index, tactic.rows),
            tactic.depth,
            -(10**6),
            10**6,
            tactic.rows,
        )
    top = max(values.values())
    best = sorted(name for name, value in values.items() if value == top)
    return set(best) == set(tactic.answers), best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--only", help="the positions of these names only (comma-separated)")
    args = parser.parse_args()
    tactics = [tactic for tactic in TACTICS if not args.only or tactic.name in args.only.split(",")]
    if args.verify:
        verified: dict[tuple[str, bool], str] = {}
        for tactic in tactics:
            key = (tactic.picture, tactic.size is None)
            if key in verified:
                print(f"{tactic.name:<28}as {verified[key]}", flush=True)
                continue
            verified[key] = tactic.name
            started = time.perf_counter()
            ok, best = verify(tactic)
            seconds = time.perf_counter() - started
            print(
                f"{tactic.name:<28}{'ok' if ok else 'WRONG':<7}{seconds:>6.0f} s"
                f"  best: {' '.join(best)}",
                flush=True,
            )
        return
    solved: dict[str, list[bool]] = defaultdict(list)
    times = []
    for tactic in tactics:
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
