"""Connection churn: does a server give its memory back once the crowd has left?

    .venv/bin/python bench/connection_churn.py                  # 9 rounds of 2,000 sockets
    .venv/bin/python bench/connection_churn.py --rounds 3 --sockets 500
    .venv/bin/python bench/connection_churn.py --trace tracemalloc  # where memory stays
    .venv/bin/python bench/connection_churn.py --trace garbage      # what cycles are left

Each round opens ``--sockets`` websockets to a running `tetrad serve` (one process, on Redis
at ``--redis-url``), spread over rooms of ``--per-room`` spectators, each saying hello and
receiving its welcome, then closes them all and waits until the server counts no websocket
(``tetrad_websocket_connections`` 0 in ``/metrics``) before it reads the server's resident
memory. It prints the series and each round against the first (a server that keeps nothing
per connection stays within a few per cent of it).

``--trace`` runs the server through this file (uvicorn with tetrad's config) and, after
each round, prints either the ten places whose live allocations grew the most since the
first round (``tracemalloc``, started once the server is up) or what a full collection
found in reference cycles, by type (``garbage``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import signal
import socket
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import websockets

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
from ws_load import rss_kib  # noqa: E402

from tests.processes import forget_keys  # noqa: E402

SNAPSHOT_SIGNAL = signal.SIGUSR1


def serve_traced(fd: int, report: str, mode: str) -> None:
    """The server, with tracemalloc at hand: the first SIGUSR1 starts tracing (after the
    start-up, which tracing would slow tenfold), the second takes the snapshot later ones
    are compared with; each writes the ten largest growths since that one to ``report``
    (through a rename, so a reader never sees half of it)."""
    import tracemalloc

    import uvicorn

    from server.app import app_from_env
    from server.serving import inherited_socket, uvicorn_config

    first: list[tracemalloc.Snapshot] = []

    def dump(signum: int, frame: object) -> None:
        lines = []
        if mode == "garbage":
            # What the last round left in reference cycles, which only the collector frees.
            gc.set_debug(gc.DEBUG_SAVEALL)
            found = gc.collect()
            kinds = Counter(type(item).__qualname__ for item in gc.garbage)
            lines.append(f"{found} objects in cycles; the most common kinds:")
            lines += [f"{count:10d}  {kind}" for kind, count in kinds.most_common(15)]
            lines += cycle_through(gc.garbage, "RoomWebSocketProtocol")
            lines += raised_at(gc.garbage)
            gc.garbage.clear()
            gc.set_debug(0)
            gc.collect()  # what was only kept for the count
        elif not tracemalloc.is_tracing():
            tracemalloc.start(12)
            lines.append("tracing")
        else:
            gc.collect()
            snapshot = tracemalloc.take_snapshot().filter_traces(
                [tracemalloc.Filter(False, tracemalloc.__file__)]
            )
            if not first:
                first.append(snapshot)
            for stat in snapshot.compare_to(first[0], "traceback")[:10]:
                lines.append(f"{stat.size_diff / 1024:+10.1f} KiB {stat.count_diff:+8d} blocks")
                lines += [f"      {line}" for line in stat.traceback.format()[-12:]]
        Path(report + ".part").write_text("\n".join(lines) + "\n")
        os.replace(report + ".part", report)

    signal.signal(SNAPSHOT_SIGNAL, dump)
    config = uvicorn_config(app_from_env(), log_level="warning")
    uvicorn.Server(config).run(sockets=[inherited_socket(fd)])


def cycle_through(garbage: list[object], kind: str) -> list[str]:
    """One reference cycle through a garbage object of type ``kind``, as a path of types."""
    start = next((item for item in garbage if type(item).__qualname__ == kind), None)
    if start is None:
        return []
    inside = {id(item) for item in garbage}
    paths: dict[int, list[object]] = {id(start): [start]}
    frontier = [start]
    while frontier:
        following = []
        for item in frontier:
            for referent in gc.get_referents(item):
                if referent is start:
                    path = [*paths[id(item)], start]
                    return ["a cycle: " + " -> ".join(_named(step) for step in path)]
                if id(referent) in inside and id(referent) not in paths:
                    paths[id(referent)] = [*paths[id(item)], referent]
                    following.append(referent)
        frontier = following
    return []


def _named(item: object) -> str:
    if isinstance(item, dict):
        return "dict(" + ",".join(str(key) for key in list(item)[:4]) + ")"
    if hasattr(item, "f_code"):
        return f"frame({item.f_code.co_name})"  # type: ignore[attr-defined]
    return type(item).__qualname__


def raised_at(garbage: list[object]) -> list[str]:
    """Where the exceptions in the garbage were raised (innermost frames), most common first."""
    places: Counter[str] = Counter()
    for item in garbage:
        if isinstance(item, BaseException) and item.__traceback__ is not None:
            tb = item.__traceback__
            names = []
            while tb is not None:
                names.append(f"{tb.tb_frame.f_code.co_filename.rsplit('/', 1)[-1]}:"
                             f"{tb.tb_frame.f_code.co_name}")  # fmt: skip
                tb = tb.tb_next
            places[f"{type(item).__name__} " + " < ".join(reversed(names[-4:]))] += 1
    return [f"{count:8d} {place}" for place, count in places.most_common(5)]


def start_server(args: argparse.Namespace, env: dict[str, str], report: str) -> tuple:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    if args.trace:
        command = [
            sys.executable,
            __file__,
            "--serve-traced",
            str(sock.fileno()),
            report,
            args.trace,
        ]
    else:
        command = [sys.executable, "-m", "server.cli", "serve", "--fd", str(sock.fileno())]
    import subprocess

    server = subprocess.Popen(
        command, cwd=REPO, env={**os.environ, **env}, pass_fds=[sock.fileno()]
    )
    sock.close()
    return server, port


async def websockets_open(port: int) -> float:
    async with httpx.AsyncClient(timeout=60) as client:
        text = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
    for line in text.splitlines():
        if line.startswith("tetrad_websocket_connections "):
            return float(line.split()[1])
    return 0.0


async def spectator(url: str) -> websockets.ClientConnection:
    ws = await websockets.connect(url, compression=None, open_timeout=120, max_queue=None)
    await ws.send(json.dumps({"type": "hello", "token": None}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


async def one_round(port: int, rooms: list[str], sockets: int, per_room: int) -> None:
    crowd: list[websockets.ClientConnection] = []
    for start in range(0, sockets, 100):
        batch = [
            f"ws://127.0.0.1:{port}/api/rooms/{rooms[(start + n) // per_room]}/ws"
            for n in range(min(100, sockets - start))
        ]
        crowd += await asyncio.gather(*(spectator(url) for url in batch))
    await asyncio.gather(*(ws.close() for ws in crowd))
    while await websockets_open(port) > 0:
        await asyncio.sleep(0.2)


async def traced(pid: int, report: str) -> str:
    """Signal the traced server and wait for its report."""
    before = os.stat(report).st_mtime_ns if os.path.exists(report) else 0
    os.kill(pid, SNAPSHOT_SIGNAL)
    while not os.path.exists(report) or os.stat(report).st_mtime_ns == before:
        await asyncio.sleep(0.2)
    return Path(report).read_text()


async def ready(port: int) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        for _ in range(1200):
            try:
                if (await client.get(f"http://127.0.0.1:{port}/readyz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not get ready")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--per-room", type=int, default=100)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--trace",
        choices=["tracemalloc", "garbage"],
        help="tracemalloc: where live memory grew since round 1; garbage: what each round "
        "left in reference cycles (a full collection's catch, by type)",
    )
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    prefix = f"bench-churn-{uuid.uuid4().hex[:8]}"
    env = {
        "TETRAD_REDIS_URL": args.redis_url,
        "TETRAD_KEY_PREFIX": prefix,
        "TETRAD_DATA_DIR": f"/tmp/{prefix}",
        "TETRAD_LOG_LEVEL": "WARNING",
        # The machine may be loaded by more than this run: no request should fail for it.
        "TETRAD_REDIS_TIMEOUT": "10",
    }
    report = f"/tmp/{prefix}-trace.txt"
    server, port = start_server(args, env, report)
    try:
        await ready(port)
        body = {"game": "boxes", "rows": 5, "cols": 5, "mode": "live"}
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            rooms = [
                (await client.post("/api/rooms", json=body)).json()["room_id"]
                for _ in range((args.sockets + args.per_room - 1) // args.per_room)
            ]
        start_rss = rss_kib(server.pid)
        if args.trace == "tracemalloc":
            await traced(server.pid, report)
        series = []
        print(f"{args.rounds} rounds of {args.sockets} websockets ({args.per_room} a room); "
              f"server RSS before: {start_rss / 1024:.1f} MiB")  # fmt: skip
        for n in range(1, args.rounds + 1):
            started = time.perf_counter()
            await one_round(port, rooms, args.sockets, args.per_room)
            rss = rss_kib(server.pid)
            series.append(rss)
            print(f"round {n}: RSS after closing {rss / 1024:7.1f} MiB "
                  f"({rss / series[0] - 1:+6.1%} against round 1), "
                  f"{time.perf_counter() - started:5.1f} s", flush=True)  # fmt: skip
            if args.trace:
                print(await traced(server.pid, report))
        print("series (MiB): " + " → ".join(f"{rss / 1024:.0f}" for rss in series))
        worst = max(rss / series[0] - 1 for rss in series)
        print(f"largest round against round 1: {worst:+.1%}")
    finally:
        server.terminate()
        server.wait(30)
        forget_keys(args.redis_url, prefix)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--serve-traced":
        serve_traced(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        asyncio.run(main())
