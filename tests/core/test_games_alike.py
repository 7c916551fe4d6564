"""Both games offer the same API, so the server, the AI and bots treat them alike."""

from __future__ import annotations

import pytest

from core import InvalidOptions, boxes, dots, other
from core.game import GameState
from core.registry import GAME_NAMES, GAMES, game_kind, replay

SHARED = {
    "options", "geometry", "to_move", "moves", "last_move", "movers", "last_move_by",
    "scores", "is_over",
    "winner", "outcome", "ending", "is_legal", "legal_moves", "play", "resign",
    "end_by_agreement", "lose_on_time", "end", "to_board", "snapshot", "move_to_json",
    "move_from_json", "to_json",
}  # fmt: skip


def public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


def test_both_states_offer_the_shared_api() -> None:
    assert public(boxes.BoxesState) >= SHARED
    assert public(dots.DotsState) >= SHARED
    protocol = {name for name in dir(GameState) if not name.startswith("_")}
    assert protocol <= SHARED


@pytest.mark.parametrize("name", GAME_NAMES)
def test_states_are_immutable_the_same_way(name: str) -> None:
    state = GAMES[name].new_game()
    for attribute in ("to_move", "scores", "moves", "options"):
        with pytest.raises(AttributeError):
            setattr(state, attribute, None)
    with pytest.raises(AttributeError):
        state.anything_new = 1  # type: ignore[attr-defined]
    assert not hasattr(state, "__dict__")
    child = state.play(state.legal_moves()[0])
    assert state.moves == () and len(child.moves) == 1 and child != state
    assert child.last_move == state.legal_moves()[0] and state.last_move is None
    assert state.is_legal(state.legal_moves()[0]) and not child.is_legal(child.moves[0])


def test_other_player() -> None:
    assert other(0) == 1 and other(1) == 0


def test_the_registry_is_static_and_knows_both_games() -> None:
    assert GAME_NAMES == ("boxes", "dots")
    for name in GAME_NAMES:
        kind = game_kind(name)
        assert kind is GAMES[name] and kind.name == name
        game = kind.new_game()
        game = game.play(game.legal_moves()[0])
        assert replay(game.to_json()) == game
        assert kind.parse_record(f"{name} 5x5") == kind.new_game(5, 5)
    with pytest.raises(InvalidOptions):
        game_kind("chess")
    with pytest.raises(InvalidOptions):
        game_kind("__class__")
