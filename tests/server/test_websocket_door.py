"""Who may open a room's websocket, how it shows in the metrics and what it leaves behind: a
page of another site is refused before the handshake (its Origin is checked against the
server's own and the allowed ones; programs send none), the socket is counted under its
route template, and once closed it is freed at once."""

from __future__ import annotations

import asyncio
import gc

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from server.serving import HTTP_PROTOCOL, RoomWebSocketProtocol
from tests.conftest import LiveServer, StartServer
from tests.operations.test_observability import sample

ROUTE = "/api/rooms/{room_id}/ws"


async def room_of(server: LiveServer) -> str:
    async with httpx.AsyncClient(base_url=server.url) as http:
        created = await http.post("/api/rooms", json={"game": "boxes", "mode": "local"})
    room: str = created.json()["room_id"]
    return room


async def welcomed(server: LiveServer, room: str, origin: str | None) -> bool:
    """Whether a socket sent with ``origin`` gets through to its welcome (False: refused)."""
    headers = {} if origin is None else {"Origin": origin}
    try:
        async with websockets.connect(
            f"{server.ws_url}/api/rooms/{room}/ws", origin=None, additional_headers=headers
        ) as ws:
            await ws.send('{"type": "hello", "token": null}')
            return '"welcome"' in str(await ws.recv())
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False


async def test_pages_of_other_sites_cannot_open_a_room_socket(start_server: StartServer) -> None:
    server = await start_server(
        public_url="https://dots.example.org",
        allowed_origins="https://mirror.example.net, http://localhost:5173",
    )
    room = await room_of(server)
    own = server.url  # the page the server itself served: same host
    assert await welcomed(server, room, None)  # a bot
    assert await welcomed(server, room, own)
    assert await welcomed(server, room, "https://dots.example.org")
    assert await welcomed(server, room, "https://mirror.example.net")
    assert await welcomed(server, room, "http://localhost:5173")
    assert not await welcomed(server, room, "https://evil.example.com")
    assert not await welcomed(server, room, "http://dots.example.org.evil.example.com")
    assert not await welcomed(server, room, "null")


async def test_the_room_socket_is_counted_under_its_route_template(server: LiveServer) -> None:
    room = await room_of(server)
    assert await welcomed(server, room, None)
    async with httpx.AsyncClient(base_url=server.url) as http:
        for _ in range(200):  # the socket is counted once its handler has ended
            metrics = (await http.get("/metrics")).text
            if sample(metrics, "tetrad_http_requests_total", method="WS", route=ROUTE,
                      status="101") == 1:  # fmt: skip
                break
            await asyncio.sleep(0.05)
        else:
            pytest.fail(f"the websocket is not counted under {ROUTE}")
    assert "unmatched" not in metrics


def live_protocols() -> int:
    """Server protocol objects alive in this process (the server runs in it)."""
    kinds = (RoomWebSocketProtocol, HTTP_PROTOCOL)
    return sum(1 for item in gc.get_objects() if isinstance(item, kinds))


async def test_a_closed_socket_is_freed_without_the_garbage_collector(server: LiveServer) -> None:
    """A connection's protocols are in no reference cycle: once it is closed, its memory
    goes back at once, not at the collector's next full pass (under churn the heap grew
    round after round while they waited)."""
    room = await room_of(server)
    gc.collect()
    gc.disable()
    try:
        before = live_protocols()
        for _ in range(5):
            assert await welcomed(server, room, None)
        for _ in range(200):  # each handler ends shortly after its socket closed
            if live_protocols() <= before:
                break
            await asyncio.sleep(0.05)
        assert live_protocols() <= before
    finally:
        gc.enable()
