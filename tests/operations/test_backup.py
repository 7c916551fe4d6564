"""`tetrad backup` while the server runs, `tetrad restore` once it is stopped: the rooms
and finished games of the moment of the backup come back, later changes do not, and the
data found before the restore is kept aside. `tetrad migrate` shows and applies the
database's migrations by hand."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tarfile
from pathlib import Path

import httpx
import pytest

from server.cli import main
from tests.processes import REPO, Processes, start_tetrad
from tests.topology.game_api import (
    create_room,
    finished_game_id,
    is_over,
    move_count,
    new_move_id,
    play,
    recorded_lines,
    room_state,
)


def tetrad(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )


async def play_moves(http: httpx.AsyncClient, grant: dict, count: int | None) -> dict:
    """Play ``count`` moves (None: to the end) in a local room; the state after them."""
    state = grant["state"]
    while not is_over(state) and (count is None or count > 0):
        reply = await play(http, grant["room_id"], grant["token"], state, new_move_id())
        assert reply.status_code == 200, reply.text
        state = await room_state(http, grant["room_id"])
        count = None if count is None else count - 1
    return state


async def test_backup_while_serving_then_restore(tmp_path: Path, processes: Processes) -> None:
    site = tmp_path / "site"
    env = {"TETRAD_DATA_DIR": str(site), "TETRAD_LOG_LEVEL": "WARNING"}
    server = processes.add(start_tetrad("embedded", tmp_path, "--data-dir", str(site), env=env))
    async with httpx.AsyncClient(base_url=server.url, timeout=20) as http:
        finished = await create_room(http, mode="local", rows=1, cols=2)
        over = await play_moves(http, finished, None)
        game_id = finished_game_id(over)
        ongoing = await create_room(http, mode="local", rows=2, cols=2)
        before = await play_moves(http, ongoing, 2)

        async def recorded() -> bool:
            return (await http.get(f"/api/games/{game_id}")).status_code == 200

        for _ in range(400):
            if await recorded():
                break
            await asyncio.sleep(0.05)
        assert await recorded()

        archive = tmp_path / "backups" / "site.tar.gz"
        made = tetrad("backup", str(archive), "--data-dir", str(site))
        assert made.returncode == 0, made.stderr
        with tarfile.open(archive) as tar:
            assert set(tar.getnames()) == {"manifest.json", "valkey.rdb", "tetrad.sqlite3"}
        after = await play_moves(http, {**ongoing, "state": before}, 1)  # not in the backup
        assert move_count(after) == 3

        refused = tetrad("restore", str(archive), "--data-dir", str(site))
        assert refused.returncode == 1 and "stop it first" in refused.stderr
    assert server.stop() == 0

    restored = tetrad("restore", str(archive), "--data-dir", str(site))
    assert restored.returncode == 0, restored.stderr
    kept = list(site.glob("before-restore-*"))
    assert len(kept) == 1 and (kept[0] / "tetrad.sqlite3").exists()
    assert (kept[0] / "valkey" / "appendonlydir").is_dir()

    again = processes.add(start_tetrad("restored", tmp_path, "--data-dir", str(site), env=env))
    async with httpx.AsyncClient(base_url=again.url, timeout=20) as http:
        state = await room_state(http, ongoing["room_id"])
        assert move_count(state) == move_count(before) == 2
        assert state["board"] == before["board"]
        assert is_over(await room_state(http, finished["room_id"]))
        record = await http.get(f"/api/games/{game_id}")
        assert record.status_code == 200
        assert len(recorded_lines(record.json())) == move_count(over)
        assert list(record.json()["scores"]) == list(over["status"]["scores"])
        # The restored room goes on: the store is writable and persistent again.
        await play_moves(http, {**ongoing, "state": state}, 1)


def test_backup_of_external_services_says_what_it_leaves_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main([
        "backup", str(tmp_path / "b.tar.gz"), "--redis-url", "redis://127.0.0.1:6379/0",
        "--database-url", "postgresql://postgres@127.0.0.1:5432/none",
    ])  # fmt: skip
    assert status == 1 and "external" in capsys.readouterr().err
    assert not (tmp_path / "b.tar.gz").exists()


def test_migrate_shows_and_applies_migrations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ["--database-url", f"sqlite:///{tmp_path / 'fresh.sqlite3'}"]
    assert main(["migrate", "--status", *url]) == 1
    assert "pending" in capsys.readouterr().out
    assert main(["migrate", *url]) == 0
    assert "up to date" in capsys.readouterr().out
    assert main(["migrate", "--status", *url]) == 0
    status = capsys.readouterr().out
    assert "pending" not in status and "0001" in status and "applied" in status
