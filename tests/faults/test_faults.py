"""Faults against real processes (issue 11): a server killed with SIGKILL mid-game and right
after a game's last move, a database that refuses connections while games finish, Redis
paused, killed and restarted from its append-only file, the pub/sub connection killed.

Each asserts that no confirmed move and no finished game is lost, and that clients see a
documented error or nothing at all."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
import websockets

from server.refusals import ERROR_CODES
from tests.faults.conftest import Player, Site, log_lines
from tests.processes import Tetrad
from tests.topology.game_api import (
    create_room,
    finished_game_id,
    is_over,
    join_room,
    line_of,
    recorded_lines,
    room_state,
)

pytestmark = pytest.mark.faults


async def until(check: Any, what: str, timeout: float = 60) -> Any:
    """Poll the coroutine function ``check`` until it returns something true."""
    async with asyncio.timeout(timeout):
        while True:
            found = await check()
            if found:
                return found
            await asyncio.sleep(0.1)
    raise AssertionError(what)  # pragma: no cover


def documented(response: httpx.Response) -> bool:
    return response.status_code < 300 or response.json().get("code") in ERROR_CODES


async def play_to_the_end(http: httpx.AsyncClient, player: Player) -> dict[str, Any]:
    while not is_over(state := await room_state(http, player.room_id)):
        response = await player.move(http)
        assert response.status_code in (200, 409), response.text
    return state


async def record_of(http: httpx.AsyncClient, state: dict[str, Any]) -> dict[str, Any] | None:
    response = await http.get(f"/api/games/{finished_game_id(state)}")
    assert documented(response), response.text
    return response.json() if response.status_code == 200 else None


async def test_finished_games_wait_out_a_refusing_database_and_a_killed_server(
    site: Site,
) -> None:
    first = site.serve()
    async with httpx.AsyncClient(base_url=first.url, timeout=15) as http:
        grant = await create_room(http, mode="local", rows=1, cols=2)
        player = Player(grant["room_id"], grant["token"])
        state = await play_to_the_end(http, player)
        record = await until(lambda: record_of(http, state), "first game recorded")
        assert recorded_lines(record) == [line_of(m) for m in player.confirmed]
        # The record is readable before the drain is done with it (the ladder's update
        # follows it); refused there, the drain would keep this record waiting too.
        await until(lambda: _ready_without_backlog(http), "first game drained")

        # The database refuses connections while the next game ends...
        site.gate.refuse()
        restarted = await http.post(
            f"/api/rooms/{player.room_id}/actions",
            json={"type": "new_game"},
            headers={"Authorization": f"Bearer {player.token}"},
        )
        assert restarted.status_code == 200, restarted.text
        player.confirmed.clear()
        state = await play_to_the_end(http, player)
        waiting = await http.get(f"/api/games/{finished_game_id(state)}")
        assert (waiting.status_code, waiting.json()["code"]) == (503, "unavailable")
        ready = (await http.get("/readyz")).json()
        assert ready["checks"]["outbox_backlog"] == "1", ready
    # ... and the server dies right after its last move, the record in Redis only.
    first.kill_9()
    site.gate.allow()
    second = site.serve()
    async with httpx.AsyncClient(base_url=second.url, timeout=15) as http:
        record = await until(lambda: record_of(http, state), "second game recorded")
        assert recorded_lines(record) == [line_of(m) for m in player.confirmed]
        ready = await until(lambda: _ready_without_backlog(http), "outbox drained", timeout=30)
        assert ready["checks"]["outbox_backlog"] == "0"
    assert site.gate.refused > 0


async def _ready_without_backlog(http: httpx.AsyncClient) -> dict[str, Any] | None:
    ready = (await http.get("/readyz")).json()
    return ready if ready["checks"].get("outbox_backlog") == "0" else None


async def test_a_server_killed_mid_game_loses_no_confirmed_move(site: Site) -> None:
    left, right = site.serve(), site.serve()
    async with (
        httpx.AsyncClient(base_url=left.url, timeout=15) as on_left,
        httpx.AsyncClient(base_url=right.url, timeout=15) as on_right,
    ):
        grant = await create_room(on_left, mode="live", rows=2, cols=2)
        guest = await join_room(on_right, grant)
        room = grant["room_id"]
        gold_socket = await _open(left.url, room, grant["token"])
        coral_socket = await _open(right.url, room, guest["token"])
        players = {0: Player(room, grant["token"]), 1: Player(room, guest["token"])}
        clients = {0: on_left, 1: on_right}
        confirmed: list[dict[str, Any]] = []
        for _ in range(4):
            state = await room_state(on_left, room)
            seat = state["status"]["to_move"]
            response = await players[seat].move(clients[seat])
            assert response.status_code == 200, response.text
            confirmed.append(players[seat].confirmed[-1])
        await _presence_where(gold_socket, True)
        # The guest's server dies: the host sees the guest go offline within a few
        # seconds (presence TTL and heartbeat), and a live move is refused meanwhile.
        killed_at = time.monotonic()
        right.kill_9()
        await _presence_where(gold_socket, False)
        offline_after = time.monotonic() - killed_at
        print(f"guest shown offline {offline_after:.1f} s after its server was killed")
        # The guest reconnects to the surviving server and the game goes on to its end.
        coral_socket = await _open(left.url, room, guest["token"])
        while not is_over(state := await room_state(on_left, room)):
            seat = state["status"]["to_move"]
            response = await players[seat].move(on_left)
            assert documented(response), response.text
            if response.status_code == 200:
                confirmed.append(players[seat].confirmed[-1])
        assert [line_of(m) for m in confirmed] == [
            line_of({"line": entry["line"]}) for entry in state["board"]["lines"]
        ]
        record = await until(lambda: record_of(on_left, state), "game recorded")
        assert recorded_lines(record) == [line_of(m) for m in confirmed]
        await gold_socket.close()
        await coral_socket.close()
    assert offline_after < 15


async def _local_game(
    http: httpx.AsyncClient, url: str, moves: int
) -> tuple[Player, websockets.ClientConnection]:
    """A room on one device (one token plays both seats), its socket, ``moves`` played."""
    grant = await create_room(http, mode="local", rows=2, cols=2)
    player = Player(grant["room_id"], grant["token"])
    socket = await _open(url, player.room_id, player.token)
    for _ in range(moves):
        assert (await player.move(http)).status_code == 200
    return player, socket


async def _open(url: str, room_id: str, token: str) -> websockets.ClientConnection:
    """A seat's websocket, welcomed."""
    socket = await websockets.connect(f"{_ws(url)}/api/rooms/{room_id}/ws")
    await socket.send(json.dumps({"type": "hello", "token": token}))
    while json.loads(await socket.recv()).get("type") != "welcome":
        pass
    return socket


async def _presence_where(socket: websockets.ClientConnection, guest: bool) -> None:
    """Read until a ``presence`` message shows the guest connected (or not)."""
    async with asyncio.timeout(15):
        while True:
            message = json.loads(await socket.recv())
            if message.get("type") == "presence" and message["seats"][1]["connected"] == guest:
                return


async def test_redis_paused_killed_and_restarted_loses_no_confirmed_move(site: Site) -> None:
    server = site.serve()
    async with httpx.AsyncClient(base_url=server.url, timeout=15) as http:
        player, socket = await _local_game(http, server.url, moves=3)

        # Paused: a 503 within about TETRAD_REDIS_TIMEOUT, not a hanging request.
        os.kill(site.redis.pid, signal.SIGSTOP)
        started = time.monotonic()
        try:
            paused = await http.get(f"/api/rooms/{player.room_id}")
        finally:
            os.kill(site.redis.pid, signal.SIGCONT)
        answered_in = time.monotonic() - started
        print(f"paused Redis: {paused.status_code} after {answered_in:.2f} s")
        assert (paused.status_code, paused.json()["code"]) == (503, "unavailable")
        assert answered_in < 5
        assert (await player.move(http)).status_code == 200

        # Killed and restarted: every confirmed move is still there.
        site.redis.kill_9()
        down = await http.get(f"/api/rooms/{player.room_id}")
        assert (down.status_code, down.json()["code"]) == (503, "unavailable")
        await socket.send('{"type": "ping", "ref": "p-down"}')
        site.restart_redis()
        state = await until(lambda: _state_if_up(http, player.room_id), "Redis back")
        assert [line_of({"line": e["line"]}) for e in state["board"]["lines"]] == [
            line_of(m) for m in player.confirmed
        ]
        state = await play_to_the_end(http, player)
        record = await until(lambda: record_of(http, state), "game recorded")
        assert recorded_lines(record) == [line_of(m) for m in player.confirmed]
        # The socket saw documented messages only.
        seen = await _drain(socket)
        await socket.close()
    errors = [m for m in seen if m.get("type") == "error"]
    assert all(m["code"] in ERROR_CODES for m in errors), errors
    # One line when each outage starts and one when it ends (the pause and the kill, one
    # outage if the kill came before the probe saw Redis back after the pause; a
    # loaded machine may add a slow answer of its own), no tracebacks.
    storage = await until(lambda: _storage_lines_settled(server), "outages logged", timeout=15)
    down = [text for text in storage if text.startswith("redis unavailable")]
    assert storage[::2] == down and storage[1::2] == ["redis available again"] * len(down)
    assert 1 <= len(down) <= 4, storage
    assert not [line for line in log_lines(server) if line.get("level") == "error"]


async def _storage_lines_settled(server: Tetrad) -> list[str] | None:
    lines = [line["msg"] for line in log_lines(server) if line.get("logger") == "tetrad.storage"]
    return lines if lines and lines[-1] == "redis available again" else None


async def _state_if_up(http: httpx.AsyncClient, room_id: str) -> dict[str, Any] | None:
    response = await http.get(f"/api/rooms/{room_id}")
    assert documented(response), response.text
    return response.json()["state"] if response.status_code == 200 else None


async def _drain(socket: websockets.ClientConnection) -> list[dict[str, Any]]:
    """Every message the socket received until a ping of ours is answered."""
    await socket.send('{"type": "ping", "ref": "last"}')
    seen = []
    async with asyncio.timeout(15):
        while True:
            message = json.loads(await socket.recv())
            seen.append(message)
            if message.get("ref") == "last":
                return seen


def _ws(url: str) -> str:
    return "ws" + url.removeprefix("http")


async def test_a_killed_pubsub_connection_loses_no_event(site: Site) -> None:
    server = site.serve()
    async with httpx.AsyncClient(base_url=server.url, timeout=15) as http:
        player, socket = await _local_game(http, server.url, moves=0)
        for _ in range(3):
            assert (await player.move(http)).status_code == 200
            admin = aioredis.Redis.from_url(site.redis.url)
            try:
                await admin.client_kill_filter(_type="pubsub", skipme=True)
            finally:
                await admin.aclose()
            assert (await player.move(http)).status_code == 200
        state = await room_state(http, player.room_id)
        async with asyncio.timeout(20):
            versions: set[int] = set()
            while max(versions, default=0) < state["version"]:
                message = json.loads(await socket.recv())
                assert message.get("type") != "error", message
                if message.get("type") == "event":
                    versions.add(message["version"])
        await socket.close()
    assert sorted(versions) == list(range(2, state["version"] + 1))
