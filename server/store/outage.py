"""Storage outages: which errors mean "Redis or the database cannot be reached" (or "Redis
answers but takes no writes"), and one log line when such an outage starts and one when it
ends.

A request that meets a storage error is answered ``unavailable`` (503 over REST, an
``error`` event over the websocket) by its edge; it reports the error here. The first
report of an outage logs a warning and starts a probe that asks the storage every
``probe_seconds`` whether it answers again; the first answer logs the recovery. Reports in
between only count (``on_error``), so a Redis down for a minute under load writes two log
lines, not thousands of tracebacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from redis import exceptions as redis_errors
from sqlalchemy import exc as sql_errors

from server.store.refused_writes import WRITE_REFUSALS

log = logging.getLogger("tetrad.storage")

Storage = Literal["redis", "redis writes", "database"]
"""What is out: Redis, Redis's writes alone (it answers reads), or the database."""

REDIS_ERRORS: tuple[type[Exception], ...] = (
    redis_errors.ConnectionError,  # refused, reset, closed; includes BusyLoadingError
    redis_errors.TimeoutError,  # TETRAD_REDIS_TIMEOUT passed without an answer
    redis_errors.ReadOnlyError,  # a replica answered while a failover is under way
    redis_errors.TryAgainError,
    redis_errors.ClusterDownError,
    redis_errors.MasterDownError,
    redis_errors.RedisClusterException,  # a slot no node serves (not a RedisError)
)
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    sql_errors.OperationalError,  # refused, dropped, timed out, shutting down
    sql_errors.InterfaceError,
    sql_errors.DisconnectionError,
    sql_errors.TimeoutError,  # no pooled connection in time
)
STORAGE_ERRORS = REDIS_ERRORS + WRITE_REFUSALS + DATABASE_ERRORS


def storage_of(error: BaseException) -> Storage | None:
    """Which storage ``error`` says is unreachable, or None if it says something else."""
    if isinstance(error, REDIS_ERRORS):
        return "redis"
    if isinstance(error, WRITE_REFUSALS):
        return "redis writes"
    if isinstance(error, DATABASE_ERRORS):
        return "database"
    return None


_LOGGED: dict[Storage, tuple[str, str]] = {
    "redis": ("redis unavailable", "redis available again"),
    "redis writes": ("redis refuses writes", "redis takes writes again"),
    "database": ("database unavailable", "database available again"),
}
"""What the log says when each outage starts, and when it ends."""

Probe = Callable[[], Awaitable[object]]


class Outages:
    """The outage state of this process's storage, logged on each change."""

    def __init__(
        self,
        on_error: Callable[[BaseException], None] = lambda error: None,
        probe_seconds: float = 0.5,
    ) -> None:
        self.on_error = on_error
        self.probe_seconds = probe_seconds
        self.probes: dict[Storage, Probe] = {}
        self.down: dict[Storage, asyncio.Task[None]] = {}
        self.outages = 0
        """Outages seen since start (each logged once)."""

    def watch(self, storage: Storage, probe: Probe) -> None:
        """How to ask ``storage`` whether it answers again (a ping, ``SELECT 1``; for
        ``redis writes``, a write)."""
        self.probes[storage] = probe

    def report(self, error: BaseException, where: str = "") -> bool:
        """Note ``error``; True if it is a storage error (the caller answers
        ``unavailable`` and logs nothing itself)."""
        storage = storage_of(error)
        if storage is None:
            return False
        if storage != "database":
            self.on_error(error)
        if storage not in self.down:
            self.outages += 1
            log.warning(
                "%s: %s: %s",
                _LOGGED[storage][0],
                type(error).__name__,
                error,
                extra={"storage": storage, "where": where},
            )
            self.down[storage] = asyncio.get_running_loop().create_task(
                self._until_back(storage), name=f"tetrad-{storage}-probe"
            )
        return True

    async def _until_back(self, storage: Storage) -> None:
        probe = self.probes.get(storage)
        while True:
            await asyncio.sleep(self.probe_seconds)
            if probe is None:
                break
            try:
                await probe()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if storage != "database" and storage_of(error) is not None:
                    self.on_error(error)
                continue
            break
        del self.down[storage]
        log.info(_LOGGED[storage][1], extra={"storage": storage})

    async def close(self) -> None:
        for task in list(self.down.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.down.clear()
