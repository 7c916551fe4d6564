"""The websocket of a room: hello with the seat token, then versioned events both ways.

Every malformed or refused message is answered with an ``error`` event and the connection
stays open. A second connection for the same seat takes over: the old one is closed with
code 4001 ("taken_over") by whichever process holds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from server.errors import ApiError, code_for_validation
from server.rooms.service import LoadedRoom, RoomService
from server.ws.hub import Hub
from server.ws.protocol import (
    CLOSE_HELLO_TIMEOUT,
    CLOSE_ROOM_GONE,
    CLOSE_ROOM_NOT_FOUND,
    CLOSE_SLOW_CONSUMER,
    CLOSE_TAKEN_OVER,
    AckMessage,
    ErrorMessage,
    Hello,
    Hint,
    HintMessage,
    MakeMove,
    Ping,
    PongMessage,
    VersionedEvent,
    WelcomeMessage,
    client_message_adapter,
)

log = logging.getLogger("tetrad.ws")
router = APIRouter()

OUTBOX_LIMIT = 512


@dataclass(slots=True)
class Close:
    code: int
    reason: str


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


class Connection:
    """One websocket of this process, as the hub sees it.

    An idle connection costs no task of its own: messages wait in ``outbox`` and a flush
    task exists only while there is something to write. Presence is kept for all seats of
    the process at once by :class:`server.ws.presence.PresenceKeeper`.
    """

    __slots__ = (
        "_flusher",
        "_handler",
        "closing",
        "computer_room",
        "early",
        "id",
        "outbox",
        "ready",
        "receiving",
        "room_id",
        "seat",
        "since",
        "version",
        "watching",
        "ws",
    )

    def __init__(self, room_id: str, ws: WebSocket) -> None:
        self.id = uuid.uuid4().hex
        self.room_id = room_id
        self.ws = ws
        self.seat: int | None = None
        self.since: int | None = None
        self.computer_room = False
        self.watching = False
        """Counted as a spectator of the room (in Redis) until it leaves."""
        self.version = 0
        self.ready = False
        self.early: list[tuple[str, int, str]] = []
        self.outbox: deque[str | Close] = deque()
        self.closing = False
        self.receiving = False
        self._flusher: asyncio.Task[None] | None = None
        self._handler: asyncio.Task[Any] | None = asyncio.current_task()

    def send(self, text: str) -> None:
        if self.closing:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:
            self.close(CLOSE_SLOW_CONSUMER, "slow_consumer")
            return
        self.outbox.append(text)
        self._kick()

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.append(Close(code, reason))
            self._kick()

    def _kick(self) -> None:
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self.outbox:
                item = self.outbox.popleft()
                if isinstance(item, Close):
                    self.outbox.clear()
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=item.code, reason=item.reason)
                    self._stop_reading()
                    return
                await self.ws.send_text(item)
        except Exception:  # the socket is gone; the reader notices the disconnect
            self.closing = True
            self.outbox.clear()
            self._stop_reading()
        finally:
            self._flusher = None

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

    def deliver(self, kind: str, version: int, text: str) -> None:
        if not self.ready:
            self.early.append((kind, version, text))
            return
        if kind == "event":
            if version <= self.version:
                return  # already covered by the welcome or a previous event
            self.version = version
        self.send(text)

    def control(self, payload: dict[str, Any]) -> None:
        if (
            payload.get("action") == "takeover"
            and self.seat is not None
            and payload.get("seat") == self.seat
            and payload.get("connection") != self.id
        ):
            self.close(CLOSE_TAKEN_OVER, "taken_over")

    def start(self, welcome_version: int, welcome: str) -> None:
        self.version = welcome_version
        self.ready = True
        self.send(welcome)
        early, self.early = self.early, []
        for kind, version, text in early:
            self.deliver(kind, version, text)


def _error(conn: Connection, error: ApiError, ref: str | None) -> str:
    return ErrorMessage(
        room=conn.room_id,
        version=conn.version,
        ref=ref,
        code=error.code,
        message=error.message,
        details=error.details or None,
    ).model_dump_json()


def validation_to_api_error(error: ValidationError) -> ApiError:
    """A pydantic refusal as ``bad_request``, or ``invalid_move`` if only the move was bad."""
    problems = error.errors(include_url=False, include_input=False)
    first = problems[0] if problems else None
    where = ".".join(str(part) for part in first["loc"]) if first else ""
    what = first["msg"] if first else "invalid message"
    code = code_for_validation([tuple(p["loc"]) for p in problems], tagged=True)
    return ApiError(code, f"{where}: {what}" if where else what)


async def _receive_text(ws: WebSocket, limit: int) -> str | ApiError:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = message.get("text")
    if data is None:
        raw = message.get("bytes") or b""
        if len(raw) > limit:
            return ApiError("message_too_large", f"messages are limited to {limit} bytes")
        try:
            data = raw.decode()
        except UnicodeDecodeError:
            return ApiError("bad_request", "messages are JSON text")
    if len(data) > limit or len(data.encode()) > limit:
        return ApiError("message_too_large", f"messages are limited to {limit} bytes")
    return data


@router.websocket("/api/rooms/{room_id}/ws")
async def room_socket(ws: WebSocket, room_id: str) -> None:
    service: RoomService = ws.app.state.rooms
    hub: Hub = ws.app.state.hub
    settings = service.settings
    metrics = ws.app.state.metrics
    await ws.accept()
    conn = Connection(room_id, ws)
    token: str | None = None
    joined = False
    metrics.connections.inc()
    try:
        try:
            async with asyncio.timeout(settings.hello_timeout_seconds):
                token, conn.since = await _await_hello(ws, conn, service)
        except TimeoutError:
            conn.close(CLOSE_HELLO_TIMEOUT, "hello_timeout")
            await conn.drain(2)
            return
        except ApiError as error:
            conn.send(_error(conn, error, None))
            conn.close(CLOSE_ROOM_NOT_FOUND, error.code)
            await conn.drain(2)
            return
        await hub.join(conn)
        joined = True
        await _open(service, conn)
        await _serve(ws, conn, service, token)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if not conn.closing or task is None:
            raise
        task.uncancel()  # we closed the socket ourselves (takeover, slow consumer)
    except ApiError as error:
        conn.send(_error(conn, error, None))
        conn.close(CLOSE_ROOM_GONE, error.code)
        await conn.drain(2)
    except Exception:
        log.exception("websocket failed", extra={"room": room_id})
    finally:
        metrics.connections.dec()
        conn.closing = True
        if joined:
            await hub.leave(conn)
        if conn.seat is not None and joined:
            with contextlib.suppress(Exception):
                if await service.store.release_seat(room_id, conn.seat, conn.id):
                    await service.publish_presence(room_id)
        if conn.watching:
            conn.watching = False
            with contextlib.suppress(Exception):
                if await service.store.remove_spectator(room_id, conn.id):
                    await service.publish_presence(room_id)
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _open(service: RoomService, conn: Connection) -> None:
    """Claim the seat (taking it over from another tab), send the welcome. Kept apart from
    :func:`room_socket` so the room and welcome it reads are freed once it returns: an
    idle connection keeps none of them."""
    room_id = conn.room_id
    settings = service.settings
    if conn.seat is not None:
        await service.store.claim_seat(room_id, conn.seat, conn.id, settings.presence_ttl_seconds)
        await service.publish_control(
            room_id, {"action": "takeover", "seat": conn.seat, "connection": conn.id}
        )
        await service.publish_presence(room_id)
    else:
        # Counted before the welcome is read, so the spectator sees itself among those watching.
        conn.watching = True
        await service.store.add_spectator(room_id, conn.id, settings.presence_ttl_seconds)
        await service.publish_presence(room_id)
    room, welcome = await _welcome(service, conn)
    conn.computer_room = room.doc.mode == "computer"
    conn.start(welcome.version, welcome.model_dump_json())
    await service.touch(room)
    if welcome.state.thinking:
        service.schedule_computer_turn(room_id)


async def _await_hello(
    ws: WebSocket, conn: Connection, service: RoomService
) -> tuple[str | None, int | None]:
    """Wait for ``hello``; returns the seat token and the version the client has seen."""
    limit = service.settings.max_message_bytes
    while True:
        data = await _receive_text(ws, limit)
        if isinstance(data, ApiError):
            conn.send(_error(conn, data, None))
            continue
        try:
            message = client_message_adapter.validate_json(data)
        except ValidationError as error:
            conn.send(_error(conn, validation_to_api_error(error), None))
            continue
        if not isinstance(message, Hello):
            conn.send(_error(conn, ApiError("bad_request", "say hello first"), message.ref))
            continue
        room = await service.load(conn.room_id)  # room_not_found ends the connection
        conn.version = room.version
        seat = service.seat_of(room.doc, message.token)
        if message.token and seat is None:
            conn.send(
                _error(
                    conn,
                    ApiError("bad_token", "this token holds no seat here; hello again"),
                    message.ref,
                )
            )
            continue
        conn.seat = seat
        return message.token, message.since


async def _welcome(service: RoomService, conn: Connection) -> tuple[LoadedRoom, WelcomeMessage]:
    since = conn.since
    if since is None:
        room, state = await service.state(conn.room_id)
        missed: list[VersionedEvent] = []
        complete = False
    else:
        missed, complete, room = await service.events_since(conn.room_id, since)
        state = service.room_view(room)
    return room, WelcomeMessage(
        room=conn.room_id,
        version=room.version,
        seat=conn.seat,
        role="player" if conn.seat is not None else "spectator",
        missed=missed,
        complete=complete,
        state=state,
    )


async def _serve(ws: WebSocket, conn: Connection, service: RoomService, token: str | None) -> None:
    settings = service.settings
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    while not conn.closing:
        conn.receiving = True
        try:
            data = await _receive_text(ws, settings.max_message_bytes)
        finally:
            conn.receiving = False
        if isinstance(data, ApiError):
            conn.send(_error(conn, data, None))
            continue
        if not bucket.take():
            conn.send(_error(conn, ApiError("rate_limited", "too many messages; slow down"), None))
            continue
        try:
            message = client_message_adapter.validate_json(data)
        except ValidationError as error:
            conn.send(_error(conn, validation_to_api_error(error), None))
            continue
        try:
            await _handle(conn, service, token, message)
        except ApiError as error:
            if error.code == "room_not_found":
                raise
            conn.send(_error(conn, error, message.ref))


async def _handle(conn: Connection, service: RoomService, token: str | None, message: Any) -> None:
    if isinstance(message, Ping):
        conn.send(
            PongMessage(room=conn.room_id, version=conn.version, ref=message.ref).model_dump_json()
        )
        return
    if isinstance(message, Hello):
        raise ApiError("bad_request", "hello was already said on this connection")
    if isinstance(message, MakeMove):
        result = await service.move(conn.room_id, token, message)
        if result.duplicate:
            conn.send(
                AckMessage(
                    room=conn.room_id,
                    version=result.version,
                    ref=message.ref,
                    move_id=message.move_id,
                ).model_dump_json()
            )
        return
    result = await service.act(conn.room_id, token, message)
    if isinstance(message, Hint) and result.hint is not None:
        conn.send(
            HintMessage(
                room=conn.room_id, version=result.version, ref=message.ref, move=result.hint
            ).model_dump_json()
        )
