"""Event messages are written from plain data (``views.event_texts``); each text must be what
the protocol's model writes: validating it as an ``EventMessage`` and dumping it again gives
the same text, so the fields, their order and the fields left out all follow the schema."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from server.protocol import AckMessage, EventMessage
from server.rooms import rules, views
from server.rooms.model import Command, Offer, PlayMove, Room, Undo
from tests.server.test_room_rules import changed, make_room


def canonical(text: str) -> str:
    return EventMessage.model_validate_json(text).model_dump_json()


def commit_texts(room: Room, seat: int, command: Command, version: int) -> tuple[Room, list[str]]:
    change = changed(rules.decide(room, version, seat, command))
    return change.room, views.event_texts(room, change.room, change.events, version + 1)


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["boxes", "dots"]),
    mode=st.sampled_from(["live", "computer", "local"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_every_event_of_a_random_game_is_in_the_models_form(
    game: str, mode: str, seed: int
) -> None:
    rng = random.Random(seed)
    options = {"rows": 3, "cols": 3} if game == "boxes" else {"width": 7, "height": 7}
    room = make_room(mode, game=game, **options)
    version, seen = 1, 0
    last = None
    while not room.game.is_over:
        seat = room.game.to_move
        legal = list(room.game.legal_moves())
        near = [
            move
            for move in legal
            if game == "dots"
            and last is not None
            and abs(move.x - last.x) + abs(move.y - last.y) <= 2
        ]
        move = rng.choice(near or legal)  # Dots: play close, so areas are captured
        last = move
        move_id = f"m{version}" if rng.random() < 0.7 else None
        room, texts = commit_texts(room, seat, PlayMove(move, move_id), version)
        for text in texts:
            assert canonical(text) == text
        version += len(texts)
        seen += len(texts)
        if mode == "live" and not room.game.is_over and rng.random() < 0.05:
            room, texts = commit_texts(
                room, 1 - seat, Offer(rng.choice(["restart", "end"])), version
            )
            assert all(canonical(text) == text for text in texts)
            version += len(texts)
    assert seen >= len(room.game.moves)


def test_a_capture_and_the_outcome_are_in_the_models_form() -> None:
    # Dots: capture the mark at (2, 2) with four marks around it, then resign.
    room = make_room("local", game="dots", width=5, height=5)
    plays = [(2, 1), (2, 2), (1, 2), (0, 0), (3, 2), (0, 4), (2, 3)]
    version = 1
    texts: list[str] = []
    for x, y in plays:
        point = next(p for p in room.game.legal_moves() if (p.x, p.y) == (x, y))
        room, made = commit_texts(room, room.game.to_move, PlayMove(point), version)
        version += len(made)
        texts += made
    assert '"captures"' in texts[-1]
    room, made = commit_texts(room, 0, Undo(), version)
    texts += made
    for text in texts:
        assert canonical(text) == text


@given(
    version=st.integers(0, 2**40),
    ref=st.none() | st.text(max_size=64),
    move_id=st.none() | st.text(min_size=1, max_size=64),
    duplicate=st.booleans(),
)
def test_an_ack_is_in_the_models_form(
    version: int, ref: str | None, move_id: str | None, duplicate: bool
) -> None:
    text = views.ack_text("room", version, ref, move_id, duplicate)
    assert AckMessage.model_validate_json(text).model_dump_json() == text
