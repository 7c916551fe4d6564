"""A Redis URL of the wrong form or for the wrong kind of Redis stops `tetrad serve` at
start with one line that says what is wrong (issue 31), not a traceback at start or a 500
on the first room."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import REPO, Processes
from tests.redis_topologies import cluster_port, start_node

pytestmark = pytest.mark.faults

USAGE = 2


def _serve(url: str, directory: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", "--redis-url", url,
         "--data-dir", str(directory), "--port", "0"],
        check=False, cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _said(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("redis://h1,h2/0", "names one Redis server"),
        ("redis://127.0.0.1:63x/0", "not a usable Redis URL"),
    ],
)
def test_a_malformed_url_is_one_line_at_start(url: str, says: str, tmp_path: Path) -> None:
    result = _serve(url, tmp_path)
    lines = _said(result)
    assert result.returncode == USAGE, lines
    assert len(lines) == 1 and says in lines[0], lines
    assert "could not start" in lines[0]


def test_a_plain_url_at_a_cluster_node_is_refused_at_start(tmp_path: Path) -> None:
    processes = Processes()
    try:
        port = cluster_port()
        node = processes.add(start_node(tmp_path / "node", port, "--cluster-enabled", "yes"))
        result = _serve(node.url, tmp_path)
    finally:
        processes.stop_all()
    lines = _said(result)
    assert result.returncode == USAGE, lines
    assert len(lines) == 1, lines
    assert f"use redis+cluster://127.0.0.1:{port}" in lines[0], lines
