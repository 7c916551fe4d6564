"""Prometheus metrics of `tetrad serve --workers 2`: every scrape counts all workers."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.conftest import REDIS_URL, free_socket

pytestmark = pytest.mark.cluster
REPO = Path(__file__).resolve().parents[2]
ROOMS = 12


def rooms_created(metrics: str) -> float:
    found = re.search(
        r'^tetrad_rooms_created_total\{game="boxes",mode="local"\} (\S+)$', metrics, re.M
    )
    return float(found.group(1)) if found else 0.0


async def test_metrics_add_up_over_workers(tmp_path: Path, key_prefix: str) -> None:
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()  # the supervisor binds it again (SO_REUSEADDR) and shares it with its workers
    metrics_dir = tmp_path / "metrics"
    metrics_dir.mkdir()
    env = {
        **os.environ,
        "TETRAD_KEY_PREFIX": key_prefix,
        "TETRAD_ROOM_CREATIONS_PER_MINUTE": "1000",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--workers",
            "2",
            "--port",
            str(port),
            "--redis-url",
            REDIS_URL,
            "--database-url",
            f"sqlite:///{tmp_path / 'workers.sqlite3'}",
            "--data-dir",
            str(tmp_path),
            "--log-level",
            "WARNING",
        ],
        cwd=REPO,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        # Each request on a connection of its own, so the workers share them.
        async def fresh(method: str, path: str, **kwargs: object) -> httpx.Response:
            async with httpx.AsyncClient(base_url=url, timeout=20) as client:
                return await client.request(method, path, **kwargs)  # type: ignore[arg-type]

        for _ in range(600):
            assert process.poll() is None, "the server exited"
            try:
                if (await fresh("GET", "/readyz")).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)
        # Both workers are up once each has written its files.
        for _ in range(600):
            pids = {p.stem.rsplit("_", 1)[-1] for p in metrics_dir.glob("*.db")}
            if len(pids) >= 2:
                break
            await asyncio.sleep(0.05)
        assert len(pids) >= 2
        for _ in range(ROOMS):
            created = await fresh("POST", "/api/rooms", json={"game": "boxes", "mode": "local"})
            assert created.status_code == 201
        for _ in range(8):
            assert rooms_created((await fresh("GET", "/metrics")).text) == ROOMS
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
