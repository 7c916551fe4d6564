"""Websocket load: moves/s and delivery latency with two server processes on one Redis,
against a bare baseline (a minimal websocket relay through Redis pub/sub), side by side;
and the memory an idle websocket costs a server process.

    .venv/bin/python bench/ws_load.py --rooms 20 --moves 60

Needs Redis at 127.0.0.1:6379. Reports ratios tetrad / baseline. Each side first sets all its
rooms up (tetrad: create and join over REST, two websockets, hello, presence), then every
room plays at once; moves/s and delivery latency (mover's send → the other player's receipt)
cover only that second phase.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import httpx
import redis.asyncio as aioredis
import websockets

REPO = Path(__file__).resolve().parents[1]
REDIS_URL = "redis://127.0.0.1:6379/0"
ROWS = int(os.environ.get("BENCH_ROWS", "10"))


def free_socket() -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def spawn(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    sock = free_socket()
    port = sock.getsockname()[1]
    process = subprocess.Popen(
        [*args, "--fd", str(sock.fileno())] if args[0] != "baseline" else
        [sys.executable, __file__, "--serve-baseline", str(sock.fileno())],
        cwd=REPO, env={**os.environ, **env}, pass_fds=[sock.fileno()],
    )  # fmt: skip
    sock.close()
    return process, port


async def wait_ready(port: int, path: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(400):
            try:
                if (await client.get(f"http://127.0.0.1:{port}{path}")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    raise RuntimeError("server not ready")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    return 0


# -- the bare baseline: a websocket relay through Redis pub/sub -----------------------------


def serve_baseline(fd: int) -> None:
    from websockets.asyncio.server import serve

    async def main() -> None:
        redis = aioredis.Redis.from_url(REDIS_URL)
        local: dict[str, set] = {}
        pubsub = redis.pubsub()
        await pubsub.psubscribe("bench-baseline:*")

        async def fan_out() -> None:
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    room = message["channel"].decode().split(":", 1)[1]
                    for ws in list(local.get(room, ())):
                        await ws.send(message["data"].decode())

        async def handler(ws) -> None:
            if ws.request.path == "/ready":
                return
            room = ws.request.path.strip("/")
            local.setdefault(room, set()).add(ws)
            try:
                async for text in ws:
                    await redis.publish(f"bench-baseline:{room}", text)
            finally:
                local[room].discard(ws)

        fan_out_task = asyncio.create_task(fan_out())
        sock = socket.socket(fileno=fd)
        async with serve(handler, sock=sock):
            await asyncio.Future()
        fan_out_task.cancel()

    asyncio.run(main())


# -- measurements ---------------------------------------------------------------------------


Room = tuple[list[websockets.ClientConnection], dict | None]


async def tetrad_room_setup(ports: tuple[int, int]) -> Room:
    """Create a live room on the first process, join it, connect one player to each process
    and wait until both see each other connected."""
    base_a = f"http://127.0.0.1:{ports[0]}"
    async with httpx.AsyncClient(base_url=base_a) as client:
        grant = (
            await client.post(
                "/api/rooms", json={"game": "boxes", "rows": ROWS, "cols": ROWS, "mode": "live"}
            )
        ).json()
        guest = (
            await client.post(
                f"/api/rooms/{grant['room_id']}/join", json={"invite_code": grant["invite_code"]}
            )
        ).json()
    room = grant["room_id"]
    a = await websockets.connect(f"ws://127.0.0.1:{ports[0]}/api/rooms/{room}/ws")
    b = await websockets.connect(f"ws://127.0.0.1:{ports[1]}/api/rooms/{room}/ws")
    await a.send(json.dumps({"type": "hello", "token": grant["token"]}))
    await b.send(json.dumps({"type": "hello", "token": guest["token"]}))
    state = None
    for ws in (a, b):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "welcome":
                state = message["state"]
                break
    while True:  # wait until both presences are visible
        message = json.loads(await a.recv())
        if message["type"] == "presence" and all(s["connected"] for s in message["seats"]):
            break
    return [a, b], state


async def tetrad_room_play(room: Room, moves: int, latencies: list[float]) -> int:
    sockets, state = room
    assert state is not None
    done = 0
    for _ in range(moves):
        if not state["legal_moves"]:
            break  # the board is full: a bigger BENCH_ROWS gives more moves
        mover = state["to_move"]
        other = sockets[1 - mover]
        started = time.perf_counter()
        await sockets[mover].send(
            json.dumps(
                {"type": "move", "move": state["legal_moves"][0], "version": state["version"]}
            )
        )
        while True:
            message = json.loads(await other.recv())
            if message["type"] == "event":
                break
        latencies.append(time.perf_counter() - started)
        state = message["state"]
        while True:  # drain the mover's copy
            message = json.loads(await sockets[mover].recv())
            if message["type"] == "event":
                break
        done += 1
    for ws in sockets:
        await ws.close()
    return done


async def baseline_room_setup(ports: tuple[int, int]) -> Room:
    room = uuid.uuid4().hex
    a = await websockets.connect(f"ws://127.0.0.1:{ports[0]}/{room}")
    b = await websockets.connect(f"ws://127.0.0.1:{ports[1]}/{room}")
    await asyncio.sleep(0.2)  # the relay has no welcome: give the subscription time
    return [a, b], None


async def baseline_room_play(room: Room, moves: int, latencies: list[float]) -> int:
    sockets, _ = room
    payload = json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "version": 1})
    for index in range(moves):
        mover, other = sockets[index % 2], sockets[1 - index % 2]
        started = time.perf_counter()
        await mover.send(payload)
        await other.recv()
        latencies.append(time.perf_counter() - started)
        await mover.recv()
    for ws in sockets:
        await ws.close()
    return moves


async def load(
    kind: str, ports: tuple[int, int], pids: list[int], rooms: int, moves: int
) -> dict[str, float]:
    """Set all rooms up, then time only the moves: every room plays at once. Besides wall
    time, count the CPU the two server processes spend per move: on a shared, busy machine
    that figure is much steadier than latency."""
    latencies: list[float] = []
    setup = tetrad_room_setup if kind == "tetrad" else baseline_room_setup
    play = tetrad_room_play if kind == "tetrad" else baseline_room_play
    started = time.perf_counter()
    ready = await asyncio.gather(*[setup(ports) for _ in range(rooms)])
    setup_s = time.perf_counter() - started
    cpu_before = sum(cpu_seconds(pid) for pid in pids)
    started = time.perf_counter()
    counts = await asyncio.gather(*[play(room, moves, latencies) for room in ready])
    elapsed = time.perf_counter() - started
    cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
    latencies.sort()
    return {
        "moves_per_s": sum(counts) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000,
        "setup_s": setup_s,
        "cpu_ms_per_move": cpu * 1000 / sum(counts),
    }


async def idle_memory(port: int, pid: int, count: int) -> float:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        grant = (await client.post("/api/rooms", json={"game": "boxes", "mode": "live"})).json()
    room = grant["room_id"]
    warm = [
        await websockets.connect(f"ws://127.0.0.1:{port}/api/rooms/{room}/ws") for _ in range(20)
    ]
    for ws in warm:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        await ws.recv()
    await asyncio.sleep(1)
    before = rss_kib(pid)
    sockets = []
    for _ in range(count):
        ws = await websockets.connect(f"ws://127.0.0.1:{port}/api/rooms/{room}/ws")
        await ws.send(json.dumps({"type": "hello", "token": None}))
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(1)
    after = rss_kib(pid)
    for ws in sockets + warm:
        await ws.close()
    return (after - before) / count


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument(
        "--one-process",
        action="store_true",
        help="both players of a room on the first process (the default single-process setup)",
    )
    args = parser.parse_args()
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    data = tempfile.mkdtemp()
    env = {
        "TETRAD_REDIS_URL": REDIS_URL,
        "TETRAD_KEY_PREFIX": prefix,
        "TETRAD_DATABASE_URL": f"sqlite:///{data}/bench.sqlite3",
        "TETRAD_DATA_DIR": data,
        "TETRAD_LOG_LEVEL": "WARNING",
        "TETRAD_ROOM_CREATIONS_PER_MINUTE": "100000",
        "TETRAD_MESSAGES_PER_SECOND": "100000",
        "TETRAD_MESSAGE_BURST": "100000",
    }
    # The server runs as a self-hoster runs it: ``tetrad serve`` (here on an inherited socket).
    uvicorn = [
        sys.executable,
        "-m",
        "server.cli",
        "serve",
        "--redis-url",
        REDIS_URL,
        "--database-url",
        env["TETRAD_DATABASE_URL"],
        "--data-dir",
        data,
        "--log-level",
        "WARNING",
    ]
    processes = []
    try:
        tetrad = [spawn(uvicorn, env) for _ in range(2)]
        baseline = [spawn(["baseline"], env) for _ in range(2)]
        processes = [p for p, _ in tetrad + baseline]
        for _, port in tetrad:
            await wait_ready(port, "/readyz")
        await asyncio.sleep(1)
        second = 0 if args.one_process else 1
        tetrad_ports = (tetrad[0][1], tetrad[second][1])
        baseline_ports = (baseline[0][1], baseline[second][1])
        base = await load(
            "baseline", baseline_ports, [p.pid for p, _ in baseline], args.rooms, args.moves
        )
        ours = await load(
            "tetrad", tetrad_ports, [p.pid for p, _ in tetrad], args.rooms, args.moves
        )
        where = "one process" if args.one_process else "players on different processes"
        print(f"{args.rooms} rooms x {args.moves} moves, {where}")
        for name, value in (("baseline", base), ("tetrad", ours)):
            print(
                f"  {name:9s} {value['moves_per_s']:8.0f} moves/s   delivery p50 "
                f"{value['p50_ms']:6.2f} ms  p99 {value['p99_ms']:6.2f} ms   "
                f"server CPU {value['cpu_ms_per_move']:.2f} ms/move   "
                f"(setup of all rooms {value['setup_s']:.2f} s, not timed)"
            )
        print(
            f"  ratio     {ours['moves_per_s'] / base['moves_per_s']:8.2f} x throughput   "
            f"p50 {ours['p50_ms'] / base['p50_ms']:.2f} x   "
            f"p99 {ours['p99_ms'] / base['p99_ms']:.2f} x latency   "
            f"{ours['cpu_ms_per_move'] / base['cpu_ms_per_move']:.2f} x server CPU per move"
        )
        per_socket = await idle_memory(tetrad[0][1], tetrad[0][0].pid, args.idle)
        print(
            f"memory per idle websocket (tetrad, {args.idle} spectators): {per_socket:.1f} KiB RSS"
        )
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=20)
        redis = aioredis.Redis.from_url(REDIS_URL)
        keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve-baseline":
        serve_baseline(int(sys.argv[2]))
    else:
        asyncio.run(main())
