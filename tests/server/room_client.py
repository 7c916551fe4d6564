"""Small helpers the server tests share: REST calls and a websocket reader."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

from tests.conftest import LiveServer


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def line(x1: int, y1: int, x2: int, y2: int) -> dict[str, Any]:
    return {"line": [[x1, y1], [x2, y2]]}


async def create_room(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "boxes")
    response = await client.post("/api/rooms", json=body)
    assert response.status_code == 201, response.text
    return response.json()


async def join_room(client: httpx.AsyncClient, grant: dict[str, Any], token: str | None = None):
    response = await client.post(
        f"/api/rooms/{grant['room_id']}/join",
        json={"invite_code": grant["invite_code"]},
        headers=bearer(token),
    )
    assert response.status_code == 200, response.text
    return response.json()


async def move(
    client: httpx.AsyncClient, room_id: str, token: str, mv: dict[str, Any], **extra: Any
) -> httpx.Response:
    return await client.post(
        f"/api/rooms/{room_id}/moves", json={"move": mv, **extra}, headers=bearer(token)
    )


async def act(client: httpx.AsyncClient, room_id: str, token: str, **action: Any) -> httpx.Response:
    return await client.post(f"/api/rooms/{room_id}/actions", json=action, headers=bearer(token))


class Socket:
    """A websocket to a room that keeps every message it reads, for assertions."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.version = 0

    @classmethod
    async def open(
        cls, server: LiveServer, room_id: str, token: str | None, since: int | None = None
    ) -> Socket:
        ws = await websockets.connect(f"{server.ws_url}/api/rooms/{room_id}/ws")
        socket = cls(ws)
        await socket.send(type="hello", token=token, since=since)
        welcome = await socket.expect("welcome")
        socket.version = welcome["version"]
        return socket

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.seen.append(message)
        if message.get("type") == "event":
            self.version = max(self.version, message["version"])
        return message

    async def expect(
        self, kind: str, where: Callable[[dict[str, Any]], bool] = lambda m: True
    ) -> dict[str, Any]:
        """Read until a message of ``kind`` that satisfies ``where`` (others are kept)."""
        while True:
            message = await self.next()
            if message.get("type") == kind and where(message):
                return message

    async def close(self) -> None:
        await self.ws.close()
