"""How many connections a server process takes, and whom it refuses politely.

Every accepted connection costs a file descriptor, and a process that runs out of them
fails in the worst way: ``accept`` stops, a Redis or database connection cannot be opened,
and clients see their connection dropped without a word. So each process:

* raises its soft ``RLIMIT_NOFILE`` to the hard limit when it starts
  (:func:`raise_open_file_limit`); the hard limit is the operator's to set (systemd's
  ``LimitNOFILE``, Docker's ``ulimits``);
* keeps a reserve of descriptors for its own needs (Redis, the database, the computer's
  processes, log files) and takes at most ``capacity`` client connections; past it, a new
  connection is answered ``503 server_full`` (a websocket: closed with 1013, try again
  later) and closed;
* takes at most ``max_connections_per_address`` open connections from one client address
  (reverse proxies in ``trusted_proxies`` excepted: every player arrives through them);
  past it, ``429 rate_limited`` (a websocket: 1013);
* logs refusals as one warning per reason and interval, with the count, not one line per
  refused connection (a crowd refused is a flood of lines otherwise).

The guard sees connections where uvicorn accepts them (:mod:`server.serving`'s protocols)
and marks a refused one in its ASGI scope (:data:`REFUSED`); :class:`RefuseMarked`, an ASGI
middleware, answers it through the app, so the refusal is in the access log and metrics like
any answer. One guard per process (:data:`GUARD`): the descriptor limit is the process's.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import resource
import time
from collections import Counter
from typing import Literal

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from server.errors import http_status
from server.protocol import CLOSE_TRY_AGAIN_LATER, ErrorMessage, encode
from server.refusals import Refusal

log = logging.getLogger("tetrad.connections")

REFUSED = "tetrad.connection.refused"
"""Scope extension of a connection the guard refused: ``{"reason": "server_full" |
"rate_limited"}``."""

RESERVE_FLOOR = 64
RESERVE_SHARE = 4
"""Descriptors kept for the process itself: a quarter of the limit, at least 64 (Redis
connections, one per commit in flight, are the bulk of it under load)."""

LOG_INTERVAL = 10.0
"""Seconds between two warnings about refused connections of the same reason."""

RETRY_AFTER = 5.0
"""Seconds a refused client is told to wait."""

Reason = Literal["server_full", "rate_limited"]
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def raise_open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit on open files to its hard limit; returns the soft
    limit before and after (equal when nothing could or needed to change)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard in (resource.RLIM_INFINITY, soft):
        return soft, soft
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return soft, hard
    return soft, soft


def open_file_limit() -> int:
    """The soft limit on open files of this process (a large number if unlimited)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 20 if soft == resource.RLIM_INFINITY else soft


def capacity_for(limit: int) -> int:
    """Client connections a process with ``limit`` descriptors takes."""
    return max(1, limit - max(RESERVE_FLOOR, limit // RESERVE_SHARE))


def parse_networks(text: str) -> tuple[bool, tuple[Network, ...]]:
    """``trusted_proxies`` as (every address trusted, the networks listed); entries that
    are not addresses are ignored, as uvicorn ignores them."""
    everyone = False
    networks: list[Network] = []
    for entry in (part.strip() for part in text.split(",")):
        if entry == "*":
            everyone = True
        elif entry:
            with contextlib.suppress(ValueError):
                networks.append(ipaddress.ip_network(entry, strict=False))
    return everyone, tuple(networks)


class ConnectionGuard:
    """Counts this process's open client connections, in all and by address, and says
    which new ones to refuse."""

    def __init__(self) -> None:
        self.capacity = capacity_for(open_file_limit())
        self.per_address = 0
        """Open connections one address may hold; 0: no limit."""
        self.idle_seconds = 5.0
        """An HTTP connection that sends no complete request head for this long is closed."""
        self._exempt_all = False
        self._exempt: tuple[Network, ...] = ()
        self._open: dict[object, tuple[str, Reason | None]] = {}
        self._by_address: Counter[str] = Counter()
        self._refused: Counter[str] = Counter()
        self._logged_at: dict[str, float] = {}

    def configure(
        self, per_address: int, trusted_proxies: str, idle_seconds: float, limit: int | None = None
    ) -> None:
        """Take the settings of the app this process serves, and the descriptor limit now
        (after :func:`raise_open_file_limit`)."""
        self.capacity = capacity_for(open_file_limit() if limit is None else limit)
        self.per_address = per_address
        self.idle_seconds = idle_seconds
        self._exempt_all, self._exempt = parse_networks(trusted_proxies)

    @property
    def open(self) -> int:
        return len(self._open)

    def opened(self, connection: object, address: str | None) -> Reason | None:
        """A connection was accepted (``connection``: its transport); why it must be
        refused, if it must. It is counted either way until :meth:`closed`."""
        if connection in self._open:
            return self._open[connection][1]
        key = address or ""
        self._by_address[key] += 1
        reason: Reason | None = None
        if len(self._open) >= self.capacity:
            reason = self._refuse("server_full")
        elif 0 < self.per_address < self._by_address[key] and not self._exempted(key):
            reason = self._refuse("rate_limited")
        self._open[connection] = (key, reason)
        return reason

    def refused(self, connection: object) -> Reason | None:
        """Why ``connection`` was refused when it was accepted (None: it was not)."""
        entry = self._open.get(connection)
        return None if entry is None else entry[1]

    def closed(self, connection: object) -> None:
        entry = self._open.pop(connection, None)
        if entry is None:
            return
        key = entry[0]
        left = self._by_address[key] - 1
        if left > 0:
            self._by_address[key] = left
        else:
            del self._by_address[key]

    def _exempted(self, address: str) -> bool:
        if self._exempt_all:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True  # a unix socket: a local proxy
        return any(ip in network for network in self._exempt)

    def _refuse(self, reason: Reason) -> Reason:
        self._refused[reason] += 1
        now = time.monotonic()
        if now - self._logged_at.get(reason, -LOG_INTERVAL) >= LOG_INTERVAL:
            self._logged_at[reason] = now
            count, self._refused[reason] = self._refused[reason], 0
            log.warning(
                "refusing new connections: %s",
                "too many open connections for this process's file descriptors"
                if reason == "server_full"
                else "too many open connections from one address",
                extra={
                    "reason": reason,
                    "refused": count,
                    "open_connections": len(self._open),
                    "capacity": self.capacity,
                    "per_address": self.per_address,
                },
            )
        return reason


GUARD = ConnectionGuard()
"""This process's guard."""


def refusal(reason: str) -> Refusal:
    if reason == "rate_limited":
        return Refusal(
            "rate_limited",
            "too many open connections from your address; close some and try again",
            retry_after=RETRY_AFTER,
        )
    return Refusal(
        "server_full", "the server is taking no more connections; try again soon",
        retry_after=RETRY_AFTER,
    )  # fmt: skip


class RefuseMarked:
    """ASGI middleware: answers a request or websocket on a connection the guard refused
    (HTTP: the refusal as JSON, ``Connection: close``; websocket: accepted, an ``error``
    event, then closed with 1013) without passing it on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        marked = scope.get("extensions", {}).get(REFUSED) if scope["type"] != "lifespan" else None
        if marked is None:
            await self.app(scope, receive, send)
            return
        refused = refusal(marked["reason"])
        metrics = getattr(getattr(scope.get("app"), "state", None), "metrics", None)
        if metrics is not None:
            metrics.connections_refused.labels(refused.code).inc()
        if scope["type"] == "http":
            headers = {"Retry-After": str(int(RETRY_AFTER)), "Connection": "close"}
            answer = JSONResponse(refused.body(), http_status(refused), headers)
            await answer(scope, receive, send)
        elif scope["type"] == "websocket" and (await receive())["type"] == "websocket.connect":
            notice = ErrorMessage(
                room="",
                version=0,
                code=refused.code,
                message=refused.message,
                retry_after=refused.retry_after,
            )
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": encode(notice)})
            await send(
                {"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER, "reason": refused.code}
            )
