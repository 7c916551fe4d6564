"""Computer level against computer level: results, margins and think times, run by hand.

    .venv/bin/python bench/ai_tournament.py GAME SIZE LEVEL_A LEVEL_B N \\
        [--time-limit 1.0] [--seed 0] [--jobs 2] [--record games.jsonl]

GAME is "boxes" or "dots"; SIZE is ROWSxCOLS boxes for Dots and Boxes (5x5) or WxH points
for Dots (20x20); a LEVEL is "easy", "normal", "hard", "random" (a uniformly random
legal move, the baseline) or "frozen-easy", "frozen-normal", "frozen-hard" (the players
before issue 30, kept in bench/frozen_ai); for dots also "mcts", the Monte Carlo tree
search of bench/dots_mcts.py that hard is measured against. ``LEVEL@SECONDS`` gives that
side its own time limit per move (``frozen-hard@4`` against ``hard@1``: the old hard with
4× the time).

Colours alternate: LEVEL_A moves first in the even-numbered games, LEVEL_B in the odd
ones. Every move goes through ``core.ai.choose_move`` exactly as the server calls it;
the think time of each call is measured around that call. Run with ``PYTHONPATH=..``
from bench/: core's search is compiled if ``make compiled`` built it, the frozen players'
if ``python -m tools.compiled build --frozen`` did (see tools/compiled.py;
``TETRAD_AI_BUILD=pure`` ignores both, ``=compiled`` insists on both). The first line of
the output says which builds ran.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

# Run by hand from anywhere: the repository's root holds tools/ (not an installed package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tools.compiled import apply_frozen_mode, apply_mode

AI_BUILD = apply_mode()  # TETRAD_AI_BUILD=pure|compiled; before core is imported
FROZEN_BUILD = apply_frozen_mode()  # before frozen_ai is imported

import dots_mcts  # noqa: E402
import frozen_ai  # noqa: E402

from core import ai  # noqa: E402

Job = TypeVar("Job")
Result = TypeVar("Result")

BASELINE = "random"
FROZEN = "frozen-"
MCTS = "mcts"


@dataclass
class GameResult:
    """One finished game seen from LEVEL_A's side."""

    margin: int
    think: dict[str, list[float]] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    """The moves played, in order (for ``--record``)."""


def new_game(game: str, size: str) -> Any:
    """A fresh game of ``game`` on a board given as "AxB"."""
    first, second = (int(part) for part in size.lower().split("x"))
    if game == "boxes":
        from core import boxes

        return boxes.new_game(rows=first, cols=second)
    if game == "dots":
        from core import dots

        return dots.new_game(width=first, height=second)
    raise SystemExit(f"unknown game {game!r}: boxes or dots")


def split_level(spec: str, time_limit: float) -> tuple[str, float]:
    """A level spec ``LEVEL`` or ``LEVEL@SECONDS`` as the level and its time per move."""
    level, _, seconds = spec.partition("@")
    return level, float(seconds) if seconds else time_limit


def pick(state: Any, spec: str, seed: int, time_limit: float) -> Any:
    """The move of the level ``spec`` (or of the random baseline) in ``state``."""
    level, time_limit = split_level(spec, time_limit)
    if level == BASELINE:
        return random.Random(seed).choice(list(state.legal_moves()))
    if level == MCTS:
        return dots_mcts.choose_move(state, seed=seed, time_limit=time_limit)
    if level.startswith(FROZEN):
        return frozen_ai.choose_move(
            state, level.removeprefix(FROZEN), seed=seed, time_limit=time_limit
        )
    return ai.choose_move(state, level, seed=seed, time_limit=time_limit)


def play_one(args: tuple[str, str, str, str, int, float, int]) -> GameResult:
    """Play game number ``index``: LEVEL_A moves first when ``index`` is even."""
    game, size, level_a, level_b, index, time_limit, seed = args
    state = new_game(game, size)
    a_seat = 0 if index % 2 == 0 else 1
    levels = {a_seat: level_a, 1 - a_seat: level_b}
    think: dict[str, list[float]] = {"A": [], "B": []}
    played: list[str] = []
    ply = 0
    while not state.is_over:
        seat = state.to_move
        started = time.perf_counter()
        move = pick(state, levels[seat], seed * 1_000_003 + index * 1_009 + ply, time_limit)
        think["A" if seat == a_seat else "B"].append(time.perf_counter() - started)
        state = state.play(move)
        played.append(str(move))
        ply += 1
    scores = state.scores
    return GameResult(scores[a_seat] - scores[1 - a_seat], think, played)


def run_all(work: Callable[[Job], Result], jobs: list[Job], workers: int) -> list[Result]:
    """``work`` applied to every job, in ``workers`` processes when more than one."""
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(pool.map(work, jobs))
    return [work(job) for job in jobs]


def add_boxes_setting_option(parser: argparse.ArgumentParser) -> None:
    """The ``--boxes-setting NAME=VALUE`` option, for :func:`apply_boxes_settings`."""
    parser.add_argument(
        "--boxes-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a constant of core.ai.boxes.levels for this run (NIMBER_STRINGS=0)",
    )


def apply_boxes_settings(assignments: list[str]) -> dict[str, Any]:
    """Set constants of core.ai.boxes.levels ("NAME=VALUE", a Python literal) for this run.

    The levels read these module globals when they run (compiled or not), and worker
    processes are forked after this, so every game sees them.
    """
    from core.ai.boxes import levels

    settings: dict[str, Any] = {}
    for assignment in assignments:
        name, _, text = assignment.partition("=")
        if not hasattr(levels, name) or not name.isupper():
            raise SystemExit(f"core.ai.boxes.levels has no constant {name!r}")
        settings[name] = ast.literal_eval(text)
        setattr(levels, name, settings[name])
    return settings


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=("boxes", "dots"))
    parser.add_argument("size")
    parser.add_argument("level_a")
    parser.add_argument("level_b")
    parser.add_argument("n", type=int)
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    add_boxes_setting_option(parser)
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write each game (index, A's seat, margin, moves, think times in ms) to FILE, one "
        "JSON line a game, "
        "as it ends (the games then run one at a time, whatever --jobs says)",
    )
    options = parser.parse_args()
    settings = apply_boxes_settings(options.boxes_setting)
    jobs = [
        (
            options.game,
            options.size,
            options.level_a,
            options.level_b,
            index,
            options.time_limit,
            options.seed,
        )
        for index in range(options.n)
    ]
    started = time.perf_counter()
    if options.record:
        # One game at a time, each written as it ends: a long run can be read while it goes.
        results = []
        with open(options.record, "w", encoding="utf-8") as out:
            for job in jobs:
                result = play_one(job)
                results.append(result)
                line = {"index": job[4], "a_seat": job[4] % 2, "margin": result.margin}
                think = {
                    side: [round(t * 1000, 1) for t in ts] for side, ts in result.think.items()
                }
                out.write(json.dumps({**line, "moves": result.moves, "think_ms": think}) + "\n")
                out.flush()
    else:
        results = run_all(play_one, jobs, options.jobs)
    elapsed = time.perf_counter() - started
    wins = sum(1 for r in results if r.margin > 0)
    draws = sum(1 for r in results if r.margin == 0)
    losses = len(results) - wins - draws
    a, b = options.level_a, options.level_b
    print(
        f"{options.game} {options.size}: {a} (A) vs {b} (B), {options.n} games, colours "
        f"alternating, time limit {options.time_limit:g} s, seed {options.seed}, "
        f"{options.jobs} job(s), {elapsed:.0f} s, {AI_BUILD} build of core's search, "
        f"{FROZEN_BUILD} build of the frozen one"
        + "".join(f", {name}={value!r}" for name, value in settings.items())
    )
    print(f"A wins/draws/losses: {wins}/{draws}/{losses}  ({100 * wins / len(results):.1f} % wins)")
    print(f"A average margin: {statistics.fmean(r.margin for r in results):+.2f} boxes/points")
    print(f"{'side':<10}{'moves':>7}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for side, level in (("A", a), ("B", b)):
        times = [t * 1000 for r in results for t in r.think[side]]
        print(
            f"{side + ' ' + level:<10}{len(times):>7}{percentile(times, 0.5):>10.1f}"
            f"{percentile(times, 0.95):>10.1f}{max(times, default=0.0):>10.1f}"
        )
    if dots_mcts.SPENT["seconds"]:
        rate = dots_mcts.SPENT["playouts"] / dots_mcts.SPENT["seconds"]
        print(f"mcts: {rate:.0f} playouts per second (this process only; --jobs 1 sees all)")


if __name__ == "__main__":
    main()
