"""The Python client package against a real server: whole games against the computer in
both games, the room it keeps equal to the server's, and its models generated from the
server's current /openapi.json."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from tetrad_client import Refused, Tetrad
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
    fresh = (await tetrad.room(room.room_id, room.token)).state
    mine = room.snapshot
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
