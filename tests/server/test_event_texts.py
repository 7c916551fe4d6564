"""Every message the server writes goes through ``protocol.encode``: the texts it writes for
the events of whole games (and for acks) are read back by the published schema and written
again unchanged, so what is sent and what /openapi.json describes cannot drift apart; a value
of the wrong type in a message is refused instead of sent."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticSerializationError

from server.protocol import (
    AckMessage,
    Status,
    encode,
    event_message_adapter,
    server_message_adapter,
)
from server.rooms import rules, views
from server.rooms.model import Command, Offer, PlayMove, Room, Undo
from tests.server.test_room_rules import changed, make_room


def canonical(text: str) -> str:
    """The text read by the published schema of server messages and written again."""
    server_message_adapter.validate_json(text)
    return encode(event_message_adapter.validate_json(text))


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
    ack = AckMessage(room="room", version=version, ref=ref, move_id=move_id, duplicate=duplicate)
    text = encode(ack)
    assert server_message_adapter.validate_json(text) == ack
    assert encode(server_message_adapter.validate_json(text)) == text


def test_a_value_of_the_wrong_type_is_refused_not_sent() -> None:
    with pytest.raises(PydanticSerializationError):
        encode(Status(to_move=0, scores=[1, 2], outcome=None, thinking=False))  # type: ignore[arg-type]
