"""Redis answering reads but refusing writes (issue 31): full at ``maxmemory`` under
``noeviction`` (``OOM``), and ``min-replicas-to-write`` with no replica (``NOREPLICAS``).

A real `tetrad serve` on a real redis-server so configured: creating a room and moving
over REST answer 503 ``unavailable`` and the next request on the same HTTP connection is
served; a move over the websocket gets an ``unavailable`` error event and the socket stays;
each outage writes one log line when it starts and one when it ends, no traceback; once
Redis takes writes again the game goes on with every confirmed move."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis

from tests.faults.conftest import Player, Site, log_lines
from tests.faults.test_faults import until
from tests.topology.game_api import (
    RoomSocket,
    bearer,
    create_room,
    line_of,
    new_move_id,
    next_move,
    room_state,
)

pytestmark = pytest.mark.faults

Refuse = Callable[[aioredis.Redis], Awaitable[Any]]


async def _full(redis: aioredis.Redis) -> None:
    await redis.config_set("maxmemory-policy", "noeviction")
    await redis.config_set("maxmemory", "1")


async def _no_replicas(redis: aioredis.Redis) -> None:
    await redis.config_set("min-replicas-to-write", "1")


async def _takes_writes(redis: aioredis.Redis) -> None:
    await redis.config_set("maxmemory", "0")
    await redis.config_set("min-replicas-to-write", "0")


def _storage_lines(site_server: Any) -> list[str]:
    return [m["msg"] for m in log_lines(site_server) if m.get("logger") == "tetrad.storage"]


def _unavailable(response: httpx.Response) -> bool:
    return (response.status_code, response.json()["code"]) == (503, "unavailable")


@pytest.mark.parametrize(
    ("refuse", "error"),
    [(_full, "OutOfMemoryError"), (_no_replicas, "WritesRefused")],
    ids=["oom", "noreplicas"],
)
async def test_redis_refusing_writes_is_unavailable_and_the_game_goes_on(
    site: Site, refuse: Refuse, error: str
) -> None:
    server = site.serve()
    redis = aioredis.from_url(site.redis.url)
    ws_url = "ws" + server.url.removeprefix("http")
    # One HTTP connection for every request: a refusal must not cost the next request.
    limits = httpx.Limits(max_connections=1)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=15, limits=limits) as http:
            grant = await create_room(http, mode="local", rows=2, cols=2)
            player = Player(grant["room_id"], grant["token"])
            assert (await player.move(http)).status_code == 200
            socket = await RoomSocket.open(ws_url, player.room_id, player.token)

            await refuse(redis)
            body = {"game": "boxes", "mode": "local", "rows": 2, "cols": 2}
            created = await http.post("/api/rooms", json=body)
            assert _unavailable(created), created.text
            state = await room_state(http, player.room_id)  # reads still work
            moved = await http.post(
                f"/api/rooms/{player.room_id}/moves",
                json={"move": next_move(state), "version": state["version"]},
                headers=bearer(player.token),
            )
            assert _unavailable(moved), moved.text
            await socket.send_move(state, new_move_id())
            refused = await socket.wait_error(1)
            assert refused["code"] == "unavailable", refused
            assert not socket.closed.is_set()

            await _takes_writes(redis)
            # The same socket, kept, plays on and sees its move.
            state = await room_state(http, player.room_id)
            move_id = new_move_id()
            await socket.send_move(state, move_id)
            assert await socket.wait_version(state["version"] + 1)
            player.confirmed.append(next_move(state))
            assert (await player.move(http)).status_code == 200
            state = await room_state(http, player.room_id)
            assert [line_of(e) for e in state["board"]["lines"]] == [
                line_of(m) for m in player.confirmed
            ]
            await socket.close()
    finally:
        await _takes_writes(redis)
        await redis.aclose()

    # One line when the outage starts, one when it ends; nothing at error level.
    lines = await until(lambda: _settled(server), "outage over in the log", timeout=15)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"redis refuses writes: {error}"), lines
    assert not [line for line in log_lines(server) if line.get("level") == "error"]


async def _settled(server: Any) -> list[str] | None:
    lines = _storage_lines(server)
    return lines if lines and lines[-1] == "redis takes writes again" else None


async def test_near_maxmemory_new_rooms_wait_before_redis_refuses_writes(site: Site) -> None:
    """Past 90 % of Redis's own ``maxmemory`` new rooms are refused with ``server_full``
    (no budget set), while moves go on: Redis never reaches its refusals by accident."""
    site.settings["TETRAD_ROOM_CREATIONS_PER_MINUTE"] = "100000"  # rooms are asked for often
    server = site.serve()
    redis = aioredis.from_url(site.redis.url)
    body = {"game": "boxes", "mode": "local", "rows": 2, "cols": 2}
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=15) as http:
            grant = await create_room(http, mode="local", rows=2, cols=2)
            player = Player(grant["room_id"], grant["token"])
            used = int((await redis.info("memory"))["used_memory"])
            await redis.config_set("maxmemory-policy", "noeviction")
            await redis.config_set("maxmemory", str(int(used / 0.93)))

            async def refused() -> bool:
                created = await http.post("/api/rooms", json=body)
                assert created.status_code in (201, 503), created.text
                return created.json().get("code") == "server_full"

            await until(refused, "new rooms refused near maxmemory", timeout=60)
            assert (await player.move(http)).status_code == 200  # the game goes on
            await _takes_writes(redis)

            async def welcome() -> bool:
                return (await http.post("/api/rooms", json=body)).status_code == 201

            await until(welcome, "new rooms welcome again", timeout=60)
    finally:
        await _takes_writes(redis)
        await redis.aclose()
    assert not [line for line in log_lines(server) if line.get("level") == "error"]
