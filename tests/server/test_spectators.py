"""Spectators: counted per room across server processes, shown in the state and in presence."""

from __future__ import annotations

import asyncio
import time

import httpx
import redis.asyncio as aioredis

from tests.conftest import REDIS_URL, LiveServer, StartServer
from tests.server.room_client import Socket, create_room, join_room


def watching(count: int):
    return lambda message: message.get("spectators") == count


async def spectators_over_rest(server: LiveServer, room: str) -> int:
    async with httpx.AsyncClient(base_url=server.url) as client:
        response = await client.get(f"/api/rooms/{room}")
    assert response.status_code == 200, response.text
    return int(response.json()["state"]["spectators"])


async def test_spectators_on_two_servers_are_counted_together(
    start_server: StartServer,
) -> None:
    first, second = await start_server(), await start_server()
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
        guest = await join_room(client, grant)
    room = grant["room_id"]
    gold = await Socket.open(first, room, grant["token"])
    coral = await Socket.open(second, room, guest["token"])
    assert gold.seen[0]["spectators"] == 0

    one = await Socket.open(first, room, None)
    assert one.seen[0]["role"] == "spectator"
    assert one.seen[0]["spectators"] == 1  # the spectator counts itself
    assert one.seen[0]["snapshot"]["spectators"] == 1
    two = await Socket.open(second, room, None)
    assert two.seen[0]["spectators"] == 2
    for socket in (gold, coral, one):
        await socket.expect("presence", watching(2))
    assert await spectators_over_rest(first, room) == 2
    assert await spectators_over_rest(second, room) == 2

    # Players are not spectators: the count is the same after a move.
    await gold.send(type="move", move=gold.model.legal_moves()[0], version=gold.version)
    await coral.expect("event")
    assert await spectators_over_rest(second, room) == 2

    await two.close()
    for socket in (gold, coral, one):
        await socket.expect("presence", watching(1))
    assert await spectators_over_rest(second, room) == 1

    await one.close()
    await gold.expect("presence", watching(0))
    assert await spectators_over_rest(first, room) == 0
    await gold.close()
    await coral.close()


async def test_a_spectator_left_by_a_dead_process_is_pruned(
    server: LiveServer, key_prefix: str
) -> None:
    """A process that died cannot remove its spectators: their entries expire, are not
    counted, and the presence round deletes them."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
    room = grant["room_id"]
    key = f"{key_prefix}:{{{room}}}:spectators"
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        expired = int(time.time() * 1000) - 1
        await redis.zadd(key, {"dead-process-connection": expired})
        assert await spectators_over_rest(server, room) == 0
        gold = await Socket.open(server, room, grant["token"])
        watcher = await Socket.open(server, room, None)
        assert watcher.seen[0]["spectators"] == 1
        for _ in range(200):  # presence rounds run every 0.5 s in tests; bounded wait
            if await redis.zscore(key, "dead-process-connection") is None:
                break
            await asyncio.sleep(0.05)
        assert await redis.zscore(key, "dead-process-connection") is None
        assert await redis.zcard(key) == 1
        await watcher.close()
        await gold.expect("presence", watching(0))
        await gold.close()
    finally:
        await redis.aclose()


async def test_a_crowd_arriving_and_leaving_together_is_counted(server: LiveServer) -> None:
    """Spectators saying hello at the same moment are counted in together (one write for
    many) and each welcome counts its own socket; leaving together, they are all counted
    out."""
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live", rows=2, cols=2)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    crowd = await asyncio.gather(*(Socket.open(server, room, None) for _ in range(40)))
    counts = sorted(socket.seen[0]["spectators"] for socket in crowd)
    assert counts[0] >= 1 and counts[-1] == 40
    await gold.expect("presence", watching(40))
    assert await spectators_over_rest(server, room) == 40
    await asyncio.gather(*(socket.close() for socket in crowd))
    await gold.expect("presence", watching(0))
    assert await spectators_over_rest(server, room) == 0
    await gold.close()
