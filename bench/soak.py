"""Soak: rooms playing at a steady rate across two `tetrad serve` processes on one Redis and
one PostgreSQL, one process killed with SIGKILL every few minutes (and started again).
With ``--store cluster`` the Redis is a Redis Cluster of its own (three masters with a
replica each), and in the middle of the run the master serving the first room is killed
with SIGKILL: its replica takes over, and the killed node comes back as a replica.

Each room is a correspondence game of Dots and Boxes played over REST, its two seats on
different processes; every move carries a move id and is resent (to the other process)
until it gets a definite answer, so a move is confirmed exactly when the server said so.
When a game ends its record must reach the database with exactly the confirmed moves, and
a new game starts. At the end every room's board must hold every confirmed move.

    .venv/bin/python bench/soak.py --minutes 30        # make soak (SOAK_MINUTES=…)
    .venv/bin/python bench/soak.py --minutes 30 --store cluster   # make soak-cluster

Prints, every sample period: moves, errors by code, p99 move latency, RSS of each process
(with its AI workers); at the end the totals, the lost moves / lost records (must be 0) and
whether RSS stayed flat: no process grew by more than 10 % from its first sample after two
minutes of life to its last (processes are killed and started again, so each life is judged
on its own). The exit status is 1 unless all three hold.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.processes import (
    Tetrad,
    descendants,
    forget_keys,
    postgres_database,
    start_tetrad,
)
from tests.redis_topologies import Cluster as RedisCluster
from tests.redis_topologies import redis_cluster
from tests.topology.game_api import finished_game_id, line_of, next_move

RSS_WARM_UP = 120.0
"""Seconds a process runs before its RSS is expected to stay flat (caches, pools and the AI
workers filled)."""

RSS_FLAT = 0.10
"""The growth of a process's RSS past its warm-up taken as flat."""


@dataclass
class Totals:
    moves: int = 0
    games: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    lost_moves: int = 0
    lost_records: int = 0
    problems: list[str] = field(default_factory=list)
    first_room: str = ""


class Cluster:
    """Two tetrad processes; ``urls`` always names the live ones."""

    def __init__(self, directory: Path, env: dict[str, str]) -> None:
        self.directory = directory
        self.env = env
        self.servers: list[Tetrad] = []
        self.started = 0
        self.clients: dict[str, httpx.AsyncClient] = {}
        self.born: dict[int, float] = {}
        self.lives: dict[int, list[tuple[float, float]]] = {}
        """RSS samples (age in seconds, MiB) of every server process, by pid."""

    def client(self, index: int) -> httpx.AsyncClient:
        """A kept-alive client for the server ``index`` names (made again after a restart)."""
        url = self.url(index)
        if url not in self.clients:
            self.clients[url] = httpx.AsyncClient(base_url=url, timeout=10)
        return self.clients[url]

    def start(self) -> Tetrad:
        self.started += 1
        server = start_tetrad(f"soak-{self.started}", self.directory, env=self.env)
        self.born[server.pid] = time.monotonic()
        return server

    def url(self, index: int) -> str:
        return self.servers[index % len(self.servers)].url

    def kill_and_restart(self, index: int) -> None:
        self.servers[index].kill_9()
        self.servers[index] = self.start()

    def rss_mib(self) -> list[float]:
        """Resident memory of each server process with its children (AI workers), MiB; each
        is also kept in ``lives`` (by process, with the process's age)."""
        sizes = []
        now = time.monotonic()
        for server in self.servers:
            total = 0
            for pid in {server.pid} | descendants(server.pid):
                with contextlib.suppress(OSError, ValueError):
                    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                        if line.startswith("VmRSS:"):
                            total += int(line.split()[1])
            sizes.append(total / 1024)
            born = self.born.setdefault(server.pid, now)
            self.lives.setdefault(server.pid, []).append((now - born, total / 1024))
        return sizes

    def rss_growth(self, warm_up: float) -> tuple[float, float] | None:
        """The largest growth of one process's RSS from its first sample past ``warm_up``
        seconds of age to its last (MiB, and as a share of the first); None if no process
        lived long enough to tell."""
        growths = []
        for samples in self.lives.values():
            warm = [size for age, size in samples if age >= warm_up]
            if len(warm) >= 2:
                growths.append((warm[-1] - warm[0], (warm[-1] - warm[0]) / warm[0]))
        return max(growths, key=lambda growth: growth[1]) if growths else None


async def definite(
    cluster: Cluster, prefer: int, method: str, path: str, totals: Totals, **kw: Any
) -> httpx.Response:
    """Send a request until an answer that is not a transport error or 503 (the same request
    again, alternating processes: moves carry their id, so a resend is applied once)."""
    for attempt in range(200):
        try:
            response = await cluster.client(prefer + attempt).request(method, path, **kw)
        except httpx.TransportError as error:
            totals.errors[type(error).__name__] += 1
            await asyncio.sleep(0.2)
            continue
        if response.status_code >= 500:
            totals.errors[f"{response.status_code} {response.json().get('code')}"] += 1
            await asyncio.sleep(0.2)
            continue
        return response
    raise RuntimeError(f"no definite answer to {method} {path}")


async def play_room(
    cluster: Cluster, index: int, period: float, deadline: float, totals: Totals
) -> None:
    rng = random.Random(index)
    body = {"game": "boxes", "rows": 4, "cols": 4, "mode": "correspondence"}
    created = await definite(cluster, index, "POST", "/api/rooms", totals, json=body)
    grant = created.json()
    room = grant["room_id"]
    if index == 0:
        totals.first_room = room
    joined = await definite(
        cluster, index + 1, "POST", f"/api/rooms/{room}/join", totals,
        json={"invite_code": grant["invite_code"]},
    )  # fmt: skip
    tokens = {grant["seat"]: grant["token"], joined.json()["seat"]: joined.json()["token"]}
    confirmed: list[Any] = []
    await asyncio.sleep(rng.uniform(0, period))
    while time.monotonic() < deadline:
        state = (await definite(cluster, index, "GET", f"/api/rooms/{room}", totals)).json()
        state = state["state"]
        if state["status"].get("outcome") is not None:
            await finish_game(cluster, index, room, state, tokens, confirmed, totals)
            confirmed = []
            continue
        seat = int(state["status"]["to_move"])
        move = next_move(state)
        request = {"move": move, "version": state["version"], "move_id": uuid.uuid4().hex}
        started = time.monotonic()
        response = await definite(
            cluster, index + seat, "POST", f"/api/rooms/{room}/moves", totals,
            json=request, headers={"Authorization": f"Bearer {tokens[seat]}"},
        )  # fmt: skip
        if response.status_code == 200:
            totals.latencies.append(time.monotonic() - started)
            totals.moves += 1
            confirmed.append(line_of(move))
        else:
            totals.errors[str(response.json().get("code"))] += 1
        await asyncio.sleep(period)
    state = (await definite(cluster, index, "GET", f"/api/rooms/{room}", totals)).json()["state"]
    check_board(state, confirmed, totals, room)


def check_board(state: dict[str, Any], confirmed: list[Any], totals: Totals, room: str) -> None:
    drawn = {line_of({"line": entry["line"]}) for entry in state["board"]["lines"]}
    lost = [line for line in confirmed if line not in drawn]
    if lost:
        totals.lost_moves += len(lost)
        totals.problems.append(f"room {room}: confirmed moves missing: {lost}")


async def finish_game(
    cluster: Cluster,
    index: int,
    room: str,
    state: dict[str, Any],
    tokens: dict[int, str],
    confirmed: list[Any],
    totals: Totals,
) -> None:
    check_board(state, confirmed, totals, room)
    for _ in range(300):  # the record reaches the database through the outbox
        response = await definite(
            cluster, index, "GET", f"/api/games/{finished_game_id(state)}", totals
        )
        if response.status_code == 200:
            moves = [line_of({"line": m}) for m in response.json()["record"]["moves"]]
            if moves != confirmed:
                totals.lost_moves += 1
                totals.problems.append(f"room {room}: record differs from confirmed moves")
            break
        await asyncio.sleep(0.2)
    else:
        totals.lost_records += 1
        totals.problems.append(f"room {room}: game {state['game_number']} never recorded")
    totals.games += 1
    for seat, kind in ((0, "offer"), (1, "accept")):  # a friend room restarts by agreement
        await definite(
            cluster, index + seat, "POST", f"/api/rooms/{room}/actions", totals,
            json={"type": kind, "kind": "restart"},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )  # fmt: skip


def p99(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else 0.0
    return statistics.quantiles(values, n=100)[98]


def fail_over(redis: RedisCluster, prefix: str, room: str) -> None:
    """Kill the master serving ``room`` (SIGKILL), wait for its replica to take over, and
    start the killed node again (it comes back as a replica)."""
    slot = int(redis.client().execute_command("CLUSTER KEYSLOT", f"{prefix}:{{{room}}}:room"))

    def master_port(asked: int) -> int:
        slots = redis.client(asked).execute_command("CLUSTER SLOTS")
        return next(int(master[1]) for start, end, master, *_ in slots if start <= slot <= end)

    port = master_port(0)
    victim = [node.port for node in redis.nodes].index(port)
    survivor = (victim + 1) % len(redis.nodes)
    started = time.monotonic()
    redis.nodes[victim].kill_9()
    while master_port(survivor) == port or not redis.ok(survivor):
        time.sleep(0.1)
    print(f"       replica promoted, cluster_state:ok {time.monotonic() - started:.1f} s after")
    redis.restart(victim)


async def soak(
    args: argparse.Namespace, cluster: Cluster, failover: RedisCluster | None = None
) -> Totals:
    totals = Totals()
    deadline = time.monotonic() + args.minutes * 60
    failover_at = time.monotonic() + args.minutes * 30
    players = [
        asyncio.create_task(play_room(cluster, i, args.period, deadline, totals))
        for i in range(args.rooms)
    ]
    started = time.monotonic()
    next_kill = started + args.kill_every * 60
    killed = 0
    seen_moves, seen_latencies, sampled = 0, 0, started
    print("minute  moves  moves/s  p99_ms  errors  rss_mib(a, b)", flush=True)
    while time.monotonic() < deadline:
        await asyncio.sleep(min(args.sample, max(0.1, deadline - time.monotonic())))
        window = totals.latencies[seen_latencies:]
        moves = totals.moves - seen_moves
        seen_moves, seen_latencies = totals.moves, len(totals.latencies)
        rss = ", ".join(f"{size:.0f}" for size in cluster.rss_mib())
        now = time.monotonic()
        minute, elapsed, sampled = (now - started) / 60, now - sampled, now
        print(
            f"{minute:6.1f} {moves:6d} {moves / elapsed:8.1f} {p99(window) * 1000:7.1f} "
            f"{sum(totals.errors.values()):7d}  {rss}",
            flush=True,
        )
        if time.monotonic() >= next_kill and time.monotonic() < deadline - 30:
            victim = killed % 2
            print(f"       kill -9 of process {victim} (pid {cluster.servers[victim].pid})")
            await asyncio.to_thread(cluster.kill_and_restart, victim)
            killed += 1
            next_kill += args.kill_every * 60
        if failover is not None and time.monotonic() >= failover_at:
            failover_at = float("inf")
            print(f"       kill -9 of the Redis master serving room {totals.first_room}")
            await asyncio.to_thread(fail_over, failover, args.prefix, totals.first_room)
    await asyncio.gather(*players)
    for client in cluster.clients.values():
        await client.aclose()
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--period", type=float, default=4.0, help="seconds between a room's moves")
    parser.add_argument("--kill-every", type=float, default=5.0, help="minutes")
    parser.add_argument("--sample", type=float, default=30.0, help="seconds per report line")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument(
        "--store", choices=["single", "cluster"], default="single",
        help="the Redis at --redis-url, or a Redis Cluster of this run's own with a failover",
    )  # fmt: skip
    args = parser.parse_args()
    args.prefix = prefix = f"soak-{uuid.uuid4().hex[:8]}"
    with contextlib.ExitStack() as stack:
        directory = stack.enter_context(tempfile.TemporaryDirectory())
        database_url = stack.enter_context(postgres_database())
        failover = None
        if args.store == "cluster":
            failover = stack.enter_context(redis_cluster(Path(directory) / "redis", replicas=1))
            args.redis_url = failover.url
        env = {
            "TETRAD_REDIS_URL": args.redis_url,
            "TETRAD_DATABASE_URL": database_url,
            "TETRAD_KEY_PREFIX": prefix,
            "TETRAD_DATA_DIR": directory,
            "TETRAD_LOG_LEVEL": "WARNING",
            "TETRAD_ROOM_CREATIONS_PER_MINUTE": "100000",
            "TETRAD_LADDER_PACE_SECONDS": "0",  # the soak's rooms only
            "TETRAD_CLIENT_DIST": str(Path(directory) / "no-client"),
        }
        cluster = Cluster(Path(directory), env)
        cluster.servers = [cluster.start(), cluster.start()]
        try:
            totals = asyncio.run(soak(args, cluster, failover))
        finally:
            for server in cluster.servers:
                with contextlib.suppress(Exception):
                    server.stop()
            if failover is None:
                forget_keys(args.redis_url, prefix)
    print(
        f"\nrooms {args.rooms}, {args.minutes} min: moves {totals.moves}, games {totals.games}, "
        f"p99 {p99(totals.latencies) * 1000:.1f} ms, errors {dict(totals.errors)}, "
        f"lost moves {totals.lost_moves}, lost records {totals.lost_records}"
    )
    growth = cluster.rss_growth(RSS_WARM_UP)
    flat = growth is None or growth[1] <= RSS_FLAT
    if growth is None:
        print(f"RSS: no process lived {RSS_WARM_UP / 60:.0f} min past its start to judge")
    else:
        print(f"RSS growth past each process's first {RSS_WARM_UP / 60:.0f} min: at most "
              f"{growth[0]:+.1f} MiB ({growth[1]:+.1%}); flat (within {RSS_FLAT:.0%}): "
              f"{'yes' if flat else 'no'}")  # fmt: skip
    for problem in totals.problems[:20]:
        print("problem:", problem)
    return 1 if totals.lost_moves or totals.lost_records or not flat else 0


if __name__ == "__main__":
    sys.exit(main())
