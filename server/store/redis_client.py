"""The Redis client, chosen by the URL's scheme.

- ``redis://``, ``rediss://``, ``unix://``: one Redis server (redis-py's own URL forms).
- ``redis+cluster://[user:password@]host:port[,host:port…]`` (``rediss+cluster://`` for
  TLS): a Redis Cluster, found from any of the nodes listed.
- ``redis+sentinel://[user:password@]host:port[,host:port…]/service[/db]`` (``rediss+…``
  for TLS to the master): the master that the sentinels name for ``service``, looked up
  again after a failover. The user and password are the master's; the sentinels are asked
  without.

Every form gets the same socket timeouts; a single server's and Sentinel's connections pack
commands with hiredis (:mod:`server.store.packing`). The cluster client is typed as :class:`Redis`
for the code that uses it: room keys share one slot per room, and what differs (no
``pubsub()``, ``SPUBLISH``) is asked through :func:`is_cluster`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, cast
from urllib.parse import SplitResult, unquote, urlsplit

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.sentinel import Sentinel
from redis.driver_info import DriverInfo

from server.store import refused_writes  # noqa: F401  (every client knows those replies)
from server.store.packing import pack_with_hiredis

log = logging.getLogger("tetrad.redis")

HEALTH_CHECK_SECONDS = 30

DRIVER_INFO = DriverInfo()
"""What every connection tells Redis about its library (``CLIENT SETINFO``), read once: a
pool made from a URL otherwise looks the library's version up in the installed packages'
metadata for each new connection, and a crowd of websockets saying hello at once opens
hundreds (that lookup was a third of a spectator's hello in ``bench/spectators.py``)."""
CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
SENTINEL_SCHEMES = ("redis+sentinel", "rediss+sentinel")


class RedisUrlError(ValueError):
    """A Redis URL tetrad cannot use (said at start, before anything connects)."""


def _hosts(parts: SplitResult, default_port: int) -> list[tuple[str, int]]:
    where = parts.netloc.rpartition("@")[2]
    hosts = []
    for item in where.split(","):
        host, colon, port = item.strip().rpartition(":")
        if not colon:
            host, port = port, str(default_port)
        host = host.strip("[]")
        if not host or not port.isdigit():
            raise RedisUrlError(f"not a host:port in the Redis URL: {item!r}")
        hosts.append((host, int(port)))
    return hosts


def _credentials(parts: SplitResult) -> dict[str, Any]:
    userinfo, at, _ = parts.netloc.rpartition("@")
    if not at:
        return {}
    user, colon, password = userinfo.partition(":")
    if not colon:  # `redis://secret@host` is a password alone, as redis-py reads it
        user, password = "", user
    found: dict[str, Any] = {"password": unquote(password) or None}
    if user:
        found["username"] = unquote(user)
    return found


def redis_client(url: str, *, timeout: float | None = None, **options: Any) -> Redis:
    """The async client for ``url`` (see the module docstring for the forms), with
    ``timeout`` seconds for connecting and for each reply; ``options`` go to every
    connection (``decode_responses``, ``health_check_interval``…)."""
    parts = urlsplit(url)
    timeouts: dict[str, Any] = {}
    if timeout is not None:
        timeouts = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    options = {"health_check_interval": HEALTH_CHECK_SECONDS, "driver_info": DRIVER_INFO, **options}
    tls = parts.scheme.startswith("rediss")
    if parts.scheme in CLUSTER_SCHEMES:
        if parts.path.strip("/"):
            raise RedisUrlError("a Redis Cluster has database 0 only: drop the /db")
        nodes = [ClusterNode(host, port) for host, port in _hosts(parts, 6379)]
        cluster = RedisCluster(
            startup_nodes=nodes, ssl=tls, **_credentials(parts), **timeouts, **options
        )
        return cast(Redis, cluster)
    if parts.scheme in SENTINEL_SCHEMES:
        path = [piece for piece in parts.path.split("/") if piece]
        if not 1 <= len(path) <= 2 or (len(path) == 2 and not path[1].isdigit()):
            raise RedisUrlError("a Sentinel URL ends in /service_name or /service_name/db")
        db = int(path[1]) if len(path) == 2 else 0
        sentinel = Sentinel(  # type: ignore[no-untyped-call]
            _hosts(parts, 26379), sentinel_kwargs={**timeouts}, **timeouts
        )
        master = sentinel.master_for(
            unquote(path[0]), db=db, ssl=tls, **_credentials(parts), **options
        )
        pack_with_hiredis(master.connection_pool)
        return cast(Redis, master)
    if parts.scheme not in ("redis", "rediss", "unix"):
        raise RedisUrlError(
            f"unknown Redis URL scheme {parts.scheme!r}: use redis://, rediss://, unix://, "
            "redis+cluster:// or redis+sentinel://"
        )
    if "," in parts.netloc.rpartition("@")[2]:
        raise RedisUrlError(
            f"a {parts.scheme}:// URL names one Redis server, this one lists several: use "
            "redis+cluster://host:port,host:port for a Redis Cluster, "
            "redis+sentinel://host:port,host:port/service for Sentinel"
        )
    try:
        client = Redis.from_url(url, **timeouts, **options)
    except ValueError as error:  # a port that is not a number, an unknown query option
        raise RedisUrlError(f"not a usable Redis URL: {error}") from None
    pack_with_hiredis(client.connection_pool)
    return client


async def check_kind(redis: Redis, url: str) -> None:
    """Refuse (:class:`RedisUrlError`) a URL for one server that points at a Redis Cluster
    node: the node would answer only for its own slots, so most rooms would fail."""
    if is_cluster(redis):
        return
    info: Any = await redis.info("cluster")
    if int(info.get("cluster_enabled", 0)):
        where = urlsplit(url).netloc.rpartition("@")[2]
        raise RedisUrlError(
            f"the Redis at {where} is a Redis Cluster node: use redis+cluster://{where}"
        )


def close_dropped_cluster_nodes(loop: asyncio.AbstractEventLoop) -> None:
    """Close the connections of Redis Cluster nodes the client dropped, instead of logging
    them as errors.

    After a failover the cluster client rebuilds its map of the nodes; a node object left
    out of it (the dead master, or one made while looking for the new map) may still hold
    connections when it is garbage collected, and redis-py then reports "Unclosed
    ClusterNode object" through the event loop's exception handler, which asyncio logs at
    error level, a traceback-like line per node in every failover. Here such a report closes
    the node's connections and is logged once at info level; every other report goes to
    the handler there was."""
    previous = loop.get_exception_handler()
    closing: set[asyncio.Task[None]] = set()

    async def close(node: ClusterNode) -> None:
        with contextlib.suppress(Exception):
            await node.disconnect()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        node = context.get("client")
        if isinstance(node, ClusterNode):
            log.info("closing the connections of a dropped Redis Cluster node %s", node.name)
            task = loop.create_task(close(node))
            closing.add(task)
            task.add_done_callback(closing.discard)
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)


def is_cluster(redis: Redis) -> bool:
    """Whether ``redis`` is a Redis Cluster client."""
    return isinstance(redis, RedisCluster)


def describe(url: str) -> str:
    """The URL's kind, for logs: ``cluster``, ``sentinel`` or ``single``."""
    scheme = urlsplit(url).scheme
    if scheme in CLUSTER_SCHEMES:
        return "cluster"
    return "sentinel" if scheme in SENTINEL_SCHEMES else "single"
