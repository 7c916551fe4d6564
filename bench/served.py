"""What the benches that run a real server in their own process share: the server under
uvicorn on a free port with a client of it, and a process that keeps a core busy."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import uvicorn


@asynccontextmanager
async def served(settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    """A client of ``create_app(settings)`` served by uvicorn in this process until the
    block ends."""
    from server.app import create_app
    from server.serving import uvicorn_config

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(settings), log_level="warning"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.05)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            yield client
    finally:
        server.should_exit = True
        await task


def spin() -> None:
    """Keep one core busy (``--load``)."""
    while True:
        pass
