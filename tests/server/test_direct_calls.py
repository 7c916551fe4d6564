"""Direct calls (server/store/direct_calls.py) against a real Redis, some through a proxy
that can hold the server's replies back (a server that stops answering)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store.direct_calls import DirectCalls
from server.store.redis_client import redis_client
from tests.conftest import REDIS_URL


class HoldingProxy:
    """A TCP proxy to Redis whose replies can be held back, then let through."""

    def __init__(self) -> None:
        self.replies = asyncio.Event()
        self.replies.set()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", 6379)

        async def pipe(
            source: asyncio.StreamReader, sink: asyncio.StreamWriter, gated: bool
        ) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    if gated:
                        await self.replies.wait()
                    sink.write(data)
                    await sink.drain()
            sink.close()

        for task in (
            asyncio.create_task(pipe(reader, up_writer, False)),
            asyncio.create_task(pipe(up_reader, writer, True)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()


@pytest.fixture
async def proxy() -> AsyncIterator[HoldingProxy]:
    found = HoldingProxy()
    await found.start()
    yield found
    found.replies.set()
    await found.close()


async def test_replies_come_back_to_their_callers(key_prefix: str) -> None:
    # Not a test of timeouts: a shared, busy Redis may take more than 1.5 s for 200 calls.
    redis = redis_client(REDIS_URL, timeout=30)
    calls = DirectCalls(redis)
    try:
        counter = f"{key_prefix}:counter"
        replies = await asyncio.gather(*[calls.execute("INCR", counter) for _ in range(200)])
        assert sorted(replies) == list(range(1, 201))
        assert await calls.execute("SET", f"{key_prefix}:é", "ünïcode") == b"OK"
        assert await calls.execute("GET", f"{key_prefix}:é") == "ünïcode".encode()
        with pytest.raises(ResponseError):
            await calls.execute("INCR", f"{key_prefix}:é")  # not an integer: an error reply
        assert await calls.execute("INCR", counter) == 201  # the connection is still good
    finally:
        await calls.aclose()
        await redis.aclose()


async def test_a_connection_closed_while_idle_is_replaced(key_prefix: str) -> None:
    redis = redis_client(REDIS_URL, timeout=1.5)
    calls = DirectCalls(redis)
    try:
        own = await calls.execute("CLIENT", "ID")
        await redis.execute_command("CLIENT", "KILL", "ID", own)  # type: ignore[no-untyped-call]
        assert await calls.execute("INCR", f"{key_prefix}:n") == 1
        assert await calls.execute("CLIENT", "ID") != own
    finally:
        await calls.aclose()
        await redis.aclose()


async def test_a_server_that_stops_answering_times_out_and_nothing_is_left_unread(
    proxy: HoldingProxy, key_prefix: str
) -> None:
    redis = redis_client(f"redis://127.0.0.1:{proxy.port}/0", timeout=0.4)
    calls = DirectCalls(redis)
    key = f"{key_prefix}:held"
    try:
        assert await calls.execute("SET", key, "before") == b"OK"
        proxy.replies.clear()
        with pytest.raises(RedisTimeoutError):
            await calls.execute("SET", key, "during")
        # A caller that gives up (cancelled) while the reply is held back.
        waiting = asyncio.create_task(calls.execute("GET", key))
        await asyncio.sleep(0)  # let it send
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        proxy.replies.set()
        # The replies of the abandoned commands never reach a later caller.
        assert await calls.execute("GET", key) == b"during"
        assert await calls.execute("ECHO", "mine") == b"mine"
    finally:
        await calls.aclose()
        await redis.aclose()


async def test_a_cluster_client_gets_no_direct_calls() -> None:
    from redis.asyncio.cluster import RedisCluster

    cluster = RedisCluster.__new__(RedisCluster)  # not connected: only its type matters
    assert DirectCalls.of(cluster) is None  # type: ignore[arg-type]
