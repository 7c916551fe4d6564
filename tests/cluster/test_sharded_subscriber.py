"""The sharded subscriber on a real Redis Cluster: a room channel is read on the master
owning its slot, and follows the slot when it moves to another master."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from server.store.redis_client import redis_client
from server.store.subscriber import ShardedSubscriber
from tests.redis_topologies import redis_cluster

pytestmark = pytest.mark.cluster


async def next_message(subscriber: ShardedSubscriber) -> dict[str, Any]:
    message = await asyncio.wait_for(subscriber.get_message(), 15)
    assert message is not None
    return message


async def test_a_channel_follows_its_slot_to_another_master(tmp_path: Path) -> None:
    with redis_cluster(tmp_path) as cluster:
        client = redis_client(cluster.url, timeout=5)
        subscriber = ShardedSubscriber(client, health_every=5)
        channel = "tt-sharded:{room-1}:ch"
        try:
            await subscriber.subscribe(channel)
            assert (await next_message(subscriber))["type"] == "subscribe"
            await client.execute_command("SPUBLISH", channel, "one")  # type: ignore[no-untyped-call]
            assert (await next_message(subscriber))["data"] == b"one"
            assert channel in cluster.shard_channels()

            # Hand the (empty) slot to another master, as a resharding does.
            admin = cluster.client()
            slot = int(admin.execute_command("CLUSTER KEYSLOT", channel))
            ports = [node.port for node in cluster.nodes]
            source = ports.index(int(str(subscriber.node_of(channel)).rsplit(":", 1)[1]))
            target = (source + 1) % len(ports)
            ids = [str(cluster.client(i).execute_command("CLUSTER MYID")) for i in range(3)]
            cluster.client(target).execute_command(
                "CLUSTER SETSLOT", slot, "IMPORTING", ids[source]
            )
            cluster.client(source).execute_command(
                "CLUSTER SETSLOT", slot, "MIGRATING", ids[target]
            )
            for index in (target, source, (target + 1) % 3):
                cluster.client(index).execute_command("CLUSTER SETSLOT", slot, "NODE", ids[target])

            # The old owner drops the subscription; it is made again on the new owner.
            message = await next_message(subscriber)
            assert message == {"type": "subscribe", "channel": channel, "data": 1}
            assert subscriber.node_of(channel) == f"127.0.0.1:{ports[target]}"
            await client.execute_command("SPUBLISH", channel, "two")  # type: ignore[no-untyped-call]
            assert (await next_message(subscriber))["data"] == b"two"

            await subscriber.unsubscribe(channel)
            async with asyncio.timeout(10):
                while channel in cluster.shard_channels():
                    await asyncio.sleep(0.05)
        finally:
            await subscriber.aclose()
            await client.aclose()
