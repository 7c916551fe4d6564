"""The computer's turns: think in the AI process pool, then play like any seat.

The room service starts a turn after a commit that leaves the computer to move (and the
presence rounds start one again for a room whose thinker died: see
:mod:`server.rooms.presence`). Exactly one process thinks for a room at a time, under a
short lease it keeps refreshing; if that process dies, the lease expires and the next round
that sees the computer still to move starts the turn again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections.abc import Awaitable, Callable

from core.game import Player
from server.refusals import Refusal
from server.rooms.computer import ComputerPlayer
from server.rooms.model import Command, PlayMove
from server.rooms.repository import RoomRepository
from server.rooms.stores import LeaseStore
from server.settings import Settings

log = logging.getLogger("tetrad.computer")

Play = Callable[[str, Command, Player], Awaitable[object]]
"""How a turn plays its move: the room service's ``execute`` for the computer's seat."""


def seed(room_id: str, version: int) -> int:
    """The computer's randomness for one position of one room: reproducible."""
    digest = hashlib.sha256(f"{room_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:4])


class ComputerTurns:
    def __init__(
        self,
        repository: RoomRepository,
        play: Play,
        leases: LeaseStore,
        computer: ComputerPlayer,
        settings: Settings,
        on_think: Callable[[float], None] = lambda seconds: None,
    ) -> None:
        self.repository = repository
        self._play = play
        self.leases = leases
        self.computer = computer
        self.settings = settings
        self.on_think = on_think
        self.process_id = uuid.uuid4().hex
        self._running: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._closed = False

    def start(self, room_id: str) -> None:
        """Make sure someone plays the computer's turn in ``room_id`` (at most one task per
        room in this process; the lease keeps it to one process)."""
        task = self._running.get(room_id)
        if task is not None and not task.done():
            # The running task may have read the room before this commit and be about to
            # stop: a player who answers at once would then wait for ever. Look once more.
            self._again.add(room_id)
            return
        self._again.discard(room_id)
        task = asyncio.ensure_future(self._take(room_id))
        self._running[room_id] = task
        task.add_done_callback(lambda _: self._finished(room_id))

    def _finished(self, room_id: str) -> None:
        self._running.pop(room_id, None)
        if room_id in self._again and not self._closed:
            self.start(room_id)

    async def close(self) -> None:
        self._closed = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _take(self, room_id: str) -> None:
        owner = f"{self.process_id}:{uuid.uuid4().hex[:8]}"
        ttl = self.settings.ai_lease_seconds
        for _ in range(4):
            if not await self.leases.acquire(room_id, owner, ttl):
                return
            keeper = asyncio.ensure_future(self._keep_lease(room_id, owner, ttl))
            try:
                await self._think_while_computer_to_move(room_id)
            except Refusal as refusal:
                if refusal.code != "room_not_found":
                    log.warning(
                        "computer turn failed", extra={"room": room_id, "code": refusal.code}
                    )
                return
            except Exception:
                log.exception("computer turn failed", extra={"room": room_id})
                return
            finally:
                keeper.cancel()
                with contextlib.suppress(Exception):
                    await self.leases.release(room_id, owner)
            # A move may have landed between our last look and the release: look again.
            loaded = await self.repository.reload(room_id)
            if not loaded.room.computer_to_move:
                return

    async def _keep_lease(self, room_id: str, owner: str, ttl: float) -> None:
        while True:
            await asyncio.sleep(ttl / 3)
            with contextlib.suppress(Exception):
                await self.leases.refresh(room_id, owner, ttl)

    async def _think_while_computer_to_move(self, room_id: str) -> None:
        while True:
            loaded = await self.repository.reload(room_id)
            room = loaded.room
            seat = room.computer_seat
            if seat is None or not room.computer_to_move:
                return
            wire, seconds = await self.computer.choose(
                room.game.to_json(),
                room.level or "normal",
                seed(room_id, loaded.version),
                self.settings.ai_time_limit,
            )
            self.on_think(seconds)
            move = room.game.move_from_json(wire)
            try:
                await self._play(room_id, PlayMove(move, version=loaded.version), seat)
            except Refusal as refusal:
                if refusal.code == "stale_version":
                    continue  # the room changed while thinking (undo, new game): look again
                raise
