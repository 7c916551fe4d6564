"""A Redis Cluster of three masters with a replica each, two `tetrad serve` processes, and
the master holding a live room killed with SIGKILL mid-game (issue 31).

Until its replica is promoted, requests about the room are answered ``unavailable`` (503,
never 500) and the players' websockets stay open. The promoted replica knows none of the
server's Lua scripts (``NOSCRIPT``): the scripts are sent whole there, and the game goes on
at once with every confirmed move, each event reaching both players. Nothing is logged at
error level."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.faults.conftest import log_lines
from tests.processes import Processes
from tests.redis_topologies import Cluster, redis_cluster
from tests.topology.game_api import new_move_id, play, to_move

# The fixtures come along with the helpers they serve.
from .test_redis_topologies import (  # noqa: F401
    PREFIX,
    Game,
    clients,
    owner_of,
    processes,
    start_servers,
)

pytestmark = pytest.mark.cluster

WAITING = {(503, "unavailable"), (409, "opponent_offline")}
"""What a move may be told while the room's master is gone: storage unavailable, or (once
the outage outlasts the presence TTL) the other seat not seen connected yet."""


async def _state(http: httpx.AsyncClient, room: str) -> dict[str, Any] | None:
    """The room, or None while storage is unavailable (any other answer fails the test)."""
    response = await http.get(f"/api/rooms/{room}")
    if response.status_code == 200:
        return dict(response.json()["state"])
    assert (response.status_code, response.json()["code"]) == (503, "unavailable"), response.text
    return None


def _master_of(cluster: Cluster, asked: int, room: str) -> int:
    """The port of the master serving ``room``'s slot, as node ``asked`` sees it."""
    client = cluster.client(asked)
    slot = int(client.execute_command("CLUSTER KEYSLOT", f"{PREFIX}:{{{room}}}:room"))
    for start, end, (_, port, *_), *_ in client.execute_command("CLUSTER SLOTS"):
        if start <= slot <= end:
            return int(port)
    raise AssertionError(f"no master serves slot {slot}")


async def _move_through_the_failover(game: Game) -> tuple[float, list[tuple[int, str]]]:
    """Try the next move until one is confirmed; the seconds that took and the refusals."""
    started = time.monotonic()
    refusals: list[tuple[int, str]] = []
    move_id = new_move_id()
    async with asyncio.timeout(120):
        while True:
            state = await _state(game.http[0], game.room)
            if state is not None:
                seat = to_move(state)
                reply = await play(game.http[seat], game.room, game.tokens[seat], state, move_id)
                if reply.status_code == 200:
                    return time.monotonic() - started, refusals
                refusal = (reply.status_code, reply.json()["code"])
                assert refusal in WAITING, reply.text
                refusals.append(refusal)
            else:
                refusals.append((503, "unavailable"))
            await asyncio.sleep(0.1)


async def test_a_failover_of_the_master_holding_a_live_room_loses_nothing(
    tmp_path: Path,
    processes: Processes,  # noqa: F811
    clients: list[httpx.AsyncClient],  # noqa: F811
) -> None:
    with redis_cluster(tmp_path / "cluster", replicas=1) as cluster:
        servers = start_servers(processes, tmp_path, cluster.url, clients)
        game = await Game.start(servers, clients)
        for _ in range(3):
            await game.moved()
        holder = owner_of(cluster, f"{PREFIX}:{{{game.room}}}:room")
        # Replication is asynchronous: the replica has every confirmed move before the kill.
        assert int(cluster.client(holder).execute_command("WAIT", 1, 10_000)) == 1

        cluster.nodes[holder].kill_9()
        took, refusals = await _move_through_the_failover(game)
        print(f"first move confirmed {took:.1f} s after the kill; refused {len(refusals)}x")
        survivor = next(i for i, node in enumerate(cluster.nodes) if i != holder)
        assert _master_of(cluster, survivor, game.room) != cluster.nodes[holder].port

        state = await game.state()
        assert len(state["board"]["lines"]) == 4  # the three before the kill, and this one
        for socket in game.sockets.values():
            assert await socket.wait_version(state["version"])
        await game.both_connected()
        await game.finish()
        await game.close()
    for server in servers:
        errors = [line for line in log_lines(server) if line.get("level") == "error"]
        assert not errors, errors
        assert "Traceback" not in server.output()
