"""How a process reads room channels: ``SUBSCRIBE`` on one Redis (or the master a Sentinel
names), sharded ``SSUBSCRIBE`` on a Redis Cluster.

Both give the hub the same messages: ``{"type": "subscribe", "channel": …}`` each time a
channel's subscription becomes active (again, after a reconnection: the hub then catches
the room up from its kept history) and ``{"type": "message", "channel": …, "data": …}``.

On a cluster a room's channel carries the room's hash tag, so its messages are published
(``SPUBLISH``) and read on the one node that owns the room's slot: fan-out grows with the
cluster instead of every message crossing every node. redis-py's asyncio cluster client
has no pub/sub, so :class:`ShardedSubscriber` keeps one plain connection per node it
needs, subscribes each channel on the node owning its slot, and moves channels to their new
owner when a node fails, is failed over, or answers ``MOVED``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException, RedisError

from server.store.redis_client import HEALTH_CHECK_SECONDS, is_cluster

log = logging.getLogger("tetrad.subscriber")
Message = dict[str, Any]


class Subscriber(Protocol):
    async def subscribe(self, channel: str) -> None:
        """Start receiving ``channel``; its ``subscribe`` message follows when active."""

    async def unsubscribe(self, channel: str) -> None: ...

    async def get_message(self) -> Message | None:
        """The next message (blocks; None: nothing for the hub, read again)."""

    async def aclose(self) -> None: ...


class PubSubSubscriber:
    """``SUBSCRIBE`` on one connection (through a Sentinel, to the master of the moment).

    Only the reader re-establishes a lost connection, on a fresh ``PubSub`` subscribed to
    every channel again: if a subscribing task reconnected too, redis-py could open two
    sockets at once and leave the channels on the one nobody reads. While the connection
    is being re-established, :meth:`subscribe` refuses at once (the caller answers
    ``unavailable``) and the ``subscribe`` confirmations that follow the renewal let the
    hub catch every room up."""

    def __init__(self, redis: Redis) -> None:
        self._redis = redis
        self._pubsub = redis.pubsub()
        self._channels: set[str] = set()
        self._broken = False

    def _connected(self) -> bool:
        connection = self._pubsub.connection
        return not self._broken and (connection is None or connection.is_connected)

    async def subscribe(self, channel: str) -> None:
        self._channels.add(channel)
        if not self._connected():
            raise RedisConnectionError("the pub/sub connection is being re-established")
        await self._pubsub.subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        self._channels.discard(channel)
        if self._connected():
            await self._pubsub.unsubscribe(channel)

    async def get_message(self) -> Message | None:
        if self._broken:
            await self._renew()
        try:
            message: Message | None = await self._pubsub.get_message(
                ignore_subscribe_messages=False, timeout=None
            )
        except (RedisError, OSError):
            self._broken = True
            raise
        return message

    async def _renew(self) -> None:
        """A fresh connection subscribed to every channel (raises while Redis is away)."""
        stale, self._pubsub = self._pubsub, self._redis.pubsub()
        with contextlib.suppress(Exception):
            await stale.aclose()  # type: ignore[no-untyped-call]
        if self._channels:
            await self._pubsub.subscribe(*self._channels)
        self._broken = False

    async def aclose(self) -> None:
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]


def subscriber_for(redis: Redis) -> Subscriber:
    """The subscriber that suits ``redis`` (a cluster client or not)."""
    if is_cluster(redis):
        return ShardedSubscriber(redis)  # type: ignore[arg-type]
    return PubSubSubscriber(redis)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class SlotMoved(RedisError):
    """A node dropped our subscription: the channel's slot went to another node."""


def _owner(cluster: RedisCluster, channel: str) -> ClusterNode:
    node = cluster.get_node_from_key(channel)
    if node is None:
        raise SlotMoved(f"no node serves the slot of {channel}")
    return node


class _ShardLink:
    """One connection to one cluster node, ``SSUBSCRIBE``d to the channels of its slots;
    its task reads it, and connects again (after handing channels whose slot moved to
    their new node) when it fails."""

    def __init__(self, owner: ShardedSubscriber, node: ClusterNode) -> None:
        self.owner = owner
        self.node = node
        self.channels: set[str] = set()
        self.leaving: set[str] = set()
        """Channels we asked to leave whose ``sunsubscribe`` has not come yet."""
        self.connection: Connection | None = None
        self.lock = asyncio.Lock()
        self.task = asyncio.create_task(self._run(), name=f"tetrad-shard-{node.name}")

    async def add(self, channel: str) -> None:
        self.channels.add(channel)
        self.leaving.discard(channel)
        async with self.lock:
            if self.connection is not None:
                with contextlib.suppress(RedisError, OSError):  # the reader reconnects
                    await self.connection.send_command("SSUBSCRIBE", channel)

    async def remove(self, channel: str) -> None:
        self.channels.discard(channel)
        async with self.lock:
            if self.connection is not None:
                self.leaving.add(channel)
                with contextlib.suppress(RedisError, OSError):
                    await self.connection.send_command("SUNSUBSCRIBE", channel)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task
        await self._disconnect()

    async def _connect(self) -> None:
        async with self.lock:
            connection = self.node.connection_class(**self.node.connection_kwargs)
            await connection.connect()  # type: ignore[no-untyped-call]
            self.connection = connection
            self.leaving.clear()
            for channel in sorted(self.channels):  # one by one: a command takes one slot
                await connection.send_command("SSUBSCRIBE", channel)

    async def _disconnect(self) -> None:
        async with self.lock:
            connection, self.connection = self.connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect()

    async def _run(self) -> None:
        delay = 0.1
        while self.channels:
            try:
                await self._connect()
                delay = 0.1
                await self._read()
            except asyncio.CancelledError:
                raise
            except (RedisError, RedisClusterException, OSError) as error:
                log.warning(
                    "sharded subscription to %s lost: %s; subscribing again",
                    self.node.name,
                    error,
                )
            await self._disconnect()
            if not self.channels:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
            await self.owner.rehome(self)
        self.owner.forget(self)
        await self._disconnect()

    async def _read(self) -> None:
        """Read until the connection fails or a channel of ours has moved away (raised)."""
        assert self.connection is not None
        every = self.owner.health_every
        pinged = False
        while self.channels:
            response = await self.connection.read_response(timeout=every)
            if response is None:  # quiet for a while: is the node still there?
                if pinged:
                    raise TimeoutError(f"no answer from {self.node.name} to a ping")
                async with self.lock:
                    await self.connection.send_command("PING")
                pinged = True
                continue
            pinged = False
            if not isinstance(response, list) or len(response) < 2:
                continue
            kind, channel = _text(response[0]), _text(response[1])
            if kind == "smessage" and channel in self.channels:
                self.owner.put({"type": "message", "channel": channel, "data": response[2]})
            elif kind == "ssubscribe" and channel in self.channels:
                self.owner.put({"type": "subscribe", "channel": channel, "data": response[2]})
            elif kind == "sunsubscribe":
                if channel in self.leaving:
                    self.leaving.discard(channel)
                elif channel in self.channels:  # the node gave its slot away
                    raise SlotMoved(f"the slot of {channel} moved")


class ShardedSubscriber:
    """``SSUBSCRIBE`` on a Redis Cluster: each channel on the primary owning its slot."""

    def __init__(self, cluster: RedisCluster, *, health_every: float = HEALTH_CHECK_SECONDS):
        self.cluster = cluster
        self.health_every = health_every
        self._links: dict[str, _ShardLink] = {}
        self._homes: dict[str, _ShardLink] = {}
        self._messages: asyncio.Queue[Message] = asyncio.Queue()

    def put(self, message: Message) -> None:
        self._messages.put_nowait(message)

    async def subscribe(self, channel: str) -> None:
        await self.cluster.initialize()  # once: the cluster's slot map
        await self._place(channel, _owner(self.cluster, channel))

    async def unsubscribe(self, channel: str) -> None:
        link = self._homes.pop(channel, None)
        if link is not None:
            await link.remove(channel)

    async def get_message(self) -> Message | None:
        return await self._messages.get()

    async def aclose(self) -> None:
        links, self._links = list(self._links.values()), {}
        self._homes.clear()
        for link in links:
            await link.close()

    def node_of(self, channel: str) -> str | None:
        """The node ``channel`` is subscribed on (``host:port``), if subscribed."""
        link = self._homes.get(channel)
        return None if link is None else link.node.name

    async def _place(self, channel: str, node: ClusterNode) -> None:
        link = self._links.get(node.name)
        if link is None or link.task.done():
            link = self._links[node.name] = _ShardLink(self, node)
        self._homes[channel] = link
        await link.add(channel)

    async def rehome(self, link: _ShardLink) -> None:
        """Ask the cluster who owns what now, and move ``link``'s channels whose slot has
        another owner to that owner's link."""
        with contextlib.suppress(RedisError, RedisClusterException, OSError):
            await self.cluster.nodes_manager.initialize()
        for channel in list(link.channels):
            try:
                node = _owner(self.cluster, channel)
            except (RedisError, RedisClusterException):
                continue  # the slot has no owner yet: keep trying where it was
            if node.name != link.node.name:
                link.channels.discard(channel)
                await self._place(channel, node)

    def forget(self, link: _ShardLink) -> None:
        """``link`` ended (no channel left): a later subscription on its node makes a new
        one."""
        if self._links.get(link.node.name) is link:
            del self._links[link.node.name]
