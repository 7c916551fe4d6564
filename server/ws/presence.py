"""Presence for every room this process watches, kept by one task per process.

Every ``heartbeat_seconds`` one round trip to Redis (per batch of rooms) refreshes the
presence keys of the seats this process holds, reads who holds each seat, whether the room
still exists and, for computer rooms, whether someone is thinking. From the answers:

* a seat whose key now names another connection was taken over elsewhere and we missed
  the notice: that connection is closed with ``taken_over``; an expired key is claimed again;
* a change in who is connected (another process died, its keys expired) is published as a
  ``presence`` message;
* a room that is gone closes its sockets with ``room_gone``;
* a computer room whose thinker died (no lease while the computer is to move) gets its turn
  restarted.

Spectator websockets are counted per room in a sorted set scored by expiry: each round
refreshes this process's spectators and reads the count with the rest (expired entries, left
by a process that died, are pruned); a changed count is published as ``presence`` too. Long
polls cost nothing here beyond their room's share.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable

from server.errors import ApiError
from server.protocol import CLOSE_ROOM_GONE, CLOSE_TAKEN_OVER
from server.rooms.presence import publish_presence
from server.rooms.service import RoomService
from server.store.outage import Outages
from server.store.room_store import PresenceQuery
from server.ws.hub import Hub, Listener

log = logging.getLogger("tetrad.presence")

BATCH = 256


class PresenceKeeper:
    def __init__(self, hub: Hub, service: RoomService, outages: Outages | None = None) -> None:
        self.hub = hub
        self.service = service
        self.outages = outages or Outages()
        self._seen: dict[str, tuple[bool, bool, int]] = {}
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="tetrad-presence")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.service.settings.heartbeat_seconds)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if not self.outages.report(error, "presence"):
                    log.exception("presence round failed")

    async def round(self) -> None:
        """One pass over every watched room."""
        watched = self.hub.watched()
        for gone in set(self._seen) - {room for room, _ in watched}:
            del self._seen[gone]
        for start in range(0, len(watched), BATCH):
            await self._batch(watched[start : start + BATCH])

    async def _batch(self, watched: list[tuple[str, list[Listener]]]) -> None:
        settings = self.service.settings
        store = self.service.store
        queries = []
        holders: list[list[tuple[int, Listener]]] = []
        for room_id, listeners in watched:
            seated = [
                (conn.seat, conn)
                for conn in listeners
                # A socket still saying hello has not claimed its seat: its seat's key may
                # still name the tab it is taking over from, which is no sign of a takeover.
                if conn.seat is not None and conn.ready and not conn.closing
            ]
            holders.append(seated)
            queries.append(
                PresenceQuery(
                    room_id=room_id,
                    seats=[(seat, conn.id) for seat, conn in seated],
                    ttl=settings.presence_ttl_seconds,
                    lease=any(conn.computer_room for _, conn in seated),
                    spectators=[
                        conn.id for conn in listeners if conn.watching and not conn.closing
                    ],
                )
            )
        answers = await store.presence_round(queries)
        for query, seated, answer in zip(queries, holders, answers, strict=True):
            room_id = query.room_id
            if not answer.exists:
                for listener in list(self.hub.listeners(room_id)):
                    listener.close(CLOSE_ROOM_GONE, "room_gone")
                continue
            held = list(answer.holders)
            for (seat, conn), refreshed in zip(seated, answer.refreshed, strict=True):
                if refreshed:
                    continue
                holder = held[seat]
                if holder is not None and holder != conn.id:
                    conn.close(CLOSE_TAKEN_OVER, "taken_over")
                    continue
                await store.claim_seat(room_id, seat, conn.id, settings.presence_ttl_seconds)
                held[seat] = conn.id
            seen = (held[0] is not None, held[1] is not None, answer.spectators)
            before = self._seen.get(room_id)
            self._seen[room_id] = seen
            if before is not None and before != seen:
                await self._quietly(publish_presence(self.service, room_id), room_id)
            if query.lease and not answer.lease_held:
                await self._quietly(self._restart_computer(room_id), room_id)

    async def _restart_computer(self, room_id: str) -> None:
        loaded = await self.service.repository.reload(room_id)
        if loaded.room.computer_to_move:
            self.service.on_computer_turn(room_id)

    async def _quietly(self, action: Awaitable[None], room_id: str) -> None:
        try:
            await action
        except ApiError:
            return  # the room went away meanwhile; the next round closes its sockets
        except Exception as error:
            if not self.outages.report(error, "presence"):
                log.exception("presence action failed", extra={"room": room_id})
