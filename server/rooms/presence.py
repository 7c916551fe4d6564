"""Presence: who is connected to a room and how many watch it, kept true by rounds.

A connection of this process that listens to a room (a websocket; a long poll) is an
:class:`Attendee`. A player's connection holds its room's **presence slot**: by seat in a
friend room, slot 0 in a room of one person (:meth:`server.rooms.model.Room.presence_slot`);
a new connection for the same slot takes it over, and the old one is closed with
``taken_over`` by whichever process holds it. Spectators are counted, not listed.

A change of who holds a seat is published at once. A change in the number of spectators is
published at most once a heartbeat per room and process (the first at once, the rest
gathered): each ``presence`` message goes to every socket of the room, so a crowd of ``n``
arriving one by one would otherwise cost ``n`` messages to each of ``n`` sockets.

Every ``heartbeat_seconds`` one round (per batch of rooms) refreshes the slots and spectators
this process holds and reads who holds each slot, then:

* a slot whose key now names another connection was taken over elsewhere and the notice was
  missed: that connection is closed; an expired key is claimed again;
* a change in who is connected or how many watch (another process died, its keys expired) is
  published as a ``presence`` message;
* a room that is gone closes its connections with ``room_gone``;
* a computer room whose thinker died (the computer to move, and nobody holds the lease) gets
  its turn started again;
* a room with a running clock gets a timer for the moment it runs out (see
  :mod:`server.rooms.time_outs`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from server.protocol import CLOSE_ROOM_GONE, CLOSE_TAKEN_OVER, encode
from server.refusals import Refusal
from server.rooms import views
from server.rooms.computer_turns import ComputerTurns
from server.rooms.gathering import Gathering
from server.rooms.repository import RoomRepository
from server.rooms.stores import (
    LeaseStore,
    PresenceQuery,
    PresenceStore,
    RoomStore,
    SpectatorsCounted,
)
from server.rooms.time_outs import TimeOuts
from server.settings import Settings

log = logging.getLogger("tetrad.presence")

BATCH = 256

SOCKETS_PER_HEARTBEAT = 500
"""A count of spectators goes to every socket of the room, a write each: a room watched by
more sockets than this here gets its count published less often (once a heartbeat per this
many sockets), so a crowd's arrival costs about as many writes whatever its size."""


class Attendee(Protocol):
    """A connection of this process that listens to one room."""

    room_id: str

    @property
    def id(self) -> str: ...

    @property
    def presence_slot(self) -> int | None:
        """The presence slot this connection holds (None: a spectator, a long poll)."""

    @property
    def ready(self) -> bool:
        """Welcomed: its slot (if any) has been claimed, so presence may be kept for it."""

    @property
    def closing(self) -> bool: ...

    @property
    def watching(self) -> bool:
        """A spectator websocket, counted in the room's spectators (long polls are not)."""

    @property
    def computer_room(self) -> bool:
        """It listens to a room where the computer plays (its turns are watched over)."""

    @property
    def clocked_room(self) -> bool:
        """It listens to a room with clocks (they are watched over)."""

    def close(self, code: int, reason: str) -> None: ...


Watched = Sequence[tuple[str, Sequence[Attendee]]]
"""The rooms this process watches, each with its attendees here."""

Report = Callable[[BaseException, str], bool]
"""Tells the outage watch about an error; True if it was a storage outage (logged there)."""


class Presence:
    def __init__(
        self,
        store: PresenceStore,
        rooms: RoomStore,
        leases: LeaseStore,
        repository: RoomRepository,
        turns: ComputerTurns,
        time_outs: TimeOuts,
        settings: Settings,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.leases = leases
        self.repository = repository
        self.turns = turns
        self.time_outs = time_outs
        self.settings = settings
        self._seen: dict[str, tuple[bool, bool, int]] = {}
        self._published_at: dict[str, float] = {}
        """When each room's presence was last published from here (monotonic seconds)."""
        self._gathering: dict[str, asyncio.TimerHandle] = {}
        """Rooms whose spectator count changed since, waiting for their next publication."""
        self._publishing: set[asyncio.Task[None]] = set()
        self._report: Report | None = None
        self._arriving: Gathering[SpectatorsCounted] = Gathering()
        self._watching_here: Counter[str] = Counter()
        """Spectator sockets of this process by room."""
        self._leaving: Gathering[int] = Gathering()

    async def arrive(self, attendee: Attendee) -> SpectatorsCounted | None:
        """``attendee`` joins its room: it claims its slot (a takeover notice tells any other
        holder to close) or is counted as a spectator; everybody hears of it. A spectator
        gets the room as read with it counted (see :meth:`_count_in`)."""
        room_id, ttl = attendee.room_id, self.settings.presence_ttl_seconds
        slot = attendee.presence_slot
        if slot is not None:
            await self.store.claim(room_id, slot, attendee.id, ttl)
            notice = f'{{"action":"takeover","slot":{slot},"connection":"{attendee.id}"}}'
            await self.store.publish(room_id, "control", 0, notice)
            await self.publish(room_id)
        elif attendee.watching:
            self._watching_here[room_id] += 1
            counted = await self._count_in(room_id, attendee.id)
            await self.spectators_changed(room_id)
            return counted
        return None

    async def depart(self, attendee: Attendee) -> None:
        """``attendee`` left: give up its slot (if it still holds it) or its place among the
        spectators, and tell everybody."""
        slot, room_id = attendee.presence_slot, attendee.room_id
        if slot is not None:
            if await self.store.release(room_id, slot, attendee.id):
                await self.publish(room_id)
        elif attendee.watching:
            self._watching_here[room_id] -= 1
            if self._watching_here[room_id] <= 0:
                del self._watching_here[room_id]
            if await self._count_out(room_id, attendee.id):
                await self.spectators_changed(room_id)

    async def _count_in(self, room_id: str, connection: str) -> SpectatorsCounted:
        """Count ``connection`` among the room's spectators, together with the others
        arriving meanwhile: a crowd coming in costs a round trip per batch, not per socket."""
        ttl = self.settings.presence_ttl_seconds
        return await self._arriving.add(
            room_id, connection, lambda ids: self.store.add_spectators(room_id, ids, ttl)
        )

    async def _count_out(self, room_id: str, connection: str) -> int:
        """Stop counting ``connection`` (with the others leaving meanwhile); how many of the
        batch were still counted."""
        return await self._leaving.add(
            room_id, connection, lambda ids: self.store.remove_spectators(room_id, ids)
        )

    async def now(self, room_id: str) -> views.Presence:
        found = await self.store.read(room_id)
        return views.Presence(found.connected, found.spectators)

    async def publish(self, room_id: str) -> None:
        """Tell every socket of the room, on every process, who is connected now."""
        self._published_at[room_id] = time.monotonic()
        loaded = await self.repository.get(room_id)
        message = views.presence_message(loaded.room, loaded.version, await self.now(room_id))
        await self.store.publish(room_id, "presence", loaded.version, encode(message))

    async def spectators_changed(self, room_id: str) -> None:
        """The room's spectators changed: publish now if the room's presence was not
        published within the last heartbeat, else once that heartbeat is over (one message
        for every change until then)."""
        if room_id in self._gathering:
            return
        crowd = max(1.0, self._watching_here[room_id] / SOCKETS_PER_HEARTBEAT)
        wait = self._published_at.get(room_id, -math.inf) + self.settings.heartbeat_seconds * crowd
        wait -= time.monotonic()
        if wait <= 0:
            await self.publish(room_id)
            return
        loop = asyncio.get_running_loop()
        self._gathering[room_id] = loop.call_later(wait, self._publish_gathered, room_id)

    def _publish_gathered(self, room_id: str) -> None:
        self._gathering.pop(room_id, None)
        task = asyncio.get_running_loop().create_task(self._publish_quietly(room_id))
        self._publishing.add(task)
        task.add_done_callback(self._publishing.discard)

    async def _publish_quietly(self, room_id: str) -> None:
        try:
            await self.publish(room_id)
        except Refusal:
            return  # the room went away; the next round closes its sockets
        except Exception as error:
            # The next round publishes the count if this one was lost (it sees a change).
            self._published_at.pop(room_id, None)
            if self._report is None or not self._report(error, "presence"):
                log.exception("presence update failed", extra={"room": room_id})

    async def close(self) -> None:
        """Stop the publications waiting for their heartbeat and the spectators' writes."""
        await self._arriving.close()
        await self._leaving.close()
        for handle in self._gathering.values():
            handle.cancel()
        self._gathering.clear()
        for task in list(self._publishing):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def round(self, watched: Watched, report: Report) -> None:
        """One pass over every room this process watches (see the module's account)."""
        self._report = report
        rooms = {room for room, _ in watched}
        for gone in set(self._seen) - rooms:
            del self._seen[gone]
        for gone in set(self._published_at) - rooms - set(self._gathering):
            del self._published_at[gone]
        for start in range(0, len(watched), BATCH):
            await self._batch(watched[start : start + BATCH], report)

    async def _batch(self, watched: Watched, report: Report) -> None:
        ttl = self.settings.presence_ttl_seconds
        queries, holders = [], []
        for room_id, attendees in watched:
            seated = [
                (conn.presence_slot, conn)
                for conn in attendees
                # A socket still saying hello has not claimed its slot: the key may still
                # name the tab it is taking over from, which is no sign of a takeover.
                if conn.presence_slot is not None and conn.ready and not conn.closing
            ]
            holders.append(seated)
            queries.append(
                PresenceQuery(
                    room_id=room_id,
                    slots=[(slot, conn.id) for slot, conn in seated],
                    ttl=ttl,
                    spectators=[c.id for c in attendees if c.watching and not c.closing],
                )
            )
        room_ids = [query.room_id for query in queries]
        exists = await self.rooms.exist(room_ids)
        answers = await self.store.round(queries)
        computer_rooms = [
            room_id
            for (room_id, attendees), found in zip(watched, exists, strict=True)
            if found and any(conn.computer_room for conn in attendees)
        ]
        thinking = dict(zip(computer_rooms, await self.leases.held(computer_rooms), strict=True))
        for (room_id, attendees), seated, found, answer in zip(
            watched, holders, exists, answers, strict=True
        ):
            if not found:
                for attendee in list(attendees):
                    attendee.close(CLOSE_ROOM_GONE, "room_gone")
                continue
            held = list(answer.holders)
            for (slot, conn), refreshed in zip(seated, answer.refreshed, strict=True):
                if refreshed:
                    continue
                holder = held[slot]
                if holder is not None and holder != conn.id:
                    conn.close(CLOSE_TAKEN_OVER, "taken_over")
                    continue
                await self.store.claim(room_id, slot, conn.id, ttl)
                held[slot] = conn.id
            seen = (held[0] is not None, held[1] is not None, answer.spectators)
            before = self._seen.get(room_id)
            self._seen[room_id] = seen
            if before is not None and before[:2] != seen[:2]:
                await self._quietly(self.publish(room_id), room_id, report)
            elif before is not None and before != seen:
                await self._quietly(self.spectators_changed(room_id), room_id, report)
            if thinking.get(room_id) is False:
                await self._quietly(self._restart_computer(room_id), room_id, report)
            if any(conn.clocked_room for conn in attendees):
                await self._quietly(self._watch_clock(room_id), room_id, report)

    async def _restart_computer(self, room_id: str) -> None:
        loaded = await self.repository.get(room_id)
        if loaded.room.computer_to_move:
            self.turns.start(room_id)

    async def _watch_clock(self, room_id: str) -> None:
        self.time_outs.watch((await self.repository.get(room_id)).room)

    async def _quietly(self, action: Awaitable[None], room_id: str, report: Report) -> None:
        try:
            await action
        except Refusal:
            return  # the room went away meanwhile; the next round closes its sockets
        except Exception as error:
            if not report(error, "presence"):
                log.exception("presence action failed", extra={"room": room_id})
