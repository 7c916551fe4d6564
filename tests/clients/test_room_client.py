"""The Python client package against a real server: whole games against the computer in
both games, the room it keeps equal to the server's, and its models generated from the
server's current /openapi.json."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest
from tetrad_client import Refused, RoomClosed, Tetrad
from tetrad_client.room import Room

from tests.conftest import LiveServer

REPO = Path(__file__).resolve().parents[2]


def test_the_models_are_generated_from_the_current_openapi_document() -> None:
    script = REPO / "clients" / "python" / "tools" / "generate_models.py"
    run = subprocess.run(
        [sys.executable, str(script), "--check"], check=False, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr


async def play_out(room: Room, rng: random.Random) -> int:
    """Random moves until the game is over; the number of moves this seat made."""
    made = 0
    while True:
        await room.until(lambda r: r.over or (r.my_turn and not r.status.thinking))
        if room.over:
            return made
        await room.move(rng.choice(room.position().legal_moves()))
        made += 1


async def same_as_server(tetrad: Tetrad, room: Room) -> None:
    """The room the client holds is the one the server reads out (once the read has caught
    up with the websocket: a REST read right after an event may name the version before)."""
    mine = room.snapshot
    for _ in range(100):
        fresh = (await tetrad.room(room.room_id, room.token)).state
        if fresh.version >= mine.version:
            break
    assert mine.version == fresh.version
    assert mine.board.model_dump() == fresh.board.model_dump() or _same_sets(mine, fresh)
    assert mine.status.model_dump(exclude={"allowed"}) == fresh.status.model_dump(
        exclude={"allowed"}
    )
    assert mine.status.allowed == fresh.status.allowed


def _same_sets(mine, fresh) -> bool:
    """Dots boards list marks, areas and houses in an order of their own."""
    one, two = mine.board.model_dump(), fresh.board.model_dump()
    for part in ("marks", "areas", "houses", "boxes"):
        if part in one:
            one[part] = sorted(map(repr, one[part]))
            two[part] = sorted(map(repr, two[part]))
    return one == two


async def test_a_client_plays_both_games_against_the_computer(server: LiveServer) -> None:
    rng = random.Random(3)
    async with Tetrad(server.url) as tetrad:
        rooms = [
            await tetrad.create_room("boxes", mode="computer", rows=2, cols=2, level="easy"),
            await tetrad.create_room("dots", mode="computer", width=5, height=5, level="easy"),
        ]
        for grant in rooms:
            async with tetrad.connect(grant.room_id, grant.token) as room:
                assert room.seat == grant.seat == 0
                made = await play_out(room, rng)
                assert made > 0 and room.over
                await same_as_server(tetrad, room)
                if room.snapshot.game == "boxes":
                    assert room.history is not None
                    assert len(room.history) == room.snapshot.move_count == 12
                with pytest.raises(Refused) as refused:
                    await room.move(room.history[0] if room.history else (0, 0))
                assert refused.value.code == "game_over"


async def test_a_client_asks_what_every_line_is_worth(server: LiveServer) -> None:
    async with Tetrad(server.url) as tetrad:
        grant = await tetrad.create_room("boxes", mode="computer", rows=2, cols=2, first="me")
        async with tetrad.connect(grant.room_id, grant.token) as room:
            await room.until(lambda r: r.my_turn)
            values = await room.line_values()
            assert values is not None and values.to_move == room.seat
            assert len(values.values) == len(room.position().legal_moves()) == 12
            friend = await tetrad.create_room("boxes", mode="live", rows=2, cols=2)
            async with tetrad.connect(friend.room_id, friend.token) as other:
                with pytest.raises(Refused) as refused:
                    await other.line_values()
                assert refused.value.code == "not_allowed"


def test_the_package_speaks_only_the_wire() -> None:
    """Importing the client and its runner loads neither tetrad's server nor its core (the
    core-level engines import core when asked for, see test_bots)."""
    probe = (
        "import sys, tetrad_client, tetrad_client.runner, tetrad_client.engines; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'server', 'core'}))"
    )
    run = subprocess.run(
        [sys.executable, "-c", probe], check=True, capture_output=True, text=True, cwd="/"
    )
    assert run.stdout.strip() == "[]"


async def test_a_dropped_connection_is_opened_again_and_the_move_sent_again(
    server: LiveServer,
) -> None:
    """The connection drops right after a move is sent (before its ack) and once with no
    command pending: the client reconnects from the version it holds, sends the move again
    with its move_id, and the move is played once."""
    rng = random.Random(5)
    async with Tetrad(server.url) as tetrad:
        grant = await tetrad.create_room("boxes", mode="computer", rows=2, cols=2, level="easy")
        async with tetrad.connect(grant.room_id, grant.token) as room:
            for drop in range(3):
                await room.until(lambda r: r.my_turn and not r.status.thinking)
                before = room.snapshot.move_count
                move = rng.choice(room.position().legal_moves())
                if drop == 2:
                    room._ws.transport.abort()  # nothing pending: a plain reconnect
                    await room.until(lambda r, n=drop: r.connections == n + 2)
                sent = asyncio.ensure_future(room.move(move, move_id=f"m{drop}"))
                if drop < 2:
                    await asyncio.sleep(0)  # the move is on its way
                    room._ws.transport.abort()
                ack = await sent
                assert ack.move_id == f"m{drop}"
                assert room.history is not None and room.history.count(move) == 1
                # The computer may have answered before a duplicate's ack (it names the
                # room's version now), so this move is one of the last two.
                assert move in room.history[before : before + 2]
                assert len(room.history) == room.snapshot.move_count
            assert room.connections == 4
            await same_as_server(tetrad, room)


async def test_close_codes_that_say_stop_end_the_room(server: LiveServer) -> None:
    async with Tetrad(server.url) as tetrad:
        grant = await tetrad.create_room("boxes", mode="correspondence", rows=1, cols=1)
        with pytest.raises(RoomClosed) as refused:
            await tetrad.connect(grant.room_id, "not-a-seat-token").open()
        assert refused.value.code == 4003
        first = await tetrad.connect(grant.room_id, grant.token).open()
        async with tetrad.connect(grant.room_id, grant.token) as second:
            with pytest.raises(RoomClosed) as taken:
                await first.until(lambda r: False)
            assert taken.value.code == 4001 and second.closed is None
            with pytest.raises(RoomClosed):
                await first.move(((0, 0), (1, 0)))
        await first.close()
