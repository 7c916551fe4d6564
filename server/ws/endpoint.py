"""The websocket of a room: ``hello`` with the seat token, then commands one way and
versioned events the other (:mod:`server.protocol`).

Every command is answered by one ``ack`` or ``error`` carrying its ``ref`` — even one that
does not parse — and the connection stays open. A second connection for the same seat
takes over: the old one is closed with code 4001 ("taken_over") by whichever process holds
it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.routing import Match, WebSocketRoute
from starlette.types import Scope
from starlette.websockets import WebSocketState

from server.bots.accounts import TOKEN_PREFIX, token_hash
from server.bots.streams import BotStreams
from server.errors import code_for_validation
from server.protocol import (
    CLOSE_BAD_TOKEN,
    CLOSE_HELLO_TIMEOUT,
    CLOSE_POLICY_VIOLATION,
    CLOSE_ROOM_GONE,
    CLOSE_ROOM_NOT_FOUND,
    CLOSE_TRY_AGAIN_LATER,
    AckMessage,
    ClientMessage,
    ErrorMessage,
    Hello,
    Hint,
    LineValues,
    MakeMove,
    Ping,
    PongMessage,
    ResyncMessage,
    Sync,
    WelcomeMessage,
    client_message_adapter,
    encode,
    event_message_adapter,
    play_command,
)
from server.refusals import Refusal, unavailable
from server.rooms import views
from server.rooms.history import CatchUp
from server.rooms.service import Done, RoomService
from server.settings import Settings
from server.store.outage import STORAGE_ERRORS, Outages
from server.ws.connection import Connection, TokenBucket
from server.ws.hub import Hub, Listener

log = logging.getLogger("tetrad.ws")
PATH = "/api/rooms/{room_id}/ws"


@dataclass(frozen=True, slots=True)
class Rejected:
    """A message refused before it was parsed, and its ``ref`` if one could be read."""

    error: Refusal
    ref: str | None = None


def _error(conn: Connection, error: Refusal, ref: str | None) -> str:
    return encode(
        ErrorMessage(
            room=conn.room_id,
            version=conn.version,
            ref=ref,
            code=error.code,
            message=error.message,
            details=error.details or None,
            retry_after=error.retry_after,
        )
    )


def validation_to_api_error(error: ValidationError) -> Refusal:
    """A pydantic refusal as ``bad_request``, or ``invalid_move`` if only the move was bad."""
    problems = error.errors(include_url=False, include_input=False)
    first = problems[0] if problems else None
    where = ".".join(str(part) for part in first["loc"]) if first else ""
    what = first["msg"] if first else "invalid message"
    code = code_for_validation([tuple(p["loc"]) for p in problems], tagged=True)
    return Refusal(code, f"{where}: {what}" if where else what)


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


async def _receive_text(ws: WebSocket, limit: int) -> str | Rejected:
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    data = message.get("text")
    if data is None:
        raw = message.get("bytes") or b""
        try:
            data = raw.decode()
        except UnicodeDecodeError:
            return Rejected(
                _too_large(limit)
                if len(raw) > limit
                else Refusal("bad_request", "messages are JSON text")
            )
    if len(data) > limit or len(data.encode()) > limit:
        return Rejected(_too_large(limit), _ref_of(data))
    return data


def _too_large(limit: int) -> Refusal:
    return Refusal("message_too_large", f"messages are limited to {limit} bytes")


def _parse(data: str) -> ClientMessage | Refusal:
    try:
        return client_message_adapter.validate_json(data)
    except ValidationError as error:
        return validation_to_api_error(error)


class RoomSocketRoute(WebSocketRoute):
    """The room socket as a plain Starlette route (no dependency solving or exit stacks per
    connection, which an idle socket would carry all its life) that names itself in the
    scope as FastAPI's routes do, so logs and metrics show its template, not "unmatched"."""

    def __init__(self) -> None:
        super().__init__(PATH, room_socket)

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match is not Match.NONE:
            child["route"] = self
        return match, child


async def room_socket(ws: WebSocket) -> None:
    """The websocket route (``PATH``, :class:`RoomSocketRoute`)."""
    room_id: str = ws.path_params["room_id"]
    service: RoomService = ws.app.state.rooms
    hub: Hub = ws.app.state.hub
    settings = service.settings
    metrics = ws.app.state.metrics
    if not origin_allowed(ws.headers.get("origin"), ws.headers.get("host"), settings):
        # Before the handshake: the browser sees it fail (403), a page elsewhere learns
        # nothing of the room.
        log.info("websocket refused: foreign origin", extra={"origin": ws.headers["origin"]})
        await ws.close(CLOSE_POLICY_VIOLATION, "origin_not_allowed")
        return
    await ws.accept()
    conn = Connection(room_id, ws, metrics.event_delivery.observe)
    token: str | None = None
    joined = False
    forget: Callable[[], None] | None = None
    metrics.connections.inc()
    try:
        try:
            async with asyncio.timeout(settings.hello_timeout_seconds):
                hello, seat = await _await_hello(ws, conn, service)
        except TimeoutError:
            conn.close(CLOSE_HELLO_TIMEOUT, "hello_timeout")
            await conn.drain(2)
            return
        except Refusal as error:
            conn.send(_error(conn, error, None))
            conn.close(
                CLOSE_BAD_TOKEN if error.code == "bad_token" else CLOSE_ROOM_NOT_FOUND, error.code
            )
            await conn.drain(2)
            return
        token = hello.token
        if token is not None and token.startswith(TOKEN_PREFIX):
            # A bot's own token: a revocation closes this socket at once.
            streams: BotStreams = ws.app.state.bots.streams
            forget = streams.watch_socket(
                token_hash(token), lambda: conn.close(CLOSE_BAD_TOKEN, "bad_token")
            )
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
    except Refusal as error:
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
        if forget is not None:
            forget()
        metrics.connections.dec()
        conn.closing = True
        if joined:
            await hub.leave(conn)
        if joined and (conn.presence_slot is not None or conn.watching):
            with contextlib.suppress(Exception):
                await service.presence.depart(conn)
            conn.watching = False
        if ws.application_state != WebSocketState.DISCONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


def origin_allowed(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a websocket that says it comes from ``origin`` may connect: no ``Origin``
    (a program, not a page), the server's own (the same host as the request's, the public
    URL's) or one of ``allowed_origins``."""
    if origin is None:
        return True
    parsed = urlsplit(origin.strip().lower())
    netloc = parsed.netloc
    if not netloc:
        return False  # "null" (a sandboxed frame, a file) and the like
    if host is not None and netloc == host.strip().lower():
        return True
    return f"{parsed.scheme}://{netloc}" in allowed_origins(settings)


@functools.cache
def _allowed(public_url: str | None, listed: str) -> frozenset[str]:
    found = set()
    for url in [public_url or "", *listed.split(",")]:
        parsed = urlsplit(url.strip().lower())
        if parsed.scheme and parsed.netloc:
            found.add(f"{parsed.scheme}://{parsed.netloc}")
    return frozenset(found)


def allowed_origins(settings: Settings) -> frozenset[str]:
    """The origins ``scheme://host[:port]`` the settings name (beside the request's own)."""
    return _allowed(settings.public_url, settings.allowed_origins)


async def _await_hello(
    ws: WebSocket, conn: Connection, service: RoomService
) -> tuple[Hello, int | None]:
    """Wait for ``hello`` with a token that holds a seat here (or none: a spectator);
    returns it and the seat."""
    limit = service.settings.max_message_bytes
    while True:
        data = await _receive_text(ws, limit)
        if isinstance(data, Rejected):
            conn.send(_error(conn, data.error, data.ref))
            continue
        message = _parse(data)
        if isinstance(message, Refusal):
            conn.send(_error(conn, message, _ref_of(data)))
            continue
        if not isinstance(message, Hello):
            conn.send(_error(conn, Refusal("bad_request", "say hello first"), message.ref))
            continue
        try:  # room_not_found ends the connection
            loaded, seat = await service.seat_for(conn.room_id, message.token)
        except STORAGE_ERRORS as failed:
            _report(ws, failed)
            conn.send(_error(conn, unavailable(), message.ref))
            continue
        if message.token and seat is None:
            # Ends the connection: a token that holds no seat will not hold one on retry.
            raise Refusal("bad_token", "this token holds no seat in this room")
        conn.presence_slot = None if seat is None else loaded.room.presence_slot(seat)
        conn.watching = seat is None
        conn.computer_room = loaded.room.mode == "computer"
        conn.clocked_room = loaded.room.clock is not None
        return message, seat


async def _open(service: RoomService, conn: Connection, hello: Hello, seat: int | None) -> None:
    """Claim the seat's presence slot (taking it over from another tab) or count the
    spectator — before the welcome is read, so a spectator sees itself among those watching —
    keep the room alive (a player's socket), then send the welcome (a socket welcomed has
    written all it needs: a storage failure before it closes the socket with 1013, none
    comes after)."""
    room_id = conn.room_id
    # A spectator's arrival reads the room's presence, version and expiry with it (one
    # round trip for a crowd arriving together), and its welcome is made from that and this
    # process's copy of the room when it is at that version.
    counted = await service.presence.arrive(conn)
    caught = await service.catch_up(room_id, hello.since, counted)
    loaded = await service.load(room_id)
    if seat is not None:  # a player's visit keeps the room; a crowd watching writes nothing
        await service.touch(loaded.room)
    if caught.snapshot is not None:  # read just now, with the presence
        seats, spectators = caught.snapshot.seats, caught.snapshot.spectators
    else:
        if counted is not None:
            found = counted.presence
            presence = views.Presence(found.connected, found.spectators)
        else:
            presence = await service.presence.now(room_id)
        seats, spectators = views.seat_views(loaded.room, presence), presence.spectators
    clock = loaded.room.clock
    welcome = WelcomeMessage(
        room=room_id,
        version=caught.version,
        seat=None if seat is None else (0 if seat == 0 else 1),
        role="player" if seat is not None else "spectator",
        seats=seats,
        spectators=spectators,
        events=_parsed(caught),
        snapshot=caught.snapshot,
        clock=None if clock is None else views.clock_view(clock, time.time()),
    )
    conn.start(caught.version, encode(welcome))


def _parsed(caught: CatchUp) -> tuple[Any, ...]:
    """The event messages of a catch-up, to carry inside a welcome or a resync."""
    return tuple(event_message_adapter.validate_json(text) for text in caught.events)


async def catch_up_listeners(service: RoomService, room_id: str, listeners: list[Listener]) -> None:
    """After the subscriber reconnected: bring each listener of the room up to date."""
    connections = [c for c in listeners if isinstance(c, Connection) and c.ready]
    for listener in listeners:
        if not isinstance(listener, Connection):
            listener.deliver("event", 0, "")  # a long poll: answer now, it reads the history
    if not connections:
        return
    oldest = min(conn.version for conn in connections)
    caught = await service.catch_up(room_id, oldest)
    if caught.snapshot is None:
        first = caught.version - len(caught.events) + 1
        for offset, text in enumerate(caught.events):
            for conn in connections:
                conn.deliver("event", first + offset, text)
        return
    for conn in connections:
        if conn.version < caught.version:
            await _resync(service, conn, conn.version, None)


async def _resync(
    service: RoomService, conn: Connection, since: int | None, ref: str | None
) -> None:
    """Send one resync that brings the socket from ``since`` up to date."""
    caught = await service.catch_up(conn.room_id, since)
    message = ResyncMessage(
        room=conn.room_id,
        version=caught.version,
        ref=ref,
        events=_parsed(caught),
        snapshot=caught.snapshot,
    )
    conn.resynced(caught.version, encode(message))


async def _bring_up_to(service: RoomService, conn: Connection, done: Done) -> None:
    """Send the socket every event up to ``done.version`` that it has not had yet (before
    the ack naming that version): the events the command itself committed when they follow
    what it has, else what the history holds."""
    if conn.version >= done.version:
        return
    committed = done.events
    first = done.version - len(committed) + 1
    if committed and conn.version == first - 1:
        for offset, text in enumerate(committed):
            conn.deliver("event", first + offset, text, done.committed_at)
        return
    caught = await service.catch_up(conn.room_id, conn.version)
    if caught.snapshot is not None:
        conn.resynced(
            caught.version,
            encode(
                ResyncMessage(
                    room=conn.room_id, version=caught.version, events=(), snapshot=caught.snapshot
                )
            ),
        )
        return
    start = caught.version - len(caught.events) + 1
    for offset, text in enumerate(caught.events):
        conn.deliver("event", start + offset, text)


async def _serve(ws: WebSocket, conn: Connection, service: RoomService, token: str | None) -> None:
    settings = service.settings
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    while not conn.closing:
        conn.receiving = True
        try:
            data = await _receive_text(ws, settings.max_message_bytes)
        finally:
            conn.receiving = False
        if isinstance(data, Rejected):
            conn.send(_error(conn, data.error, data.ref))
            continue
        if not bucket.take():
            error = Refusal(
                "rate_limited", "too many messages; slow down", retry_after=bucket.wait()
            )
            conn.send(_error(conn, error, _ref_of(data)))
            continue
        message = _parse(data)
        if isinstance(message, Refusal):
            conn.send(_error(conn, message, _ref_of(data)))
            continue
        try:
            await _handle(conn, service, token, message)
        except Refusal as error:
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
        conn.send(encode(PongMessage(room=room_id, version=conn.version, ref=message.ref)))
        return
    if isinstance(message, Hello):
        raise Refusal("bad_request", "hello was already said on this connection")
    if isinstance(message, Sync):
        await _resync(service, conn, message.since, message.ref)
        return
    if token is None:
        raise Refusal("not_allowed", "spectators watch; only the seats' holders play")
    if isinstance(message, Hint):
        done = await service.hint(room_id, token)
    elif isinstance(message, LineValues):
        done = await service.line_values(room_id, token)
    elif isinstance(message, MakeMove):
        done = await service.execute(room_id, token, play_command(message))
    else:
        done = await service.execute(room_id, token, message)
    ack = AckMessage(
        room=room_id,
        version=done.version,
        ref=message.ref,
        move_id=message.move_id if isinstance(message, MakeMove) else None,
        duplicate=done.duplicate,
        hint=done.hint,
        line_values=done.line_values,
    )
    conn.hold()
    try:
        await _bring_up_to(service, conn, done)
        conn.send(encode(ack))
    finally:
        conn.release()
