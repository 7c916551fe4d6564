"""How a room socket writes: at once from the caller while the transport takes data, through
its queue and flush task while the transport is paused, and in order either way."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect
from websockets.frames import Frame, Opcode

from server.serving import WRITE_NOW, LastFramed, RoomWebSocketProtocol, uvicorn_config
from server.ws.connection import Connection, Stamped
from tests.conftest import free_socket


async def serve(handler: Any) -> tuple[str, uvicorn.Server, asyncio.Task[None]]:
    app = Starlette(routes=[WebSocketRoute("/ws", handler)])
    sock = free_socket()
    server = uvicorn.Server(uvicorn_config(app, log_level="warning", ws_ping_interval=None))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
        await asyncio.sleep(0.01)
    return f"ws://127.0.0.1:{sock.getsockname()[1]}/ws", server, task


async def test_writes_go_out_at_once_or_queue_in_order_while_the_transport_is_paused() -> None:
    seen: dict[str, Any] = {}
    delivered: list[float] = []

    async def handler(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection("room", ws, delivered.append)
        protocol = ws.scope["extensions"][WRITE_NOW]["write"].__self__
        assert isinstance(protocol, RoomWebSocketProtocol)
        await ws.receive_text()
        conn.send("1")
        conn.send(Stamped("2", 0.0))
        seen["at_once"] = conn.outbox is None and conn._flusher is None
        protocol.pause_writing()  # what the transport calls when its buffer is full
        conn.send("3")
        conn.send(Stamped("4", 0.0))
        seen["queued"] = list(conn.outbox or ())
        protocol.resume_writing()
        conn.send("5")  # behind what waits, although the transport takes data again
        await conn.drain(10)
        conn.send("6")
        seen["after_drain"] = conn.outbox is None and conn._flusher is None
        await ws.receive_text()

    url, server, task = await serve(handler)
    try:
        async with connect(url) as client:
            await client.send("go")
            received = [await client.recv() for _ in range(6)]
            await client.send("done")
        assert received == ["1", "2", "3", "4", "5", "6"]
        assert seen["at_once"] and seen["after_drain"]
        assert seen["queued"] == ["3", Stamped("4", 0.0)]
        assert len(delivered) == 2  # both stamped events timed, written at once or later
    finally:
        server.should_exit = True
        await task


async def test_a_closed_connection_is_not_written_at_once() -> None:
    answers: list[bool] = []
    closed = asyncio.Event()

    async def handler(ws: WebSocket) -> None:
        await ws.accept()
        write = ws.scope["extensions"][WRITE_NOW]["write"]
        answers.append(write("open"))
        await ws.close(1000)
        answers.append(write("after the close"))
        closed.set()

    url, server, task = await serve(handler)
    try:
        async with connect(url) as client:
            assert await client.recv() == "open"
            await closed.wait()
        assert answers == [True, False]
    finally:
        server.should_exit = True
        await task


def test_a_text_handed_to_many_sockets_is_framed_once() -> None:
    """The frame is the websocket library's own (short, medium and long lengths), and the
    same text object handed over again gets the same bytes back, not a new framing."""
    framed = LastFramed()
    for size in (3, 300, 70_000):
        text = "é" * size
        expected = Frame(Opcode.TEXT, text.encode()).serialize(mask=False)
        first = framed(text)
        assert first == expected
        assert framed(text) is first
    equal_but_another = "".join(["a", "b"])
    assert framed("ab") == framed(equal_but_another)
