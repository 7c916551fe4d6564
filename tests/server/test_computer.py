"""Computer rooms: the AI thinks in the process pool under a lease; undo, hint, level, new game."""

from __future__ import annotations

import httpx
import redis.asyncio as aioredis

from tests.conftest import REDIS_URL, LiveServer
from tests.server.room_client import Socket, act, create_room, move


async def play_to_the_end(server: LiveServer, grant: dict) -> dict:
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    state = socket.seen[0]["state"]
    me = grant["seat"]
    async with httpx.AsyncClient(base_url=server.url) as client:
        while not state["is_over"]:
            if state["to_move"] == me:
                response = await move(
                    client, grant["room_id"], grant["token"], state["legal_moves"][0]
                )
                assert response.status_code == 200, response.text
                state = response.json()["state"]
            else:
                version = state["version"]
                event = await socket.expect("event", lambda m, v=version: m["version"] > v)
                assert event["event"]["kind"] == "move" and event["event"]["seat"] != me
                state = event["state"]
    await socket.close()
    return state


async def test_a_computer_game_to_the_end(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(
            client, mode="computer", rows=2, cols=3, level="easy", first="opponent"
        )
    assert grant["seat"] == 1 and grant["state"]["computer_seat"] == 0
    state = await play_to_the_end(server, grant)
    assert sum(state["scores"]) == 6 and len(state["moves"]) == 17
    async with httpx.AsyncClient(base_url=server.url) as client:
        stored = None
        for _ in range(100):
            response = await client.get(f"/api/games/{grant['room_id']}-1")
            if response.status_code == 200:
                stored = response.json()
                break
        assert stored is not None and stored["scores"] == state["scores"]
        metrics = (await client.get("/metrics")).text
        assert "tetrad_ai_think_seconds_count" in metrics


async def test_undo_hint_level_and_new_game(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="computer", level="normal")
        room, token = grant["room_id"], grant["token"]
        socket = await Socket.open(server, room, token)
        hint = (await act(client, room, token, type="hint")).json()
        assert hint["hint"] in grant["state"]["legal_moves"] and hint["version"] == 1
        first = grant["state"]["legal_moves"][0]
        assert (await move(client, room, token, first)).status_code == 200
        reply = await socket.expect(
            "event", lambda m: m["event"]["kind"] == "move" and m["event"]["seat"] == 1
        )
        assert reply["state"]["to_move"] == 0 or reply["state"]["scores"] != [0, 0]
        while reply["state"]["to_move"] == 1:
            reply = await socket.expect("event")
        undone = (await act(client, room, token, type="undo")).json()["state"]
        assert undone["moves"] == [] and undone["to_move"] == 0
        assert (await act(client, room, token, type="undo")).json()["code"] == "not_allowed"
        level = (await act(client, room, token, type="set_level", level="hard")).json()["state"]
        assert level["level"] == "hard"
        await move(client, room, token, first)
        await socket.expect(
            "event", lambda m: m["event"]["kind"] == "move" and m["event"]["seat"] == 1
        )
        fresh = (await act(client, room, token, type="new_game")).json()["state"]
        assert fresh["moves"] == [] and fresh["level"] == "hard" and fresh["game_number"] == 2
        swapped = (await act(client, room, token, type="new_game", first="computer")).json()
        assert swapped["state"]["computer_seat"] == 0
        moved = await socket.expect("event", lambda m: m["event"]["kind"] == "move")
        assert moved["event"]["seat"] == 0
        await socket.close()


async def test_a_dead_thinker_is_replaced(server: LiveServer, key_prefix: str) -> None:
    """A lease left by a thinker that died blocks thinking only until it expires; then a
    connected client's heartbeat starts the computer's turn again."""
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        async with httpx.AsyncClient(base_url=server.url) as client:
            grant = await create_room(client, mode="computer", rows=2, cols=2, first="me")
            room, token = grant["room_id"], grant["token"]
            await redis.set(f"{key_prefix}:{{{room}}}:ai", "dead-process", px=1500)
            first = grant["state"]["legal_moves"][0]
            assert (await move(client, room, token, first)).status_code == 200
        socket = await Socket.open(server, room, token)
        state = socket.seen[0]["state"]
        while state["to_move"] == 1 and not state["is_over"]:
            state = (await socket.expect("event"))["state"]
        assert len(state["moves"]) >= 2
        await socket.close()
    finally:
        await redis.aclose()
