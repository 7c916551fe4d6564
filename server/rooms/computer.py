"""The computer's thinking, off the event loop: a process pool running ``core.ai``."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from core.review import Limits
from server.refusals import Refusal
from server.review.worker import line_values_json
from server.rooms.ai_worker import choose_move_json, hint_json, start_worker

T = TypeVar("T")


class ComputerPlayer:
    """Owns the process pool; a pool broken by a dead worker is replaced on the next turn.

    ``thinks=False`` makes a pool for other CPU-bound work (reading game records): its
    workers do not build the AI's tables when they start. ``niceness`` lowers the OS
    priority of the workers (the pool of analyses and hints runs at a lower priority than
    the computer's moves in live rooms, so that on a busy machine the moves come first)."""

    def __init__(self, workers: int, thinks: bool = True, niceness: int = 0) -> None:
        self.workers = workers
        self.thinks = thinks
        self.niceness = niceness
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                # Workers exit with this process, even when it is killed with SIGKILL.
                initializer=start_worker,
                initargs=(os.getpid(), self.thinks, self.niceness),
            )
        return self._pool

    async def choose(
        self, record: dict[str, Any], level: str, seed: int, time_limit: float
    ) -> tuple[dict[str, Any], float]:
        """The computer's move in wire form and the seconds it took."""
        started = time.perf_counter()
        move = await self.run(choose_move_json, record, level, seed, time_limit)
        return move, time.perf_counter() - started

    async def hint(
        self, record: dict[str, Any], seed: int, time_limit: float
    ) -> tuple[dict[str, Any], float]:
        """Hard's move in wire form with its reason (``{move, reason, count}``) and the
        seconds it took."""
        started = time.perf_counter()
        hint = await self.run(hint_json, record, seed, time_limit)
        return hint, time.perf_counter() - started

    async def line_values(
        self, record: dict[str, Any], limits: Limits
    ) -> tuple[dict[str, Any], float]:
        """What every undrawn line of the position is worth (``LineValuesView``'s wire
        form), asked like a hint, and the seconds it took."""
        started = time.perf_counter()
        found = await self.run(line_values_json, record, limits)
        return found, time.perf_counter() - started

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker process (``work`` must be importable there)."""
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            try:
                return await loop.run_in_executor(self._executor(), work, *args)
            except BrokenProcessPool:
                self._pool = None
                if attempt == 1:
                    raise
            except ImportError as error:
                raise Refusal("unavailable", "the computer player is not installed") from error
        raise AssertionError("unreachable")

    def warm(self) -> None:
        """Start the workers now, in the background: a worker builds the AI's tables when it
        starts, which took seconds on a busy machine and would otherwise delay the first
        computer move after the server started."""
        loop = asyncio.get_running_loop()
        executor = self._executor()
        for _ in range(self.workers):
            started = loop.run_in_executor(executor, os.getpid)
            # A worker that fails to start shows up at the first move; nothing to report here.
            started.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def close(self) -> None:
        """Stop the workers: queued work is dropped, running work (at most a move's or an
        analysed position's time limit) ends first. Waiting for them lets the pool release
        its queues and semaphores before the process exits, instead of leaking them."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
