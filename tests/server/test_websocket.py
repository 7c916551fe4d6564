"""The room websocket against a real uvicorn: live play, catch-up, takeover, bad input."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.conftest import LiveServer, StartServer
from tests.server.room_client import Socket, create_room, join_room, line, move


async def live_room(server: LiveServer, **body):
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live", **body)
        guest = await join_room(client, grant)
    return grant, guest


async def test_two_players_play_a_live_game_to_the_end(server: LiveServer) -> None:
    grant, guest = await live_room(server, rows=2, cols=2)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    watcher = await Socket.open(server, room, None)
    assert watcher.seen[0]["role"] == "spectator" and watcher.seen[0]["seat"] is None
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    sockets = {0: gold, 1: coral}
    state = gold.seen[0]["state"]
    version = state["version"]
    while not state["is_over"]:
        mover = sockets[state["to_move"]]
        await mover.send(type="move", move=state["legal_moves"][0], version=version)
        events = [
            await s.expect("event", lambda m, v=version: m["version"] == v + 1)
            for s in (gold, coral, watcher)
        ]
        assert len({json.dumps(e, sort_keys=True) for e in events}) == 1
        state, version = events[0]["state"], events[0]["version"]
        assert events[0]["event"]["kind"] == "move"
    assert sum(state["scores"]) == 4 and state["legal_moves"] == []
    await watcher.send(type="move", move=line(0, 0, 1, 0))
    refused = await watcher.expect("error")
    assert refused["code"] == "bad_token"
    for socket in (gold, coral, watcher):
        await socket.close()


async def test_move_refused_while_the_opponent_is_offline(server: LiveServer) -> None:
    grant, guest = await live_room(server)
    gold = await Socket.open(server, grant["room_id"], grant["token"])
    await gold.send(type="move", move=line(0, 0, 1, 0), ref="m1")
    refused = await gold.expect("error")
    assert refused["code"] == "opponent_offline" and refused["ref"] == "m1"
    coral = await Socket.open(server, grant["room_id"], guest["token"])
    await gold.expect("presence", lambda m: m["seats"][1]["connected"])
    await gold.send(type="move", move=line(0, 0, 1, 0))
    await coral.expect("event", lambda m: m["event"]["kind"] == "move")
    await coral.close()
    await gold.expect("presence", lambda m: not m["seats"][1]["connected"])
    await gold.send(type="move", move=line(0, 1, 1, 1))  # gold's turn again? no: coral's turn
    assert (await gold.expect("error"))["code"] in ("not_your_turn", "opponent_offline")
    await gold.close()


async def test_reconnect_gets_exactly_the_missed_events(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", first="me")
        guest = await join_room(client, grant)
        room = grant["room_id"]
        coral = await Socket.open(server, room, guest["token"])
        seen = coral.version
        await coral.close()
        for mv, token in [
            (line(0, 0, 1, 0), grant["token"]),
            (line(1, 0, 2, 0), guest["token"]),
            (line(2, 0, 3, 0), grant["token"]),
        ]:
            assert (await move(client, room, token, mv)).status_code == 200
    coral = await Socket.open(server, room, guest["token"], since=seen)
    welcome = coral.seen[0]
    assert welcome["complete"] is True
    assert [e["version"] for e in welcome["missed"]] == [seen + 1, seen + 2, seen + 3]
    assert [e["event"]["move"] for e in welcome["missed"]] == [
        line(0, 0, 1, 0),
        line(1, 0, 2, 0),
        line(2, 0, 3, 0),
    ]
    assert welcome["state"]["version"] == seen + 3
    await coral.close()


async def test_reconnect_after_too_many_events_gets_a_snapshot(start_server: StartServer) -> None:
    server = await start_server(events_kept=8)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="local")
        for x in range(5):
            for y in (0, 5):
                await move(client, grant["room_id"], grant["token"], line(x, y, x + 1, y))
    socket = await Socket.open(server, grant["room_id"], grant["token"], since=1)
    welcome = socket.seen[0]
    assert welcome["complete"] is False and welcome["state"]["version"] == 11
    assert len(welcome["state"]["moves"]) == 10
    await socket.close()


async def test_second_tab_takes_over_the_seat(server: LiveServer) -> None:
    grant, _ = await live_room(server)
    first = await Socket.open(server, grant["room_id"], grant["token"])
    second = await Socket.open(server, grant["room_id"], grant["token"])
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await first.next()
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4001 and closed.value.rcvd.reason == "taken_over"
    await second.send(type="ping", ref="still-here")
    assert (await second.expect("pong"))["ref"] == "still-here"
    await second.close()


async def test_bad_messages_get_errors_and_the_connection_stays_open(
    start_server: StartServer,
) -> None:
    server = await start_server(messages_per_second=1000, message_burst=1000)
    grant, guest = await live_room(server)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    await Socket.open(server, grant["room_id"], guest["token"])
    cases = [
        ("not json", "bad_request"),
        (json.dumps([1, 2]), "bad_request"),
        (json.dumps({"type": "launch"}), "bad_request"),
        (json.dumps({"type": "move"}), "bad_request"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [5, 5]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [-1, 0]]}}), "invalid_move"),
        (json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "x": 1}), "bad_request"),
        (
            json.dumps({"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "version": 99}),
            "stale_version",
        ),
        (json.dumps({"type": "hello", "token": None}), "bad_request"),
        (json.dumps({"type": "undo"}), "not_allowed"),
        (json.dumps({"type": "accept", "kind": "restart"}), "no_request"),
        ("x" * 5000, "message_too_large"),
        (json.dumps({"type": "ping", "ref": "r" * 10_000}), "message_too_large"),
    ]
    for text, code in cases:
        await socket.ws.send(text)
        error = await socket.expect("error")
        assert error["code"] == code, (text[:60], error)
        assert error["message"]
    await socket.ws.send(b'{"type": "ping", "ref": "bytes"}')
    assert (await socket.expect("pong"))["ref"] == "bytes"
    await socket.send(type="move", move=line(0, 0, 1, 0), version=socket.version)
    moved = await socket.expect("event")
    assert moved["state"]["moves"] == [line(0, 0, 1, 0)]
    await socket.close()


async def test_floods_are_rate_limited(start_server: StartServer) -> None:
    server = await start_server(messages_per_second=1, message_burst=5)
    grant, _ = await live_room(server)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    for index in range(20):
        await socket.send(type="ping", ref=str(index))
    replies = [await socket.next() for _ in range(20)]
    kinds = [
        r["type"] if r["type"] != "error" else r["code"]
        for r in replies
        if r["type"] in ("pong", "error")
    ]
    assert kinds.count("pong") <= 6 and "rate_limited" in kinds
    await socket.close()


async def test_hello_errors(server: LiveServer) -> None:
    grant, _ = await live_room(server)
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        await ws.send(json.dumps({"type": "ping"}))
        assert json.loads(await ws.recv())["code"] == "bad_request"
        await ws.send(json.dumps({"type": "hello", "token": "guess"}))
        assert json.loads(await ws.recv())["code"] == "bad_token"
        await ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
        assert json.loads(await ws.recv())["type"] == "welcome"
    async with websockets.connect(f"{server.ws_url}/api/rooms/unknown/ws") as ws:
        await ws.send(json.dumps({"type": "hello"}))
        assert json.loads(await ws.recv())["code"] == "room_not_found"
        with pytest.raises(ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        assert ws.close_code == 4004


async def test_a_retried_move_id_gets_its_own_duplicate_ack(server: LiveServer) -> None:
    grant, guest = await live_room(server)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    version = gold.version
    await gold.send(type="move", move=line(0, 0, 1, 0), version=version, move_id="m-1")
    applied = await gold.expect("event")
    assert applied["version"] == version + 1 and applied["event"]["move_id"] == "m-1"
    # The reply was "lost": the client sends the same move again, with a new ref.
    await gold.send(type="move", move=line(0, 0, 1, 0), version=version, move_id="m-1", ref="r2")
    ack = await gold.expect("ack")
    assert ack == {
        "protocol": 1,
        "type": "ack",
        "room": room,
        "version": version + 1,
        "ref": "r2",
        "move_id": "m-1",
        "duplicate": True,
    }
    assert not [m for m in gold.seen if m["type"] == "error"]
    # Nothing was played twice: the opponent saw one event, and the room holds one move.
    await coral.send(type="ping", ref="sync")
    await coral.expect("pong")
    assert [m["version"] for m in coral.seen if m["type"] == "event"] == [version + 1]
    async with httpx.AsyncClient(base_url=server.url) as client:
        state = (await client.get(f"/api/rooms/{room}")).json()["state"]
    assert state["version"] == version + 1 and state["moves"] == [line(0, 0, 1, 0)]
    await gold.close()
    await coral.close()


def _server_tasks() -> list[asyncio.Task]:
    """Tasks of the server side (uvicorn and tetrad code) in this event loop."""
    tasks = []
    for task in asyncio.all_tasks():
        code = getattr(task.get_coro(), "cr_code", None)
        if code is not None and ("/uvicorn/" in code.co_filename or "/server/" in code.co_filename):
            tasks.append(task)
    return tasks


async def test_an_idle_websocket_costs_one_task(server: LiveServer) -> None:
    """Memory per idle connection stays small: no sender, heartbeat or reader task of its
    own (presence is kept per process), only the connection's ASGI task itself."""
    grant, guest = await live_room(server)
    room = grant["room_id"]
    warm = await Socket.open(server, room, None)
    before = len(_server_tasks())
    sockets = [await Socket.open(server, room, None) for _ in range(10)]
    sockets.append(await Socket.open(server, room, grant["token"]))
    sockets.append(await Socket.open(server, room, guest["token"]))
    for socket in sockets:
        await socket.send(type="ping", ref="idle")
        await socket.expect("pong")
    for _ in range(1000):  # let short-lived flush tasks finish (no clock involved)
        if len(_server_tasks()) - before == len(sockets):
            break
        await asyncio.sleep(0)
    assert len(_server_tasks()) - before == len(sockets)
    for socket in [*sockets, warm]:
        await socket.close()


async def test_a_silent_client_is_closed_with_hello_timeout(start_server: StartServer) -> None:
    server = await start_server(hello_timeout_seconds=0.5)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live")
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 30)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4008, "hello_timeout")
