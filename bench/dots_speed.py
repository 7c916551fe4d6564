"""How fast the Dots engine plays random complete games, against baselines in the same run.

    .venv/bin/python bench/dots_speed.py [--games 200] [--width 39] [--height 32] [--seed 1]
        [--baseline-tree PATH [--rounds 3]]

A random game puts random legal marks until no point is playable.  Reported:

* games per second on the fast path (``DotsBoard.place``, what the AI uses);
* median, p99 and worst time of one ``place`` call, and what the worst move did;
* baseline "bare loop": the same random game loop with the same bookkeeping (marks,
  list of playable points) but no capture detection at all, so the ratio shows what
  finding captures costs;
* the immutable public API: ``state.play(rng.choice(state.legal_moves()))``, so the ratio
  shows what immutability and the convenience API cost; the same while listing every
  legal move each turn (``list(state.legal_moves())``, as this benchmark did before
  ``legal_moves()`` became a sequence); and the same while asking each state what its
  move changed and keeping the houses (``state.change()``), as the server does.

With ``--baseline-tree PATH`` (a checkout of another commit, e.g. ``git worktree add
/tmp/oldcore d9fdbc3``) the public API loop also runs on that tree's core and on this
one, each in a fresh subprocess, taking turns for ``--rounds`` rounds; the best rate of
each and their ratio are printed, so the comparison is made in one run on one machine,
with the median and lowest ratio of the rounds taken side by side.
A core whose ``legal_moves()`` is an iterator gets it listed, the only way to choose
from it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from bisect import bisect_left
from pathlib import Path

from core import dots
from core.dots import DotsBoard


def fast_games(geo: dots.Geometry, games: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        board = DotsBoard(geo)
        playable = board.playable
        place = board.place
        choice = rng.choice
        while playable:
            place(choice(playable))
        moves += board.moves
    return time.perf_counter() - started, moves


def bare_games(geo: dots.Geometry, games: int, seed: int) -> tuple[float, int]:
    """The baseline: same loop and bookkeeping as the engine, no capture detection."""
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        board = DotsBoard(geo)
        cell, mark, playable = board.cell, board.mark, board.playable
        player = 0
        choice = rng.choice
        while playable:
            index = choice(playable)
            cell[index] = mark[index] = player + 1
            del playable[bisect_left(playable, index)]
            player = 1 - player
            moves += 1
    return time.perf_counter() - started, moves


def api_games(
    width: int, height: int, games: int, seed: int, way: str = "choose"
) -> tuple[float, int]:
    """Random games through the public API; ``way`` is "choose" (``rng.choice`` on the
    legal moves), "list" (a list of every legal move each turn) or "change" (choose, and
    ask every state for its change, which keeps the houses too)."""
    rng = random.Random(seed)
    moves = 0
    started = time.perf_counter()
    for _ in range(games):
        state = dots.new_game(width, height)
        if way == "change":
            state.houses()
        while not state.is_over:
            if way == "list":
                state = state.play(rng.choice(list(state.legal_moves())))
            else:
                state = state.play(rng.choice(state.legal_moves()))
            if way == "change":
                state.change()
        moves += len(state.moves)
    return time.perf_counter() - started, moves


API_LOOP = """
import random, sys, time
from collections.abc import Sequence
from core import dots

width, height, games, seed = map(int, sys.argv[1:])
rng = random.Random(seed)
listed = not isinstance(dots.new_game(width, height).legal_moves(), Sequence)
moves = 0
started = time.perf_counter()
for _ in range(games):
    state = dots.new_game(width, height)
    if listed:
        while not state.is_over:
            state = state.play(rng.choice(list(state.legal_moves())))
    else:
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
    moves += len(state.moves)
print(time.perf_counter() - started, moves)
"""
"""The public API loop of :func:`api_games` as a script any version of the core runs."""


def tree_api_rate(tree: Path, width: int, height: int, games: int, seed: int) -> float:
    """Games per second of the public API loop on the core of ``tree``, in a subprocess."""
    result = subprocess.run(
        [sys.executable, "-c", API_LOOP, str(width), str(height), str(games), str(seed)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    spent, _ = result.stdout.split()
    return games / float(spent)


def compare_trees(
    baseline: Path, width: int, height: int, games: int, seed: int, rounds: int
) -> None:
    """Run the public API loop on this tree and on ``baseline`` by turns; print the best."""
    here = Path(__file__).resolve().parent.parent
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        ours.append(tree_api_rate(here, width, height, games, seed))
        theirs.append(tree_api_rate(baseline, width, height, games, seed))
    print(f"public API, {games} games a round, best of {rounds} rounds taken by turns:")
    print(f"  this tree      {max(ours):>8.1f} games/s  (rounds: "
          f"{', '.join(f'{rate:.1f}' for rate in ours)})")  # fmt: skip
    print(f"  {baseline!s:<14} {max(theirs):>8.1f} games/s  (rounds: "
          f"{', '.join(f'{rate:.1f}' for rate in theirs)})")  # fmt: skip
    paired = sorted(mine / base for mine, base in zip(ours, theirs, strict=True))
    print(f"  ratio          {max(ours) / max(theirs):>8.1f}×  (best to best; round by round: "
          f"median {statistics.median(paired):.1f}×, lowest {paired[0]:.1f}×)")  # fmt: skip


def move_times(geo: dots.Geometry, games: int, seed: int) -> tuple[list[int], str]:
    """Nanoseconds per ``place`` call over ``games`` games, and a word on the slowest move.

    A single timing can include a garbage collection or the OS taking the core away, so
    the slowest moves are replayed on copies of their position and the one that stays
    slowest on replay is reported with its replay time.
    """
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    times: list[int] = []
    slowest: list[tuple[int, int, DotsBoard, int]] = []
    for game in range(games):
        board = DotsBoard(geo)
        while board.playable:
            index = rng.choice(board.playable)
            before = board.copy()  # outside the timed call, kept only for slow moves
            started = clock()
            board.place(index)
            spent = clock() - started
            times.append(spent)
            if len(slowest) < 50 or spent > slowest[-1][0]:
                slowest.append((spent, game, before, index))
                slowest.sort(key=lambda entry: -entry[0])
                del slowest[50:]
    replays = []
    for _, game, position, index in slowest:
        best = min(replay(position, index) for _ in range(3))
        replays.append((best, game, position, index))
    best, game, position, index = max(replays, key=lambda entry: entry[0])
    after = position.copy()
    after.place(index)
    taken = sum(after.score) - sum(position.score)
    killed = len(position.playable) - 1 - len(after.playable)
    return times, (
        f"{best / 1000:.0f} µs on replay: game {game}, move {after.moves} at "
        f"{geo.point(index)!r}, score change {taken:+d}, {killed} points killed"
    )


def replay(position: DotsBoard, index: int) -> int:
    board = position.copy()
    started = time.perf_counter_ns()
    board.place(index)
    return time.perf_counter_ns() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--width", type=int, default=39)
    parser.add_argument("--height", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--baseline-tree", type=Path, help="also time the public API on this tree's core"
    )
    parser.add_argument("--rounds", type=int, default=3, help="turns each for --baseline-tree")
    args = parser.parse_args()
    geo = dots.geometry(args.width, args.height)

    fast_time, fast_moves = fast_games(geo, args.games, args.seed)
    bare_time, bare_moves = bare_games(geo, args.games, args.seed)
    api_count = max(1, args.games // 4)
    api_time, api_moves = api_games(args.width, args.height, api_count, args.seed)
    list_count = max(1, args.games // 20)
    list_time, list_moves = api_games(args.width, args.height, list_count, args.seed, "list")
    change_time, change_moves = api_games(args.width, args.height, api_count, args.seed, "change")
    times, worst = move_times(geo, max(1, args.games // 4), args.seed + 1)
    times.sort()

    fast_rate = args.games / fast_time
    bare_rate = args.games / bare_time
    api_rate = api_count / api_time
    print(
        f"Dots {args.width}x{args.height}, random complete games, Python {sys.version.split()[0]}"
    )
    print(f"{'path':<36}{'games/s':>10}{'moves/game':>12}{'µs/move':>10}{'ratio':>8}")
    rows = [
        ("fast path (DotsBoard.place)", args.games, fast_time, fast_moves),
        ("baseline: bare loop, no captures", args.games, bare_time, bare_moves),
        ("public API (state.play)", api_count, api_time, api_moves),
        ("public API, listing legal moves", list_count, list_time, list_moves),
        ("public API, asking change()", api_count, change_time, change_moves),
    ]
    for name, games, spent, moves in rows:
        rate = games / spent
        print(
            f"{name:<36}{rate:>10.1f}{moves / games:>12.0f}"
            f"{spent / moves * 1e6:>10.2f}{rate / fast_rate:>8.3f}"
        )
    print(f"capture detection makes a game {bare_rate / fast_rate:.1f}× as long as the bare loop; "
          f"the public API is {fast_rate / api_rate:.1f}× slower than the fast path")  # fmt: skip
    median = statistics.median(times) / 1000
    p99 = times[int(len(times) * 0.99)] / 1000
    print(f"place(): median {median:.1f} µs, p99 {p99:.1f} µs, worst {times[-1] / 1000:.0f} µs "
          f"over {len(times)} moves")  # fmt: skip
    print(f"slowest move: {worst}")
    if args.baseline_tree is not None:
        compare_trees(
            args.baseline_tree, args.width, args.height, api_count, args.seed, args.rounds
        )


if __name__ == "__main__":
    main()
