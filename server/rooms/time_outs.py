"""Watching the clocks: a game whose player to move runs out of time ends at that moment,
whether or not anybody does anything then.

After each commit that leaves a clock running, the process that made it sets a timer for the
moment it runs out; the presence rounds set one for every watched room with a running clock
(after a restart, or for a commit made by another process). When a timer fires, the room is
read again and the game is ended on time if the clock still says so; processes that race to
do it meet at the room's compare-and-set, so it happens once. A command that arrives after
the time ran out finds the game ended first (see :meth:`RoomService.execute`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from server.rooms.model import Room

log = logging.getLogger("tetrad.clocks")

EndOnTime = Callable[[str], Awaitable[None]]


class TimeOuts:
    def __init__(self, end_on_time: EndOnTime) -> None:
        self._end_on_time = end_on_time
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[None]] = set()

    def watch(self, room: Room) -> None:
        """Be there when ``room``'s running clock runs out (nothing if none runs)."""
        clock = room.clock
        deadline = None if clock is None or room.game.is_over else clock.deadline()
        known = self._timers.get(room.id)
        if known is not None and known[0] == deadline:
            return
        if known is not None:
            known[1].cancel()
            del self._timers[room.id]
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, deadline - time.time())
        handle = loop.call_later(delay, self._fire, room.id)
        self._timers[room.id] = (deadline, handle)

    def _fire(self, room_id: str) -> None:
        self._timers.pop(room_id, None)
        task = asyncio.get_running_loop().create_task(self._end(room_id))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _end(self, room_id: str) -> None:
        try:
            await self._end_on_time(room_id)
        except Exception as error:  # the next round, or the next command, tries again
            log.warning("ending a game on time failed: %s", error, extra={"room": room_id})

    async def close(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        for task in list(self._running):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
