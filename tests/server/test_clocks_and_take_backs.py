"""Clocks and take-backs of friend rooms, decided by the pure reducer at given times, and a
clock that runs out on a real server with nobody doing anything."""

from __future__ import annotations

import dataclasses
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from core.boxes import Line
from server.rooms import rules
from server.rooms.clock import Clock, TimeControl
from server.rooms.model import (
    Accept,
    Decline,
    Ended,
    Offer,
    PlayMove,
    Requested,
    Resign,
    Room,
    RoomOptions,
    Undone,
)
from tests.conftest import StartServer
from tests.server.room_client import Socket, create_room, join_room
from tests.server.test_room_rules import H00, H01, H10, V00, V10, changed, make_room, refused

LIVE = TimeControl(initial=60.0, increment=2.0)
BY_POST = TimeControl(initial=3 * 86400.0, per_move=True)


def clocked(control: TimeControl = LIVE, mode: str = "live") -> Room:
    return dataclasses.replace(make_room(mode), clock=Clock.start(control))


def move(room: Room, seat: int, line: Line, at: float) -> Room:
    return changed(rules.decide(room, 1, seat, PlayMove(line), now=at)).room


def test_clocks_start_with_the_first_move_and_charge_each_turn() -> None:
    room = clocked()
    assert room.clock is not None and room.clock.running is None
    room = move(room, 0, H00, at=100.0)  # the first move is free and starts coral's clock
    assert room.clock is not None and room.clock.running == 1 and room.clock.left == (60, 60)
    room = move(room, 1, H10, at=110.0)  # coral took 10 s, gets 2 back; gold's clock runs
    assert room.clock.left == (60, 52) and room.clock.running == 0
    assert room.clock.left_at(130.0) == (40, 52)


def test_a_player_who_closes_a_box_keeps_the_turn_and_the_running_clock() -> None:
    room = clocked()
    for seat, line, at in ((0, H00, 0.0), (1, V00, 5.0), (0, H10, 9.0), (1, V10, 12.0)):
        room = move(room, seat, line, at)
    before = room.clock
    room = move(room, 0, H01, at=20.0)  # closes the top-left box: gold moves again
    assert room.game.to_move == 0 and room.game.scores == (1, 0) and room.clock == before


def test_running_out_of_time_loses_the_game_whatever_comes_next() -> None:
    room = move(clocked(), 0, H00, at=0.0)
    assert rules.time_out(room, now=59.9) is None
    change = rules.time_out(room, now=60.0)
    assert change is not None and change.events == (Ended("time", 1),)
    outcome = change.room.game.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.reason == "time"
    assert change.room.clock is not None and change.room.clock.running is None
    refused(rules.decide(change.room, 2, 1, PlayMove(H10), now=61.0), "game_over")


def test_correspondence_clocks_give_every_turn_the_same_days() -> None:
    room = move(clocked(BY_POST, "correspondence"), 0, H00, at=0.0)
    room = move(room, 1, H10, at=2 * 86400.0)  # coral took two of its three days
    assert room.clock is not None and room.clock.left == (BY_POST.initial, BY_POST.initial)
    assert rules.time_out(room, now=2 * 86400.0 + BY_POST.initial) is not None


def test_resigning_stops_the_clocks_and_a_new_game_gets_full_ones() -> None:
    room = move(clocked(), 0, H00, at=0.0)
    resigned = changed(rules.decide(room, 1, 1, Resign(), now=30.0)).room
    assert resigned.clock is not None and resigned.clock.running is None
    assert resigned.clock.left == (60, 30)
    asked = changed(rules.decide(resigned, 1, 1, Offer("restart"), now=31.0)).room
    fresh = changed(rules.decide(asked, 1, 0, Accept("restart"), now=32.0)).room
    assert fresh.clock == Clock.start(LIVE) and fresh.game_number == 2


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(min_value=0, max_value=30), min_size=1, max_size=12),
    st.floats(min_value=0, max_value=10),
    st.booleans(),
)
def test_time_only_goes_down_for_the_player_who_is_thinking(
    pauses: list[float], increment: float, per_move: bool
) -> None:
    control = TimeControl(100.0, 0.0 if per_move else increment, per_move)
    clock, now, mover = Clock.start(control), 0.0, 0
    for pause in pauses:
        now += pause
        before = clock.left_at(now)
        assert min(before) >= 0
        if clock.running is not None:
            waiting = 1 - clock.running
            assert clock.left_at(now + 5)[waiting] == before[waiting]
            assert clock.left_at(now + 5)[clock.running] <= before[clock.running]
        clock = clock.after_move(mover, 1 - mover, now)  # type: ignore[arg-type]
        mover = 1 - mover
        if per_move and clock.running is not None:
            assert clock.left == (control.initial, control.initial)


# -- take-backs --------------------------------------------------------------------------------


def test_a_take_back_asked_and_accepted_takes_the_move_and_the_replies_back() -> None:
    room = make_room("correspondence")
    for seat, line in ((0, H00), (1, H10), (0, H01)):
        room = changed(rules.decide(room, 1, seat, PlayMove(line))).room
    assert "offer_takeback" in rules.allowed(room, 1)
    asked = changed(rules.decide(room, 1, 1, Offer("takeback")))
    assert asked.events == (Requested("takeback", 1),)
    assert "accept_takeback" in rules.allowed(asked.room, 0)
    assert "offer_takeback" not in rules.allowed(asked.room, 0)
    done = changed(rules.decide(asked.room, 1, 0, Accept("takeback")))
    assert done.events == (Undone(1, 2),) and done.history == "rewrite"
    assert done.room.game.moves == (H00,) and done.room.game.to_move == 1
    assert done.room.requests == ()


def test_a_take_back_is_declined_or_cancelled_by_a_move() -> None:
    room = changed(rules.decide(make_room("live"), 1, 0, PlayMove(H00))).room
    asked = changed(rules.decide(room, 1, 0, Offer("takeback"))).room
    declined = changed(rules.decide(asked, 1, 1, Decline("takeback"))).room
    assert declined.requests == () and declined.game.moves == (H00,)
    moved = changed(rules.decide(asked, 1, 1, PlayMove(H10)))
    assert moved.room.requests == () and moved.room.game.moves == (H00, H10)


def test_who_may_ask_for_a_take_back() -> None:
    refused(rules.decide(make_room("live"), 1, 0, Offer("takeback")), "not_allowed")  # no move
    alone = changed(rules.decide(make_room("correspondence", guest=False), 1, 0, PlayMove(H00)))
    refused(rules.decide(alone.room, 1, 0, Offer("takeback")), "not_allowed")  # nobody joined
    local = changed(rules.decide(make_room("local"), 1, 0, PlayMove(H00))).room
    refused(rules.decide(local, 1, 0, Offer("takeback")), "not_allowed")  # use undo


def test_a_take_back_sets_the_clock_running_for_whoever_is_to_move() -> None:
    room = move(clocked(), 0, H00, at=0.0)
    room = move(room, 1, H10, at=10.0)
    asked = changed(rules.decide(room, 1, 1, Offer("takeback"), now=20.0)).room
    back = changed(rules.decide(asked, 1, 0, Accept("takeback"), now=25.0)).room
    assert back.game.to_move == 1 and back.clock is not None
    assert back.clock.running == 1 and back.clock.since == 25.0
    assert back.clock.left == (45.0, 52.0)  # gold ran 15 s after coral's move


def test_clocks_are_for_friend_rooms_only() -> None:
    from datetime import date

    from server.rooms.model import Opening

    opening = Opening("r", "i", "h", 0, date(2026, 1, 1), 0.0, 60, 0)
    for mode, control in (("computer", LIVE), ("live", BY_POST), ("correspondence", LIVE)):
        asked = RoomOptions("boxes", mode, "normal", None, {}, time_control=control)  # type: ignore[arg-type]
        refused(rules.new_room(asked, opening), "invalid_options")


# -- over the wire -----------------------------------------------------------------------------


async def test_a_clock_runs_out_with_nobody_doing_anything(start_server: StartServer) -> None:
    server = await start_server()
    async with httpx.AsyncClient(base_url=server.url) as client:
        grant = await create_room(
            client, mode="live", rows=2, cols=2, clock={"minutes": 0.05, "increment": 0}
        )
        guest = await join_room(client, grant)
        assert grant["state"]["time_control"] == {
            "initial_seconds": 3.0,
            "increment_seconds": 0.0,
            "per_move": False,
        }
        bad = await client.post(
            "/api/rooms", json={"game": "boxes", "mode": "live", "clock": {"days_per_move": 2}}
        )
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_options"
    room = grant["room_id"]
    gold = await Socket.open(server, room, grant["token"])
    coral = await Socket.open(server, room, guest["token"])
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    await gold.send(type="move", move={"line": [[0, 0], [1, 0]]}, ref="m")
    ack = await gold.expect("ack", lambda m: m["ref"] == "m")
    moved: dict[str, Any] = next(e for e in gold.seen if e.get("version") == ack["version"])
    assert moved["status"]["clock"]["running"] == 1
    # Coral never moves: the server ends the game when coral's three seconds are gone.
    ended = await coral.expect("event", lambda m: m["event"]["kind"] == "ended")
    assert ended["event"] == {"kind": "ended", "reason": "time", "seat": 1}
    assert ended["status"]["outcome"] == {"winner": 0, "reason": "time"}
    assert ended["status"]["clock"] == {"left_ms": [3000, 0], "running": None}
    await gold.close()
    await coral.close()


async def test_a_clock_keeps_running_across_a_server_restart(start_server: StartServer) -> None:
    first = await start_server()
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(
            client, mode="correspondence", first="me", clock={"days_per_move": 1}
        )
        guest = await join_room(client, grant)
        moved = await client.post(
            f"/api/rooms/{grant['room_id']}/moves",
            json={"move": {"line": [[0, 0], [1, 0]]}},
            headers={"Authorization": f"Bearer {grant['token']}"},
        )
        assert moved.status_code == 200
    await first.stop()
    second = await start_server()
    # A socket catching up gets the move as it was written and the clocks as they are now.
    watcher = await Socket.open(second, grant["room_id"], None, since=0)
    welcome = next(m for m in watcher.seen if m["type"] == "welcome")
    written = welcome["events"][-1]["status"]["clock"]
    assert written["running"] == welcome["clock"]["running"] == 1
    assert welcome["clock"]["left_ms"][1] <= written["left_ms"][1]
    await watcher.close()
    coral = await Socket.open(second, grant["room_id"], guest["token"])
    clock = coral.model.status["clock"]
    assert clock["running"] == 1 and 86_390_000 < clock["left_ms"][1] <= 86_400_000
    await coral.send(type="move", move={"line": [[1, 0], [2, 0]]}, ref="c")
    await coral.expect("ack", lambda m: m["ref"] == "c")
    assert coral.model.status["clock"]["running"] == 0
    await coral.close()


async def test_a_clock_that_ran_out_while_no_server_ran_ends_the_game_after(
    start_server: StartServer,
) -> None:
    first = await start_server()
    async with httpx.AsyncClient(base_url=first.url) as client:
        grant = await create_room(client, mode="live", clock={"minutes": 0.05})
        guest = await join_room(client, grant)
    room = grant["room_id"]
    gold = await Socket.open(first, room, grant["token"])
    coral = await Socket.open(first, room, guest["token"])
    await gold.expect("presence", lambda m: all(s["connected"] for s in m["seats"]))
    await gold.send(type="move", move={"line": [[0, 0], [1, 0]]}, ref="m")
    await gold.expect("ack", lambda m: m["ref"] == "m")
    await first.stop()  # coral's three seconds run out while no server is up
    second = await start_server()
    watcher = await Socket.open(second, room, guest["token"])
    ended = await watcher.expect("event", lambda m: m["event"]["kind"] == "ended")
    assert ended["event"] == {"kind": "ended", "reason": "time", "seat": 1}
    for socket in (gold, coral, watcher):
        await socket.close()
