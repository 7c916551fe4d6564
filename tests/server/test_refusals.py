"""Every refusal a clear error (issue 11): storage outages answered ``unavailable`` over REST
and the websocket and logged once, oversized frames, unknown endpoints and methods, the
``declined`` event of a move, the REST move limit, the outbox backlog in ``/readyz``."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
from pathlib import Path

import httpx
import pytest
import websockets

from server.refusals import ERROR_CODES
from server.settings import Settings
from tests.conftest import LiveServer, StartServer
from tests.processes import RedisServer, start_redis
from tests.server.room_client import Socket, act, create_room, line, move
from tests.server.test_websocket import live_room

AOF = ("--appendonly", "yes", "--appendfsync", "always", "--save", "")


@pytest.fixture
def own_redis(tmp_path: Path):
    """A redis-server of the test's own (append-only), to stop and pause."""
    directory = tmp_path / "redis"
    directory.mkdir()
    redis = start_redis(directory, *AOF)
    yield redis
    os.kill(redis.pid, signal.SIGCONT) if redis.alive() else None
    redis.stop()


@pytest.fixture
def tetrad_log(caplog: pytest.LogCaptureFixture):
    """``caplog`` with tetrad's own records (its logger does not propagate to the root)."""
    logger = logging.getLogger("tetrad")
    logger.addHandler(caplog.handler)
    yield caplog
    logger.removeHandler(caplog.handler)


def storage_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tetrad.storage"]


async def test_a_stopped_redis_is_unavailable_at_once_and_logged_once(
    start_server: StartServer,
    own_redis: RedisServer,
    tmp_path: Path,
    tetrad_log: pytest.LogCaptureFixture,
) -> None:
    caplog = tetrad_log
    server = await start_server(redis_url=own_redis.url, log_level="INFO")
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        grant = await create_room(client, mode="correspondence", rows=2, cols=2)
        room = grant["room_id"]
        socket = await Socket.open(server, room, grant["token"])
        await socket.send(type="ping", ref="p0")
        await socket.expect("pong")  # the socket is set up (welcome sent, room touched)
        with caplog.at_level(logging.INFO):
            own_redis.kill_9()
            for _ in range(5):
                response = await client.get(f"/api/rooms/{room}")
                assert response.status_code == 503, response.text
                assert response.json()["code"] == "unavailable"
                assert response.headers["retry-after"] == "1"
            await socket.send(type="move", move=line(0, 0, 1, 0), ref="m1")
            refused = await socket.expect("error")
            assert (refused["code"], refused["ref"]) == ("unavailable", "m1")
            # The socket stays open: it answers the next message.
            await socket.send(type="ping", ref="p1")
            await socket.expect("pong")
            restarted = start_redis(tmp_path / "redis", *AOF, port=own_redis.port)
            try:
                # Recovery: the probe says so (and the same keep-alive client carries on).
                async with asyncio.timeout(30):
                    while not any("available again" in m for m in storage_lines(caplog)):
                        await asyncio.sleep(0.05)
                assert (await client.get(f"/api/rooms/{room}")).status_code == 200
                await socket.send(type="move", move=line(0, 0, 1, 0), ref="m2")
                # Answered by the rules again (an ack, or not_your_turn if seat 1 begins).
                while True:
                    reply = await socket.next()
                    if reply.get("ref") == "m2":
                        break
                assert reply["type"] == "ack" or reply["code"] == "not_your_turn", reply
            finally:
                await socket.close()
                restarted.stop()
    lines = storage_lines(caplog)
    assert len(lines) == 2 and lines[0].startswith("redis unavailable"), lines
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_a_paused_redis_gives_unavailable_instead_of_a_hanging_request(
    start_server: StartServer, own_redis: RedisServer
) -> None:
    server = await start_server(redis_url=own_redis.url, redis_timeout=0.5)
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as client:
        grant = await create_room(client, mode="correspondence", rows=2, cols=2)
        os.kill(own_redis.pid, signal.SIGSTOP)
        try:
            response = await client.get(f"/api/rooms/{grant['room_id']}")
        finally:
            os.kill(own_redis.pid, signal.SIGCONT)
        assert response.status_code == 503 and response.json()["code"] == "unavailable"
        ok = await client.get(f"/api/rooms/{grant['room_id']}")
        assert ok.status_code == 200
    # The default answers a hung Redis within about 2 s.
    assert Settings().redis_timeout <= 1.5


@pytest.mark.parametrize("size", [65_537, 1024 * 1024])
async def test_a_frame_over_64_kib_is_refused_with_message_too_large(
    server: LiveServer, size: int
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", rows=2, cols=2)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    await socket.ws.send(json.dumps({"type": "ping", "ref": "x" * size}))
    refused = await socket.expect("error")
    assert refused["code"] == "message_too_large" and refused["room"] == grant["room_id"]
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await socket.next()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_status_and_code_agree_for_unknown_endpoints_and_methods(
    server: LiveServer,
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        cases = [
            (await client.get("/api/nothing-here"), 404, "not_found"),
            (await client.patch("/api/rooms/x/y/z"), 404, "not_found"),
            (await client.delete("/api/daily"), 405, "method_not_allowed"),
            (await client.patch("/healthz"), 405, "method_not_allowed"),
            (await client.put("/api/rooms"), 405, "method_not_allowed"),
        ]
    for response, status, code in cases:
        assert (response.status_code, response.json()["code"]) == (status, code), response.url
    assert {"not_found", "method_not_allowed"} <= set(ERROR_CODES)
    assert "GET" in cases[2][0].headers["allow"]


async def test_a_move_clears_a_pending_offer_with_a_declined_event(server: LiveServer) -> None:
    grant, guest = await live_room(server, rows=2, cols=2)
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    mover, offerer = (gold, coral) if gold.model.status["to_move"] == 0 else (coral, gold)
    await offerer.send(type="offer", kind="end", ref="o1")
    await offerer.expect("ack")
    await mover.send(type="move", move=line(0, 0, 1, 0), ref="m1")
    for socket in (gold, coral):
        declined = await socket.expect("event", lambda m: m["event"]["kind"] == "declined")
        assert declined["event"] == {"kind": "declined", "request": "end", "seat": None}
        moved = await socket.expect("event")
        assert moved["event"]["kind"] == "move" and moved["version"] == declined["version"] + 1
        await socket.close()


async def test_rest_moves_past_the_limit_are_rate_limited(start_server: StartServer) -> None:
    server = await start_server(rest_moves_per_minute=5)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", rows=3, cols=3)
        room, token = grant["room_id"], grant["token"]
        codes = []
        for x in range(8):
            response = await move(client, room, token, line(x % 3, x // 3, x % 3 + 1, x // 3))
            codes.append(response.json().get("code", response.status_code))
        assert codes[5:] == ["rate_limited"] * 3, codes
        # Other requests of the seat are not limited by it.
        assert (await act(client, room, token, type="resign")).status_code == 200


async def test_readyz_reports_the_outbox_backlog(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        ready = (await client.get("/readyz")).json()
    assert ready["checks"]["outbox_backlog"] == "0" and ready["status"] == "ok"


def test_a_dead_opponent_is_shown_offline_within_5_seconds_by_default() -> None:
    settings = Settings()
    assert settings.presence_ttl_seconds + settings.heartbeat_seconds <= 5


async def test_a_ref_that_cannot_be_sent_back_is_dropped_not_fatal(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence", rows=2, cols=2)
    socket = await Socket.open(server, grant["room_id"], grant["token"])
    await socket.ws.send('{"type": "nope", "ref": "\\ud83d"}')  # a lone surrogate (found by fuzz)
    refused = await socket.expect("error")
    assert refused["code"] == "bad_request" and refused["ref"] is None
    await socket.send(type="ping", ref="p1")
    assert (await socket.expect("pong"))["ref"] == "p1"
    await socket.close()
