"""The parts of Redis Cluster and Sentinel support that need no cluster: the client each
URL makes, the commit time stamped on published events and the delivery metric it feeds,
and Redis errors of every topology answered as ``unavailable``."""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.sentinel import MasterNotFoundError, SentinelConnectionPool
from redis.exceptions import ClusterDownError, SlotNotCoveredError, TryAgainError

from server.store.frames import Frame, frame, parse_frame
from server.store.outage import REDIS_ERRORS, storage_of
from server.store.redis_client import (
    RedisUrlError,
    close_dropped_cluster_nodes,
    is_cluster,
    redis_client,
)
from server.ws.hub import EventWaiter, Hub
from tests.conftest import LiveServer
from tests.server.room_client import Socket, create_room, join_room


async def test_a_cluster_url_lists_its_startup_nodes_and_credentials() -> None:
    client = redis_client("redis+cluster://bob:s%40lt@10.0.0.1:7000,10.0.0.2:7001", timeout=3)
    assert is_cluster(client) and isinstance(client, RedisCluster)
    nodes = [(node.host, node.port) for node in client.nodes_manager.startup_nodes.values()]
    assert nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    kwargs = client.nodes_manager.connection_kwargs
    assert (kwargs["username"], kwargs["password"]) == ("bob", "s@lt")
    assert kwargs["socket_timeout"] == kwargs["socket_connect_timeout"] == 3
    await client.aclose()


async def test_a_sentinel_url_names_the_service_and_the_database() -> None:
    client = redis_client("redis+sentinel://:pw@10.0.0.1:26379,10.0.0.2/games/2", timeout=4)
    assert not is_cluster(client)
    pool = client.connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "games"
    assert pool.connection_kwargs["db"] == 2 and pool.connection_kwargs["password"] == "pw"
    sentinels = pool.sentinel_manager.sentinels
    assert [s.connection_pool.connection_kwargs["port"] for s in sentinels] == [26379, 26379]
    assert sentinels[0].connection_pool.connection_kwargs["socket_timeout"] == 4
    await client.aclose()


async def test_single_server_urls_are_redis_py_s_own() -> None:
    for url in ("redis://127.0.0.1:6379/3", "unix:///tmp/valkey.sock?db=1"):
        client = redis_client(url, timeout=2)
        assert type(client) is Redis and not is_cluster(client)
        await client.aclose()


@pytest.mark.parametrize(
    "url",
    [
        "memcached://127.0.0.1:11211",
        "redis+cluster://127.0.0.1:7000/1",
        "redis+cluster://127.0.0.1:port",
        "redis+sentinel://127.0.0.1:26379",
        "redis+sentinel://127.0.0.1:26379/service/db",
        "redis://h1,h2/0",
        "redis://127.0.0.1:63x/0",
    ],
)
def test_unusable_urls_are_refused_at_start(url: str) -> None:
    with pytest.raises(RedisUrlError):
        redis_client(url)


def test_frames_carry_the_commit_time_of_events() -> None:
    assert parse_frame(b"event:12/1700000000250:{}") == Frame("event", 12, "{}", 1700000000.25)
    assert parse_frame(frame("presence", 3, '{"a": 1}')) == Frame("presence", 3, '{"a": 1}')
    assert parse_frame("event:12/soon:{}") is None


def test_redis_errors_of_every_topology_mean_unavailable() -> None:
    for error in (ClusterDownError, TryAgainError, SlotNotCoveredError, MasterNotFoundError):
        assert issubclass(error, REDIS_ERRORS), error
        assert storage_of(error("down")) == "redis"


async def test_a_cluster_error_is_answered_503_unavailable(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        room = (await create_room(http, mode="local"))["room_id"]

        async def uncovered(*args: object, **kwargs: object) -> None:
            raise SlotNotCoveredError('Slot "42" is not covered by the cluster.')

        monkeypatch.setattr(server.app.state.rooms.stores.rooms, "load", uncovered)
        reply = await http.get(f"/api/rooms/{room}")
    assert reply.status_code == 503 and reply.json()["code"] == "unavailable"


def delivered(metrics: str) -> float:
    found = re.search(r"^tetrad_event_delivery_seconds_count (\S+)$", metrics, re.M)
    return float(found.group(1)) if found else 0.0


async def test_event_delivery_is_timed_from_commit_to_websocket(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        grant = await create_room(http, mode="live", rows=2, cols=2)
        guest = await join_room(http, grant)
        room = grant["room_id"]
        gold = await Socket.open(server, room, grant["token"])
        coral = await Socket.open(server, room, guest["token"])
        before = delivered((await http.get("/metrics")).text)
        assert gold.model is not None
        expected = gold.version + 1
        await gold.send(type="move", move=gold.model.legal_moves()[0], version=gold.version)
        for socket in (gold, coral):
            await socket.expect("event", lambda m: m["version"] == expected)
        # The client may read the event before the sending task records it: wait for it.
        async with asyncio.timeout(10):
            while delivered((await http.get("/metrics")).text) < before + 2:
                await asyncio.sleep(0.02)
        for socket in (gold, coral):
            await socket.close()


class UncoveredSubscriber:
    """A subscriber whose cluster serves no slot."""

    async def subscribe(self, channel: str) -> None:
        raise SlotNotCoveredError(f"the slot of {channel} is not covered")

    async def unsubscribe(self, channel: str) -> None:
        return None

    async def get_message(self) -> dict[str, Any] | None:
        return None

    async def aclose(self) -> None:
        return None


async def test_a_subscription_refused_leaves_no_room_behind() -> None:
    rooms: list[int] = []
    hub = Hub(Redis(), "tt", on_rooms=rooms.append)
    hub._subscriber = UncoveredSubscriber()
    with pytest.raises(SlotNotCoveredError):
        await hub.join(EventWaiter("room-1"))
    assert hub.rooms == 0 and rooms == [1, 0]


async def test_a_dropped_cluster_node_is_closed_not_logged_as_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    others: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda loop, context: others.append(context))
    try:
        close_dropped_cluster_nodes(loop)
        node = ClusterNode("127.0.0.1", 1)
        # An app built earlier in this process may have given the tetrad loggers a handler of
        # their own (and stopped them propagating to the root, where caplog listens).
        logging.getLogger("tetrad.redis").addHandler(caplog.handler)
        with caplog.at_level(logging.INFO, logger="tetrad.redis"):
            loop.call_exception_handler({"client": node, "message": "Unclosed ClusterNode"})
            loop.call_exception_handler({"message": "something else"})
            await asyncio.sleep(0)  # the node's connections close in a task
        assert [context["message"] for context in others] == ["something else"]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert any("dropped Redis Cluster node" in r.getMessage() for r in caplog.records)
    finally:
        logging.getLogger("tetrad.redis").removeHandler(caplog.handler)
        loop.set_exception_handler(before)
