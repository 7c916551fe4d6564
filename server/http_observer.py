"""Every HTTP request and websocket seen once on its way out: a line in the access log and
the request metrics (count and duration by route template, method and status).

Paths are logged without their query strings, and metrics are labelled by the route's
template (``/api/rooms/{room_id}``), so neither room ids nor anything secret ends up in a
label, and the label set stays small.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from redis.exceptions import RedisError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("tetrad.access")
UNMATCHED = "unmatched"


def route_template(scope: Scope) -> str:
    """The template of the route that served ``scope`` (set by the router), if any."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class HttpObserver:
    """ASGI middleware; the metrics come from ``app.state.metrics`` once the app has started."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0

        async def observed_send(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = int(message["status"])
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and status == 0:
                status = 403  # closed before the handshake completed: refused
            elif kind == "websocket.http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, observed_send)
        except BaseException as error:
            status = status or 500
            if isinstance(error, RedisError):
                metrics = _metrics(scope)
                if metrics is not None:
                    metrics.count_redis_error(error)
            raise
        finally:
            self._observe(scope, status, time.perf_counter() - started)

    @staticmethod
    def _observe(scope: Scope, status: int, seconds: float) -> None:
        websocket = scope["type"] == "websocket"
        method = "WS" if websocket else scope.get("method", "")
        route = route_template(scope)
        metrics = _metrics(scope)
        if metrics is not None:
            metrics.observe_request(method, route, status, seconds)
        client = scope.get("client")
        log.info(
            "%s %s %s",
            method,
            scope.get("path", ""),
            status,
            extra={
                "method": method,
                "path": scope.get("path", ""),
                "route": route,
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
                "client": client[0] if client else None,
                "scheme": scope.get("scheme"),
            },
        )


def _metrics(scope: Scope) -> Any:
    app = scope.get("app")
    state = getattr(app, "state", None)
    return getattr(state, "metrics", None)
