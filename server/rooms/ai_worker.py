"""Runs in the AI process pool: rebuild the position and ask ``core.ai`` for a move.

Imports only ``core`` (and the standard library) so that spawning a worker is cheap. A
worker exits as soon as the server process that started it is gone, even when that
process was killed with SIGKILL and could not shut its pool down.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import select
import threading
from typing import Any

from core.registry import replay


def choose_move_json(
    record: dict[str, Any], level: str, seed: int, time_limit: float
) -> dict[str, Any]:
    ai = importlib.import_module("core.ai")
    state = replay(record)
    move = ai.choose_move(state, level=level, seed=seed, time_limit=time_limit)
    return state.move_to_json(move)


def hint_json(record: dict[str, Any], seed: int, time_limit: float) -> dict[str, Any]:
    """Hard's move in wire form with the reason for it: ``{move, reason, count}``."""
    ai = importlib.import_module("core.ai")
    state = replay(record)
    hint = ai.hint_with_reason(state, level="hard", seed=seed, time_limit=time_limit)
    return {"move": state.move_to_json(hint.move), "reason": hint.reason, "count": hint.boxes}


def start_worker(parent_pid: int, thinks: bool = True, niceness: int = 0) -> None:
    """The pool's initializer: follow the parent, lower this process's priority by
    ``niceness``, then warm up (a worker that does not think for the computer, but reads
    records, needs no tables)."""
    watch_parent(parent_pid)
    if niceness:
        lower_priority(niceness)
    if thinks:
        warm_up()


def lower_priority(niceness: int) -> None:
    """Run this process ``niceness`` lower in the OS's priority. Where Linux groups the
    processes of a session for scheduling (autogroup, on by default on many systems), a
    nice value counts only against the group's other processes, and a busy group delays
    its own server's wake-ups all the same: so the process also takes a session of its own
    and gives that group the same niceness."""
    os.nice(niceness)
    with contextlib.suppress(OSError):
        os.setsid()
        with open("/proc/self/autogroup", "w") as autogroup:
            autogroup.write(f"{niceness}\n")


def watch_parent(parent_pid: int, poll_seconds: float = 1.0) -> threading.Thread:
    """Exit this process when ``parent_pid`` ends, from a daemon thread.

    On Linux the thread waits on a pidfd of the parent (it becomes readable when the parent
    exits, however it died); elsewhere it checks the parent pid every ``poll_seconds``.
    """

    def parent_gone() -> bool:
        return os.getppid() != parent_pid

    def wait_pidfd(pidfd: int) -> None:
        with contextlib.suppress(OSError):
            select.select([pidfd], [], [])
        os._exit(0)

    def poll() -> None:
        event = threading.Event()
        while not event.wait(poll_seconds):
            if parent_gone():
                os._exit(0)

    pidfd = None
    if hasattr(os, "pidfd_open"):
        with contextlib.suppress(OSError):
            pidfd = os.pidfd_open(parent_pid)
    if parent_gone():  # the parent died before we looked (or the pid was reused)
        os._exit(0)
    target, args = (poll, ()) if pidfd is None else (wait_pidfd, (pidfd,))
    thread = threading.Thread(target=target, args=args, name="watch-parent", daemon=True)
    thread.start()
    return thread


def warm_up() -> None:
    """Prepare a new worker: import the AI and build its tables, so no player waits for it."""
    ai = importlib.import_module("core.ai")
    ai.boxes.warm_up()
