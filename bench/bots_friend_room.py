"""Two bots in one friend room: moves a second with the server's default limits, and the
bytes of a move's websocket event and of its ack.

    .venv/bin/python bench/bots_friend_room.py --games 4 --size 5x5

A ``tetrad serve`` is started as ``make run`` starts it (embedded store, default limits:
10 websocket messages a second per connection, bursts of 30). Two clients play a live
Dots and Boxes room, random legal moves, new games by consent, in two ways taking turns:

* ``bare``: two websockets that send a move as soon as the event that makes it their turn
  arrives (the baseline: the least a client can do over the wire);
* ``tetrad_client``: two :class:`tetrad_client.Room` driven by the runner's ``play`` (what a
  ``tetrad-bot`` does: the room model, version checks, pacing, acks awaited).

Reported: moves a second for each and the ratio (client ÷ bare, same run); the median size
of a move event (a line that closes no box) and of an ack, in bytes as sent.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets
from tetrad_client import Tetrad
from tetrad_client.engines import random_engine
from tetrad_client.runner import play

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def wait_ready(url: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(1200):
            try:
                if (await client.get(f"{url}/readyz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    raise RuntimeError("the server did not start")


async def friend_room(url: str, rows: int, cols: int) -> tuple[str, str, str]:
    async with Tetrad(url) as tetrad:
        host = await tetrad.create_room("boxes", mode="live", rows=rows, cols=cols, first="me")
        guest = await tetrad.join(host.room_id, host.invite_code)
    assert host.token is not None and guest.token is not None
    return host.room_id, host.token, guest.token


async def bare(url: str, rows: int, cols: int, games: int, seed: int) -> tuple[int, float]:
    """Two raw websockets; each moves when an event makes it its turn. Moves, seconds."""
    room_id, *tokens = await friend_room(url, rows, cols)
    ws_url = "ws" + url.removeprefix("http") + f"/api/rooms/{room_id}/ws"
    rng = random.Random(seed)
    every = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
    every += [((x, y), (x, y + 1)) for y in range(rows) for x in range(cols + 1)]
    moves = 0
    sockets = [await websockets.connect(ws_url) for _ in tokens]
    for ws, token in zip(sockets, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "token": token}))

    async def player(seat: int) -> None:
        nonlocal moves
        ws, drawn, finished, sent = sockets[seat], set(), 0, ""

        async for text in ws:
            message = json.loads(text)
            status, kind = None, message["type"]
            if kind == "welcome":
                status = message["snapshot"]["status"]
            elif kind == "event":
                event, status = message["event"], message["status"]
                if event["kind"] == "move":
                    drawn.add(tuple(map(tuple, event["move"]["line"])))
                    moves += seat == 0
                elif event["kind"] == "restarted":
                    drawn = set()
            elif kind == "error" and message["code"] == "rate_limited":
                await asyncio.sleep(message["retry_after"])
                await ws.send(sent)  # the same message again, once allowed
            if status is None:
                continue
            if status["outcome"] is not None:
                if kind == "event" and message["event"]["kind"] == "move":  # it just ended
                    finished += 1
                    if finished == games:
                        return
                    sent = json.dumps({"type": "offer", "kind": "restart"})
                    await ws.send(sent)
            elif status["to_move"] == seat:
                line = rng.choice([ln for ln in every if ln not in drawn])
                sent = json.dumps({"type": "move", "move": {"line": line}})
                await ws.send(sent)

    started = time.perf_counter()
    await asyncio.gather(player(0), player(1))
    elapsed = time.perf_counter() - started
    for ws in sockets:
        await ws.close()
    return moves, elapsed


async def client(url: str, rows: int, cols: int, games: int, seed: int) -> tuple[int, float, dict]:
    """Two tetrad_client rooms driven by the runner's play loop. Moves, seconds, sizes."""
    room_id, *tokens = await friend_room(url, rows, cols)
    sizes: dict[str, list[int]] = {"event": [], "ack": []}

    def measure(text: str | bytes) -> None:
        message = json.loads(text)
        raw = len(text.encode() if isinstance(text, str) else text)
        event = message.get("event") or {}
        if message["type"] == "ack" and message.get("move_id"):
            sizes["ack"].append(raw)
        elif event.get("kind") == "move" and not event.get("closed"):
            sizes["event"].append(raw)

    async with Tetrad(url) as tetrad:
        rooms = [
            tetrad.connect(room_id, tokens[0], on_message=measure),
            tetrad.connect(room_id, tokens[1]),
        ]
        for room in rooms:
            await room.open()
        started = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):  # the runner's lines on each game
            await asyncio.gather(
                *(play(room, random_engine(seed + n), games) for n, room in enumerate(rooms))
            )
        elapsed = time.perf_counter() - started
        for room in rooms:
            await room.close()
    moves = games * (rows * (cols + 1) + cols * (rows + 1))
    return moves, elapsed, sizes


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--size", default="5x5", help="ROWSxCOLS boxes")
    parser.add_argument("--rounds", type=int, default=2, help="bare and client take turns")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows, cols = (int(part) for part in args.size.split("x"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="tetrad-bench-") as data:
        serve = [sys.executable, "-m", "server.cli", "serve", "--port", str(port)]
        server = subprocess.Popen(
            [*serve, "--data-dir", data, "--log-level", "WARNING"],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
        )
        try:
            await wait_ready(url)
            rates: dict[str, list[float]] = {"bare": [], "tetrad_client": []}
            sizes: dict[str, list[int]] = {"event": [], "ack": []}
            for round_number in range(args.rounds):
                seed = args.seed + round_number
                moves, seconds = await bare(url, rows, cols, args.games, seed)
                rates["bare"].append(moves / seconds)
                moves, seconds, measured = await client(url, rows, cols, args.games, seed)
                rates["tetrad_client"].append(moves / seconds)
                for kind, found in measured.items():
                    sizes[kind] += found
        finally:
            server.terminate()
            server.wait(30)
    print(f"two bots, one live {args.size} room, {args.games} games a round, default limits")
    for name, found in rates.items():
        shown = ", ".join(f"{rate:.1f}" for rate in found)
        print(f"  {name:14} {statistics.median(found):6.1f} moves/s (rounds: {shown})")
    ratio = statistics.median(rates["tetrad_client"]) / statistics.median(rates["bare"])
    print(f"  tetrad_client / bare: {ratio:.2f}")
    print(f"  move event (no box closed): {statistics.median(sizes['event']):.0f} bytes")
    print(f"  move ack: {statistics.median(sizes['ack']):.0f} bytes")


if __name__ == "__main__":
    asyncio.run(main())
