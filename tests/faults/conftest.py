"""What the fault tests share: real `tetrad serve` processes on a Redis of the test's own
(append-only, so it can be killed and restarted), a PostgreSQL database of its own behind a
gate that can refuse connections, and a client that keeps every confirmed move."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.processes import (
    Processes,
    RedisServer,
    Tetrad,
    postgres_database,
    start_redis,
    start_tetrad,
)
from tests.topology.game_api import bearer, next_move, room_state

AOF = ("--appendonly", "yes", "--appendfsync", "always", "--save", "")


class Gate:
    """A TCP proxy in front of PostgreSQL, in a thread of its own, that can refuse new
    connections and cut the open ones (the database "goes away" and comes back)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.open = True
        self.port = 0
        self.refused = 0
        self._loop = asyncio.new_event_loop()
        self._writers: set[asyncio.StreamWriter] = set()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-gate", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        server.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.open:
            self.refused += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._writers |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._writers -= {writer, up_writer}

    def refuse(self) -> None:
        """Refuse new connections and cut every open one."""

        def cut() -> None:
            self.open = False
            for writer in list(self._writers):
                writer.transport.abort()

        self._loop.call_soon_threadsafe(cut)

    def allow(self) -> None:
        self._loop.call_soon_threadsafe(setattr, self, "open", True)

    def close(self) -> None:
        self.refuse()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)


@dataclass
class Site:
    """One deployment under test: its Redis, its database (behind the gate) and the
    settings its `tetrad serve` processes share."""

    directory: Path
    processes: Processes
    redis: RedisServer
    gate: Gate
    database_url: str
    prefix: str = field(default_factory=lambda: f"tf-{uuid.uuid4().hex[:8]}")
    started: int = 0
    settings: dict[str, str] = field(default_factory=dict)
    """More TETRAD_* settings for the processes of this test."""

    def env(self) -> dict[str, str]:
        return {
            "TETRAD_REDIS_URL": self.redis.url,
            "TETRAD_DATABASE_URL": self.database_url,
            "TETRAD_KEY_PREFIX": self.prefix,
            "TETRAD_DATA_DIR": str(self.directory),
            "TETRAD_AI_TIME_LIMIT": "0.2",
            "TETRAD_LOG_LEVEL": "INFO",
            "TETRAD_CLIENT_DIST": str(self.directory / "no-client"),
            # No ladder games between the computer levels: these tests count finished
            # games and outbox records exactly.
            "TETRAD_LADDER_PACE_SECONDS": "0",
            **self.settings,
        }

    def serve(self) -> Tetrad:
        self.started += 1
        return self.processes.add(
            start_tetrad(f"tetrad-{self.started}", self.directory, env=self.env())
        )

    def restart_redis(self) -> RedisServer:
        self.redis = self.processes.add(
            start_redis(self.directory / "redis", *AOF, port=self.redis.port)
        )
        return self.redis


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    processes = Processes()
    (tmp_path / "redis").mkdir()
    try:
        redis = processes.add(start_redis(tmp_path / "redis", *AOF))
        with postgres_database() as url:
            gate = Gate(5432)
            try:
                through_gate = url.replace("127.0.0.1:5432", f"127.0.0.1:{gate.port}")
                yield Site(tmp_path, processes, redis, gate, through_gate)
            finally:
                processes.stop_all()
                gate.close()
    finally:
        processes.stop_all()


def log_lines(server: Tetrad) -> list[dict[str, Any]]:
    """The JSON log lines a `tetrad serve` wrote (others skipped)."""
    lines = []
    for text in server.output().splitlines():
        with contextlib.suppress(ValueError):
            value = json.loads(text)
            if isinstance(value, dict):
                lines.append(value)
    return lines


@dataclass
class Player:
    """A seat playing over REST with move ids, keeping every move the server confirmed."""

    room_id: str
    token: str
    confirmed: list[dict[str, Any]] = field(default_factory=list)

    async def move(self, http: httpx.AsyncClient) -> httpx.Response:
        """Play the next line if it is this seat's turn (resending until a definite answer:
        a reply lost to a fault may hide a move that was made, and the move id makes the
        resend safe)."""
        state = await room_state(http, self.room_id)
        move = next_move(state)
        move_id = f"m-{uuid.uuid4().hex[:12]}"
        body = {"move": move, "version": state["version"], "move_id": move_id}
        while True:  # unavailable: retry, as clients are told to (the move id keeps it once)
            response = await http.post(
                f"/api/rooms/{self.room_id}/moves", json=body, headers=bearer(self.token)
            )
            if response.status_code != 503:
                break
            await asyncio.sleep(0.2)
        if response.status_code == 200:  # a resend already applied is acked as a duplicate
            self.confirmed.append(move)
        return response
