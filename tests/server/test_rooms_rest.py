"""Rooms over REST against a real uvicorn and real Redis: seats, turns, errors, consistency."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from datetime import date, timedelta

import httpx
import pytest
import redis.asyncio as aioredis

from server.db.records import FinishedGame, store_finished_game
from tests.conftest import REDIS_URL, LiveServer, StartServer
from tests.server.room_client import (
    RoomModel,
    act,
    bearer,
    create_room,
    join_room,
    line,
    move,
    read_room,
)


def drawn(state: dict) -> list[dict]:
    """The lines played in a Dots and Boxes room, in order, in wire form."""
    return [
        {"line": entry["line"]} for entry in state["board"]["lines"] if entry["player"] is not None
    ]


@pytest.fixture
async def client(server: LiveServer):
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as client:
        yield client


async def test_create_join_and_spectate(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, rows=3, cols=3, mode="live")
    assert grant["seat"] == 0 and grant["role"] == "player"
    assert len(grant["token"]) >= 32 and grant["invite_code"]
    assert grant["invite_code"] not in grant["token"]
    assert grant["state"]["version"] == 1
    assert len(RoomModel(grant["state"]).legal_moves()) == 24
    guest = await join_room(client, grant)
    assert guest["seat"] == 1 and guest["token"] != grant["token"]
    visitor = await join_room(client, grant)
    assert visitor == {**visitor, "role": "spectator", "seat": None, "token": None}
    again = await join_room(client, grant, token=guest["token"])
    assert again["seat"] == 1 and again["token"] == guest["token"]
    read = (
        await client.get(f"/api/rooms/{grant['room_id']}", headers=bearer(grant["token"]))
    ).json()
    assert read["you"]["seat"] == 0 and read["you"]["invite_code"] == grant["invite_code"]
    assert [s["taken"] for s in read["state"]["seats"]] == [True, True]
    anonymous = (await client.get(f"/api/rooms/{grant['room_id']}")).json()
    assert anonymous["you"] is None and "invite_code" not in anonymous["state"]


async def test_tokens_are_stored_only_hashed(server: LiveServer, key_prefix: str) -> None:
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="correspondence")
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        dump = b"".join(
            [
                repr(await redis.hgetall(key)).encode()
                async for key in redis.scan_iter(match=f"{key_prefix}:*")
                if await redis.type(key) == b"hash"
            ]
        )
    finally:
        await redis.aclose()
    assert grant["token"].encode() not in dump
    assert hashlib.sha256(grant["token"].encode()).hexdigest().encode() in dump


async def test_errors_have_stable_codes(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, rows=2, cols=2, mode="correspondence", first="me")
    room, token = grant["room_id"], grant["token"]
    guest = await join_room(client, grant)

    async def code(response: httpx.Response) -> str:
        body = response.json()
        assert body["message"]
        return body["code"]

    assert await code(await client.get("/api/rooms/nope")) == "room_not_found"
    assert await code(await client.get("/api/rooms/bad%7Bid%7D")) == "room_not_found"
    assert await code(await move(client, room, "wrong-token", line(0, 0, 1, 0))) == "bad_token"
    no_auth = await client.post(f"/api/rooms/{room}/moves", json={"move": line(0, 0, 1, 0)})
    assert no_auth.status_code == 401 and await code(no_auth) == "bad_token"
    assert await code(await move(client, room, guest["token"], line(0, 0, 1, 0))) == "not_your_turn"
    assert await code(await move(client, room, token, line(0, 0, 1, 1))) == "invalid_move"
    assert await code(await move(client, room, token, line(0, 0, 9, 0))) == "invalid_move"
    assert await code(await move(client, room, token, {"point": [1, 1]})) == "invalid_move"
    assert await code(await move(client, room, token, {"line": "a"})) == "invalid_move"
    response = await client.post(
        f"/api/rooms/{room}/moves",
        json={"move": line(0, 0, 1, 0), "extra": 1},
        headers=bearer(token),
    )
    assert await code(response) == "bad_request"
    response = await client.post(
        f"/api/rooms/{room}/moves", content=b"{not json", headers=bearer(token)
    )
    assert await code(response) == "bad_request"
    response = await client.post(
        f"/api/rooms/{room}/moves", content=b"x" * 100_000, headers=bearer(token)
    )
    assert response.status_code == 413 and await code(response) == "message_too_large"
    assert (await move(client, room, token, line(0, 0, 1, 0))).status_code == 200
    assert await code(await move(client, room, guest["token"], line(0, 0, 1, 0))) == "illegal_move"
    stale = await move(client, room, guest["token"], line(1, 0, 2, 0), version=1)
    assert await code(stale) == "stale_version"
    assert await code(await act(client, room, token, type="undo")) == "not_allowed"
    assert await code(await act(client, room, token, type="accept", kind="end")) == "no_request"
    assert await code(await act(client, room, token, type="dance")) == "bad_request"
    assert (await act(client, room, token, type="resign")).status_code == 200
    assert await code(await move(client, room, guest["token"], line(1, 0, 2, 0))) == "game_over"
    # The room is still fine after all that.
    state = await read_room(client, room)
    assert drawn(state) == [line(0, 0, 1, 0)]
    assert state["status"]["outcome"] == {"winner": 1, "reason": "resignation"}


async def test_live_room_needs_the_opponent_connected(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="live")
    response = await move(client, grant["room_id"], grant["token"], line(0, 0, 1, 0))
    assert response.json()["code"] == "opponent_offline"
    await join_room(client, grant)
    response = await move(client, grant["room_id"], grant["token"], line(0, 0, 1, 0))
    assert response.json()["code"] == "opponent_offline"


async def test_retried_move_applies_once(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="local")
    room, token = grant["room_id"], grant["token"]
    first = await move(client, room, token, line(0, 0, 1, 0), version=1, move_id="m-1")
    retry = await move(client, room, token, line(0, 0, 1, 0), version=1, move_id="m-1")
    assert first.status_code == retry.status_code == 200
    assert first.json()["duplicate"] is False and retry.json()["duplicate"] is True
    assert retry.json()["version"] == first.json()["version"] == 2
    assert drawn(await read_room(client, room)) == [line(0, 0, 1, 0)]
    retries = await asyncio.gather(
        *[move(client, room, token, line(1, 0, 2, 0), version=2, move_id="m-2") for _ in range(6)]
    )
    assert all(r.status_code == 200 for r in retries)
    assert sum(not r.json()["duplicate"] for r in retries) == 1
    state = await read_room(client, room)
    assert state["version"] == 3 and state["move_count"] == 2


async def test_racing_moves_exactly_one_wins(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="local")
    room, token = grant["room_id"], grant["token"]
    candidates = [line(x, 0, x + 1, 0) for x in range(5)] + [line(0, y, 0, y + 1) for y in range(5)]
    responses = await asyncio.gather(
        *[move(client, room, token, mv, version=1) for mv in candidates]
    )
    winners = [r for r in responses if r.status_code == 200]
    assert len(winners) == 1
    assert {r.json()["code"] for r in responses if r.status_code != 200} == {"stale_version"}
    state = await read_room(client, room)
    winner = candidates[responses.index(winners[0])]
    assert state["version"] == 2 and drawn(state) == [winner]


async def test_unversioned_moves_are_serialised(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="local", rows=3, cols=3)
    room, token = grant["room_id"], grant["token"]
    candidates = [line(x, 0, x + 1, 0) for x in range(3)] + [line(x, 3, x + 1, 3) for x in range(3)]
    responses = await asyncio.gather(*[move(client, room, token, mv) for mv in candidates])
    assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
    state = await read_room(client, room)
    assert state["version"] == 7 and state["move_count"] == 6


async def test_correspondence_first_mover_by_lot_and_no_expiry(
    client: httpx.AsyncClient,
) -> None:
    seats = set()
    for _ in range(12):
        grant = await create_room(client, mode="correspondence")
        seats.add(grant["seat"])
        assert grant["state"]["expires_in_seconds"] is None
    assert seats == {0, 1}
    live = await create_room(client, mode="live")
    assert live["seat"] == 0 and live["state"]["expires_in_seconds"] == 7 * 24 * 3600


async def test_correspondence_moves_without_presence(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="correspondence", first="me", rows=1, cols=1)
    guest = await join_room(client, grant)
    room = grant["room_id"]
    assert (await move(client, room, grant["token"], line(0, 0, 1, 0))).status_code == 200
    assert (await move(client, room, guest["token"], line(0, 1, 1, 1))).status_code == 200
    assert (await move(client, room, grant["token"], line(0, 0, 0, 1))).status_code == 200
    assert (await move(client, room, guest["token"], line(1, 0, 1, 1))).status_code == 200
    state = await read_room(client, room)
    assert state["status"]["outcome"]["winner"] == 1


async def test_restart_alone_until_the_guest_joins_then_by_consent(
    client: httpx.AsyncClient,
) -> None:
    grant = await create_room(client, mode="correspondence", first="me")
    room, host = grant["room_id"], grant["token"]
    await move(client, room, host, line(0, 0, 1, 0))
    await act(client, room, host, type="offer", kind="restart")
    alone = await read_room(client, room)
    assert alone["game_number"] == 2 and alone["move_count"] == 0
    guest = (await join_room(client, grant))["token"]
    await move(client, room, host, line(0, 0, 1, 0))
    await act(client, room, host, type="offer", kind="restart")
    asked = await read_room(client, room)
    assert asked["game_number"] == 2 and asked["requests"] == [{"kind": "restart", "seat": 0}]
    # Any move cancels a pending request.
    await move(client, room, guest, line(1, 0, 2, 0))
    assert (await read_room(client, room))["requests"] == []
    response = await act(client, room, guest, type="accept", kind="restart")
    assert response.json()["code"] == "no_request"
    await act(client, room, host, type="offer", kind="restart")
    await act(client, room, guest, type="decline", kind="restart")
    declined = await read_room(client, room)
    assert declined["requests"] == [] and declined["game_number"] == 2
    await act(client, room, host, type="offer", kind="restart")
    await act(client, room, guest, type="accept", kind="restart")
    restarted = await read_room(client, room)
    assert restarted["game_number"] == 3 and restarted["move_count"] == 0
    assert restarted["status"]["to_move"] == 0 and grant["seat"] == 0
    # Offering the same thing the other side offered is consent too.
    await act(client, room, guest, type="offer", kind="restart")
    await act(client, room, host, type="offer", kind="restart")
    assert (await read_room(client, room))["game_number"] == 4


async def test_end_by_agreement(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="correspondence", first="me")
    room, host = grant["room_id"], grant["token"]
    assert (await act(client, room, host, type="offer", kind="end")).json()["code"] == "not_allowed"
    guest = (await join_room(client, grant))["token"]
    await act(client, room, host, type="offer", kind="end")
    await act(client, room, guest, type="accept", kind="end")
    ended = await read_room(client, room)
    assert ended["status"]["outcome"]["reason"] == "agreement"


async def test_events_since_and_long_poll(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="local")
    room, token = grant["room_id"], grant["token"]
    await move(client, room, token, line(0, 0, 1, 0))
    page = (await client.get(f"/api/rooms/{room}/events", params={"since": 0})).json()
    assert [e["version"] for e in page["events"]] == [1, 2] and page["snapshot"] is None
    assert page["events"][1]["event"] == {"kind": "move", "seat": 0, "move": line(0, 0, 1, 0)}
    status = page["events"][1]["status"]
    assert status["to_move"] == 1 and status["scores"] == [0, 0] and status["thinking"] is False
    assert "undo" in status["allowed"][0]  # what a seat may do is sent when it changes
    waiting = asyncio.create_task(
        client.get(f"/api/rooms/{room}/events", params={"since": 2, "wait": 20})
    )
    await asyncio.sleep(0.2)
    await move(client, room, token, line(1, 0, 2, 0))
    page = (await waiting).json()
    assert [e["version"] for e in page["events"]] == [3]


async def test_room_creation_is_rate_limited(start_server: StartServer) -> None:
    server = await start_server(room_creations_per_minute=3)
    async with httpx.AsyncClient(base_url=server.url) as client:
        codes = [
            (await client.post("/api/rooms", json={"game": "boxes"})).status_code for _ in range(5)
        ]
    assert codes == [201, 201, 201, 429, 429]


async def test_rooms_expire_after_inactivity(start_server: StartServer, key_prefix: str) -> None:
    server = await start_server(room_ttl_seconds=60)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="live")
        other = await create_room(client, mode="correspondence")
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        ttl = await redis.ttl(f"{key_prefix}:{{{grant['room_id']}}}:room")
        forever = await redis.ttl(f"{key_prefix}:{{{other['room_id']}}}:room")
    finally:
        await redis.aclose()
    assert 0 < ttl <= 60
    assert forever == -1


async def test_daily_board(client: httpx.AsyncClient) -> None:
    daily = (await client.get("/api/daily")).json()
    assert daily["rows"] == daily["cols"] == 5 and daily["level"] == "normal"
    assert 6 <= len(daily["lines"]) <= 10
    sides: dict[tuple[int, int], int] = {}
    for item in daily["lines"]:
        (x1, y1), (_, y2) = item["line"]
        beside = [(x1, y1), (x1, y1 - 1)] if y1 == y2 else [(x1, y1), (x1 - 1, y1)]
        for box in beside:
            if 0 <= box[0] < 5 and 0 <= box[1] < 5:
                sides[box] = sides.get(box, 0) + 1
    assert max(sides.values()) <= 2
    assert (await client.get("/api/daily")).json() == daily
    grant = await create_room(client, daily=True)
    state = grant["state"]
    assert state["mode"] == "computer" and state["level"] == "normal"
    assert state["daily"] == daily["date"] and grant["seat"] == 0
    assert state["status"]["to_move"] == 0
    assert len(RoomModel(state).legal_moves()) == 60 - len(daily["lines"])


async def test_health_readiness_metrics_openapi(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json()["status"] == "ok"
    ready = await client.get("/readyz")
    checks = ready.json()["checks"]
    assert ready.status_code == 200 and checks["redis"] == checks["database"] == "ok"
    await create_room(client, mode="local")
    metrics = (await client.get("/metrics")).text
    assert 'tetrad_rooms_created_total{game="boxes",mode="local"} 1.0' in metrics
    assert "tetrad_websocket_connections" in metrics and "tetrad_ai_think_seconds" in metrics
    schemas = (await client.get("/openapi.json")).json()["components"]["schemas"]
    for name in ("ClientMessage", "ServerMessage", "RoomSnapshot", "WelcomeMessage", "Hello"):
        assert name in schemas
    assert schemas["ClientMessage"]["discriminator"]["propertyName"] == "type"


async def test_expires_in_is_the_time_left(
    server: LiveServer, client: httpx.AsyncClient, key_prefix: str
) -> None:
    grant = await create_room(client, mode="live")
    room = grant["room_id"]
    assert grant["state"]["expires_in_seconds"] == 7 * 24 * 3600  # just written: the full window
    redis = aioredis.Redis.from_url(REDIS_URL)
    try:
        # As if the room had been idle for all but 100 seconds of its window.
        await redis.pexpire(f"{key_prefix}:{{{room}}}:room", 100_000)
    finally:
        await redis.aclose()
    state = (await client.get(f"/api/rooms/{room}")).json()["state"]
    assert 0 < state["expires_in_seconds"] <= 100

    forever = await create_room(client, mode="correspondence")
    state = (await client.get(f"/api/rooms/{forever['room_id']}")).json()["state"]
    assert state["expires_in_seconds"] is None


async def test_a_chunked_body_over_the_limit_is_413(client: httpx.AsyncClient) -> None:
    grant = await create_room(client, mode="local")

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"move": {"line": [[0, 0], [1, 0]]}, "move_id": "'
        for _ in range(10):
            yield b"x" * 1000
        yield b'"}'

    response = await client.post(
        f"/api/rooms/{grant['room_id']}/moves", content=chunks(), headers=bearer(grant["token"])
    )
    assert response.status_code == 413
    assert response.json()["code"] == "message_too_large"

    async def small() -> AsyncIterator[bytes]:
        yield b'{"move": {"line": [[0, 0], '
        yield b"[1, 0]]}}"

    headers = {**bearer(grant["token"]), "Content-Type": "application/json"}
    response = await client.post(
        f"/api/rooms/{grant['room_id']}/moves", content=small(), headers=headers
    )
    assert response.status_code == 200 and response.json()["version"] == 2, response.text


def daily_game(room: str, day: str, mine: int, theirs: int) -> FinishedGame:
    return FinishedGame(
        room_id=room,
        game="boxes",
        mode="computer",
        game_number=1,
        daily=day,
        record={"game": "boxes", "rows": 5, "cols": 5, "start": [], "moves": []},
        winner=0 if mine > theirs else 1 if theirs > mine else None,
        reason="board_full",
        scores=(mine, theirs),
        human_seat=0,
        finished_at=1e9,
    )


async def test_daily_results_compare_with_everybody(
    server: LiveServer, client: httpx.AsyncClient
) -> None:
    day = "2025-03-14"
    engine = server.app.state.engine
    for index, (mine, theirs) in enumerate([(13, 12), (10, 15), (13, 12), (25, 0), (12, 13)]):
        await asyncio.to_thread(
            store_finished_game, engine, daily_game(f"d{index}", day, mine, theirs)
        )
    # Another day's result does not count.
    await asyncio.to_thread(store_finished_game, engine, daily_game("other", "2025-03-15", 20, 5))
    results = (await client.get(f"/api/daily/results?date={day}")).json()
    assert results == {
        "date": day,
        "boxes_total": 25,
        "players": 5,
        "wins": 3,
        "draws": 0,
        "losses": 2,
        "distribution": [
            {"boxes": 10, "players": 1},
            {"boxes": 12, "players": 1},
            {"boxes": 13, "players": 2},
            {"boxes": 25, "players": 1},
        ],
    }
    today = (await client.get("/api/daily/results")).json()
    assert today["date"] == (await client.get("/api/daily")).json()["date"]
    empty = (date.fromisoformat(day) - timedelta(days=1)).isoformat()
    nobody = (await client.get(f"/api/daily/results?date={empty}")).json()
    assert nobody["players"] == 0 and nobody["distribution"] == []
    bad = await client.get("/api/daily/results?date=yesterday")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"


async def test_past_the_redis_memory_limit_new_rooms_wait_and_games_go_on(
    start_server: StartServer,
) -> None:
    server = await start_server(redis_memory_limit_mb=1)
    memory = server.app.state.memory
    assert memory.limit_bytes == 2**20
    memory.limit_bytes = 0
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="local", rows=2, cols=2)
        memory.limit_bytes = 2**20
        await memory.read()  # the shared test Redis holds more than 1 MiB
        assert memory.full
        refused = await client.post("/api/rooms", json={"game": "boxes"})
        assert refused.status_code == 503 and refused.json()["code"] == "server_full"
        going_on = await move(client, grant["room_id"], grant["token"], line(0, 0, 1, 0))
        assert going_on.status_code == 200
        metrics = (await client.get("/metrics")).text
        assert "tetrad_redis_used_memory_bytes" in metrics
        memory.limit_bytes = 0  # no limit: welcome again
        assert not memory.full
        assert (await client.post("/api/rooms", json={"game": "boxes"})).status_code == 201
