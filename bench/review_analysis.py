"""Seconds the server takes to analyse finished 5×5 Dots and Boxes games (game review),
through the public API, with a baseline measured in the same run.

Run by hand::

    PYTHONPATH=. .venv/bin/python bench/review_analysis.py [--games 3] [--size 5] [--load 2]
        [--records FILE] [--redis-url URL]

A real server (uvicorn, in this process; the embedded Redis unless ``--redis-url``, SQLite
in a temporary directory) analyses each game: ``POST /api/analysis`` with the record, then
``GET /api/analysis/{id}`` until it is done. ``--load N`` keeps N extra processes spinning
meanwhile, to measure on a busy machine. The games are played first by the hard level
against itself (0.3 s a move, fixed seeds), so every run analyses the same games.

The baseline is a fixed piece of solver work (the exact value of an endgame position of
the first game with 28 lines left), timed in this run before the analyses: the ratio column
says how many baselines one analysis costs, which stays comparable across machines and
loads. Per game it also prints how far back exactness reaches: the first move from which
every position is exact, and how many lines were undrawn there (issue 29 asks for move 15
on 5×5, 45 undrawn lines, within the default budget). ``--records FILE`` keeps the games
played in FILE (one record a line) and analyses the same ones on the next run, to compare
two versions of the server.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from tools.compiled import apply_mode

AI_BUILD = apply_mode()  # TETRAD_AI_BUILD=pure|compiled; before core is imported (here and
# in the server's workers, which import this module again when they start)

from served import served, spin  # noqa: E402

from core import ai, boxes  # noqa: E402
from core.ai.boxes import solve  # noqa: E402


def hard_game(seed: int, size: int) -> boxes.BoxesState:
    state = boxes.new_game(size, size)
    while not state.is_over:
        state = state.play(ai.choose_move(state, "hard", seed=seed, time_limit=0.3))
        seed += 1
    return state


def baseline_seconds(game: boxes.BoxesState, repeats: int = 3) -> float:
    """The median time to solve the position of ``game`` with 28 lines left."""
    state = boxes.new_game(game.rows, game.cols)
    for line in game.moves:
        if len(state.legal_moves()) <= 28:
            break
        state = state.play(line)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        solve(state)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def exact_from(positions: list[dict]) -> int:
    """The first ply (moves played) from which every analysed position is exact."""
    start = len(positions)
    for position in sorted(positions, key=lambda p: p["ply"], reverse=True):
        if not position["exact"]:
            break
        start = position["ply"]
    return start


async def analyse(client: httpx.AsyncClient, record: str) -> tuple[float, dict]:
    started = time.perf_counter()
    response = await client.post("/api/analysis", json={"record": record})
    response.raise_for_status()
    analysis = response.json()
    while analysis["status"] == "running":
        await asyncio.sleep(0.1)
        analysis = (await client.get(f"/api/analysis/{analysis['id']}")).json()
    return time.perf_counter() - started, analysis


async def run(games: list[str], redis_url: str | None, workers: int) -> list[tuple[float, dict]]:
    from server.settings import Settings

    with tempfile.TemporaryDirectory() as data:
        settings = Settings(
            data_dir=Path(data),
            redis_url=redis_url,
            key_prefix=f"bench-review-{time.time_ns()}",
            ai_workers=workers,
            log_json=False,
            log_level="WARNING",
        )
        async with served(settings) as client:
            # The first request waits for the AI worker to start (a long-running server
            # has it started): timed apart, on a one-line game.
            first, _ = await analyse(client, "boxes 1x1; a1-b1")
            print(f"first analysis (the worker starting): {first:.1f} s")
            results = [await analyse(client, record) for record in games]
            again, _ = await analyse(client, games[0])
            print(f"asked again (cached): {again * 1000:.0f} ms")
            return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--size", type=int, default=5, help="boxes a side (5: 5x5)")
    parser.add_argument("--load", type=int, default=0, help="extra spinning processes")
    parser.add_argument("--workers", type=int, default=1, help="AI workers (TETRAD_AI_WORKERS)")
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--records", default=None, help="file keeping the games played")
    args = parser.parse_args()
    size = f"{args.size}x{args.size}"
    print(f"playing {args.games} {size} games, hard against hard… ({AI_BUILD} build)")
    kept = Path(args.records) if args.records else None
    if kept is not None and kept.exists():
        played = [boxes.parse_record(line) for line in kept.read_text().splitlines()[: args.games]]
    else:
        played = [hard_game(seed, args.size) for seed in range(1, args.games + 1)]
        if kept is not None:
            kept.write_text("".join(boxes.format_record(game) + "\n" for game in played))
    base = baseline_seconds(played[0])
    print(f"baseline (solve one {size} position, 28 lines left): {base * 1e6:.0f} µs")
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for process in spinners:
        process.start()
    try:
        records = [boxes.format_record(game) for game in played]
        results = asyncio.run(run(records, args.redis_url, args.workers))
    finally:
        for process in spinners:
            process.terminate()
    print(
        f"{'game':>4} {'seconds':>8} {'ratio':>8} {'exact':>7} {'mistakes':>9} "
        f"{'exact from move':>15} {'undrawn there':>13}"
    )
    lines = played[0].geometry.line_count
    for index, (seconds, analysis) in enumerate(results, start=1):
        positions = analysis["positions"]
        exact = sum(p["exact"] for p in positions)
        mistakes = sum(bool(p["mistake"]) for p in positions)
        start = exact_from(positions)
        print(
            f"{index:>4} {seconds:>8.1f} {seconds / base:>8.0f} "
            f"{exact:>3}/{len(positions):<3} {mistakes:>9} {start:>15} {lines - start:>13}"
        )
    slowest = max(seconds for seconds, _ in results)
    print(f"slowest analysis: {slowest:.1f} s (load: {args.load} spinning processes)")


if __name__ == "__main__":
    main()
