"""The websocket of a room: ``hello`` with the seat token, then commands one way and
versioned events the other (protocol version 2, :mod:`server.protocol`).

Every command is answered by one ``ack`` or ``error`` carrying its ``ref`` — even one that
does not parse — and the connection stays open. A second connection for the same seat
takes over: the old one is closed with code 4001 ("taken_over") by whichever process holds
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.websockets import WebSocketState

from server.errors import ApiError, code_for_validation, unavailable
from server.protocol import (
    CLOSE_HELLO_TIMEOUT,
    CLOSE_ROOM_GONE,
    CLOSE_ROOM_NOT_FOUND,
    AckMessage,
    ClientMessage,
    ErrorMessage,
    EventMessage,
    Hello,
    Hint,
    MakeMove,
    Ping,
    PongMessage,
    ResyncMessage,
    RoomSnapshot,
    Sync,
    WelcomeMessage,
    client_message_adapter,
    to_command,
)
from server.rooms import presence as room_presence
from server.rooms import views
from server.rooms.service import RoomService
from server.store.outage import STORAGE_ERRORS, Outages
from server.ws.connection import Connection, TokenBucket
from server.ws.hub import Hub, Listener

log = logging.getLogger("tetrad.ws")
PATH = "/api/rooms/{room_id}/ws"
CLOSE_TRY_AGAIN_LATER = 1013


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


def _ref_of(data: str) -> str | None:
    """The ``ref`` of a message that did not parse as a command, if it has a usable one."""
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return None
    ref = value.get("ref") if isinstance(value, dict) else None
    if not isinstance(ref, str) or len(ref) > 64:
        return None
    try:  # json.loads lets a lone surrogate (``"\ud83d"``) through; it cannot be sent back
        ref.encode()
    except UnicodeEncodeError:
        return None
    return ref


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


def _parse(data: str) -> ClientMessage | ApiError:
    try:
        return client_message_adapter.validate_json(data)
    except ValidationError as error:
        return validation_to_api_error(error)


async def room_socket(ws: WebSocket) -> None:
    """The websocket route (``PATH``), mounted as a plain Starlette route: no dependency
    solving or exit stacks per connection, which an idle socket would carry all its life."""
    room_id: str = ws.path_params["room_id"]
    service: RoomService = ws.app.state.rooms
    hub: Hub = ws.app.state.hub
    settings = service.settings
    metrics = ws.app.state.metrics
    await ws.accept()
    conn = Connection(room_id, ws, metrics.event_delivery.observe)
    token: str | None = None
    joined = False
    metrics.connections.inc()
    try:
        try:
            async with asyncio.timeout(settings.hello_timeout_seconds):
                hello, seat = await _await_hello(ws, conn, service)
        except TimeoutError:
            conn.close(CLOSE_HELLO_TIMEOUT, "hello_timeout")
            await conn.drain(2)
            return
        except ApiError as error:
            conn.send(_error(conn, error, None))
            conn.close(CLOSE_ROOM_NOT_FOUND, error.code)
            await conn.drain(2)
            return
        token = hello.token
        await hub.join(conn)
        joined = True
        await _open(service, conn, hello, seat)
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
    except STORAGE_ERRORS as error:
        # Storage failed while the connection was being set up: say so, and let the
        # client connect again (1013: try again later).
        _report(ws, error)
        conn.send(_error(conn, unavailable(), None))
        conn.close(CLOSE_TRY_AGAIN_LATER, "unavailable")
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
                    await room_presence.publish_presence(service, room_id)
        if conn.watching:
            conn.watching = False
            with contextlib.suppress(Exception):
                if await service.store.remove_spectator(room_id, conn.id):
                    await room_presence.publish_presence(service, room_id)
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _await_hello(
    ws: WebSocket, conn: Connection, service: RoomService
) -> tuple[Hello, int | None]:
    """Wait for ``hello`` with a token that holds a seat here (or none: a spectator);
    returns it and the seat."""
    limit = service.settings.max_message_bytes
    while True:
        data = await _receive_text(ws, limit)
        if isinstance(data, ApiError):
            conn.send(_error(conn, data, None))
            continue
        message = _parse(data)
        if isinstance(message, ApiError):
            conn.send(_error(conn, message, _ref_of(data)))
            continue
        if not isinstance(message, Hello):
            conn.send(_error(conn, ApiError("bad_request", "say hello first"), message.ref))
            continue
        try:  # room_not_found ends the connection
            loaded, seat = await service.seat_for(conn.room_id, message.token)
        except STORAGE_ERRORS as failed:
            _report(ws, failed)
            conn.send(_error(conn, unavailable(), message.ref))
            continue
        if message.token and seat is None:
            error = ApiError("bad_token", "this token holds no seat here; hello again")
            conn.send(_error(conn, error, message.ref))
            continue
        # Presence is kept per human: against the computer and on one device there is one,
        # whose seat a new game may swap, so it is always kept as seat 0.
        one_human = loaded.room.mode in ("computer", "local")
        conn.seat = None if seat is None else 0 if one_human else seat
        return message, seat


async def _open(service: RoomService, conn: Connection, hello: Hello, seat: int | None) -> None:
    """Claim the seat (taking it over from another tab), send the welcome."""
    room_id = conn.room_id
    settings = service.settings
    if conn.seat is not None:
        await service.store.claim_seat(room_id, conn.seat, conn.id, settings.presence_ttl_seconds)
        await room_presence.publish_takeover(service, room_id, conn.seat, conn.id)
    else:
        # Counted before the welcome is read, so the spectator sees itself among those watching.
        conn.watching = True
        await service.store.add_spectator(room_id, conn.id, settings.presence_ttl_seconds)
    await room_presence.publish_presence(service, room_id)
    version, events, snapshot = await _catch_up(service, room_id, hello.since)
    loaded, presence = await service.presence_of(room_id)
    welcome = WelcomeMessage(
        room=room_id,
        version=version,
        seat=None if seat is None else (0 if seat == 0 else 1),
        role="player" if seat is not None else "spectator",
        seats=views.seat_views(loaded.room, presence),
        spectators=presence.spectators,
        events=events,
        snapshot=snapshot,
    )
    conn.computer_room = loaded.room.mode == "computer"
    conn.start(version, welcome.model_dump_json())
    await service.touch(loaded.room)
    if loaded.room.computer_to_move:
        service.on_computer_turn(room_id)


async def _catch_up(
    service: RoomService, room_id: str, since: int | None
) -> tuple[int, list[EventMessage], RoomSnapshot | None]:
    """What brings a client holding ``since`` up to date: the events after it, or a snapshot."""
    if since is not None:
        version, texts = await service.events_since(room_id, since)
        if texts is not None:
            return version, [EventMessage.model_validate_json(text) for text in texts], None
    loaded, snapshot = await service.snapshot(room_id)
    return loaded.version, [], snapshot


async def catch_up_listeners(service: RoomService, room_id: str, listeners: list[Listener]) -> None:
    """After the subscriber reconnected: bring each listener of the room up to date."""
    connections = [c for c in listeners if isinstance(c, Connection) and c.ready]
    for listener in listeners:
        if not isinstance(listener, Connection):
            listener.deliver("event", 0, "")  # a long poll: answer now, it reads the history
    if not connections:
        return
    oldest = min(conn.version for conn in connections)
    version, texts = await service.events_since(room_id, oldest)
    if texts is not None:
        for offset, text in enumerate(texts):
            for conn in connections:
                conn.deliver("event", version - len(texts) + 1 + offset, text)
        return
    for conn in connections:
        if conn.version < version:
            await _resync(service, conn, None)


async def _resync(service: RoomService, conn: Connection, ref: str | None) -> None:
    version, events, snapshot = await _catch_up(service, conn.room_id, conn.version or None)
    message = ResyncMessage(
        room=conn.room_id, version=version, ref=ref, events=events, snapshot=snapshot
    )
    conn.resynced(version, message.model_dump_json())


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
            error = ApiError("rate_limited", "too many messages; slow down")
            conn.send(_error(conn, error, _ref_of(data)))
            continue
        message = _parse(data)
        if isinstance(message, ApiError):
            conn.send(_error(conn, message, _ref_of(data)))
            continue
        try:
            await _handle(conn, service, token, message)
        except ApiError as error:
            if error.code == "room_not_found":
                raise
            conn.send(_error(conn, error, message.ref))
        except STORAGE_ERRORS as error:
            _report(ws, error)  # the socket stays: the client sends the command again
            conn.send(_error(conn, unavailable(), message.ref))


def _report(ws: WebSocket, error: BaseException) -> None:
    outages: Outages | None = getattr(ws.app.state, "outages", None)
    if outages is not None:
        outages.report(error, "websocket")


async def _handle(
    conn: Connection, service: RoomService, token: str | None, message: ClientMessage
) -> None:
    room_id = conn.room_id
    if isinstance(message, Ping):
        conn.send(
            PongMessage(room=room_id, version=conn.version, ref=message.ref).model_dump_json()
        )
        return
    if isinstance(message, Hello):
        raise ApiError("bad_request", "hello was already said on this connection")
    if isinstance(message, Sync):
        since = conn.version if message.since is None else message.since
        conn.version = min(conn.version, since)
        await _resync(service, conn, message.ref)
        return
    if isinstance(message, Hint):
        done = await service.hint(room_id, token)
    else:
        done = await service.command(room_id, token, to_command(message))
    move_id = message.move_id if isinstance(message, MakeMove) else None
    if done.hint is None:
        ack = views.ack_text(room_id, done.version, message.ref, move_id, done.duplicate)
        conn.send(ack)
        return
    hinted = AckMessage(
        room=room_id,
        version=done.version,
        ref=message.ref,
        duplicate=done.duplicate,
        hint=done.hint,
    )
    conn.send(hinted.model_dump_json())
