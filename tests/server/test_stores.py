"""The stores the room service receives, in both implementations: Redis (real, under a key
prefix of this test) and in memory (what the service's own tests use). The same story is
told to each, and each must answer it the same way."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from redis.asyncio import Redis

from server.rooms.stores import Commit, PresenceQuery, RoomPresence, Stores
from server.store.in_memory import memory_stores
from server.store.keys import RoomKeys
from server.store.redis_stores import RedisStores
from server.store.rooms import COMMIT_SCRIPT
from tests.conftest import REDIS_URL


@pytest.fixture(params=["redis", "memory"])
async def stores(request: pytest.FixtureRequest, key_prefix: str) -> AsyncIterator[Stores]:
    if request.param == "memory":
        yield memory_stores(events_kept=8)
        return
    redis = Redis.from_url(REDIS_URL)
    storage = RedisStores(redis, key_prefix, events_kept=8)
    try:
        yield storage.stores
    finally:
        await storage.aclose()
        await redis.aclose()


def created(meta: str = '{"id": "r"}') -> Commit:
    return Commit(expected_version=None, messages=['{"v":1}'], meta=meta, history="rewrite")


async def test_a_room_commits_at_its_version_only(stores: Stores) -> None:
    rooms = stores.rooms
    assert (await rooms.commit("r", created())).status == "committed"
    assert (await rooms.commit("r", created())).status == "moved_on"
    move = Commit(1, ['{"v":2}'], history="append", moves=["a1-b1"], command_id="0:1:m")
    assert (await rooms.commit("r", move)).version == 2
    stale = Commit(1, ['{"v":2}'], history="append", moves=["b1-c1"])
    assert (await rooms.commit("r", stale)).status == "moved_on"
    resent = await rooms.commit("r", Commit(1, ['{"v":2}'], moves=["c1-d1"], command_id="0:1:m"))
    assert (resent.status, resent.version, resent.played) == ("duplicate", 2, "a1-b1")
    applied = await rooms.applied_command("r", "0:1:m")
    assert (applied.version, applied.move) == (2, "a1-b1")
    assert (await rooms.applied_command("r", "0:1:other")).move is None
    loaded = await rooms.load("r")
    assert loaded is not None and loaded.moves == ["a1-b1"] and loaded.version == 2
    assert (await rooms.commit("gone", Commit(0, ["{}"]))).status == "gone"
    assert await rooms.exist(["r", "gone"]) == [True, False]


async def test_history_keeps_the_last_events_and_rewrites_start_an_epoch(stores: Stores) -> None:
    rooms = stores.rooms
    await rooms.commit("r", created())
    for version in range(1, 12):
        await rooms.commit("r", Commit(version, [f'{{"v":{version + 1}}}'], moves=[f"m{version}"],
                                       history="append"))  # fmt: skip
    after = await rooms.events_after("r", 10)
    assert (after.version, after.messages) == (12, ['{"v":11}', '{"v":12}'])
    assert len((await rooms.events_after("r", 0)).messages) == 8  # fewer than 12: not all kept
    assert (await rooms.events_after("r", 12)).messages == []
    assert (await rooms.events_after("unknown", 0)).version == 0
    loaded = await rooms.load("r")
    assert loaded is not None
    partial = await rooms.load("r", epoch=loaded.epoch, moves_from=9)
    assert partial is not None and partial.moves == ["m10", "m11"]
    await rooms.commit("r", Commit(12, ['{"v":13}'], history="rewrite", moves=["x"], meta="{}"))
    moved = await rooms.load("r", epoch=loaded.epoch, moves_from=9)
    assert moved is not None and moved.moves == ["x"] and moved.moves_from == 0


async def test_a_live_move_needs_the_other_slot_held(stores: Stores) -> None:
    await stores.rooms.commit("r", created())
    needs_one = Commit(1, ['{"v":2}'], history="append", moves=["a1-b1"], require_present=1)
    assert (await stores.rooms.commit("r", needs_one)).status == "absent"
    await stores.presence.claim("r", 1, "conn-b", 5)
    assert (await stores.rooms.commit("r", needs_one)).status == "committed"
    assert not await stores.presence.release("r", 1, "conn-other")
    assert await stores.presence.release("r", 1, "conn-b")


async def test_presence_rounds_refresh_and_count(stores: Stores) -> None:
    presence = stores.presence
    redis = Redis.from_url(REDIS_URL)
    await redis.script_flush()  # as after a Redis restart: the round loads its script again
    await redis.aclose()
    await presence.claim("r", 0, "a", 5)
    counted = await presence.add_spectators("r", ["w1"], 5)
    assert counted.presence == RoomPresence((True, False), 1)
    assert (counted.version, counted.expires_in) == (0, None)  # no room "r" in this test
    answers = await presence.round(
        [PresenceQuery("r", slots=[(0, "a"), (1, "b")], ttl=5, spectators=["w2"])]
    )
    assert answers[0].refreshed == [True, False]
    assert answers[0].holders == ("a", None) and answers[0].spectators == 2
    now = await presence.read("r")
    assert now.connected == (True, False) and now.spectators == 2
    assert await presence.remove_spectators("r", ["w1", "w3"]) == 1
    assert (await presence.read("r")).spectators == 1


async def test_spectators_counted_in_read_the_room_with_them(stores: Stores) -> None:
    await stores.rooms.commit("r", Commit(None, ['{"v":1}'], meta="{}", history="rewrite",
                                          ttl_seconds=600))  # fmt: skip
    await stores.presence.claim("r", 1, "b", 5)
    counted = await stores.presence.add_spectators("r", ["w1", "w2"], 5)
    assert counted.presence == RoomPresence((False, True), 2) and counted.version == 1
    assert counted.expires_in is not None and 300 < counted.expires_in <= 600


async def test_outboxes_leases_and_limits(stores: Stores) -> None:
    finished = Commit(None, ["{}"], meta="{}", history="rewrite", outbox='{"game": 1}')
    await stores.rooms.commit("r", finished)
    await stores.outbox.mark("r")
    assert await stores.outbox.rooms() == ["r"] and "r" in await stores.outbox.sweep()
    assert await stores.outbox.records("r") == ['{"game": 1}']
    await stores.outbox.done("r", ['{"game": 1}'])
    assert await stores.outbox.rooms() == [] and await stores.outbox.records("r") == []
    leases = stores.leases
    assert await leases.acquire("r", "me", 5) and not await leases.acquire("r", "you", 5)
    assert await leases.held(["r", "s"]) == [True, False]
    assert await leases.refresh("r", "me", 5) and not await leases.refresh("r", "you", 5)
    await leases.release("r", "you")
    assert await leases.held(["r"]) == [True]
    await leases.release("r", "me")
    assert await leases.held(["r"]) == [False]
    hits = [await stores.limits.hit("create", "1.2.3.4", 60) for _ in range(3)]
    assert [h.count for h in hits] == [1, 2, 3] and 0 < hits[-1].retry_after <= 60
    assert (await stores.limits.hit("create", "5.6.7.8", 60)).count == 1


async def test_every_key_of_a_room_lives_as_long_as_the_room(key_prefix: str) -> None:
    """Redis only: a commit sets the lifetime of the keys it creates, and of all of them once
    the room's has run down; a room that never expires has no lifetime on any key."""
    redis = Redis.from_url(REDIS_URL)
    storage = RedisStores(redis, key_prefix, events_kept=8)
    rooms = storage.stores.rooms
    keys = RoomKeys(key_prefix, "r")
    every_key = (keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves)
    day = 86_400

    async def lifetimes() -> list[int]:
        return [await redis.pttl(key) for key in every_key]

    try:
        await rooms.commit("r", replace(created(), ttl_seconds=day))
        move = Commit(1, ['{"v":2}'], moves=["a1-b1"], command_id="m1", ttl_seconds=day)
        await rooms.commit("r", move)
        assert all(day * 1000 - 60_000 < left <= day * 1000 for left in await lifetimes())
        await redis.pexpire(keys.room, 60_000)  # the room's lifetime has run down
        await rooms.commit("r", replace(move, expected_version=2, command_id="m2"))
        assert all(left > 60_000 for left in await lifetimes())
        forever = replace(move, expected_version=3, command_id="m3", ttl_seconds=0)
        await rooms.commit("r", forever)
        assert await lifetimes() == [-1] * 5
    finally:
        await redis.delete(*every_key)
        await storage.aclose()
        await redis.aclose()


async def test_a_script_redis_forgot_runs_whole_and_is_known_again(key_prefix: str) -> None:
    """NOSCRIPT (a restart, a flush, a replica promoted on a cluster): the call is sent by
    EVAL to the node that said so, which then knows the script for the next EVALSHA."""
    redis = Redis.from_url(REDIS_URL)
    storage = RedisStores(redis, key_prefix, events_kept=8)
    try:
        await redis.script_flush()
        assert (await storage.stores.rooms.commit("r", created())).status == "committed"
        commit_sha = hashlib.sha1(COMMIT_SCRIPT.encode(), usedforsecurity=False).hexdigest()
        assert await redis.script_exists(commit_sha) == [True]
        assert (await storage.stores.rooms.load("r")) is not None
    finally:
        await storage.aclose()
        await redis.aclose()
