"""One websocket of this process: an outbox written by one flush task, the version of the
room it has been sent, and what the hub delivers to it."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket

from server.protocol import CLOSE_SLOW_CONSUMER, CLOSE_TAKEN_OVER
from server.serving import WRITE_NOW

OUTBOX_LIMIT = 512


@dataclass(slots=True)
class Close:
    code: int
    reason: str


@dataclass(slots=True)
class Stamped:
    """An event to send, with the time it was committed (epoch seconds)."""

    text: str
    committed: float


class TokenBucket:
    """Per-connection message budget: ``rate`` per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until :meth:`take` would succeed again."""
        return max(0.0, (1 - self.tokens) / self.rate)


class Connection:
    """One websocket of this process, as the hub sees it.

    A message is written at once, from the caller, when nothing waits before it and the
    server can (:data:`server.serving.WRITE_NOW`); otherwise it waits in ``outbox`` for a
    flush task, which exists only while there is something to write, so an idle connection
    costs no task of its own. Presence is kept for all seats of the process at once by
    :class:`server.rooms.presence.Presence`.

    ``version`` is the room version this socket has been brought to: room events at or
    below it are dropped, so whatever way an event arrives (pub/sub, a catch-up after the
    subscriber reconnected, the welcome) the client gets it once, in order.
    """

    __slots__ = (
        "_flusher",
        "_handler",
        "_held",
        "_write_now",
        "clocked_room",
        "closing",
        "computer_room",
        "early",
        "id",
        "on_delivered",
        "outbox",
        "presence_slot",
        "ready",
        "receiving",
        "room_id",
        "version",
        "watching",
        "ws",
    )

    def __init__(
        self,
        room_id: str,
        ws: WebSocket,
        on_delivered: Callable[[float], None] | None = None,
    ) -> None:
        self.id = uuid.uuid4().hex
        self.on_delivered = on_delivered
        """Told the seconds from an event's commit to its sending (stamped events only)."""
        self.room_id = room_id
        self.ws = ws
        self.presence_slot: int | None = None
        """The presence slot this socket holds (None: a spectator)."""
        self.computer_room = False
        self.clocked_room = False
        self.watching = False
        """Counted as a spectator of the room (in Redis) until it leaves."""
        self.version = 0
        self.ready = False
        self.early: list[tuple[str, int, str, float | None]] = []
        self.outbox: deque[str | Stamped | Close] | None = None
        """Messages waiting to be written; made when the first one comes (an idle socket
        keeps none)."""
        self.closing = False
        self.receiving = False
        self._flusher: asyncio.Task[None] | None = None
        self._handler: asyncio.Task[Any] | None = asyncio.current_task()
        self._held: list[str | Stamped] | None = None
        extension = ws.scope.get("extensions", {}).get(WRITE_NOW)
        self._write_now: Callable[..., bool] | None = (
            None if extension is None else extension["write"]
        )

    def send(self, text: str | Stamped) -> None:
        if self._held is not None:
            self._held.append(text)
            return
        self._send(text)

    def _send(self, *items: str | Stamped) -> None:
        if self.closing:
            return
        if self._written_now(items):
            return
        outbox = self._outbox()
        for item in items:
            if len(outbox) >= OUTBOX_LIMIT:
                self.close(CLOSE_SLOW_CONSUMER, "slow_consumer")
                return
            outbox.append(item)
        self._kick()

    def hold(self) -> None:
        """Keep what is sent from now on until :meth:`release`, then write it together, in
        one write (an event and the ack that follows it cost one system call, not two).
        Plain calls in a ``try``/``finally``, not a context manager: this is on every
        command's path."""
        self._held = []

    def release(self) -> None:
        """Send what was kept since :meth:`hold`."""
        held, self._held = self._held, None
        if held:
            self._send(*held)

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self._outbox().append(Close(code, reason))
            self._kick()

    def _written_now(self, items: tuple[str | Stamped, ...]) -> bool:
        """Write ``items`` from the caller if nothing waits before them and the server takes
        them at once (True); False: they must be queued."""
        write = self._write_now
        if write is None or self._flusher is not None or self.outbox:
            return False
        texts = [item.text if isinstance(item, Stamped) else item for item in items]
        try:
            if not write(*texts):
                return False
        except Exception:  # the socket is gone; the reader notices the disconnect
            self.closing = True
            self._stop_reading()
            return True
        if self.on_delivered is not None:
            now = time.time()
            for item in items:
                if isinstance(item, Stamped):
                    self.on_delivered(max(0.0, now - item.committed))
        return True

    def _outbox(self) -> deque[str | Stamped | Close]:
        if self.outbox is None:
            self.outbox = deque()
        return self.outbox

    def _kick(self) -> None:
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        outbox = self._outbox()
        try:
            while outbox:
                item = outbox.popleft()
                if isinstance(item, Close):
                    outbox.clear()
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=item.code, reason=item.reason)
                    self._stop_reading()
                    return
                if isinstance(item, Stamped):
                    await self.ws.send_text(item.text)
                    if self.on_delivered is not None:
                        self.on_delivered(max(0.0, time.time() - item.committed))
                    continue
                await self.ws.send_text(item)
        except Exception:  # the socket is gone; the reader notices the disconnect
            self.closing = True
            outbox.clear()
            self._stop_reading()
        finally:
            self._flusher = None
            self.outbox = None  # an idle socket keeps no buffer

    def _stop_reading(self) -> None:
        """We closed the socket: end the handler if it waits for the client (a handler busy
        with a message sees ``closing`` when it is done)."""
        handler = self._handler
        if self.receiving and handler is not None and not handler.done():
            handler.cancel()

    async def drain(self, timeout: float) -> None:
        """Let queued messages (and a close) go out, for at most ``timeout`` seconds."""
        flusher = self._flusher
        if flusher is not None:
            await asyncio.wait({flusher}, timeout=timeout)

    def deliver(self, kind: str, version: int, text: str, committed: float | None = None) -> None:
        """A message for the room's sockets (from pub/sub or a catch-up); ``committed``:
        when its event was committed, for the delivery latency metric."""
        if not self.ready:
            self.early.append((kind, version, text, committed))
            return
        if kind == "event":
            if version <= self.version:
                return  # already sent (in the welcome, a catch-up or before)
            self.version = version
        self.send(text if committed is None else Stamped(text, committed))

    def control(self, payload: dict[str, Any]) -> None:
        if (
            payload.get("action") == "takeover"
            and self.presence_slot is not None
            and payload.get("slot") == self.presence_slot
            and payload.get("connection") != self.id
        ):
            self.close(CLOSE_TAKEN_OVER, "taken_over")

    def start(self, version: int, welcome: str) -> None:
        """Send the welcome (which brought the client to ``version``), then whatever arrived
        for the room while it was being prepared."""
        self.version = version
        self.ready = True
        self.send(welcome)
        early, self.early = self.early, []
        for kind, at, text, committed in early:
            self.deliver(kind, at, text, committed)

    def resynced(self, version: int, text: str) -> None:
        """Send a resync message that brought the client to ``version``."""
        self.version = max(self.version, version)
        self.send(text)
