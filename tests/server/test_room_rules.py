"""The rules of rooms, tested as a pure reducer: rooms in, changes or refusals out."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.boxes import Line
from core.dots import Point
from server.rooms import games, rules
from server.rooms.clock import Clock, TimeControl
from server.rooms.model import (
    Accept,
    Change,
    Decline,
    Declined,
    Ended,
    Join,
    Joined,
    LevelChanged,
    MoveMade,
    NewGame,
    Offer,
    Opening,
    PendingRequest,
    PlayMove,
    PreviousGame,
    Refusal,
    Requested,
    Resign,
    Restarted,
    Room,
    RoomOptions,
    SeatRecord,
    SetLevel,
    Undo,
    Undone,
)

GOLD, CORAL = "gold-token-hash", "coral-token-hash"


def make_room(
    mode: str = "live",
    *,
    game: str = "boxes",
    guest: bool = True,
    computer_seat: int = 1,
    daily: str | None = None,
    **options: Any,
) -> Room:
    options = options or ({"rows": 2, "cols": 2} if game == "boxes" else {"width": 5, "height": 5})
    state = games.new_game(game, options)
    if mode == "computer":
        seats = [SeatRecord("human", GOLD), SeatRecord("human", GOLD)]
        seats[computer_seat] = SeatRecord("computer")
    elif mode == "local":
        seats = [SeatRecord("human", GOLD), SeatRecord("human", GOLD)]
    else:
        seats = [SeatRecord("human", GOLD), SeatRecord("human", CORAL if guest else None)]
    return Room(
        id="room",
        game_name="boxes" if game == "boxes" else "dots",
        mode=mode,  # type: ignore[arg-type]
        seats=(seats[0], seats[1]),
        setup=state.to_json(),
        game=state,
        level="normal" if mode == "computer" else None,
        daily=daily,
        invite_code="invite" if mode in ("live", "correspondence") else None,
    )


def changed(decision: object) -> Change:
    assert isinstance(decision, Change), decision
    return decision


def refused(decision: object, code: str) -> Refusal:
    assert isinstance(decision, Refusal), decision
    assert decision.code == code, decision
    return decision


def play(room: Room, seat: int, move: Any, **extra: Any) -> Room:
    return changed(rules.decide(room, 1, seat, PlayMove(move, **extra))).room


H00 = Line((0, 0), (1, 0))
H10 = Line((1, 0), (2, 0))
H01 = Line((0, 1), (1, 1))
V00 = Line((0, 0), (0, 1))
V10 = Line((1, 0), (1, 1))


# -- moves ----------------------------------------------------------------------------------


def test_a_move_in_turn_is_played_and_appended() -> None:
    room = make_room()
    change = changed(rules.decide(room, 3, 0, PlayMove(H00, "m1")))
    assert change.events == (MoveMade(0, H00, "m1"),)
    assert change.history == "append" and change.move_id == "m1"
    assert change.room.game.moves == (H00,) and change.room.game.to_move == 1
    assert change.require_present == 1


def test_moves_out_of_turn_illegal_off_board_or_stale_are_refused() -> None:
    room = make_room()
    refused(rules.decide(room, 1, 1, PlayMove(H00)), "not_your_turn")
    after = play(room, 0, H00)
    refused(rules.decide(after, 2, 1, PlayMove(H00)), "illegal_move")
    refused(rules.decide(after, 2, 1, PlayMove(Line((5, 5), (6, 5)))), "invalid_move")
    stale = refused(rules.decide(after, 2, 1, PlayMove(H10, version=1)), "stale_version")
    assert stale.details == {"version": 2}
    changed(rules.decide(after, 2, 1, PlayMove(H10, version=2)))


def test_a_live_move_needs_a_guest_and_asks_for_the_opponents_presence() -> None:
    refused(rules.decide(make_room(guest=False), 1, 0, PlayMove(H00)), "opponent_offline")
    correspondence = make_room("correspondence", guest=False)
    assert changed(rules.decide(correspondence, 1, 0, PlayMove(H00))).require_present is None


def test_on_one_device_the_token_plays_whoever_is_to_move() -> None:
    room = play(make_room("local"), 0, H00)
    change = changed(rules.decide(room, 2, 0, PlayMove(H10)))
    assert change.events == (MoveMade(1, H10, None),)


def test_a_move_cancels_pending_requests_with_declined_events_first() -> None:
    room = replace(make_room(), requests=(PendingRequest("end", 1), PendingRequest("restart", 0)))
    change = changed(rules.decide(room, 1, 0, PlayMove(H00)))
    assert change.events == (Declined("end", None), Declined("restart", None), MoveMade(0, H00))
    assert change.room.requests == ()


def test_no_move_after_the_game_is_over() -> None:
    room = changed(rules.decide(make_room(), 1, 0, Resign())).room
    refused(rules.decide(room, 2, 1, PlayMove(H00)), "game_over")


def test_dots_moves_are_points() -> None:
    room = make_room("correspondence", game="dots")
    change = changed(rules.decide(room, 1, 0, PlayMove(Point(2, 2))))
    assert change.room.game.moves == (Point(2, 2),)
    refused(rules.decide(change.room, 2, 1, PlayMove(Point(2, 2))), "illegal_move")
    refused(rules.decide(change.room, 2, 1, PlayMove(Point(9, 2))), "invalid_move")


# -- seats ---------------------------------------------------------------------------------


def test_the_first_guest_takes_the_free_seat_and_later_ones_watch() -> None:
    room = make_room(guest=False)
    change = changed(rules.decide(room, 1, 0, Join("guest")))
    assert change.events == (Joined(1),) and change.room.seats[1].token_hash == "guest"
    assert rules.decide(change.room, 2, 0, Join("late")) is None


# -- requests -----------------------------------------------------------------------------


def test_a_restart_needs_both_once_the_guest_is_in() -> None:
    alone = make_room(guest=False)
    assert changed(rules.decide(alone, 1, 0, Offer("restart"))).events == (Restarted(2),)
    room = play(make_room(), 0, H00)
    asked = changed(rules.decide(room, 2, 0, Offer("restart")))
    assert asked.events == (Requested("restart", 0),)
    assert rules.decide(asked.room, 3, 0, Offer("restart")) is None
    refused(rules.decide(asked.room, 3, 0, Accept("restart")), "no_request")
    accepted = changed(rules.decide(asked.room, 3, 1, Accept("restart")))
    assert accepted.events == (Restarted(2),) and accepted.history == "rewrite"
    assert accepted.room.game.moves == () and accepted.room.game_number == 2
    assert accepted.room.seats == room.seats
    crossed = changed(rules.decide(asked.room, 3, 1, Offer("restart")))
    assert crossed.events == (Restarted(2),)


def test_declining_or_withdrawing_a_request() -> None:
    asked = changed(rules.decide(make_room(), 1, 0, Offer("end"))).room
    assert changed(rules.decide(asked, 2, 1, Decline("end"))).events == (Declined("end", 1),)
    assert changed(rules.decide(asked, 2, 0, Decline("end"))).room.requests == ()
    refused(rules.decide(asked, 2, 1, Decline("restart")), "no_request")


def test_ending_by_agreement_by_mode() -> None:
    refused(rules.decide(make_room("computer"), 1, 0, Offer("end")), "not_allowed")
    refused(rules.decide(make_room(guest=False), 1, 0, Offer("end")), "not_allowed")
    local = changed(rules.decide(make_room("local"), 1, 0, Offer("end")))
    assert local.events == (Ended("agreement", None),) and local.room.game.is_over
    asked = changed(rules.decide(make_room(), 1, 0, Offer("end"))).room
    agreed = changed(rules.decide(asked, 2, 1, Accept("end")))
    assert agreed.events == (Ended("agreement", None),)
    refused(rules.decide(agreed.room, 3, 0, Offer("end")), "game_over")


def test_resigning() -> None:
    change = changed(rules.decide(make_room(), 1, 1, Resign()))
    assert change.events == (Ended("resignation", 1),)
    outcome = change.room.game.outcome()
    assert outcome is not None and outcome.winner == 0
    refused(rules.decide(change.room, 2, 0, Resign()), "game_over")
    local = play(make_room("local"), 0, H00)
    assert changed(rules.decide(local, 2, 0, Resign())).events == (Ended("resignation", 1),)


# -- computer and local rooms -----------------------------------------------------------------


def test_undo_takes_back_my_move_and_the_computers_replies() -> None:
    room = make_room("computer")
    room = play(room, 0, H00)
    room = play(room, 1, H10)
    room = play(room, 0, H01)
    room = play(room, 1, V00)
    change = changed(rules.decide(room, 1, 0, Undo()))
    assert change.events == (Undone(0, 2),) and change.history == "rewrite"
    assert change.room.game.moves == (H00, H10)
    refused(rules.decide(make_room("computer"), 1, 0, Undo()), "not_allowed")
    refused(rules.decide(make_room(), 1, 0, Undo()), "not_allowed")
    resigned = changed(rules.decide(room, 1, 0, Resign())).room
    refused(rules.decide(resigned, 1, 0, Undo()), "game_over")


def test_undo_on_one_device_takes_back_the_last_move() -> None:
    room = play(play(make_room("local"), 0, H00), 1, H10)
    assert changed(rules.decide(room, 3, 0, Undo())).room.game.moves == (H00,)


def test_undo_right_after_a_new_game_brings_the_game_back() -> None:
    room = play(play(make_room("computer"), 0, H00), 1, H10)
    fresh = changed(rules.decide(room, 3, 0, NewGame(first="opponent")))
    assert fresh.events == (Restarted(2),)
    assert fresh.room.computer_seat == 0 and fresh.room.seats[1].token_hash == GOLD
    assert "undo" in rules.allowed(fresh.room, 1)
    back = changed(rules.decide(fresh.room, 4, 1, Undo()))
    assert back.events == (Undone(1, 0),)
    assert back.room.game.moves == (H00, H10) and back.room.game_number == 1
    assert back.room.computer_seat == 1 and back.room.previous is None
    assert "undo" in rules.allowed(back.room, 0)


def test_new_game_and_level_rules() -> None:
    refused(rules.decide(make_room(), 1, 0, NewGame()), "not_allowed")
    room = make_room("computer")
    assert changed(rules.decide(room, 1, 0, SetLevel("hard"))).events == (LevelChanged("hard"),)
    assert rules.decide(room, 1, 0, SetLevel("normal")) is None
    refused(rules.decide(make_room("local"), 1, 0, SetLevel("hard")), "not_allowed")
    daily = make_room("computer", daily="2026-01-01")
    refused(rules.decide(daily, 1, 0, SetLevel("hard")), "not_allowed")
    refused(rules.decide(play(daily, 0, H00), 2, 0, Undo()), "not_allowed")
    assert rules.refuse_hint(daily, 0) is not None
    assert changed(rules.decide(daily, 1, 0, NewGame())).events == (Restarted(2),)


def test_hints_for_the_player_to_move_against_the_computer_and_on_one_device() -> None:
    room = make_room("computer")
    assert rules.refuse_hint(room, 0) is None
    after = play(room, 0, H00)
    hint = rules.refuse_hint(after, 0)
    assert hint is not None and hint.code == "not_your_turn"
    assert rules.refuse_hint(make_room(), 0) is not None
    assert rules.refuse_hint(play(make_room("local"), 0, H00), 0) is None


def test_line_values_only_in_practice_against_the_computer_on_the_players_turn() -> None:
    room = make_room("computer")
    assert rules.refuse_line_values(room, 0) is None
    waiting = rules.refuse_line_values(play(room, 0, H00), 0)
    assert waiting is not None and waiting.code == "not_your_turn"
    for elsewhere in (
        make_room(),
        make_room("local"),
        make_room("computer", daily="2026-01-01"),
        replace(room, rated=True),
        make_room("computer", game="dots"),
    ):
        refused = rules.refuse_line_values(elsewhere, 0)
        assert refused is not None and refused.code == "not_allowed", elsewhere


# -- allowed actions ----------------------------------------------------------------------------


def test_allowed_actions_follow_the_rules() -> None:
    live = make_room()
    assert rules.allowed(live, 0) == {"offer_restart", "offer_end", "resign"}
    asked = changed(rules.decide(live, 1, 0, Offer("end"))).room
    assert rules.allowed(asked, 0) == {"offer_restart", "decline_end", "resign"}
    assert rules.allowed(asked, 1) == {"offer_restart", "accept_end", "decline_end", "resign"}
    waiting = make_room(guest=False)
    assert rules.allowed(waiting, 0) == {"offer_restart", "resign"}
    computer = make_room("computer")
    assert rules.allowed(computer, 1) == frozenset()
    assert rules.allowed(computer, 0) == {"new_game", "hint", "set_level", "resign"}
    moved = play(computer, 0, H00)
    assert rules.allowed(moved, 0) == {"new_game", "undo", "set_level", "resign"}
    local = make_room("local")
    assert rules.allowed(local, 0) == {"new_game", "hint", "offer_end", "resign"}


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_every_allowed_action_is_accepted_and_every_other_is_refused(data: st.DataObject) -> None:
    """What :func:`rules.allowed` offers is exactly what :func:`rules.decide` accepts (an
    offer crossing the other player's same request is accepted as that request)."""
    mode = data.draw(st.sampled_from(["live", "correspondence", "computer", "local"]))
    room = make_room(mode, guest=data.draw(st.booleans()))
    for _ in range(data.draw(st.integers(0, 6))):
        if room.game.is_over:
            break
        moves = list(room.game.legal_moves())
        mover = room.game.to_move
        decision = rules.decide(room, 1, mover, PlayMove(data.draw(st.sampled_from(moves))))
        if not isinstance(decision, Change):
            break
        room = decision.room
    requests = data.draw(st.sets(st.sampled_from(["restart", "end"])))
    if mode in ("live", "correspondence") and room.guest_joined:
        asker = data.draw(st.sampled_from([0, 1]))
        room = replace(room, requests=tuple(PendingRequest(k, asker) for k in sorted(requests)))
    commands = {
        "undo": Undo(),
        "set_level": SetLevel("easy"),
        "new_game": NewGame(),
        "offer_restart": Offer("restart"),
        "offer_end": Offer("end"),
        "accept_restart": Accept("restart"),
        "accept_end": Accept("end"),
        "decline_restart": Decline("restart"),
        "decline_end": Decline("end"),
        "resign": Resign(),
    }
    for seat in (0, 1):
        if room.seats[seat].kind == "computer" or (mode == "local" and seat == 1):
            continue
        allowed = set(rules.allowed(room, seat))
        allowed |= {name.replace("accept", "offer") for name in allowed if "accept" in name}
        for name, command in commands.items():
            decision = rules.decide(room, 1, seat, command)
            if name in allowed:
                assert isinstance(decision, Change), (name, mode, decision)
            else:
                assert not isinstance(decision, Change), (name, mode, decision)


@pytest.mark.parametrize("mode", ["live", "correspondence", "computer", "local"])
def test_spectator_free_rules_never_touch_the_other_seats_token(mode: str) -> None:
    room = make_room(mode)
    change = changed(rules.decide(room, 1, 0, Resign()))
    assert change.room.seats == room.seats


# -- new rooms ---------------------------------------------------------------------------------

OPENING = Opening(
    room_id="r1",
    invite_code="inv",
    token_hash="creator",
    coin=1,
    today=date(2026, 3, 14),
    now=1000.0,
    room_ttl=600,
    correspondence_ttl=0,
)


def opened(**asked: Any) -> Room:
    options = RoomOptions(
        game=asked.pop("game", "boxes"),
        mode=asked.pop("mode", None),
        level=asked.pop("level", "normal"),
        first=asked.pop("first", None),
        options=asked.pop("options", {"rows": 3, "cols": 3}),
        **asked,
    )
    room = rules.new_room(options, OPENING)
    assert isinstance(room, Room), room
    return room


def test_new_rooms_by_mode() -> None:
    live = opened()
    assert live.mode == "live" and live.invite_code == "inv" and live.ttl_seconds == 600
    assert live.seats == (SeatRecord("human", "creator"), SeatRecord("human", None))
    dots = opened(game="dots", options={"width": 5, "height": 5})
    assert dots.mode == "correspondence" and dots.ttl_seconds == 0
    assert dots.seats[1].token_hash == "creator"  # by lot: the coin said second
    computer = opened(mode="computer", first="opponent", level="hard")
    assert computer.computer_seat == 0 and computer.level == "hard"
    assert computer.invite_code is None and computer.seats[1].token_hash == "creator"
    local = opened(mode="local")
    assert local.seats == (SeatRecord("human", "creator"), SeatRecord("human", "creator"))
    assert opened(mode="live", level="hard").level is None


def test_the_daily_board_is_a_computer_room_on_the_days_lines() -> None:
    room = opened(daily=True, daily_player="browser", mode="live", first="opponent")
    assert room.mode == "computer" and room.level == "normal" and room.computer_seat == 1
    assert room.daily == "2026-03-14" and room.daily_player == "browser"
    assert room.game.moves == () and len(room.setup["start"]) >= 6
    assert opened().daily_player is None


def test_options_the_game_refuses_are_refused() -> None:
    refusal = rules.new_room(
        RoomOptions("boxes", "live", "normal", None, {"rows": 0, "cols": 3}), OPENING
    )
    assert isinstance(refusal, Refusal) and refusal.code == "invalid_options"


def test_a_room_continuing_a_game_starts_at_its_position() -> None:
    so_far = games.replay_moves(games.new_game("boxes", {"rows": 2, "cols": 2}).to_json(), [H00])
    room = opened(mode="computer", position=so_far)
    # the creator takes the side to move there; the moves are the history, not the setup
    assert room.game == so_far and room.game.to_move == 1 and room.computer_seat == 0
    assert room.setup["moves"] == [] and games.from_record(room.setup).moves == ()
    assert opened(mode="computer", first="opponent", position=so_far).computer_seat == 1
    local = opened(mode="local", position=so_far)
    assert local.seats == (SeatRecord("human", "creator"),) * 2
    undone = changed(rules.decide(local, 1, 1, Undo()))
    assert undone.room.game.moves == ()  # undo goes back into the history
    refused(rules.decide(room, 1, 1, Undo()), "not_allowed")  # no move of the human's yet
    restarted = changed(rules.decide(room, 1, 1, NewGame()))
    assert restarted.room.game.moves == ()  # a new game: the record's own start
    for mode in ("live", "correspondence", None):
        refusal = rules.new_room(
            RoomOptions("boxes", mode, "normal", None, {}, position=so_far), OPENING
        )
        assert isinstance(refusal, Refusal) and refusal.code == "invalid_options"
    over = so_far
    while not over.is_over:
        over = over.play(over.legal_moves()[0])
    refusal = rules.new_room(
        RoomOptions("boxes", "local", "normal", None, {}, position=over), OPENING
    )
    assert isinstance(refusal, Refusal) and refusal.code == "bad_record"


def test_with_game_is_replace_with_the_new_game_and_no_requests() -> None:
    base = make_room("computer")
    room = replace(
        base,
        level="hard",
        daily="2026-12-01",
        daily_player="browser-hash",
        invite_code="code",
        game_number=3,
        requests=(PendingRequest("restart", 0),),
        previous=PreviousGame(2, base.seats, base.game),
        ttl_seconds=60,
        created_at=12.5,
        clock=Clock.start(TimeControl(60.0)),
        rated=True,
    )
    defaults = Room(base.id, base.game_name, base.mode, base.seats, {}, base.game)
    # Every field is set apart from its default, so a field with_game forgot would show.
    unchanged = {"id", "game_name", "mode", "seats", "game"}
    for field in fields(Room):
        if field.name not in unchanged:
            assert getattr(room, field.name) != getattr(defaults, field.name), field.name
    game = room.game.play(next(iter(room.game.legal_moves())))
    clock = Clock.start(TimeControl(30.0))
    assert room.with_game(game, clock) == replace(room, game=game, requests=(), clock=clock)
