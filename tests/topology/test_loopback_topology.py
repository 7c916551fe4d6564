"""The compose topology on loopback: Redis with AOF (infra/redis.conf) and a PostgreSQL
database of the test's own, two `tetrad serve` processes, and Debian's caddy running
infra/Caddyfile over TLS, with only the addresses changed. Two players on different
backends play a live game through the proxy; one backend is killed with SIGKILL in the
middle; the game finishes through the proxy with no confirmed move lost, its record in
PostgreSQL, and fewer than 3 failed requests."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.processes import (
    REPO,
    Caddy,
    Processes,
    Tetrad,
    postgres_database,
    start_caddy,
    start_redis,
    start_tetrad,
)
from tests.topology.game_api import (
    Line,
    RoomSocket,
    create_room,
    finished_game_id,
    is_over,
    join_room,
    line_of,
    move_count,
    new_move_id,
    next_move,
    play,
    recorded_lines,
    room_state,
    to_move,
)

pytestmark = pytest.mark.topology

ROWS = COLS = 3
MOVES = 2 * ROWS * COLS + ROWS + COLS
KILL_AFTER = 8
HEALTH_INTERVAL = 2.0  # infra/Caddyfile's health_interval


@dataclass
class Site:
    caddy: Caddy
    backends: list[Tetrad]
    redis: Any
    failures: list[str] = field(default_factory=list)


@pytest.fixture
def site(tmp_path: Path, processes: Processes) -> Iterator[Site]:
    redis = processes.add(start_redis(tmp_path, config=REPO / "infra" / "redis.conf"))
    with postgres_database() as database_url:
        env = {
            "TETRAD_HEARTBEAT_SECONDS": "0.5",
            "TETRAD_PRESENCE_TTL_SECONDS": "3",
            "TETRAD_LOG_LEVEL": "WARNING",
            "TETRAD_DATA_DIR": str(tmp_path),
        }
        backends = [
            processes.add(
                start_tetrad(
                    f"tetrad-{n}",
                    tmp_path,
                    "--redis-url",
                    redis.url,
                    "--database-url",
                    database_url,
                    env=env,
                )
            )
            for n in (1, 2)
        ]
        upstreams = [b.url.removeprefix("http://") for b in backends]
        caddy = processes.add(start_caddy(tmp_path, upstreams))
        yield Site(caddy, backends, redis)
        processes.stop_all()  # before the database is dropped


def open_sockets(backend: Tetrad) -> int:
    """Websockets open on one backend, from its own /metrics (not public through Caddy)."""
    text = httpx.get(backend.url + "/metrics", timeout=5).text
    found = re.search(r"^tetrad_websocket_connections (\S+)$", text, re.M)
    return int(float(found.group(1))) if found else 0


async def test_a_seat_taken_through_one_backend_is_known_to_the_other(site: Site) -> None:
    """A guest who joined through one backend says hello on the other (whose copy of the
    room predates the join)."""
    first, second = site.backends
    async with (
        httpx.AsyncClient(base_url=first.url) as on_first,
        httpx.AsyncClient(base_url=second.url) as on_second,
    ):
        grant = await create_room(on_first, mode="live", rows=ROWS, cols=COLS)
        guest = await join_room(on_second, grant)
        socket = await RoomSocket.open(
            first.url.replace("http", "ws", 1), grant["room_id"], guest["token"]
        )
        await socket.close()


async def test_live_game_survives_a_backend_killed_behind_the_proxy(site: Site) -> None:
    caddy = site.caddy
    tls = caddy.tls()
    failures = site.failures
    async with httpx.AsyncClient(base_url=caddy.url, verify=tls, timeout=20) as http:
        # Operator endpoints stay private; the API document stays public for bot authors.
        assert (await http.get("/metrics")).status_code == 404
        assert (await http.get("/docs")).status_code == 404
        assert (await http.get("/openapi.json")).status_code == 200

        gold = await create_room(http, mode="live", rows=ROWS, cols=COLS)
        assert gold["invite_url"].startswith(f"{caddy.url}/r/")  # https, from the proxy
        coral = await join_room(http, gold)
        room = gold["room_id"]
        tokens = {gold["seat"]: gold["token"], coral["seat"]: coral["token"]}

        sockets: dict[int, RoomSocket] = {}
        for seat in (gold["seat"], coral["seat"]):
            sockets[seat] = await RoomSocket.open(caddy.ws_url, room, tokens[seat], tls=tls)
        # least_conn puts the second socket on the other backend.
        assert [open_sockets(b) for b in site.backends] == [1, 1]

        confirmed: list[Line] = []
        reconnected: list[int] = []
        state = await room_state(http, room)

        async def reconnect_closed() -> None:
            for seat, socket in sockets.items():
                if socket.closed.is_set():
                    for _ in range(5):
                        try:
                            sockets[seat] = await RoomSocket.open(
                                caddy.ws_url, room, tokens[seat], since=socket.version, tls=tls
                            )
                            reconnected.append(seat)
                            break
                        except Exception as error:  # counted: a reconnect that failed
                            failures.append(f"websocket reconnect: {error!r}")

        async def read_state() -> dict[str, Any]:
            for _ in range(5):
                try:
                    return await room_state(http, room)
                except httpx.HTTPError as error:  # counted: a read that failed
                    failures.append(f"read: {error!r}")
            raise AssertionError(f"reading the room kept failing: {failures}")

        async def move_once() -> None:
            nonlocal state
            seat = to_move(state)
            move_id = new_move_id()  # the same id for every retry of this move
            for _ in range(5):
                try:
                    reply = await play(http, room, tokens[seat], state, move_id)
                except httpx.TransportError as error:
                    failures.append(f"move: {error!r}")
                    continue
                if reply.status_code == 200:
                    if not reply.json().get("duplicate"):
                        confirmed.append(line_of(next_move(state)))
                    state = await read_state()
                    return
                failures.append(f"move: {reply.status_code} {reply.text[:200]}")
                await reconnect_closed()
                state = await read_state()
            raise AssertionError(f"a move kept failing: {failures}")

        async def everyone_sees(version: int) -> None:
            for _ in range(3):
                await reconnect_closed()
                seen = await asyncio.gather(*(s.wait_version(version) for s in sockets.values()))
                if all(seen):
                    return
            raise AssertionError(f"version {version} not delivered to every player")

        for _ in range(KILL_AFTER):
            await move_once()
            await everyone_sees(state["version"])

        victim = site.backends[1]
        victim.kill_9()
        # One player's socket was on the dead backend: it reconnects through the proxy
        # (reconnect_closed), and REST moves sent to the dead backend are retried by Caddy.
        while not is_over(state):
            await move_once()
            await everyone_sees(state["version"])

        final = await read_state()
        assert is_over(final) and move_count(final) == MOVES == len(confirmed)
        assert len(reconnected) == 1  # the player whose backend died, and only once
        assert [open_sockets(site.backends[0])] == [2]

        game_id = finished_game_id(final)
        for _ in range(600):
            record = await http.get(f"/api/games/{game_id}")
            if record.status_code == 200:
                break
            await asyncio.sleep(0.05)
        assert record.status_code == 200, record.text
        # Every confirmed move is in the record in PostgreSQL, once, in order.
        assert recorded_lines(record.json()) == confirmed
        assert list(record.json()["scores"]) == list(final["status"]["scores"])
        assert len(failures) < 3, failures

        # Liveness, not readiness, decides where the proxy sends requests: with Redis gone
        # the web client and the health check are still served, for several check rounds.
        for socket in sockets.values():
            await socket.close()
        site.redis.kill_9()
        started = time.monotonic()
        while time.monotonic() - started < 3 * HEALTH_INTERVAL:
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/")).status_code in (200, 404)  # 404: client not built
            await asyncio.sleep(0.2)
