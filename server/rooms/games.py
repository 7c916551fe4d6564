"""The server's only door to the rules: start, replay and undo games through ``core``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import TetradError
from core.registry import game_kind, replay
from server.refusals import Refusal
from server.rooms.model import AnyGame, Move


def new_game(game: str, options: dict[str, Any]) -> AnyGame:
    """A new game of ``game`` with the given options; ``invalid_options`` if core refuses."""
    try:
        return game_kind(game).new_game(**options)
    except TetradError as error:
        raise Refusal("invalid_options", error.reason) from error  # any core error here
    except (TypeError, ImportError) as error:
        raise Refusal("invalid_options", f"{game} does not accept these options") from error


def from_record(record: dict[str, Any]) -> AnyGame:
    """Rebuild a stored game; a broken record is a server fault, never the client's."""
    return replay(record)


def replay_moves(setup: dict[str, Any], moves: Sequence[Move]) -> AnyGame:
    """The starting position ``setup`` with ``moves`` played on it."""
    state = from_record(setup)
    for move in moves:
        state = state.play(move)
    return state
