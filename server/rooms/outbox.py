"""The durable way from a finished game to the database.

The commit that ends a game also appends its record to the room's outbox in Redis, in the
same atomic step (:class:`server.rooms.stores.RoomStore`). A drainer in every server process writes
outbox records to the database with an idempotent insert and removes them only once
written, retrying with backoff while the database is down. So a record is never lost: not
when the database is unreachable or slow, and not when a process dies at any instant.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from server.background import Background
from server.db.records import FinishedGame
from server.rooms.stores import OutboxStore

log = logging.getLogger("tetrad.outbox")

SWEEP_EVERY = 60
"""Rounds between full scans for outboxes nobody noted (a process died mid-commit)."""


class OutboxDrainer:
    def __init__(
        self,
        store: OutboxStore,
        write: Callable[[FinishedGame], Awaitable[bool]],
        *,
        interval: float = 5.0,
        max_backoff: float = 60.0,
        on_backlog: Callable[[int], None] = lambda count: None,
    ) -> None:
        self.store = store
        self.write = write
        self.interval = interval
        self.max_backoff = max_backoff
        self.on_backlog = on_backlog
        self.backlog = 0
        """Records found waiting in the last round (0 once all are written)."""
        self.failing = False
        self._kicked = asyncio.Event()
        self._rounds = 0
        self.background = Background("outbox", self._run)

    def kick(self) -> None:
        """A record was just added: drain now rather than at the next interval."""
        self._kicked.set()

    async def _run(self) -> None:
        delay = self.interval
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kicked.wait(), timeout=delay)
            self._kicked.clear()
            try:
                await self.drain()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self.failing:
                    log.warning("finished games wait for the database: %s", error)
                self.failing = True
                delay = min(self.max_backoff, max(delay * 2, 0.5))
                continue
            if self.failing:
                log.info("finished games are written again", extra={"backlog": self.backlog})
            self.failing = False
            delay = self.interval

    async def drain(self) -> int:
        """Write every waiting record; returns how many were written."""
        self._rounds += 1
        rooms = set(await self.store.rooms())
        if self._rounds % SWEEP_EVERY == 1:
            rooms.update(await self.store.sweep())
        waiting = [(room_id, await self.store.records(room_id)) for room_id in sorted(rooms)]
        self._count(sum(len(records) for _, records in waiting))
        written = 0
        for room_id, records in waiting:
            for text in records:
                await self.write(FinishedGame.from_json(text))
            await self.store.done(room_id, records)
            written += len(records)
            self._count(self.backlog - len(records))
        return written

    def _count(self, backlog: int) -> None:
        self.backlog = backlog
        self.on_backlog(backlog)
