"""Shared fixtures: a real Redis key prefix per test, and real uvicorn servers on free ports.

Also chooses the build of core's Dots and Boxes search the session tests, before anything
imports core: compiled if built and up to date, else pure Python; ``TETRAD_AI_BUILD=pure``
or ``=compiled`` insists on one (tools/compiled.py).
"""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
import uvicorn

from tools.compiled import apply_mode, built, stale

# Nothing above imports core; every test module does.
AI_BUILD = apply_mode()

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(autouse=True, scope="session")
def checked_writes() -> None:
    """Every message the server writes in the tests is checked against its types."""
    from server import protocol

    protocol.check_writes(True)


@pytest.fixture
async def key_prefix() -> AsyncIterator[str]:
    """A Redis key prefix of this test alone; every key under it is deleted afterwards."""
    prefix = f"tt-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = aioredis.Redis.from_url(REDIS_URL)
    try:
        keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=500)]
        if keys:
            await client.delete(*keys)
    finally:
        await client.aclose()


@dataclass
class LiveServer:
    url: str
    app: Any
    server: uvicorn.Server
    task: asyncio.Task[None]

    @property
    def ws_url(self) -> str:
        return "ws" + self.url.removeprefix("http")

    async def stop(self) -> None:
        self.server.should_exit = True
        await self.task


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


def test_settings(tmp_path: Path, key_prefix: str, **overrides: Any) -> Any:
    from server.settings import Settings

    values: dict[str, Any] = {
        "redis_url": REDIS_URL,
        "database_url": f"sqlite:///{tmp_path / 'test.sqlite3'}",
        "data_dir": tmp_path,
        "key_prefix": key_prefix,
        "ai_time_limit": 0.2,
        # A loaded test machine can hold a Redis reply past production's 1.5 s; the tests
        # of that timeout set their own.
        "redis_timeout": 10.0,
        "heartbeat_seconds": 0.5,
        "presence_ttl_seconds": 3.0,
        "log_json": False,
        "log_level": "WARNING",
        "client_dist": tmp_path / "no-client",
    }
    values.update(overrides)
    return Settings(**values)


StartServer = Callable[..., Awaitable[LiveServer]]


@pytest.fixture
async def start_server(tmp_path: Path, key_prefix: str) -> AsyncIterator[StartServer]:
    """Start real uvicorn servers (in this event loop) on free ports; all share the prefix."""
    from server.app import create_app
    from server.serving import uvicorn_config

    started: list[LiveServer] = []

    async def start(**overrides: Any) -> LiveServer:
        app = create_app(test_settings(tmp_path, key_prefix, **overrides))
        sock = free_socket()
        port = sock.getsockname()[1]
        config = uvicorn_config(app, log_level="warning", ws_ping_interval=None)
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        live = LiveServer(f"http://127.0.0.1:{port}", app, server, task)
        started.append(live)
        return live

    yield start
    for live in started:
        await live.stop()


@pytest.fixture
async def server(start_server: StartServer) -> LiveServer:
    return await start_server()


def pytest_report_header() -> str:
    note = " (a stale compiled build is ignored: make compiled)" if built() and stale() else ""
    return f"core's Dots and Boxes search: {AI_BUILD} build{note}"
