"""The computer's turns: think in the AI process pool, then play like any seat.

Exactly one process thinks for a room at a time, under a short Redis lease it keeps
refreshing; if that process dies, the lease expires and the next request, reconnect or
presence round starts the turn again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

from server.errors import ApiError
from server.rooms.computer import ComputerPlayer
from server.rooms.model import PlayMove
from server.rooms.service import RoomService, seed

log = logging.getLogger("tetrad.computer")


class ComputerTurns:
    def __init__(self, service: RoomService, computer: ComputerPlayer) -> None:
        self.service = service
        self.computer = computer
        self.process_id = uuid.uuid4().hex
        self._running: dict[str, asyncio.Task[None]] = {}

    def schedule(self, room_id: str) -> None:
        """Make sure someone plays the computer's turn in ``room_id``."""
        task = self._running.get(room_id)
        if task is not None and not task.done():
            return
        task = asyncio.ensure_future(self.play(room_id))
        self._running[room_id] = task
        task.add_done_callback(lambda _: self._running.pop(room_id, None))

    async def close(self) -> None:
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def play(self, room_id: str) -> None:
        store = self.service.store
        owner = f"{self.process_id}:{uuid.uuid4().hex[:8]}"
        ttl = self.service.settings.ai_lease_seconds
        for _ in range(4):
            if not await store.acquire_lease(room_id, owner, ttl):
                return
            keeper = asyncio.ensure_future(self._keep_lease(room_id, owner, ttl))
            try:
                await self._think_while_computer_to_move(room_id)
            except ApiError as error:
                if error.code != "room_not_found":
                    log.warning("computer turn failed", extra={"room": room_id, "code": error.code})
                return
            except Exception:
                log.exception("computer turn failed", extra={"room": room_id})
                return
            finally:
                keeper.cancel()
                with contextlib.suppress(Exception):
                    await store.release_lease(room_id, owner)
            # A move may have landed between our last look and the release: look again.
            loaded = await self.service.repository.reload(room_id)
            if not loaded.room.computer_to_move:
                return

    async def _keep_lease(self, room_id: str, owner: str, ttl: float) -> None:
        while True:
            await asyncio.sleep(ttl / 3)
            with contextlib.suppress(Exception):
                await self.service.store.refresh_lease(room_id, owner, ttl)

    async def _think_while_computer_to_move(self, room_id: str) -> None:
        service = self.service
        while True:
            loaded = await service.repository.reload(room_id)
            room = loaded.room
            seat = room.computer_seat
            if seat is None or not room.computer_to_move:
                return
            wire, seconds = await self.computer.choose(
                room.game.to_json(),
                room.level or "normal",
                seed(room_id, loaded.version),
                service.settings.ai_time_limit,
            )
            service.metrics.on_ai_think(seconds)
            move = room.game.move_from_json(wire)
            try:
                await service.execute(
                    room_id, None, PlayMove(move, version=loaded.version), seat=seat
                )
            except ApiError as error:
                if error.code == "stale_version":
                    continue  # the room changed while thinking (undo, new game): look again
                raise
