"""`tetrad serve` as an operator runs it: exit statuses a supervisor can act on, a clean
stop on SIGTERM, one JSON log format, forwarded headers from trusted proxies only, a
warning about a Redis that persists nothing, and AI workers that die with their server."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import REDIS_URL
from tests.processes import (
    Processes,
    alive,
    descendants,
    free_port,
    spawn,
    start_redis,
    start_tetrad,
    wait_until,
)
from tests.topology.game_api import RoomSocket, thinking


def common_env(tmp_path: Path, key_prefix: str) -> dict[str, str]:
    return {
        "TETRAD_KEY_PREFIX": key_prefix,
        "TETRAD_DATA_DIR": str(tmp_path),
        "TETRAD_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.sqlite3'}",
        "TETRAD_LOG_LEVEL": "INFO",
        "TETRAD_LOG_JSON": "true",
    }


@pytest.mark.parametrize("workers", [1, 2])
def test_a_failed_start_exits_non_zero(tmp_path: Path, processes: Processes, workers: int) -> None:
    nothing_there = f"redis://127.0.0.1:{free_port()}/0"
    serve = processes.add(
        spawn(
            f"serve-{workers}",
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(free_port()),
                "--workers",
                str(workers),
                "--redis-url",
                nothing_there,
                "--data-dir",
                str(tmp_path),
            ],
            tmp_path,
        )
    )
    status = serve.process.wait(timeout=120)
    assert status == 3, serve.output()[-2000:]


async def test_serve_logs_json_warns_without_persistence_and_stops_on_sigterm(
    tmp_path: Path, key_prefix: str, processes: Processes
) -> None:
    volatile = processes.add(start_redis(tmp_path, "--appendonly", "no", "--save", ""))
    port = free_port()
    serve = processes.add(
        spawn(
            "serve",
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(port),
                "--workers",
                "2",
                "--redis-url",
                volatile.url,
            ],
            tmp_path,
            common_env(tmp_path, key_prefix),
        )
    )
    url = f"http://127.0.0.1:{port}"

    def ready() -> bool:
        assert serve.alive(), serve.output()[-3000:]
        try:
            return httpx.get(url + "/readyz", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(ready, "tetrad serve --workers 2 ready")
    readiness = httpx.get(url + "/readyz").json()
    assert readiness["status"] == "ok"
    assert readiness["checks"]["redis_persistence"] == "none"
    assert httpx.get(url + "/healthz").status_code == 200
    created = httpx.post(url + "/api/rooms?lang=en", json={"game": "boxes", "mode": "live"})
    assert created.status_code == 201
    secrets = [created.json()["token"], created.json()["invite_code"]]
    player = await RoomSocket.open(
        "ws" + url.removeprefix("http"), created.json()["room_id"], created.json()["token"]
    )

    serve.process.send_signal(signal.SIGTERM)
    # The player is told the server restarts (1012), so it reconnects elsewhere at once.
    await asyncio.wait_for(player.closed.wait(), 30)
    assert player.ws.close_code == 1012
    assert await asyncio.to_thread(serve.process.wait, 30) == 0

    lines = serve.output().splitlines()
    bad = [line for line in lines if not line.startswith("{")]
    assert not bad, "\n".join(bad)
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"ts", "level", "logger", "msg"} <= set(entry) for entry in entries)
    warnings = [e for e in entries if e["level"] == "warning" and e["logger"] == "tetrad.cli"]
    assert any(e.get("redis_persistence") == "none" for e in warnings)
    access = [e for e in entries if e["logger"] == "tetrad.access"]
    assert any(e["route"] == "/healthz" and e["status"] == 200 for e in access)
    created_line = next(e for e in access if e["method"] == "POST")
    assert created_line["path"] == "/api/rooms" and created_line["status"] == 201
    assert any(e["logger"].startswith("uvicorn") for e in entries)
    for secret in secrets:
        assert secret not in serve.output()


def test_forwarded_headers_are_believed_from_trusted_proxies_only(
    tmp_path: Path, key_prefix: str, processes: Processes
) -> None:
    env = {**common_env(tmp_path, key_prefix), "TETRAD_ROOM_CREATIONS_PER_MINUTE": "2"}
    trusting = processes.add(
        start_tetrad(
            "trusting",
            tmp_path,
            "--redis-url",
            REDIS_URL,
            "--trusted-proxies",
            "127.0.0.1",
            env=env,
        )
    )
    wary = processes.add(
        start_tetrad(
            "wary", tmp_path, "--redis-url", REDIS_URL, "--trusted-proxies", "192.0.2.1", env=env
        )
    )

    def create(server_url: str, client: str) -> httpx.Response:
        return httpx.post(
            server_url + "/api/rooms",
            json={"game": "boxes", "mode": "live"},
            headers={"X-Forwarded-For": client, "X-Forwarded-Proto": "https"},
        )

    first = create(trusting.url, "203.0.113.1")
    assert first.status_code == 201
    assert first.json()["invite_url"].startswith("https://")
    # Each forwarded client has a bucket of its own.
    assert create(trusting.url, "203.0.113.1").status_code == 201
    assert create(trusting.url, "203.0.113.1").status_code == 429
    assert create(trusting.url, "203.0.113.2").status_code == 201
    # A server that does not trust the sender sees the sender and its scheme.
    untrusted = create(wary.url, "203.0.113.3")
    assert untrusted.status_code == 201
    assert untrusted.json()["invite_url"].startswith("http://")


def test_ai_workers_exit_when_their_server_is_killed(
    tmp_path: Path, key_prefix: str, processes: Processes
) -> None:
    env = {**common_env(tmp_path, key_prefix), "TETRAD_AI_TIME_LIMIT": "30",
           "TETRAD_AI_WORKERS": "2"}  # fmt: skip
    server = processes.add(start_tetrad("ai", tmp_path, "--redis-url", REDIS_URL, env=env))
    # The computer moves first and thinks long on a big Dots board: its workers are busy.
    created = httpx.post(
        server.url + "/api/rooms",
        json={
            "game": "dots",
            "width": 39,
            "height": 32,
            "mode": "computer",
            "level": "hard",
            "first": "opponent",
        },
    )
    assert created.status_code == 201, created.text
    assert thinking(created.json()["state"])
    children: set[int] = set()

    def workers_started() -> bool:
        children.update(descendants(server.pid))
        return len(children) >= 2

    wait_until(workers_started, "AI workers started")
    server.kill_9()
    wait_until(lambda: not any(alive(pid) for pid in children), "AI workers gone", timeout=15)
