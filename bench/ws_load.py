"""Websocket load: moves/s, delivery latency, server CPU and bytes per move, against a bare
baseline (a websocket relay that does a Redis MULTI with an INCR, an RPUSH and a PUBLISH per
move), side by side in the same run; and the memory an idle websocket costs a server.

    .venv/bin/python bench/ws_load.py --rooms 50 --seconds 20 --game boxes --pin
    .venv/bin/python bench/ws_load.py --rooms 50 --seconds 20 --game dots --pin
    .venv/bin/python bench/ws_load.py --processes 2 ...   # the players of a room on two processes
    .venv/bin/python bench/ws_load.py --rounds 3 ...      # relay and tetrad take turns; medians
    .venv/bin/python bench/ws_load.py --store embedded ... # each with a store of its own
    .venv/bin/python bench/ws_load.py --also ../base ...   # another checkout in the same rounds

With ``--store embedded`` tetrad runs as ``make run`` does, on its embedded valkey, and the
relay gets a valkey of its own started the same way (the same binary, unix socket and
append-only file); the CPU compared is then each server's and its store's together.

``--also DIR`` (repeatable) plays another checkout of tetrad (a worktree at an older commit,
say) in the same rounds, served from its own sources with this interpreter, so a change is
measured before and after under the same load.

Needs Redis (``--redis-url``, default 127.0.0.1:6379). Each side first sets all its rooms up
(tetrad: create and join over REST, two websockets, hello, presence), then every room plays
at once for ``--seconds``: the player to move sends, and the time until the other player
receives the event is the delivery latency. ``--pin`` puts the servers on the first core and
this load client on the second, so server CPU per move is measured without the client.
CPU per move moves by about ±10 % from run to run on a shared machine: with ``--rounds N``
the relay and tetrad play N rounds each, taking turns on rooms kept open, and the medians
and each round's ratio are reported.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import redis.asyncio as aioredis
import websockets

REPO = Path(__file__).resolve().parents[1]


def free_socket() -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def spawn(
    args: list[str], env: dict[str, str], pin: bool, checkout: Path = REPO
) -> tuple[subprocess.Popen[bytes], int]:
    sock = free_socket()
    port = sock.getsockname()[1]
    command = [*args, "--fd", str(sock.fileno())]
    if pin:
        command = ["taskset", "-c", "0", *command]
    process = subprocess.Popen(
        command, cwd=checkout, env={**os.environ, **env}, pass_fds=[sock.fileno()]
    )
    sock.close()
    return process, port


async def wait_ready(port: int, path: str) -> None:
    async with httpx.AsyncClient() as client:
        for _ in range(600):
            try:
                if (await client.get(f"http://127.0.0.1:{port}{path}")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
    raise RuntimeError("server not ready")


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that are still running (its embedded store)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process (and its reaped children) has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        if row.startswith("VmRSS:"):
            return int(row.split()[1])
    return 0


# -- the bare baseline: a websocket relay through Redis -------------------------------------


def serve_baseline(fd: int, redis_url: str) -> None:
    """Relay every message to the room's sockets on every process, after keeping it the way
    a minimal durable server would (one MULTI: bump a version, append, publish)."""
    from websockets.asyncio.server import serve

    async def main() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        local: dict[str, set] = {}
        pubsub = redis.pubsub()
        await pubsub.psubscribe("bench-baseline:*")

        async def fan_out() -> None:
            async for message in pubsub.listen():
                if message["type"] == "pmessage":
                    room = message["channel"].decode().split(":", 1)[1]
                    text = message["data"].decode()
                    for ws in list(local.get(room, ())):
                        await ws.send(text)

        async def handler(ws) -> None:
            if ws.request.path == "/ready":
                return
            room = ws.request.path.strip("/")
            local.setdefault(room, set()).add(ws)
            try:
                async for text in ws:
                    pipe = redis.pipeline(transaction=True)
                    pipe.incr(f"bench-baseline-v:{room}")
                    pipe.rpush(f"bench-baseline-l:{room}", text)
                    pipe.publish(f"bench-baseline:{room}", text)
                    await pipe.execute()
            finally:
                local[room].discard(ws)

        fan_out_task = asyncio.create_task(fan_out())
        sock = socket.socket(fileno=fd)
        async with serve(handler, sock=sock, compression=None):
            await asyncio.Future()
        fan_out_task.cancel()

    asyncio.run(main())


# -- players ----------------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    event_bytes: list[int] = field(default_factory=list)
    capture_bytes: list[int] = field(default_factory=list)


class Board:
    """What a player needs to choose a move: the free lines or points, in a random order."""

    def __init__(self, snapshot: dict, rng: random.Random) -> None:
        board = snapshot["board"]
        self.game = board["game"]
        self.rng = rng
        if self.game == "boxes":
            rows, cols = board["rows"], board["cols"]
            every = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
            every += [((x, y), (x, y + 1)) for y in range(rows) for x in range(cols + 1)]
            drawn = {tuple(map(tuple, entry["line"])) for entry in board["lines"]}
            self.free = {line for line in every if line not in drawn}
        else:
            taken = {(x, y) for x, y, _ in board["marks"]}
            for area in board["areas"]:
                taken.update(map(tuple, area["inside"]))
            self.free = {
                (x, y)
                for y in range(board["height"])
                for x in range(board["width"])
                if (x, y) not in taken
            }
        self.order = sorted(self.free)
        rng.shuffle(self.order)
        self.last: tuple[int, int] | None = None

    def apply(self, event: dict) -> None:
        if event["kind"] != "move":
            return
        move = event["move"]
        if "line" in move:
            self.free.discard(tuple(map(tuple, move["line"])))
            return
        self.last = tuple(move["point"])
        self.free.discard(self.last)
        for area in event.get("captures", ()):
            self.free.difference_update(map(tuple, area["inside"]))

    def choose(self) -> dict | None:
        if self.game == "dots" and self.last is not None and self.rng.random() < 0.8:
            # Play near the last mark, as people do: fights, and so captures.
            x, y = self.last
            near = [
                (x + dx, y + dy)
                for dx in (-1, 0, 1)
                for dy in (-1, 0, 1)
                if (x + dx, y + dy) in self.free
            ]
            if near:
                point = self.rng.choice(near)
                return {"point": list(point)}
        while self.order:
            item = self.order.pop()
            if item in self.free:
                if self.game == "boxes":
                    return {"line": [list(item[0]), list(item[1])]}
                return {"point": list(item)}
        return None


async def tetrad_room_setup(ports: tuple[int, int], body: dict) -> tuple:
    base = f"http://127.0.0.1:{ports[0]}"
    async with httpx.AsyncClient(base_url=base) as client:
        grant = (await client.post("/api/rooms", json=body)).json()
        guest = (
            await client.post(
                f"/api/rooms/{grant['room_id']}/join", json={"invite_code": grant["invite_code"]}
            )
        ).json()
    room = grant["room_id"]
    sockets = []
    for port, token in ((ports[0], grant["token"]), (ports[1], guest["token"])):
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/api/rooms/{room}/ws", compression=None
        )
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == "welcome":
                break
        sockets.append(ws)
    snapshot = message["snapshot"]
    while True:  # both presences visible
        message = json.loads(await sockets[0].recv())
        if message["type"] == "presence" and all(s["connected"] for s in message["seats"]):
            break
    return sockets, snapshot, grant["seat"]


def _key(move: dict) -> tuple:
    """A move as the board keeps it in its order of moves to come."""
    if "line" in move:
        first, second = move["line"]
        return (tuple(first), tuple(second))
    return tuple(move["point"])


async def _next_reply(ws) -> dict:
    """The ack or the error of the command just sent (the events before it are skipped)."""
    while True:
        message = json.loads(await ws.recv())
        if message["type"] in ("ack", "error"):
            return message


async def _next_event(ws, tally: Tally | None) -> dict:
    while True:
        text = await ws.recv()
        message = json.loads(text)
        if message["type"] == "event":
            if tally is not None:
                tally.event_bytes.append(len(text))
                if message["event"].get("captures"):
                    tally.capture_bytes.append(len(text))
            return message


@dataclass
class TetradRoom:
    """A tetrad room being played: its sockets and what the players know of it, kept from
    one round of play to the next."""

    sockets: list
    board: Board
    status: dict
    version: int


def tetrad_room(room: tuple, seed: int) -> TetradRoom:
    sockets, snapshot, _ = room
    return TetradRoom(
        sockets, Board(snapshot, random.Random(seed)), snapshot["status"], snapshot["version"]
    )


async def tetrad_room_play(room: TetradRoom, until: float, tally: Tally) -> None:
    sockets = room.sockets
    while time.perf_counter() < until:
        if room.status.get("outcome") is not None:
            # A new game (both offer a restart) and a fresh look at the board.
            await sockets[0].send(json.dumps({"type": "offer", "kind": "restart"}))
            await sockets[1].send(json.dumps({"type": "offer", "kind": "restart"}))
            for ws in sockets:
                while True:
                    message = await _next_event(ws, None)
                    if message["event"]["kind"] == "restarted":
                        break
            event = message["event"]
            room.board = Board({"board": event["board"]}, room.board.rng)
            room.status, room.version = message["status"], message["version"]
            continue
        mover = room.status["to_move"]
        move = room.board.choose()
        if move is None:
            break
        started = time.perf_counter()
        command = {"type": "move", "move": move, "version": room.version, "ref": "m"}
        await sockets[mover].send(json.dumps(command))
        reply = await _next_reply(sockets[mover])  # the mover's copy of the event comes first
        if reply["type"] == "error":
            # Counted, not hidden: a refused move (a presence key that lapsed on a starved
            # server, say) would otherwise leave this room waiting for ever.
            tally.errors[reply["code"]] += 1
            room.board.order.append(_key(move))
            await asyncio.sleep(0.05)
            continue
        while True:
            seen = await _next_event(sockets[1 - mover], tally)
            if seen["version"] >= reply["version"]:
                break
        tally.latencies.append(time.perf_counter() - started)
        room.board.apply(seen["event"])
        room.status, room.version = seen["status"], seen["version"]
        tally.moves += 1


async def baseline_room_setup(ports: tuple[int, int], body: dict) -> tuple:
    room = uuid.uuid4().hex
    a = await websockets.connect(f"ws://127.0.0.1:{ports[0]}/{room}", compression=None)
    b = await websockets.connect(f"ws://127.0.0.1:{ports[1]}/{room}", compression=None)
    await asyncio.sleep(0.3)  # the relay has no welcome: give the subscription time
    return [a, b], None, 0


@dataclass
class RelayRoom:
    sockets: list
    moves: int = 0


async def baseline_room_play(room: RelayRoom, until: float, tally: Tally) -> None:
    sockets = room.sockets
    payload = json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "version": 1})
    while time.perf_counter() < until:
        mover, other = sockets[room.moves % 2], sockets[1 - room.moves % 2]
        started = time.perf_counter()
        await mover.send(payload)
        await other.recv()
        tally.latencies.append(time.perf_counter() - started)
        await mover.recv()
        tally.moves += 1
        room.moves += 1


@dataclass
class Side:
    """One server under test (the relay or tetrad) with its rooms set up."""

    kind: str
    ports: tuple[int, int]
    pids: list[int]
    label: str = ""
    """Which checkout of tetrad (``--also``) this side serves."""
    rooms: list = field(default_factory=list)
    rounds: list[dict[str, float]] = field(default_factory=list)


async def set_up(side: Side, rooms: int, body: dict) -> None:
    setup = tetrad_room_setup if side.kind == "tetrad" else baseline_room_setup
    ready = []
    for start in range(0, rooms, 10):  # a few at a time: room creation is not what we time
        ready += await asyncio.gather(
            *[setup(side.ports, body) for _ in range(start, min(rooms, start + 10))]
        )
    if side.kind == "tetrad":
        side.rooms = [tetrad_room(room, seed) for seed, room in enumerate(ready)]
    else:
        side.rooms = [RelayRoom(room[0]) for room in ready]
    print(f"{side.label or side.kind}: {rooms} rooms ready", flush=True)


async def play_round(side: Side, seconds: float) -> dict[str, float]:
    """Every room of ``side`` plays at once for ``seconds``. Besides wall time, count the CPU
    the server processes spend per move."""
    play = tetrad_room_play if side.kind == "tetrad" else baseline_room_play
    tally = Tally()
    cpu_before = sum(cpu_seconds(pid) for pid in side.pids)
    started = time.perf_counter()
    until = started + seconds
    await asyncio.gather(*[play(room, until, tally) for room in side.rooms])
    elapsed = time.perf_counter() - started
    cpu = sum(cpu_seconds(pid) for pid in side.pids) - cpu_before
    rss = sum(rss_kib(pid) for pid in side.pids)
    latencies = sorted(tally.latencies)
    result = {
        "moves": tally.moves,
        "moves_per_s": tally.moves / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[max(0, int(len(latencies) * 0.99) - 1)] * 1000,
        "cpu_ms_per_move": cpu * 1000 / max(1, tally.moves),
        "event_bytes": statistics.mean(tally.event_bytes) if tally.event_bytes else 0,
        "event_bytes_max": max(tally.event_bytes, default=0),
        "capture_bytes": statistics.mean(tally.capture_bytes) if tally.capture_bytes else 0,
        "capture_bytes_max": max(tally.capture_bytes, default=0),
        "captures": len(tally.capture_bytes),
        "rss_mib": rss / 1024,
        "refused": dict(tally.errors),
    }
    side.rounds.append(result)
    return result


async def close_rooms(side: Side) -> None:
    for room in side.rooms:
        for ws in room.sockets:
            await ws.close()


async def idle_memory(port: int, pid: int, count: int) -> float:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        grant = (await client.post("/api/rooms", json={"game": "boxes", "mode": "live"})).json()
    room = grant["room_id"]

    async def spectator() -> websockets.ClientConnection:
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}/api/rooms/{room}/ws", compression=None
        )
        await ws.send(json.dumps({"type": "hello", "token": None}))
        await ws.recv()
        return ws

    warm = [await spectator() for _ in range(50)]
    await asyncio.sleep(1)
    before = rss_kib(pid)
    sockets = [await spectator() for _ in range(count)]
    await asyncio.sleep(2)
    after = rss_kib(pid)
    for ws in sockets + warm:
        await ws.close()
    return (after - before) / count


def report(title: str, base: dict | None, ours: dict) -> None:
    print(title)
    for name, value in (("relay", base), ("tetrad", ours)):
        if value is None:
            continue
        print(
            f"  {name:7s} {value['moves_per_s']:7.0f} moves/s ({value['moves']:6.0f})  "
            f"delivery p50 {value['p50_ms']:6.2f} ms  p99 {value['p99_ms']:7.2f} ms  "
            f"server CPU {value['cpu_ms_per_move']:.3f} ms/move  RSS {value['rss_mib']:.0f} MiB"
        )
    if base is not None:
        print(
            f"  ratio   {ours['moves_per_s'] / base['moves_per_s']:7.2f} x throughput   "
            f"p99 {ours['p99_ms'] / base['p99_ms']:.2f} x   "
            f"{ours['cpu_ms_per_move'] / base['cpu_ms_per_move']:.2f} x server CPU per move"
        )
    if ours["refused"]:
        print(f"  tetrad refused moves (tried again): {ours['refused']}")
    print(
        f"  tetrad event bytes: mean {ours['event_bytes']:.0f}, max {ours['event_bytes_max']}; "
        f"with a capture ({ours['captures']}): mean {ours['capture_bytes']:.0f}, "
        f"max {ours['capture_bytes_max']}"
    )


def report_rounds(relay: Side, tetrad: Side) -> None:
    """The medians over the rounds, and the ratio of each round's pair."""
    base = statistics.median(r["cpu_ms_per_move"] for r in relay.rounds)
    ours = statistics.median(r["cpu_ms_per_move"] for r in tetrad.rounds)
    pairs = [
        t["cpu_ms_per_move"] / r["cpu_ms_per_move"]
        for r, t in zip(relay.rounds, tetrad.rounds, strict=True)
    ]
    print(
        f"{tetrad.label}, median of {len(pairs)} rounds: server CPU relay {base:.3f}, "
        f"tetrad {ours:.3f} ms/move "
        f"= {ours / base:.2f} x; each round: {', '.join(f'{ratio:.2f}' for ratio in pairs)}; "
        f"tetrad p99 {statistics.median(t['p99_ms'] for t in tetrad.rounds):.1f} ms, "
        f"{statistics.median(t['moves_per_s'] for t in tetrad.rounds):.0f} moves/s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--game", choices=["boxes", "dots"], default="boxes")
    parser.add_argument("--processes", type=int, choices=[1, 2], default=1)
    parser.add_argument("--idle", type=int, default=1000, help="idle spectators to measure")
    parser.add_argument("--pin", action="store_true", help="servers on core 0, client on 1")
    parser.add_argument(
        "--rounds", type=int, default=1, help="relay and tetrad take turns this many times"
    )
    parser.add_argument(
        "--only-tetrad", action="store_true", help="skip the relay (for profiling the server)"
    )
    parser.add_argument(
        "--store",
        choices=["redis", "embedded"],
        default="redis",
        help="redis: both on --redis-url; embedded: each with a valkey of its own, counted",
    )
    parser.add_argument(
        "--relay-processes", type=int, choices=[1, 2], help="default: as --processes"
    )
    parser.add_argument(
        "--also",
        type=Path,
        action="append",
        default=[],
        help="another checkout of tetrad to play in the same rounds (repeatable)",
    )
    args = parser.parse_args()
    if args.pin:
        os.sched_setaffinity(0, {1})
    body = (
        {"game": "boxes", "rows": 10, "cols": 10, "mode": "live"}
        if args.game == "boxes"
        else {"game": "dots", "width": 39, "height": 32, "mode": "live"}
    )
    data = tempfile.mkdtemp()
    embedded = args.store == "embedded"
    if embedded and args.processes != 1:
        parser.error("--store embedded runs one process a side")
    relay_store = None
    relay_url = args.redis_url
    if embedded:
        from server.store.embedded import EmbeddedValkey

        relay_store = EmbeddedValkey(Path(data) / "relay-valkey")
        relay_url = relay_store.start()
        if args.pin:
            os.sched_setaffinity(relay_store.process.pid, {0})
    # The server runs as a self-hoster runs it: ``tetrad serve`` (here on an inherited socket).
    serve = [sys.executable, "-m", "server.cli", "serve", "--log-level", "WARNING"]
    relay = [sys.executable, __file__, "--serve-baseline", relay_url]
    relays = args.relay_processes or args.processes
    checkouts = [(REPO, REPO.name)] + [
        (path.resolve(), f"{path.resolve().name}") for path in args.also
    ]
    processes = []
    prefixes = []
    try:
        started = []
        for checkout, label in checkouts:
            prefix = f"bench-{uuid.uuid4().hex[:8]}"
            prefixes.append(prefix)
            where = Path(tempfile.mkdtemp(dir=data))
            env = {
                "TETRAD_REDIS_URL": args.redis_url,
                "TETRAD_KEY_PREFIX": prefix,
                "TETRAD_DATABASE_URL": f"sqlite:///{where}/bench.sqlite3",
                "TETRAD_DATA_DIR": str(where),
                "TETRAD_LOG_LEVEL": "WARNING",
                "TETRAD_ROOM_CREATIONS_PER_MINUTE": "100000",
                "TETRAD_MESSAGES_PER_SECOND": "100000",
                "TETRAD_MESSAGE_BURST": "100000",
            }
            if checkout != REPO:
                env["PYTHONPATH"] = str(checkout)
            if embedded:
                del env["TETRAD_REDIS_URL"]
            servers = [spawn(serve, env, args.pin, checkout) for _ in range(args.processes)]
            processes += [p for p, _ in servers]
            started.append((label, servers))
        baseline = [spawn(relay, {}, args.pin) for _ in range(relays)]
        processes += [p for p, _ in baseline]
        for _, servers in started:
            for _, port in servers:
                await wait_ready(port, "/readyz")
        await asyncio.sleep(1)
        relay_pids = [p.pid for p, _ in baseline]
        if embedded:
            assert relay_store is not None and relay_store.process is not None
            relay_pids.append(relay_store.process.pid)
        sides = []
        for label, servers in started:
            pids = [p.pid for p, _ in servers]
            if embedded:
                pids += children(pids[0])  # its embedded valkey
                print(f"counted with each server: its store ({label} pids {pids})", flush=True)
            sides.append(Side("tetrad", (servers[0][1], servers[-1][1]), pids, label))
        tetrad = started[0][1]
        relay = Side("baseline", (baseline[0][1], baseline[-1][1]), relay_pids)
        if not args.only_tetrad:
            await set_up(relay, args.rooms, body)
        for side in sides:
            await set_up(side, args.rooms, body)
        if args.only_tetrad:
            for side in sides:
                print(f"{side.label} server pids {side.pids}", flush=True)
        where = "one process" if args.processes == 1 else "players on two processes"
        if relays != args.processes:
            where += f" (the relay: {relays})"
        if embedded:
            where += ", each server with its own valkey (CPU counted together)"
        size = "10x10 Dots and Boxes" if args.game == "boxes" else "39x32 Dots"
        for number in range(1, args.rounds + 1):
            # The relay and tetrad take turns, so a change in the machine's load meanwhile
            # touches both sides of a round alike.
            base = None if args.only_tetrad else await play_round(relay, args.seconds)
            for side in sides:
                print(f"{side.label}: round {number}, playing", flush=True)
                result = await play_round(side, args.seconds)
                title = (
                    f"{side.label}: {args.rooms} rooms for {args.seconds:.0f} s, {size}, {where}"
                )
                report(title + (f", round {number}" if args.rounds > 1 else ""), base, result)
        if args.rounds > 1 and not args.only_tetrad:
            for side in sides:
                report_rounds(relay, side)
        await close_rooms(relay)
        for side in sides:
            await close_rooms(side)
        if args.idle:
            per_socket = await idle_memory(tetrad[0][1], tetrad[0][0].pid, args.idle)
            print(f"memory per idle websocket ({args.idle} spectators): {per_socket:.1f} KiB RSS")
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)
        if relay_store is not None:
            relay_store.stop()
        redis = aioredis.Redis.from_url(args.redis_url)
        patterns = ["bench-baseline*"] + ([] if embedded else [f"{p}:*" for p in prefixes])
        for pattern in patterns:
            keys = [k async for k in redis.scan_iter(match=pattern)]
            if keys:
                await redis.delete(*keys)
        await redis.aclose()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--serve-baseline":
        fd = int(sys.argv[sys.argv.index("--fd") + 1])
        serve_baseline(fd, sys.argv[2])
    else:
        asyncio.run(main())
