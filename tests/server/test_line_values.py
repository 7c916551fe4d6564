"""Line values for practice against the computer: what every undrawn line of the position is
worth, over REST and the websocket, refused wherever a game counts or has no lines."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from core import boxes
from core.ai.boxes import Budget
from core.review import move_value
from tests.conftest import StartServer
from tests.server.room_client import Socket, act, create_room, line, move

SOLVER_TIME = {"analysis_position_seconds": 30.0}
"""Time enough for the solver on a small board however loaded the machine (a bound: a 2×2
board takes a fraction of a second)."""
WAIT = 120.0
"""Seconds a request may wait (a bound, not a measure): the values think in the analyses'
pool, started on first use and lower in priority, which a loaded machine starves."""


def exact_values(drawn: list[str]) -> dict[str, int]:
    """Each undrawn line of a 2×2 game with ``drawn`` played, valued by the core solver."""
    state = boxes.new_game(rows=2, cols=2)
    for notation in drawn:
        state = state.play(boxes.Line.from_str(notation))
    return {str(m): move_value(state, m, Budget()) for m in state.legal_moves()}


def as_notation(wire: dict) -> str:
    (x1, y1), (x2, y2) = wire["line"]
    return str(boxes.Line.from_str(f"{chr(97 + x1)}{y1 + 1}-{chr(97 + x2)}{y2 + 1}"))


async def test_every_undrawn_line_is_valued_exactly_on_the_players_turn(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await start_server(**SOLVER_TIME)
    # They think where hints do, in the analyses' pool, never in the computer's.
    rooms = server.app.state.rooms
    assert rooms.analyst is not rooms.computer
    asked: list[str] = []
    valued = rooms.analyst.line_values

    async def in_the_analysts_pool(*args: Any) -> Any:
        asked.append("analyst")
        return await valued(*args)

    async def in_the_computers_pool(*args: Any) -> Any:
        raise AssertionError("line values asked in the pool of the computer's moves")

    monkeypatch.setattr(rooms.analyst, "line_values", in_the_analysts_pool)
    monkeypatch.setattr(rooms.computer, "line_values", in_the_computers_pool)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as client:
        grant = await create_room(client, mode="computer", rows=2, cols=2, level="easy", first="me")
        room, token = grant["room_id"], grant["token"]
        reply = (await act(client, room, token, type="line_values")).json()
        assert reply["version"] == grant["state"]["version"] and reply["hint"] is None
        found = reply["line_values"]
        assert found["exact"] is True and found["complete"] is True and found["to_move"] == 0
        values = {as_notation(v["move"]): v["value"] for v in found["values"]}
        assert values == exact_values([])
        assert found["value"] == max(values.values())
        assert {as_notation(m) for m in found["best"]} == {
            m for m, v in values.items() if v == found["value"]
        }

        # After a move and the computer's answer, the same over the websocket.
        socket = await Socket.open(server, room, token)
        assert (await move(client, room, token, line(0, 0, 1, 0))).status_code == 200
        while socket.model.status["to_move"] != 0 or socket.version < 3:
            await socket.expect("event")
        await socket.send(type="line_values", ref="v1")
        ack = await socket.next(timeout=WAIT)
        while ack.get("ref") != "v1" or ack["type"] == "event":
            ack = await socket.next(timeout=WAIT)
        assert ack["type"] == "ack" and ack["version"] == socket.version
        played = [as_notation(drawn) for drawn in socket.model.state["board"]["lines"]]
        values = {as_notation(v["move"]): v["value"] for v in ack["line_values"]["values"]}
        assert values == exact_values(played)
        assert asked == ["analyst", "analyst"]
        # Other actions' replies do not carry it.
        assert "line_values" not in (await act(client, room, token, type="hint")).json()
        await socket.close()


async def test_refused_where_a_game_counts_or_has_no_lines(start_server: StartServer) -> None:
    server = await start_server(line_values_per_minute=3)
    async with httpx.AsyncClient(base_url=server.url, timeout=WAIT) as client:
        friends = await create_room(client, mode="live", rows=2, cols=2)
        one_device = await create_room(client, mode="local", rows=2, cols=2)
        dots = await create_room(client, game="dots", mode="computer", width=10, height=10)
        for grant in (friends, one_device, dots):
            response = await act(client, grant["room_id"], grant["token"], type="line_values")
            assert response.status_code == 403, response.text
            assert response.json()["code"] == "not_allowed"
        computer = await create_room(client, mode="computer", rows=2, cols=2, first="me")
        room, token = computer["room_id"], computer["token"]
        refused = await act(client, room, token + "x", type="line_values")
        assert refused.json()["code"] == "bad_token"
        codes = [
            (await act(client, room, token, type="line_values")).json().get("code", "ok")
            for _ in range(4)
        ]
        assert codes == ["ok", "ok", "ok", "rate_limited"], codes
