"""Work a server process does in the background until it stops: presence rounds, the
outbox drainer, the memory watch and the hub's reader all start and stop this way."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable


class Background:
    """One task running ``run`` from :meth:`start` until :meth:`stop` cancels it."""

    def __init__(self, name: str, run: Callable[[], Awaitable[None]]) -> None:
        self.name = name
        self._run = run
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        async def run() -> None:
            await self._run()

        self._task = asyncio.create_task(run(), name=f"tetrad-{self.name}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None


async def every(
    seconds: float, step: Callable[[], Awaitable[object]], on_error: Callable[[Exception], None]
) -> None:
    """Do ``step`` now and then every ``seconds``, for ever; a failed step is handed to
    ``on_error`` and the next one comes as planned."""
    while True:
        try:
            await step()
        except Exception as error:
            on_error(error)
        await asyncio.sleep(seconds)
