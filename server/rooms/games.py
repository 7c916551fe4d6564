"""The server's only door to the rules: start, replay and undo games through ``core``."""

from __future__ import annotations

from typing import Any

from core.errors import TetradError
from core.game import GameState
from core.registry import game_kind, replay
from server.errors import ApiError

AnyGame = GameState[Any]


def new_game(game: str, options: dict[str, Any]) -> AnyGame:
    """A new game of ``game`` with the given options; ``invalid_options`` if core refuses."""
    try:
        return game_kind(game).new_game(**options)
    except TetradError as error:
        raise ApiError("invalid_options", error.reason) from error
    except (TypeError, ImportError) as error:
        raise ApiError("invalid_options", f"{game} does not accept these options") from error


def from_record(record: dict[str, Any]) -> AnyGame:
    """Rebuild a stored game; a broken record is a server fault, never the client's."""
    return replay(record)


def replay_moves(setup: dict[str, Any], moves: tuple[Any, ...]) -> AnyGame:
    """The starting position ``setup`` with ``moves`` played on it."""
    state = from_record(setup)
    for move in moves:
        state = state.play(move)
    return state


def movers(setup: dict[str, Any], game: AnyGame) -> list[int]:
    """Who made each move of ``game`` (replayed from its starting position)."""
    state = from_record(setup)
    who: list[int] = []
    for move in game.moves:
        who.append(state.to_move)
        state = state.play(move)
    return who


MOVE_JSON_KEPT = 1 << 16
_move_json: dict[tuple[type[Any], Any], dict[str, Any]] = {}


def move_json(game: AnyGame, move: Any) -> dict[str, Any]:
    """``game.move_to_json(move)``, remembered per kind of game and move: a room view lists
    every legal move (over a thousand on a large Dots board) at every change, and the wire
    form of a move never changes. The dict is shared: never modify it."""
    key = (type(game), move)
    try:
        cached = _move_json.get(key)
    except TypeError:  # an unhashable move: no caching
        return game.move_to_json(move)
    if cached is None:
        if len(_move_json) >= MOVE_JSON_KEPT:
            _move_json.clear()
        cached = _move_json[key] = game.move_to_json(move)
    return cached
