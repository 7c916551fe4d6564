"""The wire contract as a bot author meets it, over real sockets: the order of acks and
events, catching up from any version, refusals with their codes and retry hints, and an
OpenAPI document that lists what the server really answers."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import websockets

from tests.conftest import LiveServer, StartServer
from tests.server.room_client import Socket, create_room, join_room, line, move


async def friend_room(server: LiveServer, mode: str = "live", **body):
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode=mode, **body)
        guest = await join_room(client, grant)
    return grant, guest


async def test_every_ack_follows_the_events_up_to_its_version(server: LiveServer) -> None:
    """Whatever the interleaving of two players' moves and offers, a socket never reads an
    ack naming a version before it has read that version's event."""
    grant, guest = await friend_room(server, mode="correspondence", first="me", rows=2, cols=3)
    room = grant["room_id"]
    sockets = [await Socket.open(server, room, grant["token"])]
    sockets.append(await Socket.open(server, room, guest["token"]))
    rng = random.Random(7)
    refs = 0
    while not sockets[0].model.is_over:
        for socket in sockets:  # both send at once: a move, an offer or a decline
            refs += 1
            legal = socket.model.legal_moves()
            roll = rng.random()
            if roll < 0.8 and legal:
                mv = rng.choice(legal)
                await socket.send(type="move", move=mv, ref=f"r{refs}", move_id=f"m{refs}")
            elif roll < 0.9:
                await socket.send(type="offer", kind="restart", ref=f"r{refs}")
            else:
                await socket.send(type="decline", kind="restart", ref=f"r{refs}")
        for socket in sockets:  # the pong comes after the reply to every command before it
            await socket.send(type="ping", ref="settle")
            await socket.expect("pong", lambda m: m["ref"] == "settle")
    for socket in sockets:
        seen = 0
        acks = 0
        for message in socket.seen:
            if message["type"] in ("welcome", "resync"):
                seen = message["version"]
            elif message["type"] == "event":
                seen = max(seen, message["version"])
            elif message["type"] == "ack":
                acks += 1
                assert message["version"] <= seen, (message, seen)
        assert acks > 0 and socket.gaps == 0
        await socket.close()


async def test_catching_up_from_nothing_or_from_a_version_the_room_never_had(
    server: LiveServer,
) -> None:
    grant, guest = await friend_room(server)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    await gold.send(type="move", move=line(0, 0, 1, 0), ref="m")
    await gold.expect("ack", lambda m: m["ref"] == "m")
    version = gold.version
    for since in (None, version + 998):
        await gold.send(type="sync", since=since, ref=f"s{since}")
        resync = await gold.expect("resync", lambda m, s=since: m["ref"] == f"s{s}")
        assert resync["snapshot"]["version"] == version and resync["events"] == []
    await gold.send(type="sync", since=version, ref="now")
    resync = await gold.expect("resync", lambda m: m["ref"] == "now")
    assert resync["snapshot"] is None and resync["events"] == [] and resync["version"] == version
    # A hello with a version ahead of the room is corrected the same way.
    late = await Socket.open(server, room, None, since=version + 998)
    assert late.seen[-1]["snapshot"]["version"] == version
    async with httpx.AsyncClient(base_url=server.url) as client:
        page = (await client.get(f"/api/rooms/{room}/events", params={"since": 999})).json()
    assert page["snapshot"]["version"] == version and page["events"] == []
    for socket in (gold, coral, late):
        await socket.close()


async def test_every_status_names_the_outcome_and_whether_the_computer_thinks(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="computer", level="easy", rows=1, cols=2)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    while not socket.model.is_over:
        if socket.model.status["to_move"] == grant["seat"]:
            await socket.send(type="move", move=socket.model.legal_moves()[0], ref="m")
            await socket.expect("ack", lambda m: m["ref"] == "m")
        else:
            await socket.next()
    events = [m for m in socket.seen if m["type"] == "event"]
    assert any(e["status"]["thinking"] for e in events)
    for event in events:
        assert {"to_move", "scores", "outcome", "thinking"} <= set(event["status"])
    assert events[-1]["status"]["outcome"] is not None and not events[-1]["status"]["thinking"]
    await socket.close()


async def test_refusals_keep_their_ref_and_say_when_to_retry(start_server: StartServer) -> None:
    server = await start_server(messages_per_second=1, message_burst=3)
    grant, _ = await friend_room(server)
    async with websockets.connect(f"{server.ws_url}/api/rooms/{grant['room_id']}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "token": grant["token"]}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        padded = {"type": "ping", "ref": "big", "pad": "x" * 5000}
        await ws.send(json.dumps(padded))
        refused = await _error(ws)
        assert refused["code"] == "message_too_large" and refused["ref"] == "big"
        for number in range(6):
            await ws.send(json.dumps({"type": "ping", "ref": f"p{number}"}))
        limited = await _error(ws, "rate_limited")
        assert limited["ref"].startswith("p") and 0 < limited["retry_after"] <= 1
    async with httpx.AsyncClient(base_url=server.url) as client:
        for _ in range(4):
            created = await client.post("/api/rooms", json={"game": "boxes"})
        limited_server = await start_server(room_creations_per_minute=1)
        async with httpx.AsyncClient(base_url=limited_server.url) as other:
            await other.post("/api/rooms", json={"game": "boxes"})
            created = await other.post("/api/rooms", json={"game": "boxes"})
    assert created.status_code == 429
    assert 1 <= int(created.headers["Retry-After"]) <= 60
    assert 0 < created.json()["retry_after"] <= 60


async def _error(ws, code: str | None = None) -> dict:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "error" and (code is None or message["code"] == code):
            return message


async def test_a_reused_move_id_over_the_websocket_is_refused(server: LiveServer) -> None:
    grant, guest = await friend_room(server, mode="correspondence", first="me")
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    await gold.send(type="move", move=line(0, 0, 1, 0), move_id="one", ref="a")
    await gold.expect("ack", lambda m: m["ref"] == "a")
    async with httpx.AsyncClient(base_url=server.url) as client:
        assert (await move(client, room, guest["token"], line(0, 1, 1, 1))).status_code == 200
    await gold.send(type="move", move=line(0, 0, 0, 1), move_id="one", ref="b")
    refused = await gold.expect("error", lambda m: m["ref"] == "b")
    assert refused["code"] == "move_id_reused" and refused["details"] == {"played": "a1-b1"}
    await gold.send(type="move", move=line(0, 0, 1, 0), move_id="one", ref="c")
    resent = await gold.expect("ack", lambda m: m["ref"] == "c")
    assert resent["duplicate"] and resent["version"] == gold.version
    await gold.close()


async def test_openapi_lists_the_real_answers(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        document = (await client.get("/openapi.json")).json()
    schemas = document["components"]["schemas"]
    assert "HTTPValidationError" not in schemas and "ValidationError" not in schemas
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "422" not in operation["responses"], (method, path)
    moves = document["paths"]["/api/rooms/{room_id}/moves"]["post"]["responses"]
    assert {"200", "400", "401", "404", "409", "429", "503"} <= set(moves)
    assert "move_id_reused" in moves["409"]["description"]
    assert "Retry-After" in moves["429"]["headers"]
    error = moves["409"]["content"]["application/json"]["schema"]["$ref"]
    assert error.endswith("/ErrorBody")
