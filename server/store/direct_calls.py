"""Redis calls on a few connections of our own, for the commands on every move's path.

redis-py spends more CPU around a command than on it (``bench/ws_load.py``): the pool
checks a connection for unread data before each use with a read under a zero timeout (a
turn of the event loop and a cancelled read), and with a socket timeout each write runs in
a task of its own (``asyncio.wait_for``) and each read under a timer of its own. A move's
commit spent about twice as much CPU in that as in sending the command and reading the
reply.

Here a connection that finished its command cleanly (a reply read, an error reply
included) goes straight back to a free list, and one that did not is closed, so no reply is
ever left unread for the next caller. One timer per ``timeout / 4`` watches every command
in flight: a command with no reply ``timeout`` seconds after it was sent fails with redis'
``TimeoutError``, and its connection is closed. A connection that sat idle may have been
closed by the server meanwhile (a restart, ``CLIENT KILL``): its command is sent once more,
on a new connection. Errors are redis-py's, so the callers' outage handling is unchanged.

Only for one server or a Sentinel-managed master; a cluster client routes each command by
its keys, so :meth:`DirectCalls.of` gives None for it and callers use the client itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.store.redis_client import is_cluster

IDLE_KEPT = 256
"""Connections kept open while idle, enough for the calls in flight at a busy moment
(opening one costs far more than a call); more are opened while that many calls are in
flight, and closed when they finish."""


class DirectCalls:
    def __init__(self, redis: Redis, idle_kept: int = IDLE_KEPT) -> None:
        pool = redis.connection_pool
        options = dict(pool.connection_kwargs)
        self.timeout: float | None = options.get("socket_timeout")
        # The timeout is kept by the watch below, not by redis-py around every call.
        options["socket_timeout"] = None
        self._connection_class: type[AbstractConnection] = pool.connection_class
        self._options = options
        self._idle_kept = idle_kept
        self._free: list[AbstractConnection] = []
        self._in_flight: dict[AbstractConnection, float] = {}
        self._timed_out: set[AbstractConnection] = set()
        self._closing: set[asyncio.Task[None]] = set()
        self._watch: asyncio.TimerHandle | None = None

    @classmethod
    def of(cls, redis: Redis) -> DirectCalls | None:
        """Direct calls to the server of ``redis``; None for a cluster client."""
        return None if is_cluster(redis) else cls(redis)

    async def execute(self, *args: Any) -> Any:
        """Send one command and return its reply (a ResponseError reply is raised)."""
        if self._free:
            connection = self._free.pop()
            with contextlib.suppress(RedisConnectionError):
                return await self._call(connection, args)
            # Closed while idle (a server restart, CLIENT KILL): once more, afresh. Sent
            # twice is harmless for the callers: a commit is checked against the version.
        return await self._call(self._connection_class(**self._options), args)

    async def pipeline(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Send ``commands`` in one write and return their replies in order; an error reply
        is returned (a ResponseError), not raised, so the others still count."""
        if not commands:
            return []
        connection = self._free.pop() if self._free else None
        if connection is not None:
            with contextlib.suppress(RedisConnectionError):
                return await self._call(connection, None, commands)  # type: ignore[no-any-return]
        fresh = self._connection_class(**self._options)
        return await self._call(fresh, None, commands)  # type: ignore[no-any-return]

    async def _call(
        self,
        connection: AbstractConnection,
        args: tuple[Any, ...] | None,
        pipeline: list[tuple[Any, ...]] | None = None,
    ) -> Any:
        """One command (``args``), or a ``pipeline`` of them, on ``connection``."""
        if pipeline is not None:
            packed = connection.pack_commands(pipeline)
        else:
            assert args is not None
            packed = connection.pack_command(*args)
        if self.timeout is not None:
            loop = asyncio.get_running_loop()
            self._in_flight[connection] = loop.time() + self.timeout
            if self._watch is None:
                self._watch = loop.call_later(self.timeout / 4, self._look)
        try:
            if not connection.is_connected:
                # connect(), not the send's own connecting: a Sentinel-managed connection
                # asks the sentinels for the master there.
                await connection.connect()  # type: ignore[no-untyped-call]
            await connection.send_packed_command(packed, check_health=False)
            if pipeline is not None:
                reply = [await _reply(connection) for _ in pipeline]
            else:
                reply = await connection.read_response()
        except ResponseError:
            self._release(connection)
            raise
        except BaseException as error:
            timed_out = connection in self._timed_out
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
            if timed_out and isinstance(error, RedisConnectionError | OSError):
                raise RedisTimeoutError("Timeout reading from socket") from error
            raise
        finally:
            self._in_flight.pop(connection, None)
            self._timed_out.discard(connection)
        self._release(connection)
        return reply

    def _release(self, connection: AbstractConnection) -> None:
        if len(self._free) < self._idle_kept:
            self._free.append(connection)
        else:
            self._close(connection)

    def _look(self) -> None:
        """Close the connections of commands past their deadline; look again later while
        any command is in flight."""
        self._watch = None
        if not self._in_flight:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for connection, deadline in list(self._in_flight.items()):
            if deadline <= now and connection not in self._timed_out:
                self._timed_out.add(connection)
                self._close(connection)
        if self.timeout is not None:
            self._watch = loop.call_later(self.timeout / 4, self._look)

    def _close(self, connection: AbstractConnection) -> None:
        task = asyncio.get_running_loop().create_task(connection.disconnect(nowait=True))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def aclose(self) -> None:
        """Close every connection (commands still in flight fail)."""
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        connections = [*self._free, *self._in_flight]
        self._free.clear()
        for connection in connections:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)


async def _reply(connection: AbstractConnection) -> Any:
    """The next reply on ``connection``: an error reply as a value, not raised."""
    try:
        return await connection.read_response()
    except ResponseError as error:
        return error
