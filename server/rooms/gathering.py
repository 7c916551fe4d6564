"""Writes for one room gathered into one: what many connections ask for at about the same
time (a crowd of spectators counted in, or out) goes to the store as one call per batch.

The first caller for a room starts a writer and every caller waits for the batch it joined.
The writer sends a batch on the next turn of the event loop, so callers arriving together
share it; while it is in flight, newcomers gather into the next batch, sent as soon as it
returns. Under a crowd a batch grows with the store's latency, and a lone caller pays one
turn of the loop, nothing more. Each caller gets its batch's result, or its error.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")

Write = Callable[[list[str]], Awaitable[T]]
"""Writes a batch (the ids gathered) for one room and returns what its callers get."""


@dataclass(slots=True)
class _Batch(Generic[T]):
    write: Write[T]
    ids: list[str] = field(default_factory=list)
    done: asyncio.Future[T] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class Gathering(Generic[T]):
    def __init__(self) -> None:
        self._waiting: dict[str, _Batch[T]] = {}
        self._writers: dict[str, asyncio.Task[None]] = {}

    async def add(self, room_id: str, item: str, write: Write[T]) -> T:
        """Add ``item`` to the room's next batch (written by ``write`` if it is the first of
        the batch) and return the batch's result."""
        batch = self._waiting.get(room_id)
        if batch is None:
            batch = self._waiting[room_id] = _Batch(write)
            # A caller that stops waiting (its socket closed) leaves the error unread.
            batch.done.add_done_callback(_read_error)
            if room_id not in self._writers:
                writer = asyncio.get_running_loop().create_task(self._write(room_id))
                self._writers[room_id] = writer
        batch.ids.append(item)
        return await asyncio.shield(batch.done)

    async def _write(self, room_id: str) -> None:
        try:
            while (batch := self._waiting.pop(room_id, None)) is not None:
                try:
                    result = await batch.write(batch.ids)
                except asyncio.CancelledError:
                    batch.done.cancel()
                    raise
                except Exception as error:
                    batch.done.set_exception(error)
                else:
                    batch.done.set_result(result)
        finally:
            del self._writers[room_id]
            left = self._waiting.pop(room_id, None)  # only when cancelled
            if left is not None:
                left.done.cancel()

    async def close(self) -> None:
        """Stop the writers (their callers' waits are cancelled)."""
        writers = list(self._writers.values())
        for writer in writers:
            writer.cancel()
        for writer in writers:
            with contextlib.suppress(asyncio.CancelledError):
                await writer


def _read_error(done: asyncio.Future[Any]) -> None:
    if not done.cancelled():
        done.exception()
