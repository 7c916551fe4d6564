"""Idle correspondence rooms leave Redis for the database and come back on their next visit,
move or websocket hello, unchanged (issue 31); a move racing the hand-back is never lost;
rooms that expire (friend rooms, live rooms) stay in Redis with their time to live."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as aioredis
import websockets

from server.db.cold_rooms import cold_room
from server.db.session import make_engine, migrate
from server.rooms.stores import Commit
from server.store.cold_rooms import ColdAwareRoomStore, ColdRooms
from server.store.rooms import RedisRoomStore
from tests.conftest import REDIS_URL
from tests.faults.conftest import Site, log_lines
from tests.faults.test_faults import until
from tests.topology.game_api import (
    bearer,
    create_room,
    join_room,
    line_of,
    new_move_id,
    next_move,
    room_state,
    to_move,
)

pytestmark = pytest.mark.faults

IDLE_SECONDS = 2


async def _cold(redis: aioredis.Redis, prefix: str, room_id: str) -> bool:
    return not await redis.exists(f"{prefix}:{{{room_id}}}:room")


async def _move(
    http: httpx.AsyncClient, room_id: str, tokens: dict[int, str], state: dict[str, Any]
) -> dict[str, Any]:
    """The player to move plays the next line over REST; the move played."""
    move = next_move(state)
    body = {"move": move, "version": state["version"], "move_id": new_move_id()}
    token = tokens[to_move(state)]
    reply = await http.post(f"/api/rooms/{room_id}/moves", json=body, headers=bearer(token))
    assert reply.status_code == 200, reply.text
    return move


async def test_an_idle_correspondence_room_waits_in_the_database_and_comes_back(
    site: Site,
) -> None:
    site.settings["TETRAD_CORRESPONDENCE_IDLE_SECONDS"] = str(IDLE_SECONDS)
    server = site.serve()
    redis = aioredis.from_url(site.redis.url)
    ws_url = "ws" + server.url.removeprefix("http")
    try:
        async with httpx.AsyncClient(base_url=server.url, timeout=15) as http:
            host = await create_room(http, mode="correspondence", rows=2, cols=2, first="me")
            guest = await join_room(http, host)
            room_id = host["room_id"]
            tokens = {0: host["token"], 1: guest["token"]}
            friend = await create_room(http, mode="live", rows=2, cols=2)
            played = [await _move(http, room_id, tokens, await room_state(http, room_id))]
            before = await room_state(http, room_id)

            # Gone from Redis; a visit brings it back as it was.
            await until(lambda: _cold(redis, site.prefix, room_id), "room cold", 60)
            assert await redis.pttl(f"{site.prefix}:{{{friend['room_id']}}}:room") > 0
            after = await room_state(http, room_id)
            assert (after["version"], after["board"]) == (before["version"], before["board"])

            # Gone again; a websocket hello with the guest's token, then its move on it.
            await until(lambda: _cold(redis, site.prefix, room_id), "room cold again", 60)
            async with websockets.connect(f"{ws_url}/api/rooms/{room_id}/ws") as socket:
                await socket.send(json.dumps({"type": "hello", "token": tokens[1]}))
                welcome = json.loads(await socket.recv())
                while welcome["type"] != "welcome":
                    welcome = json.loads(await socket.recv())
                assert (welcome["version"], welcome["seat"]) == (before["version"], 1)
                state = await room_state(http, room_id)
                played.append(await _move(http, room_id, tokens, state))
                state = await room_state(http, room_id)  # read before it goes cold again

            # Gone again; a move brings it back and is played on it.
            await until(lambda: _cold(redis, site.prefix, room_id), "room cold a third time", 60)
            played.append(await _move(http, room_id, tokens, state))
            final = await room_state(http, room_id)
            assert [line_of(e) for e in final["board"]["lines"]] == [line_of(m) for m in played]
    finally:
        await redis.aclose()
    assert not [line for line in log_lines(server) if line.get("level") == "error"]
    messages = [line["msg"] for line in log_lines(server)]
    assert messages.count("room back from the database") >= 3


@pytest.fixture
async def cold_rooms(tmp_path: Path, key_prefix: str) -> AsyncIterator[ColdAwareRoomStore]:
    engine = make_engine(f"sqlite:///{tmp_path / 'cold.sqlite3'}")
    migrate(engine)
    redis = aioredis.from_url(REDIS_URL)
    hot = RedisRoomStore(redis, key_prefix)
    try:
        yield ColdAwareRoomStore(hot, ColdRooms(redis, key_prefix, engine, idle_seconds=0))
    finally:
        await hot.aclose()
        await redis.aclose()
        engine.dispose()


async def test_a_move_racing_the_hand_back_is_never_lost(
    cold_rooms: ColdAwareRoomStore,
) -> None:
    """The hand-back and a move at once, many times: whichever comes first, the move is
    committed once and the room (in Redis or brought back) holds it."""
    outcomes = set()
    for n in range(40):
        room_id = f"race{n}"
        created = Commit(None, ['{"v":1}'], meta='{"id":"r"}', history="rewrite")
        assert (await cold_rooms.commit(room_id, created)).status == "committed"
        move = Commit(1, ['{"v":2}'], history="append", moves=["a1-b1"], command_id="0:1:m")
        hand_back, play = cold_rooms.cold.freeze(room_id), cold_rooms.commit(room_id, move)
        if n % 2:  # either one first
            moved, froze = await asyncio.gather(play, hand_back)
        else:
            froze, moved = await asyncio.gather(hand_back, play)
        assert (moved.status, moved.version) == ("committed", 2)
        loaded = await cold_rooms.load(room_id)
        assert loaded is not None and (loaded.version, loaded.moves) == (2, ["a1-b1"])
        applied = await cold_rooms.applied_command(room_id, "0:1:m")
        assert (applied.version, applied.move) == (2, "a1-b1")
        # The database keeps nothing of a room back in Redis.
        assert await asyncio.to_thread(cold_room, cold_rooms.cold.engine, room_id) is None
        outcomes.add(froze)
    print(f"hand-backs that won the race: {outcomes}")


async def _created(store: ColdAwareRoomStore, room_id: str) -> None:
    created = Commit(None, ['{"v":1}'], meta='{"id":"r"}', history="rewrite")
    assert (await store.commit(room_id, created)).status == "committed"


async def test_two_processes_bringing_a_room_back_at_once_both_find_it(
    cold_rooms: ColdAwareRoomStore, key_prefix: str
) -> None:
    """The process that finds the database row already gone (the other one put the room
    back and dropped the row) finds the room in Redis instead of answering "no room"."""
    other = ColdAwareRoomStore(
        cold_rooms.hot, ColdRooms(cold_rooms.cold.redis, key_prefix, cold_rooms.cold.engine, 0)
    )
    await _created(cold_rooms, "twice")
    assert await cold_rooms.cold.freeze("twice")
    assert await cold_rooms.cold.thaw("twice")
    assert await other.cold.thaw("twice")  # its database read came after the drop
    assert not await other.cold.thaw("never-was")
    for n in range(20):
        room_id = f"both{n}"
        await _created(cold_rooms, room_id)
        assert await cold_rooms.cold.freeze(room_id)
        found = await asyncio.gather(cold_rooms.load(room_id), other.load(room_id))
        assert [room is not None and room.version for room in found] == [1, 1]


async def test_one_process_sweeps_at_a_time(
    cold_rooms: ColdAwareRoomStore, key_prefix: str
) -> None:
    redis = cold_rooms.cold.redis
    other = ColdRooms(redis, key_prefix, cold_rooms.cold.engine, 0)
    await _created(cold_rooms, "idle1")
    assert await cold_rooms.cold.sweep() == 1
    await _created(cold_rooms, "idle2")
    assert await other.sweep() == 0  # the first process's lease holds
    assert await redis.exists(f"{key_prefix}:{{idle2}}:room")
    await until(lambda: _no_lease(redis, key_prefix), "the sweep lease to run out", 30)
    assert await other.sweep() == 1
    assert not await redis.exists(f"{key_prefix}:{{idle2}}:room")


async def _no_lease(redis: aioredis.Redis, prefix: str) -> bool:
    return not await redis.exists(f"{prefix}:cold-sweep")
