"""The one place the topology and operations tests speak tetrad's game protocol (REST for
rooms and moves, the websocket for presence and events). When the protocol changes, this
file changes; the tests that use it do not.

Moves go over REST (with the room version and a move id, so a retry after a lost reply is
applied once); a websocket per player keeps the seat connected, which live rooms need,
and reports the versions it sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection


class Refused(RuntimeError):
    """The server answered ``hello`` with an error instead of ``welcome``."""

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(f"refused: {message}")
        self.code = message.get("code")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create_room(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    """Create a room; the grant (room_id, seat, token, invite_code, invite_url, state)."""
    response = await http.post("/api/rooms", json={"game": "boxes", **body})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def join_room(http: httpx.AsyncClient, grant: dict[str, Any]) -> dict[str, Any]:
    response = await http.post(
        f"/api/rooms/{grant['room_id']}/join", json={"invite_code": grant["invite_code"]}
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


async def room_state(http: httpx.AsyncClient, room_id: str) -> dict[str, Any]:
    """The room's snapshot (protocol 2: board, status, version, move_count…)."""
    response = await http.get(f"/api/rooms/{room_id}")
    response.raise_for_status()
    return dict(response.json()["state"])


Line = tuple[tuple[int, int], ...]


def line_of(move: dict[str, Any]) -> Line:
    """A Dots and Boxes move as a comparable value (its two dots, in order)."""
    return tuple(sorted((int(x), int(y)) for x, y in move["line"]))


def is_over(state: dict[str, Any]) -> bool:
    return state["status"].get("outcome") is not None


def thinking(state: dict[str, Any]) -> bool:
    """Whether the computer is about to move (or thinking) in ``state``."""
    return bool(state["status"].get("thinking"))


def to_move(state: dict[str, Any]) -> int:
    return int(state["status"]["to_move"])


def move_count(state: dict[str, Any]) -> int:
    return int(state["move_count"])


def next_move(state: dict[str, Any]) -> dict[str, Any]:
    """The first undrawn line of a Dots and Boxes snapshot (rows first, then columns), so
    games are reproducible. The snapshot lists drawn lines; every other line is playable."""
    board = state["board"]
    rows, cols = board["rows"], board["cols"]
    drawn = {line_of(entry) for entry in board["lines"]}
    across = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
    down = [((x, y), (x, y + 1)) for x in range(cols + 1) for y in range(rows)]
    for line in across + down:
        if line not in drawn:
            return {"line": [list(line[0]), list(line[1])]}
    raise AssertionError("no line left to draw")


def recorded_lines(record: dict[str, Any]) -> list[Line]:
    """The moves of a finished game's record (``GET /api/games/{id}``), in order."""
    return [line_of({"line": move}) for move in record["record"]["moves"]]


def finished_game_id(state: dict[str, Any]) -> str:
    """The id under which the game of ``state`` is recorded once it is over."""
    return f"{state['id']}-{state['game_number']}"


def new_move_id() -> str:
    return f"m-{uuid.uuid4().hex[:16]}"


async def play(
    http: httpx.AsyncClient, room_id: str, token: str, state: dict[str, Any], move_id: str
) -> httpx.Response:
    """Send ``next_move(state)`` for the seat of ``token`` over REST; the reply carries the
    version the move led to (read the room again for the rest)."""
    return await http.post(
        f"/api/rooms/{room_id}/moves",
        json={"move": next_move(state), "version": state["version"], "move_id": move_id},
        headers=bearer(token),
    )


@dataclass
class RoomSocket:
    """A seat's websocket: sends ``hello``, then records the latest room version it has
    been told about (by ``welcome`` and by each ``event``) and the errors it is sent."""

    ws: ClientConnection
    version: int = 0
    errors: list[dict[str, Any]] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _reader: asyncio.Task[None] | None = None

    @classmethod
    async def open(
        cls,
        ws_url: str,
        room_id: str,
        token: str | None,
        since: int | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> RoomSocket:
        ws = await websockets.connect(f"{ws_url}/api/rooms/{room_id}/ws", ssl=tls, open_timeout=10)
        await ws.send(json.dumps({"type": "hello", "token": token, "since": since}))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if message.get("type") == "welcome":
                break
            if message.get("type") == "error":
                await ws.close()
                raise Refused(message)
        socket = cls(ws, version=int(message["version"]))
        socket._reader = asyncio.create_task(socket._read())
        return socket

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                version = message.get("version")
                if message.get("type") == "event" and isinstance(version, int):
                    async with self._changed:
                        self.version = max(self.version, version)
                        self._changed.notify_all()
                elif message.get("type") == "error":
                    async with self._changed:
                        self.errors.append(message)
                        self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            async with self._changed:
                self._changed.notify_all()

    async def wait_version(self, version: int, timeout: float = 15) -> bool:
        """Wait until this socket has seen ``version``; False if it closed first."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: self.version >= version or self.closed.is_set())
        return self.version >= version

    async def send_move(self, state: dict[str, Any], move_id: str) -> None:
        """Send ``next_move(state)`` over the websocket (answered by an event or an error)."""
        move = {"move": next_move(state), "version": state["version"], "move_id": move_id}
        await self.ws.send(json.dumps({"type": "move", **move}))

    async def wait_error(self, count: int, timeout: float = 15) -> dict[str, Any]:
        """Wait for this socket's ``count``-th error message; returns it."""
        async with asyncio.timeout(timeout), self._changed:
            await self._changed.wait_for(lambda: len(self.errors) >= count)
        return self.errors[count - 1]

    async def close(self) -> None:
        await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
