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

The spectators come from ``--crowd-processes`` processes of their own, so the bystander's
latency is the server's, not that of a client busy with thousands of handshakes.

It prints, per phase, the server's CPU seconds and the bystander's move latency (p50, p99),
and the size of the last ``presence`` message a spectator received (counts, not lists: it
does not grow with the crowd). ``--profile FILE`` runs the server under cProfile.
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


async def crowd_process(url: str, count: int, per_second: float) -> None:
    """One process of the crowd (``--crowd``): ``count`` spectators arrive at ``per_second``
    and watch until told on stdin; what it did goes to stdout, a line per step."""
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)
    arriving = []
    for n in range(count):  # a steady rate, as a crowd comes: each connects on its own
        arriving.append(asyncio.create_task(watch(url)))
        await asyncio.sleep(10 / per_second if n % 10 == 9 else 0)
    crowd = await asyncio.gather(*arriving)
    print("joined", flush=True)
    await commands.readline()  # the stay is over: the last presence message seen
    last_presence = b""
    with contextlib.suppress(asyncio.TimeoutError):
        while True:
            text = await asyncio.wait_for(crowd[-1].recv(), 0.2)
            if '"presence"' in text:
                last_presence = text.encode() if isinstance(text, str) else text
    print(f"presence {len(last_presence)}", flush=True)
    await commands.readline()
    await asyncio.gather(*(ws.close() for ws in crowd))
    print("left", flush=True)


class Crowd:
    """The spectators, in processes of their own (``--crowd-processes``): the handshakes
    of thousands of sockets would otherwise starve the bystander's event loop here and its
    latencies would be this client's, not the server's."""

    def __init__(self, url: str, spectators: int, per_second: float, processes: int) -> None:
        self.url, self.spectators, self.per_second = url, spectators, per_second
        self.count = processes
        self.processes: list[asyncio.subprocess.Process] = []

    async def join(self) -> None:
        shares = [self.spectators // self.count + (n < self.spectators % self.count)
                  for n in range(self.count)]  # fmt: skip
        for share in shares:
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    __file__,
                    "--crowd",
                    self.url,
                    "--spectators",
                    str(share),
                    "--per-second",
                    str(self.per_second / self.count),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                )
            )
        await self._each("joined")

    async def last_presence(self) -> int:
        """The size of the last presence message a spectator received."""
        lines = await self._each("presence")
        return max(int(line.split()[1]) for line in lines)

    async def leave(self) -> None:
        await self._each("left")
        for process in self.processes:
            await process.wait()

    async def _each(self, expected: str) -> list[str]:
        lines = []
        for process in self.processes:
            if expected != "joined":
                assert process.stdin is not None
                process.stdin.write(b"next\n")
                await process.stdin.drain()
        for process in self.processes:
            assert process.stdout is not None
            line = (await process.stdout.readline()).decode().strip()
            if not line.startswith(expected):
                raise RuntimeError(f"a crowd process said {line!r}, not {expected!r}")
            lines.append(line)
        return lines

    def stop(self) -> None:
        for process in self.processes:
            if process.returncode is None:
                process.kill()


PROFILED = """
import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], ["tetrad", *sys.argv[2:]]
# The CPU time of the event loop's thread, not wall time: on a loaded machine wall time
# charges a system call with every moment the process waited for a core.
profiler = cProfile.Profile(time.thread_time)
profiler.enable()
try:
    runpy.run_module("server.cli", run_name="__main__")
except SystemExit:
    pass
finally:
    profiler.disable()
    profiler.dump_stats(out)
"""


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
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server under cProfile (its event loop's CPU time) and write the profile "
        "to FILE (pstats format; the CPU figures then include the profiler's own cost)",
    )
    parser.add_argument("--crowd-processes", type=int, default=2)
    parser.add_argument("--crowd", metavar="URL", help=argparse.SUPPRESS)  # one crowd process
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.crowd:
        await crowd_process(args.crowd, args.spectators, args.per_second)
        return

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
    command = ["-m", "server.cli", "serve"]
    if args.profile:
        command = ["-c", PROFILED, args.profile, "serve"]
    server, port = spawn([sys.executable, *command], env, pin=False)
    crowd: Crowd | None = None
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

        crowd = Crowd(url, args.spectators, args.per_second, args.crowd_processes)
        await phase("baseline", lambda: asyncio.sleep(args.seconds))
        await phase("join", crowd.join)
        await phase("stay", lambda: asyncio.sleep(args.seconds))
        last_presence = await crowd.last_presence()
        await phase("leave", crowd.leave)
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
        print(f"last presence message: {last_presence} bytes")
    finally:
        if crowd is not None:
            crowd.stop()
        server.terminate()
        server.wait(30)
        forget_keys(args.redis_url, prefix)


if __name__ == "__main__":
    asyncio.run(main())
