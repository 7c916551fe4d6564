"""The per-process hub: one Redis subscriber that fans room messages out to local listeners
(plain pub/sub on one Redis or behind a Sentinel, sharded pub/sub on a Redis Cluster: see
:mod:`server.store.subscriber`).

A process subscribes to a room's channel while at least one of its sockets (or long-poll
requests) listens to that room. Messages are forwarded as the exact text published, so a
move is serialised once, by the process that committed it; the reader routes on the short
frame head (kind and version, see :mod:`server.store.frames`) and never parses
the event inside.

Pub/sub delivers at most once: a message published while the subscriber's connection is
down (a Redis restart, ``CLIENT KILL``, a network blip) is gone. So when a channel is
subscribed again after the connection came back, the hub first asks ``catch_up`` to bring
that room's listeners up to date from the kept history, before it reads anything newer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from redis.asyncio import Redis

from server.background import Background
from server.rooms.presence import Attendee
from server.store.frames import parse_frame
from server.store.keys import RoomKeys
from server.store.outage import storage_of
from server.store.subscriber import Subscriber, subscriber_for

log = logging.getLogger("tetrad.hub")


class Listener(Attendee, Protocol):
    """A websocket (or a long poll) of this process that listens to one room."""

    def deliver(self, kind: str, version: int, text: str, committed: float | None = None) -> None:
        """A room message; ``committed``: when its event was committed (epoch seconds)."""

    def control(self, payload: dict[str, Any]) -> None: ...


class EventWaiter:
    """A long-poll request waiting for the next versioned event of a room (in a computer
    room, the presence rounds watch over the computer's turn while it waits)."""

    id = ""
    presence_slot = None
    closing = False
    ready = True
    watching = False

    def __init__(self, room_id: str, computer_room: bool = False) -> None:
        self.room_id = room_id
        self.computer_room = computer_room
        self.clocked_room = False
        self.arrived = asyncio.Event()

    def deliver(self, kind: str, version: int, text: str, committed: float | None = None) -> None:
        if kind == "event":
            self.arrived.set()

    def control(self, payload: dict[str, Any]) -> None:
        return None

    def close(self, code: int, reason: str) -> None:
        self.arrived.set()  # the room is gone: answer now


class Hub:
    def __init__(
        self,
        redis: Redis,
        prefix: str,
        on_rooms: Callable[[int], None] | None = None,
        *,
        catch_up: Callable[[str, list[Listener]], Awaitable[None]] | None = None,
        on_event: Callable[[str, int], None] | None = None,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self._on_rooms = on_rooms or (lambda count: None)
        self._catch_up = catch_up
        self._on_event = on_event or (lambda room_id, version: None)
        self.resubscribed = 0
        """How many times a channel was subscribed again after the connection came back."""
        self._rooms: dict[str, set[Listener]] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._subscriber: Subscriber | None = None
        self._reader = Background("hub-reader", self._read)
        self._lock = asyncio.Lock()

    @property
    def rooms(self) -> int:
        return len(self._rooms)

    def listeners(self, room_id: str) -> set[Listener]:
        return self._rooms.get(room_id, set())

    def watched(self) -> list[tuple[str, list[Listener]]]:
        """A snapshot of every watched room and its local listeners."""
        return [(room, list(listeners)) for room, listeners in self._rooms.items()]

    async def start(self, process_channel: str) -> None:
        self._subscriber = subscriber_for(self.redis)
        # A channel of our own keeps the subscription alive while no room is watched.
        await self._subscriber.subscribe(process_channel)
        self._reader.start()

    async def stop(self) -> None:
        await self._reader.stop()
        if self._subscriber is not None:
            with contextlib.suppress(Exception):
                await self._subscriber.aclose()

    def _channel(self, room_id: str) -> str:
        return RoomKeys(self.prefix, room_id).channel

    async def join(self, listener: Listener) -> None:
        """Start delivering the room's messages to ``listener``; returns once the
        subscription is active in Redis, so nothing published afterwards is missed."""
        room_id = listener.room_id
        async with self._lock:
            listeners = self._rooms.setdefault(room_id, set())
            first = not listeners
            listeners.add(listener)
            if not first:
                confirmed = self._confirmed.get(self._channel(room_id))
            else:
                confirmed = asyncio.Event()
                self._confirmed[self._channel(room_id)] = confirmed
                self._on_rooms(len(self._rooms))
                assert self._subscriber is not None
                try:
                    await self._subscriber.subscribe(self._channel(room_id))
                except BaseException:
                    self._forget(listener)
                    raise
        if confirmed is not None and not confirmed.is_set():  # else no task for the wait
            try:
                await asyncio.wait_for(confirmed.wait(), timeout=10)
            except BaseException:  # Redis is not there: the caller never joined
                with contextlib.suppress(Exception):
                    await self.leave(listener)
                raise

    def _forget(self, listener: Listener) -> bool:
        """Drop ``listener``; whether its room has no listener left (and is dropped too)."""
        room_id = listener.room_id
        listeners = self._rooms.get(room_id)
        if listeners is None:
            return False
        listeners.discard(listener)
        if listeners:
            return False
        del self._rooms[room_id]
        self._confirmed.pop(self._channel(room_id), None)
        self._on_rooms(len(self._rooms))
        return True

    async def leave(self, listener: Listener) -> None:
        room_id = listener.room_id
        async with self._lock:
            if self._forget(listener):
                assert self._subscriber is not None
                with contextlib.suppress(Exception):
                    await self._subscriber.unsubscribe(self._channel(room_id))

    async def _read(self) -> None:
        assert self._subscriber is not None
        while True:
            try:
                # Blocks until a message arrives (no polling); the connection's health
                # check pings keep it honest while no room is busy.
                message = await self._subscriber.get_message()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if storage_of(error) is None:  # an outage is logged by those it fails
                    log.exception("pub/sub read failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            try:
                lagging = self._dispatch(message)
                if lagging is not None and self._catch_up is not None:
                    await self._catch_up(lagging, list(self._rooms.get(lagging, ())))
            except Exception:
                log.exception("could not dispatch a room message")

    def _dispatch(self, message: dict[str, Any]) -> str | None:
        """Route one pub/sub message; returns a room that must catch up (its channel was
        subscribed again after a lost connection)."""
        channel = message["channel"]
        channel = channel.decode() if isinstance(channel, bytes) else channel
        kind = message["type"]
        if kind == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is None:
                return None
            if not confirmed.is_set():
                confirmed.set()
                return None
            self.resubscribed += 1
            room_id = self._room_of(channel)
            return room_id if room_id in self._rooms else None
        if kind != "message":
            return None
        room_id = self._room_of(channel)
        if room_id is None:
            return None
        listeners = self._rooms.get(room_id)
        if not listeners:
            return None
        framed = parse_frame(message["data"])
        if framed is None:
            log.warning("unknown message on a room channel", extra={"room": room_id})
            return None
        if framed.kind == "control":
            payload = json.loads(framed.text)
            for listener in list(listeners):
                listener.control(payload)
            return None
        if framed.kind == "event":
            self._on_event(room_id, framed.version)
        for listener in list(listeners):
            listener.deliver(framed.kind, framed.version, framed.text, framed.committed)
        return None

    def _room_of(self, channel: str) -> str | None:
        head = f"{self.prefix}:{{"
        if not channel.startswith(head) or not channel.endswith("}:ch"):
            return None
        return channel[len(head) : -len("}:ch")]
