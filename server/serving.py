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

``tetrad serve``, the test suite and the benchmarks all build their uvicorn config here.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools comes with uvicorn[standard]
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

WS_MAX_FRAME = 64 * 1024
"""Largest websocket frame uvicorn accepts; messages over ``max_message_bytes`` are refused
with ``message_too_large`` by the endpoint, larger frames close the connection."""

WS_MAX_QUEUE = 4
"""Incoming frames buffered per connection before reading pauses (uvicorn's ``websockets``
implementation; the default sans-I/O one reads into its own queue, drained by the endpoint,
whose per-connection rate limit answers floods)."""


def set_nodelay(transport: asyncio.BaseTransport) -> None:
    """Turn Nagle's algorithm off for ``transport`` if it is a TCP connection."""
    sock = transport.get_extra_info("socket")
    if sock is None:
        return
    # The socket object's family may be wrong (a TCP socket passed by fd is labelled
    # AF_UNIX), so ask the kernel: setting TCP_NODELAY on a real unix socket just fails.
    with contextlib.suppress(OSError, AttributeError, TypeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class NoDelayH11Protocol(H11Protocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        set_nodelay(transport)
        super().connection_made(transport)


if HttpToolsProtocol is not None:

    class NoDelayHttpToolsProtocol(HttpToolsProtocol):
        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            set_nodelay(transport)
            super().connection_made(transport)

    HTTP_PROTOCOL: type[asyncio.Protocol] = NoDelayHttpToolsProtocol
else:  # pragma: no cover
    HTTP_PROTOCOL = NoDelayH11Protocol


def uvicorn_config(app: Any, **options: Any) -> uvicorn.Config:
    """A uvicorn config with tetrad's transport and websocket settings; ``options`` are
    passed on (host, port, fd, workers, log_level, factory…) and may override them."""
    values: dict[str, Any] = {
        "http": HTTP_PROTOCOL,
        "ws": "websockets-sansio",
        "ws_max_size": WS_MAX_FRAME,
        "ws_max_queue": WS_MAX_QUEUE,
        "ws_per_message_deflate": False,
        "lifespan": "on",
    }
    values.update(options)
    return uvicorn.Config(app, **values)


def inherited_socket(fd: int) -> socket.socket:
    """The listening socket passed as ``fd``, with its real family (so the event loop treats
    a TCP socket as TCP: client addresses, TCP_NODELAY)."""
    return socket.socket(fileno=fd)
