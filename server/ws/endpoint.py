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
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from server.errors import ApiError, code_for_validation
from server.rooms.service import RoomService
from server.ws.hub import Hub
from server.ws.protocol import (
    CLOSE_HELLO_TIMEOUT,
    CLOSE_ROOM_GONE,
    CLOSE_ROOM_NOT_FOUND,
    CLOSE_SLOW_CONSUMER,
    CLOSE_TAKEN_OVER,
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
    """One websocket of this process, as the hub sees it."""

    def __init__(self, room_id: str) -> None:
        self.id = uuid.uuid4().hex
        self.room_id = room_id
        self.seat: int | None = None
        self.version = 0
        self.ready = False
        self.early: list[tuple[str, int, str]] = []
        self.outbox: asyncio.Queue[str | Close] = asyncio.Queue()
        self.closing = False

    def send(self, text: str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.close(CLOSE_SLOW_CONSUMER, "slow_consumer")
            return
        self.outbox.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait(Close(code, reason))

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


async def _sender(ws: WebSocket, conn: Connection) -> None:
    while True:
        item = await conn.outbox.get()
        if isinstance(item, Close):
            with contextlib.suppress(Exception):
                await ws.close(code=item.code, reason=item.reason)
            return
        await ws.send_text(item)


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
    conn = Connection(room_id)
    sender = asyncio.create_task(_sender(ws, conn))
    heartbeat: asyncio.Task[None] | None = None
    token: str | None = None
    joined = False
    metrics.connections.inc()
    try:
        try:
            hello, token = await asyncio.wait_for(
                _await_hello(ws, conn, service), timeout=settings.hello_timeout_seconds
            )
        except TimeoutError:
            conn.close(CLOSE_HELLO_TIMEOUT, "hello_timeout")
            await sender
            return
        except ApiError as error:
            conn.send(_error(conn, error, None))
            conn.close(CLOSE_ROOM_NOT_FOUND, error.code)
            await sender
            return
        await hub.join(conn)
        joined = True
        room = await service.load(room_id)
        if conn.seat is not None:
            await service.store.claim_seat(
                room_id, conn.seat, conn.id, settings.presence_ttl_seconds
            )
            await service.publish_control(
                room_id, {"action": "takeover", "seat": conn.seat, "connection": conn.id}
            )
            await service.publish_presence(room_id)
        welcome = await _welcome(service, conn, hello)
        conn.start(welcome.version, welcome.model_dump_json())
        await service.touch(room)
        if welcome.state.thinking:
            service.schedule_computer_turn(room_id)
        heartbeat = asyncio.create_task(_heartbeat(service, conn, room.doc.mode == "computer"))
        await _serve(ws, conn, service, token, sender)
    except WebSocketDisconnect:
        pass
    except ApiError as error:
        conn.send(_error(conn, error, None))
        conn.close(CLOSE_ROOM_GONE, error.code)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(sender, timeout=2)
    except Exception:
        log.exception("websocket failed", extra={"room": room_id})
    finally:
        metrics.connections.dec()
        if heartbeat is not None:
            heartbeat.cancel()
        sender.cancel()
        if joined:
            await hub.leave(conn)
        if conn.seat is not None and joined:
            with contextlib.suppress(Exception):
                if await service.store.release_seat(room_id, conn.seat, conn.id):
                    await service.publish_presence(room_id)
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _await_hello(
    ws: WebSocket, conn: Connection, service: RoomService
) -> tuple[Hello, str | None]:
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
        return message, message.token


async def _welcome(service: RoomService, conn: Connection, hello: Hello) -> WelcomeMessage:
    since = hello.since
    if since is None:
        room, state = await service.state(conn.room_id)
        missed: list[VersionedEvent] = []
        complete = False
    else:
        missed, complete, room = await service.events_since(conn.room_id, since)
        state = service.view(room.doc, room.game, room.version, await service.seats_view(room.doc))
    return WelcomeMessage(
        room=conn.room_id,
        version=room.version,
        seat=conn.seat,
        role="player" if conn.seat is not None else "spectator",
        missed=missed,
        complete=complete,
        state=state,
    )


async def _serve(
    ws: WebSocket,
    conn: Connection,
    service: RoomService,
    token: str | None,
    sender: asyncio.Task[None],
) -> None:
    settings = service.settings
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    receive: asyncio.Task[Any] | None = None
    while True:
        receive = asyncio.ensure_future(_receive_text(ws, settings.max_message_bytes))
        done, _ = await asyncio.wait({receive, sender}, return_when=asyncio.FIRST_COMPLETED)
        if sender in done:
            receive.cancel()
            return  # closed by us (takeover, slow consumer)
        data = receive.result()
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
        await service.move(conn.room_id, token, message)
        return
    result = await service.act(conn.room_id, token, message)
    if isinstance(message, Hint) and result.hint is not None:
        conn.send(
            HintMessage(
                room=conn.room_id, version=result.version, ref=message.ref, move=result.hint
            ).model_dump_json()
        )


async def _heartbeat(service: RoomService, conn: Connection, computer_room: bool) -> None:
    """Keep this seat's presence alive, notice a takeover we missed, tell the room when the
    other seat's presence expired (its process may have died), and restart a computer turn
    whose thinker died."""
    settings = service.settings
    store = service.store
    last_seen: tuple[bool, bool] | None = None
    while True:
        await asyncio.sleep(settings.heartbeat_seconds)
        try:
            if conn.seat is not None:
                alive = await store.refresh_seat(
                    conn.room_id, conn.seat, conn.id, settings.presence_ttl_seconds
                )
                if not alive:
                    holder = await store.redis.get(store.keys(conn.room_id).presence(conn.seat))
                    if holder is not None:
                        conn.close(CLOSE_TAKEN_OVER, "taken_over")
                        return
                    await store.claim_seat(
                        conn.room_id, conn.seat, conn.id, settings.presence_ttl_seconds
                    )
            seen = await store.connected_seats(conn.room_id)
            if last_seen is not None and seen != last_seen:
                await service.publish_presence(conn.room_id)
            last_seen = seen
            if computer_room and not await store.lease_held(conn.room_id):
                room = await service.load(conn.room_id)
                if service.computer_to_move(room):
                    service.schedule_computer_turn(conn.room_id)
        except asyncio.CancelledError:
            raise
        except ApiError as error:
            if error.code == "room_not_found":
                conn.close(CLOSE_ROOM_GONE, "room_gone")
                return
        except Exception:
            log.exception("heartbeat failed", extra={"room": conn.room_id})
