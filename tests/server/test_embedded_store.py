"""The embedded setup: a valkey child on a unix socket, persistence across restarts."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis

from server.store.embedded import EmbeddedValkey, valkey_binary
from tests.conftest import StartServer
from tests.server.room_client import create_room, line, move


async def test_restart_of_the_embedded_setup_keeps_the_room(
    start_server: StartServer, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    server = await start_server(redis_url=None, data_dir=data_dir)
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(client, mode="local")
        room, token = grant["room_id"], grant["token"]
        assert (await move(client, room, token, line(0, 0, 1, 0))).status_code == 200
        assert (await move(client, room, token, line(1, 0, 2, 0))).status_code == 200
    pidfile = data_dir / "valkey" / "valkey.pid"
    child = int(pidfile.read_text())
    await server.stop()
    assert not pidfile.exists()
    with pytest.raises(ProcessLookupError):
        for _ in range(100):
            os.kill(child, 0)
            time.sleep(0.05)
    server = await start_server(redis_url=None, data_dir=data_dir)
    async with httpx.AsyncClient(base_url=server.url) as client:
        state = (await client.get(f"/api/rooms/{room}")).json()["state"]
        lines = [entry["line"] for entry in state["board"]["lines"]]
        assert lines == [line(0, 0, 1, 0)["line"], line(1, 0, 2, 0)["line"]]
        assert (await move(client, room, token, line(2, 0, 3, 0), version=3)).status_code == 200


def test_a_stale_child_is_stopped_and_its_data_reused(tmp_path: Path) -> None:
    first = EmbeddedValkey(tmp_path)
    first.start()
    assert first.process is not None
    # The "crashed" run: its handle is dropped without stopping the child.
    stale_pid = first.process.pid
    client = redis.Redis(unix_socket_path=str(first.socket_path))
    client.set("kept", "yes")
    client.close()
    second = EmbeddedValkey(tmp_path)
    second.start()
    try:
        assert first.process.wait(timeout=10) is not None  # the stale child was stopped
        client = redis.Redis(unix_socket_path=str(second.socket_path))
        assert client.get("kept") == b"yes"
        client.close()
        assert int((tmp_path / "valkey.pid").read_text()) != stale_pid
    finally:
        second.stop()


def test_the_child_dies_with_its_parent(tmp_path: Path) -> None:
    script = (
        "import sys, time; from pathlib import Path;"
        "from server.store.embedded import EmbeddedValkey;"
        f"EmbeddedValkey(Path({str(tmp_path)!r})).start(); print('up', flush=True); time.sleep(60)"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=Path(__file__).parents[2]
    )
    assert parent.stdout is not None and parent.stdout.readline().strip() == b"up"
    child = int((tmp_path / "valkey.pid").read_text())
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    for _ in range(200):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        if Path(f"/proc/{child}/stat").read_text().split()[2] == "Z":
            break
        time.sleep(0.05)
    else:
        pytest.fail("the embedded valkey outlived its parent")
    assert valkey_binary().exists()
