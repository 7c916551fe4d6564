"""The room service over in-memory stores: seats, commands, refusals, catching up, finished
games and the computer's turns, with no Redis, socket or HTTP in between."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.boxes import Line
from server.refusals import Refusal
from server.rooms.computer import ComputerPlayer
from server.rooms.model import Offer, PlayMove, RoomOptions
from server.rooms.service import RoomService
from server.settings import Settings
from server.store.in_memory import MemoryData, memory_stores


@pytest.fixture
def data() -> MemoryData:
    return MemoryData()


@pytest.fixture
async def service(data: MemoryData, tmp_path: Path) -> AsyncIterator[RoomService]:
    settings = Settings(redis_url="unused", data_dir=tmp_path, ai_time_limit=0.05)
    finished: list[str] = []
    computer = ComputerPlayer(1)
    rooms = RoomService(
        memory_stores(data), settings, computer, on_finished=lambda: finished.append("kick")
    )
    rooms.finished = finished  # type: ignore[attr-defined]
    yield rooms
    await rooms.turns.close()
    await computer.close()


def line(x1: int, y1: int, x2: int, y2: int) -> Line:
    return Line((x1, y1), (x2, y2))


async def friends(service: RoomService, **options: int) -> tuple[str, str, str]:
    asked = RoomOptions("boxes", "correspondence", "normal", "me", dict(options))
    host = await service.create(asked, "host")
    assert host.room.invite_code is not None and host.token is not None
    guest = await service.join(host.room.id, host.room.invite_code, None)
    assert guest.seat == 1 and guest.token is not None
    return host.room.id, host.token, guest.token


async def test_seats_moves_and_refusals(service: RoomService) -> None:
    room, host, guest = await friends(service, rows=1, cols=2)
    done = await service.execute(room, host, PlayMove(line(0, 0, 1, 0), "m1"))
    assert done.version == 3 and not done.duplicate and len(done.events) == 1
    with pytest.raises(Refusal) as refused:
        await service.execute(room, host, PlayMove(line(1, 0, 2, 0)))
    assert refused.value.code == "not_your_turn"
    with pytest.raises(Refusal) as refused:
        await service.execute(room, "no-such-token", PlayMove(line(1, 0, 2, 0)))
    assert refused.value.code == "bad_token"
    with pytest.raises(Refusal) as refused:
        await service.execute(room, guest, PlayMove(line(0, 0, 1, 0)))
    assert refused.value.code == "illegal_move"
    # A third visitor finds no free seat and watches; nothing changed for it.
    code = (await service.load(room)).room.invite_code
    assert code is not None
    watcher = await service.join(room, code, None)
    assert watcher.seat is None and watcher.token is None
    assert (await service.load(room)).version == 3


async def test_a_move_id_is_applied_once_and_never_reused(service: RoomService) -> None:
    room, host, guest = await friends(service)
    first = await service.execute(room, host, PlayMove(line(0, 0, 1, 0), "m1", 2))
    await service.execute(room, guest, PlayMove(line(0, 5, 1, 5), "g1"))
    again = await service.execute(room, host, PlayMove(line(0, 0, 1, 0), "m1", 2))
    assert again.duplicate and again.version == first.version + 1 and again.events == ()
    with pytest.raises(Refusal) as refused:
        await service.execute(room, host, PlayMove(line(1, 0, 2, 0), "m1"))
    assert refused.value.code == "move_id_reused" and refused.value.details == {"played": "a1-b1"}


async def test_catching_up_gives_events_or_a_snapshot(service: RoomService) -> None:
    room, host, _ = await friends(service)
    await service.execute(room, host, Offer("end"))
    caught = await service.catch_up(room, 1)
    assert caught.snapshot is None and [json.loads(t)["version"] for t in caught.events] == [2, 3]
    for since in (None, 99):
        assert (await service.catch_up(room, since)).snapshot is not None
    with pytest.raises(Refusal) as refused:
        await service.catch_up("nowhere", 0)
    assert refused.value.code == "room_not_found"


async def test_a_finished_game_waits_in_the_outbox(service: RoomService, data: MemoryData) -> None:
    room, host, guest = await friends(service, rows=1, cols=1)
    for token, drawn in ((host, line(0, 0, 1, 0)), (guest, line(0, 0, 0, 1)),
                         (host, line(1, 0, 1, 1)), (guest, line(0, 1, 1, 1))):  # fmt: skip
        await service.execute(room, token, PlayMove(drawn))
    record = json.loads(data.outboxes[room][0])
    assert record["winner"] == 1 and record["scores"] == [0, 1]
    assert data.outbox_index == {room} and service.finished == ["kick"]  # type: ignore[attr-defined]


async def test_the_computer_moves_after_the_commit_that_leaves_it_to_move(
    service: RoomService,
) -> None:
    asked = RoomOptions("boxes", "computer", "easy", "opponent", {"rows": 2, "cols": 2})
    granted = await service.create(asked, "someone")
    room = granted.room.id
    async with asyncio.timeout(60):
        while (await service.load(room)).room.computer_to_move:
            await asyncio.sleep(0.05)
    assert len((await service.load(room)).room.game.moves) == 1
