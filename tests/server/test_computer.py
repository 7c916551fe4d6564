"""Computer rooms: the AI thinks in the process pool under a lease; undo, hint, level, new game."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

import httpx
import pytest
import redis.asyncio as aioredis
from websockets.exceptions import ConnectionClosed

from server.rooms.computer_turns import ComputerTurns
from tests.conftest import REDIS_URL, LiveServer
from tests.server.room_client import RoomModel, Socket, act, create_room, move, read_room

HTTP_TIMEOUT = 60.0
"""Hints think in the analyses' pool, started on the first one and at a lower priority: on
a loaded machine the first can take longer than httpx's default 5 s."""


async def play_to_the_end(server: LiveServer, grant: dict) -> RoomModel:
    """Play first legal moves over REST; the computer's moves arrive on the websocket."""
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    me = grant["seat"]
    async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
        while not socket.model.is_over:
            if socket.model.status["to_move"] == me:
                version = socket.version
                response = await move(
                    client, grant["room_id"], grant["token"], socket.model.legal_moves()[0]
                )
                assert response.status_code == 200, response.text
                await socket.until_version(version + 1)
            else:
                event = await socket.expect("event")
                assert event["event"]["kind"] == "move"
    await socket.close()
    assert socket.model is not None
    return socket.model


async def test_a_computer_game_to_the_end(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
        grant = await create_room(
            client, mode="computer", rows=2, cols=3, level="easy", first="opponent"
        )
    assert grant["seat"] == 1 and grant["state"]["computer_seat"] == 0
    model = await play_to_the_end(server, grant)
    assert sum(model.status["scores"]) == 6 and model.state["move_count"] == 17
    async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
        stored = None
        for _ in range(100):
            response = await client.get(f"/api/games/{grant['room_id']}-1")
            if response.status_code == 200:
                stored = response.json()
                break
        assert stored is not None and stored["scores"] == model.status["scores"]
        metrics = (await client.get("/metrics")).text
        assert "tetrad_ai_think_seconds_count" in metrics


async def test_undo_hint_level_and_new_game(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
        grant = await create_room(client, mode="computer", level="normal")
        room, token = grant["room_id"], grant["token"]
        socket = await Socket.open(server, room, token)
        legal = RoomModel(grant["state"]).legal_moves()
        hint = (await act(client, room, token, type="hint")).json()
        assert hint["hint"]["move"] in legal and hint["version"] == socket.version
        # Hard's hint with its reason: on an empty board every line is safe.
        assert hint["hint"]["reason"] in {"safe_line", "keeps_control"}
        assert hint["hint"]["count"] == 0
        assert (await move(client, room, token, legal[0])).status_code == 200
        await socket.expect(
            "event", lambda m: m["event"]["kind"] == "move" and m["event"]["seat"] == 1
        )
        while socket.model.status["to_move"] == 1:
            await socket.expect("event")
        assert "undo" in socket.model.status["allowed"][0]
        assert (await act(client, room, token, type="undo")).status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "undone")
        assert socket.model.state["move_count"] == 0 and socket.model.status["to_move"] == 0
        assert "undo" not in socket.model.status["allowed"][0]
        assert (await act(client, room, token, type="undo")).json()["code"] == "not_allowed"
        assert (await act(client, room, token, type="set_level", level="hard")).status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "level")
        assert socket.model.state["level"] == "hard"
        await move(client, room, token, legal[0])
        await socket.expect(
            "event", lambda m: m["event"]["kind"] == "move" and m["event"]["seat"] == 1
        )
        assert (await act(client, room, token, type="new_game")).status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "restarted")
        fresh = socket.model.state
        assert fresh["move_count"] == 0 and fresh["level"] == "hard" and fresh["game_number"] == 2
        # Undo right after a new game brings the replaced game back.
        assert (await act(client, room, token, type="undo")).status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "undone")
        assert socket.model.state["game_number"] == 1 and socket.model.state["move_count"] >= 2
        response = await act(client, room, token, type="new_game", first="opponent")
        assert response.status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "restarted")
        assert socket.model.state["computer_seat"] == 0
        moved = await socket.expect("event", lambda m: m["event"]["kind"] == "move")
        assert moved["event"]["seat"] == 0
        assert socket.model.comparable() == RoomModel(await read_room(client, room)).comparable()
        await socket.close()


async def test_hints_and_analyses_think_apart_from_the_computers_moves(
    server: LiveServer,
) -> None:
    # Their pool is another set of processes, lower in the OS's priority and in a session
    # of their own (where Linux schedules sessions as groups, a nice value alone would not
    # keep a busy analysis from delaying the server's own processes).
    rooms, analyses = server.app.state.rooms, server.app.state.analyses
    assert rooms.analyst is analyses.computer and rooms.analyst is not rooms.computer
    settings = server.app.state.settings
    assert settings.analysis_niceness > 0
    moves_pid, moves_nice = (
        await rooms.computer.run(os.getpid),
        await rooms.computer.run(os.nice, 0),
    )
    hints_pid, hints_nice = await rooms.analyst.run(os.getpid), await rooms.analyst.run(os.nice, 0)
    assert hints_pid != moves_pid
    assert hints_nice == min(19, moves_nice + settings.analysis_niceness)
    assert await rooms.analyst.run(os.getsid, 0) == hints_pid != os.getsid(0)


async def test_a_dead_thinker_is_replaced(server: LiveServer, key_prefix: str) -> None:
    """A lease left by a thinker that died blocks thinking only until it expires; then a
    connected client's heartbeat starts the computer's turn again."""
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
            grant = await create_room(client, mode="computer", rows=2, cols=2, first="me")
            room, token = grant["room_id"], grant["token"]
            await redis.set(f"{key_prefix}:{{{room}}}:ai", "dead-process", px=1500)
            first = RoomModel(grant["state"]).legal_moves()[0]
            assert (await move(client, room, token, first)).status_code == 200
        socket = await Socket.open(server, room, token)
        while socket.model.status["to_move"] == 1 and not socket.model.is_over:
            await socket.expect("event")
        assert socket.model.state["move_count"] >= 2
        await socket.close()
    finally:
        await redis.aclose()


async def test_presence_and_takeover_follow_the_player_when_a_new_game_swaps_seats(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=HTTP_TIMEOUT) as client:
        grant = await create_room(client, mode="computer", rows=2, cols=2, first="me")
        room, token = grant["room_id"], grant["token"]
        socket = await Socket.open(server, room, token)
        assert (
            await act(client, room, token, type="new_game", first="opponent")
        ).status_code == 200
        await socket.expect("event", lambda m: m["event"]["kind"] == "restarted")
        assert socket.model.state["computer_seat"] == 0
        state = await read_room(client, room)
    human = state["seats"][1]
    assert human["kind"] == "human" and human["connected"]
    second = await Socket.open(server, room, token)
    assert second.seen[0]["seat"] == 1
    with pytest.raises(ConnectionClosed):
        while True:
            await socket.next()
    assert socket.ws.close_code == 4001
    await second.close()


async def test_a_move_made_while_the_computers_turn_ends_is_not_missed() -> None:
    """The player answers the computer at once: their commit asks for the computer's next
    turn while the task of the last one is still looking at the room, and that look read
    the room before the commit. The computer must still play."""
    room = SimpleNamespace(computer_to_move=True, computer_seat=1, level="easy")
    room.game = SimpleNamespace(to_json=dict, move_from_json=lambda wire: wire)
    played: list[object] = []
    gate, looking, answered = asyncio.Event(), asyncio.Event(), asyncio.Event()
    reads = 0

    async def reload(room_id: str) -> SimpleNamespace:
        nonlocal reads
        reads += 1
        seen = SimpleNamespace(**vars(room))  # read now, answered later
        if reads == 3:  # the look after the first turn's lease is released
            looking.set()
            await gate.wait()
        return SimpleNamespace(room=seen, version=reads)

    async def play(room_id: str, command: object, seat: int) -> None:
        played.append(command)
        room.computer_to_move = False
        if len(played) == 2:
            answered.set()

    async def choose(*args: object) -> tuple[dict, float]:
        return {"point": [0, 0]}, 0.0

    async def granted(*args: object) -> bool:
        return True

    leases = SimpleNamespace(acquire=granted, refresh=granted, release=granted)
    turns = ComputerTurns(
        SimpleNamespace(reload=reload),
        play,
        leases,
        SimpleNamespace(choose=choose),
        SimpleNamespace(ai_lease_seconds=5.0, ai_time_limit=0.1),
    )
    turns.start("r")
    await looking.wait()
    room.computer_to_move = True  # the player's move lands: the service asks again
    turns.start("r")
    gate.set()
    await asyncio.wait_for(answered.wait(), 30)  # the computer's second turn is played
    await turns.close()
