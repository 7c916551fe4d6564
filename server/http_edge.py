"""What every HTTP answer carries at the edge: security headers, and HEAD wherever GET works.

Both are plain ASGI middlewares, outermost in the stack, so that API answers, the web
client and refusals made by other middlewares (413) are covered alike.
"""

from __future__ import annotations

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The web client: its own scripts, styles and sockets only; nothing inline, no frames.
CLIENT_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# JSON, files and anything else that is not a page: it may load nothing at all.
NON_PAGE_POLICY = "default-src 'none'; frame-ancestors 'none'"
# FastAPI's interactive API pages load Swagger UI / ReDoc from their CDN with an inline
# starter script; they hold no player data, but stay unframeable.
DOCS_PAGES = ("/docs", "/docs/oauth2-redirect", "/redoc")
DOCS_POLICY = (
    "default-src 'none'; script-src 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "font-src https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
    "https://cdn.redoc.ly; connect-src 'self'; worker-src blob:; frame-ancestors 'none'"
)
ALWAYS = {
    "X-Content-Type-Options": "nosniff",
    # Invite codes live in room URLs: never hand them to another site.
    "Referrer-Policy": "no-referrer",
}


def policy_for(path: str, status: int, content_type: str) -> str:
    if path in DOCS_PAGES:
        return DOCS_POLICY
    # A 304 revalidates a cached client file (index.html above all) and has no body type;
    # browsers take its policy for the cached page, so it must be the page's policy.
    if content_type.startswith("text/html") or status == 304:
        return CLIENT_POLICY
    return NON_PAGE_POLICY


class SecurityHeaders:
    """Add the Content-Security-Policy, ``nosniff`` and ``no-referrer`` to every answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in ALWAYS.items():
                    headers.setdefault(name, value)
                policy = policy_for(path, message["status"], headers.get("content-type", ""))
                headers.setdefault("Content-Security-Policy", policy)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class HeadAsGet:
    """Answer HEAD as the same GET would be answered, headers only (RFC 9110 §9.3.2).

    FastAPI routes list their methods one by one, so without this ``HEAD /healthz`` or
    ``HEAD /`` would be 405 while GET works.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        finished = False

        async def headers_only(message: Message) -> None:
            nonlocal finished
            if message["type"] != "http.response.body":
                await send(message)
            elif not finished and not message.get("more_body", False):
                finished = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})

        await self.app({**scope, "method": "GET"}, receive, headers_only)
