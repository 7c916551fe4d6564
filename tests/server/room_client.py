"""Small helpers the server tests share: REST calls, a websocket reader, and a room model
that applies events to a snapshot the way a client does (protocol version 2)."""

from __future__ import annotations

import asyncio
import copy
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


def point(x: int, y: int) -> dict[str, Any]:
    return {"point": [x, y]}


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


async def read_room(client: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    response = await client.get(f"/api/rooms/{room_id}")
    assert response.status_code == 200, response.text
    return response.json()["state"]


async def move(
    client: httpx.AsyncClient, room_id: str, token: str, mv: dict[str, Any], **extra: Any
) -> httpx.Response:
    return await client.post(
        f"/api/rooms/{room_id}/moves", json={"move": mv, **extra}, headers=bearer(token)
    )


async def act(client: httpx.AsyncClient, room_id: str, token: str, **action: Any) -> httpx.Response:
    return await client.post(f"/api/rooms/{room_id}/actions", json=action, headers=bearer(token))


# -- the room as a client holds it ------------------------------------------------------------


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


class RoomModel:
    """A snapshot, brought forward event by event as a client does."""

    def __init__(self, snapshot: dict[str, Any]) -> None:
        self.state = copy.deepcopy(snapshot)

    @property
    def version(self) -> int:
        return int(self.state["version"])

    @property
    def status(self) -> dict[str, Any]:
        return self.state["status"]

    @property
    def is_over(self) -> bool:
        return self.status.get("outcome") is not None

    def apply(self, message: dict[str, Any]) -> None:
        """Apply one event message; it must be the next version."""
        assert message["version"] == self.version + 1, (message["version"], self.version)
        state = self.state
        event = message["event"]
        kind = event["kind"]
        board = state["board"]
        if kind == "move":
            state["move_count"] += 1
            if board["game"] == "boxes":
                board["lines"].append({"line": event["move"]["line"], "player": event["seat"]})
                board["boxes"] += [
                    {"box": b, "owner": event["seat"]} for b in event.get("closed", [])
                ]
            else:
                x, y = event["move"]["point"]
                board["marks"].append([x, y, event["seat"]])
                gone = {_key(k) for k in event.get("areas_removed", [])}
                board["areas"] = [a for a in board["areas"] if _key(a["key"]) not in gone]
                board["areas"] += event.get("captures", [])
                gone = {_key(k) for k in event.get("houses_removed", [])}
                board["houses"] = [
                    h for h in board["houses"] if _key([*h["key"], h["owner"]]) not in gone
                ]
                board["houses"] += event.get("houses_added", [])
            board["last_move"] = event["move"]
        elif kind == "joined":
            state["seats"][event["seat"]]["taken"] = True
        elif kind == "requested":
            state["requests"].append({"kind": event["request"], "seat": event["seat"]})
        elif kind == "declined":
            state["requests"] = [r for r in state["requests"] if r["kind"] != event["request"]]
        elif kind in ("restarted", "undone"):
            state["board"] = event["board"]
            state["game_number"] = event["game_number"]
            state["move_count"] = event["move_count"]
            state["computer_seat"] = event["computer_seat"]
            for seat in state["seats"]:
                if state["mode"] == "computer":
                    seat["kind"] = "computer" if seat["seat"] == event["computer_seat"] else "human"
            state["requests"] = []
        elif kind == "ended":
            state["requests"] = []
        elif kind == "level":
            state["level"] = event["level"]
        else:
            raise AssertionError(f"unknown event {event}")
        status = dict(message["status"])
        allowed = status.pop("allowed", None) or state["status"].get("allowed")
        state["status"] = {"outcome": None, **status, "allowed": allowed}
        state["version"] = message["version"]

    def legal_moves(self) -> list[dict[str, Any]]:
        """What may be played, derived from the board (events carry no move lists)."""
        if self.is_over:
            return []
        board = self.state["board"]
        if board["game"] == "boxes":
            drawn = {_key(sorted(entry["line"])) for entry in board["lines"]}
            rows, cols = board["rows"], board["cols"]
            every = [[[x, y], [x + 1, y]] for y in range(rows + 1) for x in range(cols)]
            every += [[[x, y], [x, y + 1]] for y in range(rows) for x in range(cols + 1)]
            return [{"line": ends} for ends in every if _key(sorted(ends)) not in drawn]
        taken = {(x, y) for x, y, _ in board["marks"]}
        for area in board["areas"]:
            taken.update((x, y) for x, y in area["inside"])
        return [
            {"point": [x, y]}
            for y in range(board["height"])
            for x in range(board["width"])
            if (x, y) not in taken
        ]

    def comparable(self) -> dict[str, Any]:
        """The state with order-free parts sorted, to compare with a fresh snapshot."""
        state = copy.deepcopy(self.state)
        board = state["board"]
        for part in ("marks", "areas", "houses", "boxes"):
            if part in board:
                board[part] = sorted(board[part], key=_key)
        for seat in state["seats"]:
            seat.pop("connected", None)
        state.pop("spectators", None)
        state.pop("expires_in_seconds", None)
        state["status"].setdefault("outcome", None)
        return state


# -- a websocket --------------------------------------------------------------------------------


class Socket:
    """A websocket to a room that keeps every message it reads and a :class:`RoomModel`
    brought up to date by the events it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.model: RoomModel | None = None
        self.gaps = 0

    @property
    def version(self) -> int:
        return self.model.version if self.model is not None else 0

    @classmethod
    async def open(
        cls,
        server: LiveServer,
        room_id: str,
        token: str | None,
        since: int | None = None,
        model: RoomModel | None = None,
    ) -> Socket:
        ws = await websockets.connect(f"{server.ws_url}/api/rooms/{room_id}/ws")
        socket = cls(ws)
        socket.model = model
        await socket.send(type="hello", token=token, since=since)
        await socket.expect("welcome")
        return socket

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def next(self, timeout: float = 10) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.seen.append(message)
        self._track(message)
        return message

    def _track(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("welcome", "resync"):
            if message.get("snapshot") is not None:
                self.model = RoomModel(message["snapshot"])
            for event in message.get("events", []):
                self._track(event)
        elif kind == "event" and self.model is not None:
            if message["version"] <= self.model.version:
                return
            if message["version"] > self.model.version + 1:
                self.gaps += 1
                return
            self.model.apply(message)
        elif kind == "presence" and self.model is not None:
            self.model.state["seats"] = message["seats"]
            self.model.state["spectators"] = message["spectators"]

    async def expect(
        self, kind: str, where: Callable[[dict[str, Any]], bool] = lambda m: True
    ) -> dict[str, Any]:
        """Read until a message of ``kind`` that satisfies ``where`` (others are kept)."""
        while True:
            message = await self.next()
            if message.get("type") == kind and where(message):
                return message

    async def expect_reply(self, ref: str) -> dict[str, Any]:
        """Read until the reply to the command sent with ``ref`` (whatever its type)."""
        while True:
            message = await self.next()
            if message.get("ref") == ref and message.get("type") != "event":
                return message

    async def until_version(self, version: int) -> None:
        """Read until the model reaches ``version``."""
        while self.version < version:
            await self.next()

    async def close(self) -> None:
        await self.ws.close()
