"""The built web client over HTTP: files from ``client/dist``, ``index.html`` for app routes.

Vite names the files under ``assets/`` after a hash of their content, so they are cached
for a year and never asked for again (``immutable``); everything else, ``index.html``
first of all, is revalidated on every load (``no-cache``) so a new release shows at once.
The build also writes Brotli (``.br``) and gzip (``.gz``) copies of text files; the
smallest one the browser accepts is sent, with no compression work per request.
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path, PurePosixPath

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response

from server.settings import Settings

REPO_CLIENT_DIST = Path(__file__).resolve().parent.parent / "client" / "dist"
HASHED_DIR = "assets"
CACHE_HASHED = "public, max-age=31536000, immutable"
CACHE_REVALIDATE = "no-cache"
# Best first: (Content-Encoding, suffix of the pre-compressed copy).
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted_encodings(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header allows (``q=0`` excludes one)."""
    allowed: set[str] = set()
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        quality = params.strip().removeprefix("q=").strip() if "q=" in params else "1"
        try:
            if float(quality) > 0:
                allowed.add(name.strip().lower())
        except ValueError:
            continue
    return allowed


class ClientFiles:
    """Looks up files of one built client directory, never outside it."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    @property
    def built(self) -> bool:
        return (self.root / "index.html").is_file()

    def find(self, path: str) -> Path | None:
        """The file at URL path ``path``, or None for anything missing, hidden or odd."""
        if not path or "\x00" in path or "\\" in path:
            return None
        parts = PurePosixPath(path).parts
        if any(part in ("..", ".") or part.startswith(".") for part in parts):
            return None
        candidate = self.root.joinpath(*parts)
        try:
            if candidate.is_file() and candidate.resolve().is_relative_to(self.root):
                return candidate
        except (OSError, ValueError):  # a name too long for the file system, say
            return None
        return None

    def response(self, request: Request, path: str) -> Response:
        file = self.find(path)
        if file is None:
            if looks_like_file(path):
                return PlainTextResponse("not found", status_code=404)
            file = self.root / "index.html"  # an app route such as /r/{room}: the app decides
        hashed = PurePosixPath(path).parts[:1] == (HASHED_DIR,) and file.name != "index.html"
        headers = {"Cache-Control": CACHE_HASHED if hashed else CACHE_REVALIDATE}
        media_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        sent = file
        variants = [(coding, file.with_name(file.name + suffix)) for coding, suffix in ENCODINGS]
        existing = [(coding, variant) for coding, variant in variants if variant.is_file()]
        if existing:
            headers["Vary"] = "Accept-Encoding"
            accepted = accepted_encodings(request.headers.get("accept-encoding", ""))
            for coding, variant in existing:
                if coding in accepted:
                    headers["Content-Encoding"] = coding
                    sent = variant
                    break
        # With the stat given, the ETag is known now, before the answer is sent.
        response = FileResponse(
            sent, media_type=media_type, headers=headers, stat_result=os.stat(sent)
        )
        if etag_matches(request.headers.get("if-none-match"), response.headers.get("etag")):
            kept = {k: v for k, v in response.headers.items() if k in NOT_MODIFIED_HEADERS}
            return Response(status_code=304, headers=kept)
        return response


NOT_MODIFIED_HEADERS = ("cache-control", "etag", "vary", "content-location", "last-modified")


def looks_like_file(path: str) -> bool:
    """Whether a missing path names a file (``x.js``, ``assets/…``) rather than an app route."""
    if "\x00" in path:
        return True
    parts = PurePosixPath(path).parts
    return bool(parts) and (parts[0] == HASHED_DIR or "." in parts[-1])


def etag_matches(if_none_match: str | None, etag: str | None) -> bool:
    if not if_none_match or not etag:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return bare in (tag.strip().removeprefix("W/") for tag in if_none_match.split(","))


def serve_client(app: FastAPI, settings: Settings) -> None:
    """Answer every path the API does not claim with the built client (GET and HEAD)."""
    files = ClientFiles(settings.client_dist or REPO_CLIENT_DIST)

    async def client(request: Request, path: str) -> Response:
        if not files.built:
            return JSONResponse(
                {"code": "not_found", "message": "the web client is not built (make run)"},
                status_code=404,
            )
        return files.response(request, path)

    app.add_api_route("/{path:path}", client, methods=["GET", "HEAD"], include_in_schema=False)
