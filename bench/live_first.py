"""Live games first: how long the computer takes to answer in a room against it, with no
analysis running and with three game analyses running, in one run (issue 29, deliver 5:
the second at most 1.2 times the first).

Run by hand::

    PYTHONPATH=. .venv/bin/python bench/live_first.py [--moves 40] [--level hard] [--load 0]

A real server (uvicorn, in this process; the embedded Redis, SQLite in a temporary
directory; one AI worker and the default analysis pool) plays against a client over REST:
the client draws the first undrawn line, and the latency of a computer move is the time
from the client's move confirmed (or the computer's previous move seen) to the computer's
move seen by a long poll of the room's events. First ``--moves`` computer moves with
nothing else to do, then three analyses of 10×10 games played by the hard level are
started (they run for minutes) and as many computer moves again; the analyses are checked
to be still running at the end. ``--load N`` keeps N extra processes spinning meanwhile.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from tools.compiled import apply_mode

AI_BUILD = apply_mode()  # TETRAD_AI_BUILD=pure|compiled; before core is imported (here and
# in the server's workers, which import this module again when they start)

from served import served, spin  # noqa: E402

from core import ai, boxes  # noqa: E402

ANALYSES = 3


def hard_game(size: int, seed: int) -> str:
    state = boxes.new_game(size, size)
    while not state.is_over:
        state = state.play(ai.choose_move(state, "hard", seed=seed, time_limit=0.02))
        seed += 1
    return boxes.format_record(state)


def first_undrawn(state: dict[str, Any]) -> dict[str, Any]:
    """The first undrawn line of a room's board (rows first, then columns)."""
    board = state["board"]
    rows, cols = board["rows"], board["cols"]
    drawn = {tuple(sorted(map(tuple, entry["line"]))) for entry in board["lines"]}
    across = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
    down = [((x, y), (x, y + 1)) for x in range(cols + 1) for y in range(rows)]
    line = next(line for line in across + down if line not in drawn)
    return {"line": [list(line[0]), list(line[1])]}


async def computer_moves(client: httpx.AsyncClient, level: str, wanted: int) -> list[float]:
    """Seconds each of ``wanted`` computer moves took, in 5×5 games against it."""
    latencies: list[float] = []
    while len(latencies) < wanted:
        created = await client.post(
            "/api/rooms", json={"game": "boxes", "mode": "computer", "level": level, "first": "me"}
        )
        created.raise_for_status()
        grant = created.json()
        room, headers = grant["room_id"], {"Authorization": f"Bearer {grant['token']}"}
        state = grant["state"]
        seat = grant["seat"]
        while state["status"].get("outcome") is None and len(latencies) < wanted:
            if state["status"]["to_move"] == seat:
                body = {
                    "move": first_undrawn(state),
                    "version": state["version"],
                    "move_id": uuid.uuid4().hex,
                }
                played = await client.post(f"/api/rooms/{room}/moves", json=body, headers=headers)
                played.raise_for_status()
                version = played.json()["version"]
            else:
                version = state["version"]
            since = time.perf_counter()
            while True:  # the computer's moves, each timed from the event before it
                page = await client.get(
                    f"/api/rooms/{room}/events", params={"since": version, "wait": 20}
                )
                seen = time.perf_counter()
                events = page.json()["events"]
                for event in events:
                    if event["event"]["kind"] == "move" and event["event"]["seat"] != seat:
                        latencies.append(seen - since)
                        since = seen
                version = page.json()["version"]
                state = (await client.get(f"/api/rooms/{room}")).json()["state"]
                status = state["status"]
                if status.get("outcome") is not None or status["to_move"] == seat:
                    break
    return latencies[:wanted]


def summary(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"median {statistics.median(ordered) * 1000:6.0f} ms  mean "
        f"{statistics.fmean(ordered) * 1000:6.0f} ms  p90 {p90 * 1000:6.0f} ms  "
        f"max {ordered[-1] * 1000:6.0f} ms"
    )


async def run(moves: int, level: str, records: list[str]) -> None:
    from server.settings import Settings

    with tempfile.TemporaryDirectory() as data:
        settings = Settings(
            data_dir=Path(data),
            key_prefix=f"bench-live-first-{time.time_ns()}",
            ai_workers=1,
            rest_moves_per_minute=100_000,
            room_creations_per_minute=100_000,
            ladder_pace_seconds=0,
            log_json=False,
            log_level="WARNING",
        )
        async with served(settings) as client:
            await computer_moves(client, level, 4)  # the AI worker started and warm
            alone = await computer_moves(client, level, moves)
            print(f"without analyses:      {summary(alone)}")
            keys = []
            for record in records:
                started = await client.post("/api/analysis", json={"record": record})
                started.raise_for_status()
                keys.append(started.json()["id"])
            busy = await computer_moves(client, level, moves)
            print(f"with {len(records)} analyses running: {summary(busy)}")
            statuses = [(await client.get(f"/api/analysis/{key}")).json() for key in keys]
            print(
                "analyses at the end: "
                + ", ".join(f"{s['status']} {s['done']}/{s['total']}" for s in statuses)
            )
            if any(s["status"] != "running" for s in statuses):
                print("warning: an analysis ended before the computer moves were timed")
            ratio = statistics.median(busy) / statistics.median(alone)
            mean_ratio = statistics.fmean(busy) / statistics.fmean(alone)
            print(f"ratio with/without: median {ratio:.2f}, mean {mean_ratio:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="computer moves timed per phase")
    parser.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    parser.add_argument("--load", type=int, default=0, help="extra spinning processes")
    args = parser.parse_args()
    print(f"{AI_BUILD} build; playing {ANALYSES} 10x10 games to analyse, hard against hard…")
    records = [hard_game(10, seed) for seed in range(1, ANALYSES + 1)]
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.load)]
    for process in spinners:
        process.start()
    try:
        asyncio.run(run(args.moves, args.level, records))
    finally:
        for process in spinners:
            process.terminate()
    print(f"(load: {args.load} spinning processes; see uptime for the machine's own)")


if __name__ == "__main__":
    main()
