"""Every line a server writes is JSON, even after it was killed with ``kill -9``: the
resource tracker that the computer's process pool leaves behind then finds the pool's
semaphores and removes them, and says nothing in plain text about it."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from tests.conftest import REDIS_URL
from tests.operations.test_serve import common_env
from tests.processes import Processes, alive, descendants, start_tetrad, wait_until


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_after_a_kill_9_every_log_line_is_still_json(
    tmp_path: Path, key_prefix: str, processes: Processes
) -> None:
    env = {**common_env(tmp_path, key_prefix), "TETRAD_REDIS_URL": REDIS_URL}
    server = processes.add(start_tetrad("killed", tmp_path, env=env))
    below = descendants(server.pid)
    trackers = {pid for pid in below if "resource_tracker" in command_line(pid)}
    assert trackers, "the computer's process pool runs beside a resource tracker"
    server.kill_9()
    for pid in below - trackers:  # the pool's processes, orphaned: as a supervisor would
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: not any(alive(pid) for pid in trackers), "the tracker is done", 60)
    lines = [line for line in server.output().splitlines() if line.strip()]
    assert lines
    for line in lines:
        assert isinstance(json.loads(line), dict), line
