"""Two real server processes on one Redis: players on different processes, and a process
killed with SIGKILL mid-game whose client reconnects to the other and finishes the game."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from tests.conftest import REDIS_URL, free_socket
from tests.server.room_client import Socket, create_room, join_room

pytestmark = pytest.mark.cluster
REPO = Path(__file__).resolve().parents[2]


@dataclass
class ServerProcess:
    url: str
    process: subprocess.Popen[bytes]

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http")


SpawnServer = Callable[[], Awaitable[ServerProcess]]


@pytest.fixture
async def spawn_server(tmp_path: Path, key_prefix: str) -> AsyncIterator[SpawnServer]:
    processes: list[subprocess.Popen[bytes]] = []

    async def spawn() -> ServerProcess:
        sock = free_socket()
        port = sock.getsockname()[1]
        env = {
            **os.environ,
            "TETRAD_REDIS_URL": REDIS_URL,
            "TETRAD_DATABASE_URL": f"sqlite:///{tmp_path / 'cluster.sqlite3'}",
            "TETRAD_DATA_DIR": str(tmp_path),
            "TETRAD_KEY_PREFIX": key_prefix,
            "TETRAD_HEARTBEAT_SECONDS": "0.5",
            "TETRAD_PRESENCE_TTL_SECONDS": "3",
            "TETRAD_LOG_LEVEL": "WARNING",
            "TETRAD_AI_TIME_LIMIT": "0.2",
        }
        process = subprocess.Popen(
            [  # `tetrad serve`, on a listening socket handed over like socket activation
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--fd",
                str(sock.fileno()),
                "--redis-url",
                REDIS_URL,
                "--database-url",
                env["TETRAD_DATABASE_URL"],
                "--data-dir",
                str(tmp_path),
                "--log-level",
                "WARNING",
            ],
            cwd=REPO,
            env=env,
            pass_fds=[sock.fileno()],
        )
        sock.close()
        processes.append(process)
        url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=url) as client:
            for _ in range(600):
                if process.poll() is not None:
                    raise RuntimeError(f"server exited with {process.returncode}")
                try:
                    if (await client.get("/readyz")).status_code == 200:
                        return ServerProcess(url, process)
                except httpx.TransportError:
                    pass
                await asyncio.sleep(0.05)
        raise RuntimeError("server did not become ready")

    yield spawn
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def test_players_on_different_processes(spawn_server: SpawnServer) -> None:
    first, second = await asyncio.gather(spawn_server(), spawn_server())
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
    async with httpx.AsyncClient(base_url=second.url) as client:
        guest = await join_room(client, grant)
    room = grant["room_id"]
    gold = await Socket.open(first, room, grant["token"])  # type: ignore[arg-type]
    coral = await Socket.open(second, room, guest["token"])  # type: ignore[arg-type]
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    sockets = {0: gold, 1: coral}
    while not coral.model.is_over:
        mover = sockets[coral.model.status["to_move"]]
        await mover.send(type="move", move=mover.model.legal_moves()[-1], version=mover.version)
        expected = coral.version + 1
        events = [
            await s.expect("event", lambda m, v=expected: m["version"] == v) for s in (gold, coral)
        ]
        assert events[0] == events[1]
    assert sum(coral.model.status["scores"]) == 4
    assert gold.model.comparable() == coral.model.comparable()
    # A second tab on the other process takes the seat over.
    again = await Socket.open(first, room, guest["token"])  # type: ignore[arg-type]
    closed_code = None
    try:
        while True:
            await coral.next()
    except Exception:
        closed_code = coral.ws.close_code
    assert closed_code == 4001
    for socket in (gold, again):
        await socket.close()


async def test_kill_9_mid_game_loses_nothing(spawn_server: SpawnServer) -> None:
    first, second = await asyncio.gather(spawn_server(), spawn_server())
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(client, mode="live", rows=3, cols=3)
        guest = await join_room(client, grant)
    room = grant["room_id"]
    gold = await Socket.open(first, room, grant["token"])  # type: ignore[arg-type]
    coral = await Socket.open(second, room, guest["token"])  # type: ignore[arg-type]
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    sockets = {0: gold, 1: coral}
    played: list[dict] = []

    async def play_one() -> None:
        mover = sockets[gold.model.status["to_move"]]
        move = mover.model.legal_moves()[0]
        expected = mover.version + 1
        await mover.send(type="move", move=move, version=mover.version)
        for socket in (gold, sockets[1]):
            await socket.expect("event", lambda m, v=expected: m["version"] == v)
        played.append(move)

    for _ in range(6):
        await play_one()
    last_seen = coral.version
    second.process.send_signal(signal.SIGKILL)
    second.process.wait()
    # Coral reconnects to the surviving process with the last version it saw.
    coral = await Socket.open(
        first,  # type: ignore[arg-type]
        room,
        guest["token"],
        since=last_seen,
        model=sockets[1].model,
    )
    sockets[1] = coral
    welcome = coral.seen[0]
    assert welcome["snapshot"] is None and welcome["events"] == []
    while not gold.model.is_over:
        await play_one()
    assert len(played) == 24 and sum(gold.model.status["scores"]) == 9
    async with httpx.AsyncClient(base_url=first.url) as client:
        state = (await client.get(f"/api/rooms/{room}")).json()["state"]
    drawn = [{"line": entry["line"]} for entry in state["board"]["lines"]]
    assert drawn == [{"line": sorted(m["line"])} for m in played]
    assert coral.model.comparable() == gold.model.comparable()
    for socket in (gold, coral):
        await socket.close()


async def test_spectators_on_two_processes_are_counted_together(
    spawn_server: SpawnServer,
) -> None:
    first, second = await asyncio.gather(spawn_server(), spawn_server())
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
    room = grant["room_id"]
    gold = await Socket.open(first, room, grant["token"])  # type: ignore[arg-type]
    one = await Socket.open(first, room, None)  # type: ignore[arg-type]
    two = await Socket.open(second, room, None)  # type: ignore[arg-type]
    assert two.seen[0]["spectators"] == 2
    await gold.expect("presence", lambda m: m["spectators"] == 2)
    await two.close()
    await gold.expect("presence", lambda m: m["spectators"] == 1)
    async with httpx.AsyncClient(base_url=second.url) as client:
        state = (await client.get(f"/api/rooms/{room}")).json()["state"]
    assert state["spectators"] == 1
    for socket in (gold, one):
        await socket.close()
