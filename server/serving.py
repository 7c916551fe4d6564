"""How tetrad runs under uvicorn: the one place that sets transport and websocket options.

Two settings matter for a realtime game server and are easy to lose:

* ``TCP_NODELAY`` on every accepted connection. Without it, Nagle's algorithm holds a small
  websocket frame back until the peer's (delayed) ACK of the previous one arrives, which adds
  tens of milliseconds to a move. Event loops set it for sockets they know to be TCP, but a
  listening socket handed over by file descriptor (``uvicorn --fd``, socket activation)
  arrives labelled as a unix socket, and then nobody does. :class:`NoDelayHttpToolsProtocol`
  sets it on every connection, whatever the loop and however the socket came.
* No per-message deflate: a zlib context on each side of every websocket costs about 50 KiB
  per connection, far more than the small JSON frames of a room save by compression.

And one addition to the websocket protocol, an ASGI server extension (:data:`WRITE_NOW`):
a room socket writes each event through the ASGI ``send`` of every middleware, Starlette's
websocket and uvicorn's protocol, and from a task of its own, about as much work as the rest
of a move. The extension writes a text frame at once, from the caller, when the connection
is open and its transport takes data; otherwise it says no and the caller uses ``send``.

And the connection's life at the edge (:mod:`server.connection_guard`): every connection is
counted when accepted and when lost; one the guard refuses (too many for the process's file
descriptors, or for one address) is marked in its scope and answered by the app; one that
sends no request within the guard's ``idle_seconds`` (or stops halfway through its headers
for as long) is closed, as uvicorn closes idle keep-alive connections after
``timeout_keep_alive``: idle sockets would otherwise hold a descriptor for ever.

``tetrad serve``, the test suite and the benchmarks all build their uvicorn config here.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import PayloadTooBig
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import State

from server.connection_guard import GUARD, REFUSED
from server.protocol import ErrorMessage, encode

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

WS_MAX_FRAME = 64 * 1024
"""Largest websocket message uvicorn reads; messages over ``max_message_bytes`` are refused
with ``message_too_large`` by the endpoint and the socket stays, larger ones are refused with
``message_too_large`` too and the connection is closed (1009) without reading them."""

WS_MAX_QUEUE = 4
"""Incoming frames buffered per connection before reading pauses (uvicorn's ``websockets``
implementation; the default sans-I/O one reads into its own queue, drained by the endpoint,
whose per-connection rate limit answers floods)."""


KEEP_ALIVE_SECONDS = 5
"""An HTTP connection idle this long after an answer is closed (uvicorn's default;
``tetrad serve`` sets ``TETRAD_HTTP_IDLE_SECONDS``)."""


IDLE_SECOND_LOOK = 1.0
"""Seconds an idle connection gets after its timer fired, before it is closed."""


WRITE_NOW = "tetrad.websocket.write_now"
"""The scope extension (``scope["extensions"][WRITE_NOW]["write"]``) of
:class:`RoomWebSocketProtocol`: ``write(*texts) -> bool`` writes text frames at once, in one
write, if the connection is open and its transport is not paused (True), else writes nothing
(False)."""


class RoomWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, which writes frames at once when asked
    (:data:`WRITE_NOW`) and says why when a message is too large to read.

    Past ``ws_max_size`` the websocket library fails the connection with 1009 and uvicorn
    drops the transport at once; the client, still writing, often sees only a reset. Here
    the documented ``error`` event (``message_too_large``) goes out first, then the close
    frame, and the connection is half-closed: what the client still sends is read and
    discarded until it closes its side (or ``CLOSE_AFTER`` seconds pass), so nothing it was
    told is lost to a reset.
    """

    CLOSE_AFTER = 5.0
    _refused = False

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:  # the handshake was accepted: the app will run
            scope["extensions"][WRITE_NOW] = {"write": self.write_now}
            refused = GUARD.refused(self.transport)
            if refused is not None:
                scope["extensions"][REFUSED] = {"reason": refused}

    def connection_lost(self, exc: Exception | None) -> None:
        GUARD.closed(self.transport)
        super().connection_lost(exc)
        scope = getattr(self, "scope", None)
        if scope is not None:
            # The extension is a method of this protocol kept in its own scope: a reference
            # cycle that would leave the connection's memory (its protocol, buffers, request
            # and app state) to the garbage collector's rare full passes, not to its last
            # reference going away. Under churn the heap grew round after round.
            scope["extensions"].pop(WRITE_NOW, None)

    def write_now(self, *texts: str) -> bool:
        """Write each of ``texts`` as a frame now, all in one write to the transport, if the
        connection is open and its transport takes data; False (nothing written) while the
        handshake, a close or a paused transport means the ASGI ``send`` must do it (and
        wait, or fail, as it does)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        conn = self.conn
        if conn.state is not State.OPEN or conn.expect_continuation_frame:
            return False  # the client's close arrived: ``send`` reports it
        if conn.extensions:  # none is negotiated by tetrad's config; if one were, it frames
            for text in texts:
                conn.send_text(text.encode())
            self.transport.write(b"".join(conn.data_to_send()))
            return True
        pending = conn.data_to_send()  # nothing, unless a control frame waits
        self.transport.write(b"".join([*pending, *map(text_frame, texts)]))
        return True

    def handle_parser_exception(self) -> None:
        if not isinstance(self.conn.parser_exc, PayloadTooBig):
            super().handle_parser_exception()
            return
        if self._refused:
            return  # the rest of the refused message, discarded by the parser
        self._refused = True
        notice = encode(
            ErrorMessage(
                room=_room_of(str(self.scope.get("path", ""))),
                version=0,
                code="message_too_large",
                message=f"messages are limited to {self.config.ws_max_size} bytes",
            )
        )
        frame = Frame(Opcode.TEXT, notice.encode()).serialize(mask=False)
        output = [frame, *(chunk for chunk in self.conn.data_to_send() if chunk)]
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1009, "reason": ""})
        self.close_sent = True
        self.transport.write(b"".join(output))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.close_timer = self.loop.call_later(self.CLOSE_AFTER, self.transport.close)


class LastFramed:
    """A text as a server's text frame (unmasked, no extension), the last one kept: the
    hub hands the same message to every socket of a room one after the other, so a crowd's
    presence message is encoded and framed once, not once per socket."""

    def __init__(self) -> None:
        self._text = ""
        self._framed = b""

    def __call__(self, text: str) -> bytes:
        if text is not self._text:  # the very object: it is kept, so its id is not reused
            self._framed = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
            self._text = text
        return self._framed


text_frame = LastFramed()


def _room_of(path: str) -> str:
    """The room id of a room socket's path (``/api/rooms/{room_id}/ws``)."""
    parts = path.strip("/").split("/")
    return parts[2] if len(parts) == 4 and parts[:2] == ["api", "rooms"] else ""


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off for ``transport`` if it is a TCP connection."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    # The socket object's family may be wrong (a TCP socket passed by fd is labelled
    # AF_UNIX), so ask the kernel: setting TCP_NODELAY on a real unix socket just fails.
    with contextlib.suppress(OSError, AttributeError, TypeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class GuardedHttp:
    """What tetrad's HTTP protocols add to uvicorn's (a mixin, before the uvicorn class):
    TCP_NODELAY, the connection guard, and the deadline of a request's head."""

    transport: asyncio.Transport
    client: tuple[str, int] | None
    loop: asyncio.AbstractEventLoop
    cycle: Any
    timeout_keep_alive_task: asyncio.TimerHandle | None
    _idle_noticed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        set_nodelay(transport)
        super().connection_made(transport)  # type: ignore[misc]
        GUARD.opened(transport, self.client[0] if self.client else None)
        self._await_request_head()

    def connection_lost(self, exc: Exception | None) -> None:
        GUARD.closed(self.transport)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        self._idle_noticed = False
        super().data_received(data)  # type: ignore[misc]
        if self.transport.get_protocol() is self and (  # type: ignore[comparison-overlap]
            self.cycle is None or self.cycle.response_complete
        ):
            self._await_request_head()  # a head begun, not finished: it has as long again

    def _await_request_head(self) -> None:
        if self.transport.is_closing():
            return
        if self.timeout_keep_alive_task is not None:
            self.timeout_keep_alive_task.cancel()
        self.timeout_keep_alive_task = self.loop.call_later(
            GUARD.idle_seconds, self.timeout_keep_alive_handler
        )

    def timeout_keep_alive_handler(self) -> None:
        """Close an idle connection (uvicorn's keep-alive timer and ours), after a second
        look: on a starved event loop the timer may fire before the bytes that arrived in
        time are handed over, and those must not be taken for silence."""
        if not self._idle_noticed:
            self._idle_noticed = True
            self.timeout_keep_alive_task = self.loop.call_later(
                IDLE_SECOND_LOOK, self.timeout_keep_alive_handler
            )
            return
        super().timeout_keep_alive_handler()  # type: ignore[misc]

    def _mark_refused(self, scope: Any) -> None:
        refused = GUARD.refused(self.transport)
        if refused is not None:
            scope.setdefault("extensions", {})[REFUSED] = {"reason": refused}


class NoDelayH11Protocol(GuardedHttp, H11Protocol):
    def handle_events(self) -> None:
        super().handle_events()
        if self.scope is not None:
            self._mark_refused(self.scope)


if HttpToolsProtocol is not None:

    class NoDelayHttpToolsProtocol(GuardedHttp, HttpToolsProtocol):
        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._mark_refused(self.scope)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The parser calls this protocol back and the protocol holds the parser: uvicorn
            # breaks that cycle when the connection is lost, which after an upgrade is told
            # to the websocket protocol, not to this one.
            self.parser = None  # type: ignore[assignment]

    HTTP_PROTOCOL: type[asyncio.Protocol] = NoDelayHttpToolsProtocol
else:  # pragma: no cover
    HTTP_PROTOCOL = NoDelayH11Protocol


def uvicorn_config(app: Any, **options: Any) -> uvicorn.Config:
    """A uvicorn config with tetrad's transport and websocket settings; ``options`` are
    passed on (host, port, fd, workers, log_level, factory…) and may override them."""
    values: dict[str, Any] = {
        "http": HTTP_PROTOCOL,
        "ws": RoomWebSocketProtocol,
        "ws_max_size": WS_MAX_FRAME,
        "ws_max_queue": WS_MAX_QUEUE,
        "ws_per_message_deflate": False,
        "lifespan": "on",
        "timeout_keep_alive": KEEP_ALIVE_SECONDS,
    }
    values.update(options)
    return uvicorn.Config(app, **values)


def inherited_socket(fd: int) -> socket.socket:
    """The listening socket passed as ``fd``, with its real family (so the event loop treats
    a TCP socket as TCP: client addresses, TCP_NODELAY)."""
    return socket.socket(fileno=fd)
