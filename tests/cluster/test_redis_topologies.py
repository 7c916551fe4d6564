"""Two `tetrad serve` processes on a Redis Cluster of three masters, and on a Sentinel
setup: games with the players on different processes, a Redis node killed with SIGKILL in
the middle (the server says ``unavailable``, never 500), and the games finish once the
node is back (cluster) or the replica is promoted (Sentinel)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from server.rooms.stores import RoomPresence
from server.store.presence import RedisPresenceStore
from server.store.redis_client import redis_client
from tests.processes import Processes, Tetrad, start_tetrad, wait_until
from tests.redis_topologies import Cluster, SentinelSetup, redis_cluster, redis_sentinel
from tests.topology.game_api import (
    RoomSocket,
    create_room,
    is_over,
    join_room,
    new_move_id,
    play,
    room_state,
    to_move,
)

pytestmark = pytest.mark.cluster
PREFIX = "tt-topology"


@pytest.fixture
def processes() -> Iterator[Processes]:
    started = Processes()
    yield started
    started.stop_all()


def start_servers(
    processes: Processes, directory: Path, redis_url: str, clients: list[httpx.AsyncClient]
) -> list[Tetrad]:
    """Two `tetrad serve` processes on ``redis_url``; ``clients`` point at one each."""
    env = {
        "TETRAD_HEARTBEAT_SECONDS": "0.5",
        "TETRAD_PRESENCE_TTL_SECONDS": "3",
        "TETRAD_LOG_LEVEL": "WARNING",
        "TETRAD_KEY_PREFIX": PREFIX,
        "TETRAD_DATA_DIR": str(directory),
        "TETRAD_REDIS_URL": redis_url,
        "TETRAD_DATABASE_URL": f"sqlite:///{directory / 'games.sqlite3'}",
    }
    servers = [processes.add(start_tetrad(f"tetrad-{n}", directory, env=env)) for n in (1, 2)]
    for server, client in zip(servers, clients, strict=True):
        client.base_url = httpx.URL(server.url)
    return servers


@dataclass
class Game:
    """A live room with its host on the first process and its guest on the second, each
    with a websocket and REST moves on their own process."""

    room: str
    http: list[httpx.AsyncClient]
    tokens: dict[int, str]
    sockets: dict[int, RoomSocket] = field(default_factory=dict)
    last: dict[str, Any] = field(default_factory=dict)
    """The room as last read."""

    @classmethod
    async def start(cls, servers: list[Tetrad], http: list[httpx.AsyncClient]) -> Game:
        host = await create_room(http[0], mode="live", rows=2, cols=2)
        guest = await join_room(http[1], host)
        game = cls(host["room_id"], http, {0: host["token"], 1: guest["token"]})
        for seat, server in enumerate(servers):
            ws_url = server.url.replace("http", "ws", 1)
            game.sockets[seat] = await RoomSocket.open(ws_url, game.room, game.tokens[seat])
        return game

    async def state(self) -> dict[str, Any]:
        self.last = await room_state(self.http[0], self.room)
        return self.last

    async def move(self, state: dict[str, Any] | None = None) -> httpx.Response:
        """The player to move (in ``state``, or the room read now) moves over REST on their
        own process."""
        state = state or await self.state()
        seat = to_move(state)
        return await play(self.http[seat], self.room, self.tokens[seat], state, new_move_id())

    async def moved(self) -> int:
        """One move, which must succeed and reach both players; the version it led to."""
        reply = await self.move()
        assert reply.status_code == 200, reply.text
        version = (await self.state())["version"]
        for socket in self.sockets.values():
            assert await socket.wait_version(version)
        return int(version)

    async def both_connected(self) -> None:
        """Wait until the room shows both seats connected again (after an outage longer
        than the presence TTL, each process claims its seat back on its next round)."""
        async with asyncio.timeout(30):
            while not all(seat["connected"] for seat in (await self.state())["seats"]):
                await asyncio.sleep(0.05)

    async def finish(self) -> None:
        while not is_over(await self.state()):
            await self.moved()

    async def close(self) -> None:
        for socket in self.sockets.values():
            await socket.close()


@pytest.fixture
async def clients() -> AsyncIterator[list[httpx.AsyncClient]]:
    made = [httpx.AsyncClient(timeout=30) for _ in range(2)]
    yield made
    for client in made:
        await client.aclose()


def owner_of(cluster: Cluster, key: str) -> int:
    """The index of the master that owns ``key``'s slot."""
    client = cluster.client()
    slot = int(client.execute_command("CLUSTER KEYSLOT", key))
    for start, end, (_, port, *_), *_ in client.execute_command("CLUSTER SLOTS"):
        if start <= slot <= end:
            return [node.port for node in cluster.nodes].index(int(port))
    raise AssertionError(f"no master owns slot {slot}")


def channel(room: str) -> str:
    return f"{PREFIX}:{{{room}}}:ch"


async def expect_unavailable(game: Game, servers: list[Tetrad]) -> None:
    """A move over REST and one over the websocket are refused with ``unavailable``, and
    neither process says it is ready."""
    before = game.last
    reply = await game.move(before)
    assert reply.status_code == 503, reply.text
    assert reply.json()["code"] == "unavailable"
    socket = game.sockets[to_move(before)]
    errors = len(socket.errors)
    await socket.send_move(before, new_move_id())
    assert (await socket.wait_error(errors + 1))["code"] == "unavailable"
    for server in servers:
        assert (await game.http[0].get(server.url + "/readyz")).status_code == 503


async def test_games_on_a_cluster_across_processes_and_a_master_lost(
    tmp_path: Path, processes: Processes, clients: list[httpx.AsyncClient]
) -> None:
    with redis_cluster(tmp_path / "cluster") as cluster:
        servers = start_servers(processes, tmp_path, cluster.url, clients)
        games = [await Game.start(servers, clients) for _ in range(3)]
        # Room channels are sharded: each lives on the master of its room's slot.
        assert {channel(game.room) for game in games} <= cluster.shard_channels()
        for game in games[1:]:
            await game.finish()
        survivor = games[0]
        for _ in range(3):
            await survivor.moved()

        # The master holding the room (its keys and its channel) dies: the cluster stops
        # serving, and both processes lose their subscription to the room.
        holder = owner_of(cluster, f"{PREFIX}:{{{survivor.room}}}:room")
        assert owner_of(cluster, channel(survivor.room)) == holder  # one slot per room
        cluster.nodes[holder].kill_9()
        cluster.wait_failed(survivor=(holder + 1) % 3)
        await expect_unavailable(survivor, servers)

        # Back with its append-only file: both processes subscribe again on it, and the
        # game goes on with every event reaching both players.
        cluster.restart(holder)
        for server in servers:
            wait_until(server.ready, f"{server.name} ready again")
        await survivor.both_connected()
        await survivor.finish()
        assert is_over(await survivor.state())
        assert channel(survivor.room) in cluster.shard_channels()
        for game in games:
            await game.close()
        # Each process timed the events it sent, committed on either process.
        for server in servers:
            metrics = (await clients[0].get(server.url + "/metrics")).text
            assert re.search(r"^tetrad_event_delivery_seconds_count [1-9]", metrics, re.M)


async def test_a_sentinel_failover_mid_game(
    tmp_path: Path, processes: Processes, clients: list[httpx.AsyncClient]
) -> None:
    with redis_sentinel(tmp_path / "sentinel") as setup:
        servers = start_servers(processes, tmp_path, setup.url, clients)
        game = await Game.start(servers, clients)
        for _ in range(4):
            await game.moved()
        replicated(setup)

        setup.master.kill_9()
        await expect_unavailable(game, servers)
        wait_until(lambda: setup.master_port() == setup.replica.port, "the replica promoted")
        for server in servers:
            wait_until(server.ready, f"{server.name} ready on the new master")
        await game.both_connected()
        await game.finish()
        assert is_over(await game.state())
        await game.close()


def replicated(setup: SentinelSetup) -> None:
    """Wait until the replica has every write of the master (replication is async)."""
    master = redis.Redis(port=setup.master.port)
    assert int(master.execute_command("WAIT", 1, 10_000)) == 1


async def test_spectators_are_counted_in_and_out_on_a_cluster(tmp_path: Path) -> None:
    """A crowd's arrival is one pipeline on its room's keys (they share a slot), read with
    the room's presence; its leaving one command: both go to the master of that slot."""
    with redis_cluster(tmp_path / "cluster") as cluster:
        client = redis_client(cluster.url, timeout=10)
        store = RedisPresenceStore(client, PREFIX)
        try:
            await store.claim("r", 0, "a", 5)
            counted = await store.add_spectators("r", ["w1", "w2", "w3"], 5)
            assert counted.presence == RoomPresence((True, False), 3) and counted.version == 0
            assert await store.remove_spectators("r", ["w1", "w9"]) == 1
            assert (await store.read("r")).spectators == 2
        finally:
            await client.aclose()
