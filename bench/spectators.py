"""A crowd of spectators on one room: the server CPU it costs, and what it does to a game
played meanwhile in another room (the bystander), against the same game with no crowd,
measured first in the same run.

    .venv/bin/python bench/spectators.py                       # 2,000 spectators
    .venv/bin/python bench/spectators.py --spectators 400 --per-second 100

One `tetrad serve` process on Redis (``--redis-url``). Phases, the bystander game playing
through all of them (a move every ``--pace`` seconds, alternating players, the latency being
a move's sending until the other player receives its event):

1. baseline: no spectators, ``--seconds`` long;
2. join: the spectators connect and say hello, ``--per-second``;
3. stay: all of them watch for ``--seconds`` (presence rounds, nothing else);
4. leave: they all close.

It prints, per phase, the server's CPU seconds and the bystander's move latency (p50, p99),
and the size of the last ``presence`` message a spectator received (counts, not lists: it
does not grow with the crowd).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from ws_load import Board, cpu_seconds, spawn, tetrad_room_setup, wait_ready

from tests.processes import forget_keys


@dataclass
class Bystander:
    """The game played beside the crowd, and its move latencies by phase."""

    sockets: list
    board: Board
    status: dict
    version: int
    phase: str = "baseline"
    latencies: dict[str, list[float]] = field(default_factory=dict)
    refused: int = 0


async def next_of(ws, kinds: tuple[str, ...]) -> dict:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] in kinds:
            return message


async def play(game: Bystander, pace: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        if game.status.get("outcome") is not None:
            for ws in game.sockets:
                await ws.send(json.dumps({"type": "offer", "kind": "restart"}))
            for ws in game.sockets:
                while True:
                    message = await next_of(ws, ("event",))
                    if message["event"]["kind"] == "restarted":
                        break
            game.board = Board({"board": message["event"]["board"]}, game.board.rng)
            game.status, game.version = message["status"], message["version"]
            continue
        mover = game.status["to_move"]
        move = game.board.choose()
        started = time.perf_counter()
        command = {"type": "move", "move": move, "version": game.version, "ref": "m"}
        await game.sockets[mover].send(json.dumps(command))
        reply = await next_of(game.sockets[mover], ("ack", "error"))
        if reply["type"] == "error":
            game.refused += 1
            await asyncio.sleep(pace)
            continue
        while True:
            seen = await next_of(game.sockets[1 - mover], ("event",))
            if seen["version"] >= reply["version"]:
                break
        game.latencies.setdefault(game.phase, []).append(time.perf_counter() - started)
        game.board.apply(seen["event"])
        game.status, game.version = seen["status"], seen["version"]
        await asyncio.sleep(pace)


async def watch(url: str) -> websockets.ClientConnection:
    ws = await websockets.connect(url, compression=None, max_queue=None, open_timeout=60)
    await ws.send(json.dumps({"type": "hello", "token": None}))
    await next_of(ws, ("welcome",))
    return ws


def p(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--per-second", type=float, default=200.0, help="spectators arriving")
    parser.add_argument("--seconds", type=float, default=10.0, help="baseline and stay phases")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between moves")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    prefix = f"bench-spectators-{uuid.uuid4().hex[:8]}"
    data = Path(f"/tmp/{prefix}")
    env = {
        "TETRAD_REDIS_URL": args.redis_url,
        "TETRAD_KEY_PREFIX": prefix,
        "TETRAD_DATA_DIR": str(data),
        "TETRAD_LOG_LEVEL": "WARNING",
        # The machine may be loaded by more than this run: no request should fail for it.
        "TETRAD_REDIS_TIMEOUT": "10",
    }
    server, port = spawn([sys.executable, "-m", "server.cli", "serve"], env, pin=False)
    crowd: list[websockets.ClientConnection] = []
    try:
        await wait_ready(port, "/readyz")
        body = {"game": "boxes", "rows": 5, "cols": 5, "mode": "live"}
        sockets, snapshot, _ = await tetrad_room_setup((port, port), body)
        import random

        game = Bystander(
            sockets, Board(snapshot, random.Random(7)), snapshot["status"], snapshot["version"]
        )
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            watched = (await client.post("/api/rooms", json=body)).json()["room_id"]
        url = f"ws://127.0.0.1:{port}/api/rooms/{watched}/ws"
        stop = asyncio.Event()
        player = asyncio.create_task(play(game, args.pace, stop))
        cpu: dict[str, float] = {}
        took: dict[str, float] = {}

        async def phase(name: str, work) -> None:
            game.phase = name
            before, started = cpu_seconds(server.pid), time.perf_counter()
            await work()
            cpu[name] = cpu_seconds(server.pid) - before
            took[name] = time.perf_counter() - started

        async def join() -> None:
            # Arrivals at a steady rate, as a crowd comes: each connects on its own.
            arriving = []
            for n in range(args.spectators):
                arriving.append(asyncio.create_task(watch(url)))
                await asyncio.sleep(10 / args.per_second if n % 10 == 9 else 0)
            crowd.extend(await asyncio.gather(*arriving))

        async def leave() -> None:
            await asyncio.gather(*(ws.close() for ws in crowd))

        await phase("baseline", lambda: asyncio.sleep(args.seconds))
        await phase("join", join)
        await phase("stay", lambda: asyncio.sleep(args.seconds))
        last_presence = b""
        for ws in crowd[-1:]:
            with contextlib.suppress(asyncio.TimeoutError):
                while True:
                    text = await asyncio.wait_for(ws.recv(), 0.2)
                    if '"presence"' in text:
                        last_presence = text.encode() if isinstance(text, str) else text
        await phase("leave", leave)
        stop.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(player, 10)
        for ws in sockets:
            await ws.close()

        print(f"{args.spectators} spectators on one room, arriving {args.per_second:.0f} a second; "
              f"bystander moves every {args.pace} s; load {os.getloadavg()[0]:.1f}")  # fmt: skip
        print(f"{'phase':10} {'seconds':>8} {'server CPU s':>13} {'moves':>6} "
              f"{'p50 ms':>8} {'p99 ms':>8}")  # fmt: skip
        for name in ("baseline", "join", "stay", "leave"):
            moves = game.latencies.get(name, [])
            print(
                f"{name:10} {took[name]:8.1f} {cpu[name]:13.2f} {len(moves):6d} "
                f"{p(moves, 0.5) * 1000:8.1f} {p(moves, 0.99) * 1000:8.1f}"
            )
        crowd_cpu = sum(cpu[name] for name in ("join", "stay", "leave"))
        idle_rate = cpu["baseline"] / took["baseline"]
        crowd_time = sum(took[name] for name in ("join", "stay", "leave"))
        print(f"server CPU of the crowd (join + stay + leave): {crowd_cpu:.2f} s, "
              f"{crowd_cpu - idle_rate * crowd_time:.2f} s above the baseline's rate")  # fmt: skip
        during = [v for name in ("join", "stay", "leave") for v in game.latencies.get(name, [])]
        base = game.latencies.get("baseline", [])
        print(f"bystander p99: {p(during, 0.99) * 1000:.1f} ms with the crowd, "
              f"{p(base, 0.99) * 1000:.1f} ms without (ratio "
              f"{p(during, 0.99) / p(base, 0.99):.2f}); p50 "
              f"{statistics.median(during) * 1000:.1f} ms, {statistics.median(base) * 1000:.1f} "
              f"ms without; refused moves: {game.refused}")  # fmt: skip
        print(f"last presence message: {len(last_presence)} bytes")
    finally:
        for ws in crowd:
            with contextlib.suppress(Exception):
                await ws.close()
        server.terminate()
        server.wait(30)
        forget_keys(args.redis_url, prefix)


if __name__ == "__main__":
    asyncio.run(main())
