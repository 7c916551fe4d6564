"""Redis topologies of a test's own, on free loopback ports in the test's directory: a
Redis Cluster of three masters (with or without a replica each), and a Sentinel setup (a
master, a replica and one sentinel with a quorum of 1). Cluster nodes keep an append-only
file (fsync on every write), so a node killed with SIGKILL starts again on its port with its
cluster identity and its data; the Sentinel's nodes persist nothing (the replica has the
data)."""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis

from tests.processes import Processes, RedisServer, free_port, spawn, wait_started, wait_until

CLUSTER_NODE_TIMEOUT_MS = 1000
SENTINEL_SERVICE = "tetrad"


def _binary(name: str) -> str:
    binary = shutil.which(name)
    assert binary, f"{name} is needed (Debian package redis-server / redis-tools)"
    return binary


def _answers(port: int) -> bool:
    with contextlib.suppress(redis.RedisError, OSError):
        return bool(redis.Redis(port=port, socket_timeout=1, socket_connect_timeout=1).ping())
    return False


def cluster_port() -> int:
    """A free loopback port P for a cluster node, with its bus port P + 10000 free too (so
    P is at most 55535)."""
    for _ in range(100):
        port = random.randint(20000, 45000)
        with contextlib.ExitStack() as stack:
            try:
                for candidate in (port, port + 10000):
                    sock = stack.enter_context(socket.socket())
                    sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port pair for a cluster node")


def start_node(directory: Path, port: int, *options: str) -> RedisServer:
    """redis-server on ``port`` with its files in ``directory`` (made if missing)."""
    directory.mkdir(parents=True, exist_ok=True)
    args = [_binary("redis-server"), "--port", str(port), "--bind", "127.0.0.1",
            "--dir", str(directory), "--daemonize", "no", "--appendonly", "no",
            "--save", "", *options]  # fmt: skip
    running = spawn(f"redis-{port}", args, directory)
    node = RedisServer(running.name, running.process, running.log, port)
    wait_started(node, lambda: not node.alive() or _answers(port), f"redis on {port} answers")
    if not node.alive():
        raise RuntimeError(f"redis-server on {port} exited:\n{node.output()[-2000:]}")
    return node


@dataclass
class Cluster:
    """A Redis Cluster; ``url`` is tetrad's ``redis+cluster://`` form."""

    directory: Path
    processes: Processes
    nodes: list[RedisServer] = field(default_factory=list)

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)

    def client(self, node: int = 0) -> redis.Redis:
        return redis.Redis(port=self.nodes[node].port, socket_timeout=5, decode_responses=True)

    def node_options(self) -> list[str]:
        # An append-only file, so a master killed and started again still has its rooms.
        return ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(CLUSTER_NODE_TIMEOUT_MS),
                "--appendonly", "yes", "--appendfsync", "always"]  # fmt: skip

    def start_node(self, index: int, port: int) -> RedisServer:
        node = self.processes.add(
            start_node(self.directory / f"node-{index}", port, *self.node_options())
        )
        if index < len(self.nodes):
            self.nodes[index] = node
        else:
            self.nodes.append(node)
        return node

    def restart(self, index: int) -> RedisServer:
        """Start node ``index`` again (after a kill) with its port and cluster identity."""
        node = self.start_node(index, self.nodes[index].port)
        self.wait_ok()
        return node

    def state(self, node: int = 0) -> dict[str, str]:
        """CLUSTER INFO as node ``node`` sees it."""
        info = self.client(node).execute_command("CLUSTER INFO")
        return {str(key): str(value) for key, value in info.items()}

    def ok(self, node: int = 0) -> bool:
        with contextlib.suppress(redis.RedisError, OSError):
            state = self.state(node)
            return state.get("cluster_state") == "ok" and state.get("cluster_slots_ok") == "16384"
        return False

    def wait_ok(self) -> None:
        for index, node in enumerate(self.nodes):
            if node.alive():
                wait_until(lambda index=index: self.ok(index), "cluster_state:ok")  # type: ignore[misc]

    def wait_failed(self, survivor: int) -> None:
        """Wait until node ``survivor`` sees the cluster down (a master is gone)."""
        wait_until(
            lambda: self.state(survivor).get("cluster_state") == "fail",
            "the cluster notices a master is gone",
        )

    def shard_channels(self) -> set[str]:
        """Every shard channel with a subscriber, over the masters that are up."""
        found: set[str] = set()
        for index, node in enumerate(self.nodes):
            if node.alive():
                found |= set(self.client(index).execute_command("PUBSUB SHARDCHANNELS"))
        return found


@contextlib.contextmanager
def redis_cluster(directory: Path, masters: int = 3, replicas: int = 0) -> Iterator[Cluster]:
    """A Redis Cluster of ``masters`` masters, each with ``replicas`` replicas, on free
    ports, torn down at the end."""
    processes = Processes()
    cluster = Cluster(directory, processes)
    try:
        for index in range(masters * (1 + replicas)):
            cluster.start_node(index, cluster_port())
        version = str(cluster.client().info("server")["redis_version"])
        major = int(version.split(".", maxsplit=1)[0])
        assert major >= 7, f"sharded pub/sub needs Redis 7, not {version}"
        subprocess.run(
            [_binary("redis-cli"), "--cluster", "create",
             *(f"127.0.0.1:{node.port}" for node in cluster.nodes),
             "--cluster-replicas", str(replicas), "--cluster-yes"],
            check=True, capture_output=True, timeout=60,
        )  # fmt: skip
        cluster.wait_ok()
        yield cluster
    finally:
        processes.stop_all()


@dataclass
class SentinelSetup:
    """A master, its replica and a sentinel watching them as ``SENTINEL_SERVICE``."""

    master: RedisServer
    replica: RedisServer
    sentinel: RedisServer

    @property
    def url(self) -> str:
        return f"redis+sentinel://127.0.0.1:{self.sentinel.port}/{SENTINEL_SERVICE}"

    def master_port(self) -> int | None:
        """The master's port as the sentinel says now."""
        with contextlib.suppress(redis.RedisError, OSError):
            client = redis.Redis(port=self.sentinel.port, socket_timeout=2)
            address = client.sentinel_get_master_addr_by_name(SENTINEL_SERVICE)
            return int(address[1]) if address else None
        return None


@contextlib.contextmanager
def redis_sentinel(directory: Path) -> Iterator[SentinelSetup]:
    """Master, replica and one sentinel (quorum 1, a master down after 1 s is failed over),
    torn down at the end."""
    processes = Processes()
    try:
        master = processes.add(start_node(directory / "master", free_port()))
        follow = ("--replicaof", "127.0.0.1", str(master.port))
        replica = processes.add(start_node(directory / "replica", free_port(), *follow))
        wait_until(
            lambda: (
                redis.Redis(port=replica.port).info("replication").get("master_link_status") == "up"
            ),
            "the replica syncs",
        )
        port = free_port()
        config = directory / "sentinel" / "sentinel.conf"
        config.parent.mkdir(parents=True)
        config.write_text(
            f"port {port}\nbind 127.0.0.1\ndir {config.parent}\n"
            f"sentinel monitor {SENTINEL_SERVICE} 127.0.0.1 {master.port} 1\n"
            f"sentinel down-after-milliseconds {SENTINEL_SERVICE} 1000\n"
            f"sentinel failover-timeout {SENTINEL_SERVICE} 5000\n"
        )
        running = spawn("sentinel", [_binary("redis-server"), str(config), "--sentinel"],
                        config.parent)  # fmt: skip
        sentinel = processes.add(RedisServer(running.name, running.process, running.log, port))
        setup = SentinelSetup(master, replica, sentinel)
        wait_started(sentinel, lambda: setup.master_port() == master.port, "sentinel answers")
        yield setup
    finally:
        processes.stop_all()
