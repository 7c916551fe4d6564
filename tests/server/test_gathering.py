"""Writes for one room gathered into one batch (:mod:`server.rooms.gathering`)."""

from __future__ import annotations

import asyncio

import pytest

from server.rooms.gathering import Gathering


class Recorder:
    """A write that records its batches and, while ``released`` is clear (``holding``),
    waits before it returns (a store call in flight)."""

    def __init__(self, holding: bool = False) -> None:
        self.batches: list[list[str]] = []
        self.released = asyncio.Event()
        if not holding:
            self.released.set()
        self.started = asyncio.Event()

    async def __call__(self, ids: list[str]) -> int:
        self.batches.append(list(ids))
        self.started.set()
        await self.released.wait()
        if "bad" in ids:
            raise ConnectionError("the store is away")
        return len(ids)


async def test_callers_arriving_together_share_one_write() -> None:
    gathering: Gathering[int] = Gathering()
    write = Recorder()
    results = await asyncio.gather(*(gathering.add("room", f"c{n}", write) for n in range(20)))
    assert write.batches == [[f"c{n}" for n in range(20)]]
    assert results == [20] * 20


async def test_callers_arriving_during_a_write_make_the_next_batch() -> None:
    gathering: Gathering[int] = Gathering()
    write = Recorder(holding=True)
    first = asyncio.create_task(gathering.add("room", "a", write))
    await write.started.wait()
    later = [asyncio.create_task(gathering.add("room", name, write)) for name in "bcd"]
    other_room = asyncio.create_task(gathering.add("other", "x", write))
    while len(write.batches) < 2:  # the other room's writer does not wait for this one's
        await asyncio.sleep(0)
    write.released.set()
    assert await first == 1 and [await task for task in later] == [3, 3, 3]
    assert await other_room == 1
    assert sorted(write.batches) == [["a"], ["b", "c", "d"], ["x"]]


async def test_an_error_reaches_its_batch_only() -> None:
    gathering: Gathering[int] = Gathering()
    write = Recorder(holding=True)
    failing = [asyncio.create_task(gathering.add("room", name, write)) for name in ("a", "bad")]
    await write.started.wait()
    after = asyncio.create_task(gathering.add("room", "c", write))
    write.released.set()
    for task in failing:
        with pytest.raises(ConnectionError):
            await task
    assert await after == 1


async def test_closing_cancels_the_waiting_callers() -> None:
    gathering: Gathering[int] = Gathering()
    write = Recorder(holding=True)
    waiting = asyncio.create_task(gathering.add("room", "a", write))
    await write.started.wait()
    await gathering.close()
    with pytest.raises(asyncio.CancelledError):
        await waiting
