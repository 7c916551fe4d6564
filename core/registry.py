"""The games tetrad knows, by name: how to start one and how to replay its record."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from core.errors import InvalidOptions
from core.game import GameState

GameName = Literal["boxes", "dots"]
GAME_NAMES: tuple[GameName, ...] = ("boxes", "dots")


@dataclass(frozen=True)
class GameKind:
    """One game's entry points: ``new_game(**options)`` and ``from_json(record)``."""

    name: GameName
    new_game: Callable[..., GameState[Any]]
    from_json: Callable[[Mapping[str, Any]], GameState[Any]]


def game_kind(name: str) -> GameKind:
    """The game called ``name`` ("boxes" or "dots"); InvalidOptions for any other name."""
    if name not in GAME_NAMES:
        raise InvalidOptions(f"unknown game {name!r}; tetrad plays {', '.join(GAME_NAMES)}")
    module = importlib.import_module(f"core.{name}")
    return GameKind(name, module.new_game, module.from_json)


def replay(record: Mapping[str, Any]) -> GameState[Any]:
    """Rebuild a game from a record made by its state's ``to_json``."""
    return game_kind(str(record.get("game", ""))).from_json(record)
