"""The HTTP edge against a real uvicorn: the built client with caching and compression,
security headers on every answer, HEAD wherever GET works, odd paths refused quietly."""

from __future__ import annotations

import gzip
import logging
from pathlib import Path

import httpx
import pytest

from tests.conftest import LiveServer, StartServer
from tests.server.room_client import create_room

INDEX = b"<!doctype html><html><script type=module src=/assets/app-1a2b3c.js></script></html>"
APP_JS = b"console.log('tetrad');\n" * 200


@pytest.fixture
def dist(tmp_path: Path) -> Path:
    """A built client as Vite and scripts/compress.mjs leave it."""
    root = tmp_path / "dist"
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_bytes(INDEX)
    (root / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (root / "assets" / "app-1a2b3c.js").write_bytes(APP_JS)
    (root / "assets" / "app-1a2b3c.js.gz").write_bytes(gzip.compress(APP_JS))
    (root / "assets" / "app-1a2b3c.js.br").write_bytes(b"pretend-brotli")
    (tmp_path / "secret.txt").write_text("outside the client")
    return root


@pytest.fixture
async def web(start_server: StartServer, dist: Path) -> LiveServer:
    return await start_server(client_dist=dist)


async def wire_bytes(
    client: httpx.AsyncClient, path: str, encoding: str
) -> tuple[httpx.Response, bytes]:
    """The answer and its body exactly as sent (httpx would decode a compressed body)."""
    async with client.stream("GET", path, headers={"Accept-Encoding": encoding}) as response:
        body = b"".join([chunk async for chunk in response.aiter_raw()])
    return response, body


def raw(base: str) -> httpx.AsyncClient:
    """A client that sends no Accept-Encoding unless told (httpx would ask for gzip)."""
    return httpx.AsyncClient(base_url=base, timeout=20, headers={"Accept-Encoding": "identity"})


def assert_secured(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


async def test_index_is_revalidated_and_carries_a_strict_policy(web: LiveServer) -> None:
    async with raw(web.url) as client:
        page = await client.get("/")
    assert page.status_code == 200 and page.content == INDEX
    assert page.headers["content-type"].startswith("text/html")
    assert page.headers["cache-control"] == "no-cache"
    assert_secured(page)
    policy = page.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


async def test_app_routes_get_the_index_and_missing_files_a_404(web: LiveServer) -> None:
    async with raw(web.url) as client:
        for path in ("/r/AbC_12-x", "/rules/dots", "/settings"):
            page = await client.get(path)
            assert page.status_code == 200 and page.content == INDEX, path
        for path in ("/assets/gone-123.js", "/favicon.ico", "/robots.txt"):
            missing = await client.get(path)
            assert missing.status_code == 404, path
            assert_secured(missing)


async def test_hashed_assets_are_immutable_and_sent_compressed(web: LiveServer) -> None:
    async with raw(web.url) as client:
        plain = await client.get("/assets/app-1a2b3c.js")
        gz, gz_body = await wire_bytes(client, "/assets/app-1a2b3c.js", "gzip")
        br, br_body = await wire_bytes(client, "/assets/app-1a2b3c.js", "gzip, deflate, br")
        refused, _ = await wire_bytes(client, "/assets/app-1a2b3c.js", "br;q=0, gzip;q=0.5")
        icon = await client.get("/favicon.svg")
    assert plain.content == APP_JS and "content-encoding" not in plain.headers
    assert plain.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert plain.headers["content-type"].startswith("text/javascript")
    assert plain.headers["vary"] == "Accept-Encoding"
    assert gz.headers["content-encoding"] == "gzip"
    assert gzip.decompress(gz_body) == APP_JS
    assert gz.headers["content-type"] == plain.headers["content-type"]
    assert br.headers["content-encoding"] == "br" and br_body == b"pretend-brotli"
    assert refused.headers["content-encoding"] == "gzip"
    assert icon.headers["cache-control"] == "no-cache"  # not hashed: revalidated
    assert_secured(plain)


async def test_an_unchanged_file_is_not_sent_again(web: LiveServer) -> None:
    async with raw(web.url) as client:
        first = await client.get("/assets/app-1a2b3c.js")
        again = await client.get(
            "/assets/app-1a2b3c.js", headers={"If-None-Match": first.headers["etag"]}
        )
        index = await client.get("/")
        index_again = await client.get("/", headers={"If-None-Match": index.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["cache-control"] == first.headers["cache-control"]
    assert index_again.status_code == 304
    # The browser keeps the page it revalidated under the policy of the 304.
    assert (
        index_again.headers["content-security-policy"] == index.headers["content-security-policy"]
    )


async def test_head_answers_wherever_get_does(web: LiveServer) -> None:
    async with raw(web.url) as client:
        room = await create_room(client, rows=3, cols=3, mode="live")
        for path in ("/", "/r/abc", "/assets/app-1a2b3c.js", "/healthz", "/api/daily"):
            got = await client.get(path)
            head = await client.head(path)
            assert head.status_code == got.status_code == 200, path
            assert head.content == b"", path
            assert head.headers["content-type"] == got.headers["content-type"], path
            assert head.headers.get("content-length") == got.headers.get("content-length"), path
            assert_secured(head)
        head_room = await client.head(f"/api/rooms/{room['room_id']}")
        assert head_room.status_code == 200 and head_room.content == b""


async def test_api_answers_carry_the_headers_too(web: LiveServer) -> None:
    async with raw(web.url) as client:
        health = await client.get("/healthz")
        unknown = await client.get("/api/nothing-here")
        too_big = await client.post(
            "/api/rooms",
            content=b"{" + b" " * 70_000 + b"}",
            headers={"Content-Type": "application/json"},
        )
    for response in (health, unknown, too_big):
        assert_secured(response)
        assert (
            response.headers["content-security-policy"]
            == "default-src 'none'; frame-ancestors 'none'"
        )
    assert too_big.status_code == 413


@pytest.mark.parametrize(
    "path",
    [
        "/%00",
        "/index.html%00.png",
        "/assets/%00",
        "/..%2f..%2fsecret.txt",
        "/%2e%2e/secret.txt",
        "/.hidden",
        "/" + "a" * 5000 + ".js",
    ],
)
async def test_odd_paths_are_refused_without_a_traceback(
    web: LiveServer, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        async with raw(web.url) as client:
            response = await client.get(path)
    assert response.status_code in (400, 404), (path, response.status_code)
    assert b"outside the client" not in response.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


async def test_an_unbuilt_client_says_so(start_server: StartServer, tmp_path: Path) -> None:
    live = await start_server(client_dist=tmp_path / "not-built")
    async with raw(live.url) as client:
        page = await client.get("/")
    assert page.status_code == 404 and "not built" in page.json()["message"]
    assert page.json()["code"] == "not_found"
    assert_secured(page)
