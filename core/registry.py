"""The games tetrad knows, by name: how to start one and how to replay its record."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from core import boxes, dots
from core.errors import InvalidOptions
from core.game import GameState
from core.notation import read_record

GameName = Literal["boxes", "dots"]


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game's entry points: ``new_game(**options)``, ``from_json(record)`` and
    ``parse_record(text)``.
    """

    name: GameName
    new_game: Callable[..., GameState[Any]]
    from_json: Callable[[Mapping[str, Any]], GameState[Any]]
    parse_record: Callable[[str], GameState[Any]]


GAMES: Mapping[GameName, GameKind] = {
    "boxes": GameKind("boxes", boxes.new_game, boxes.from_json, boxes.parse_record),
    "dots": GameKind("dots", dots.new_game, dots.from_json, dots.parse_record),
}
GAME_NAMES: tuple[GameName, ...] = tuple(GAMES)


def game_kind(name: str) -> GameKind:
    """The game called ``name`` ("boxes" or "dots"); InvalidOptions for any other name."""
    for known, kind in GAMES.items():
        if name == known:
            return kind
    raise InvalidOptions(f"unknown game {name!r}; tetrad plays {', '.join(GAME_NAMES)}")


def replay(record: Mapping[str, Any]) -> GameState[Any]:
    """Rebuild a game from a record made by its state's ``to_json``."""
    return game_kind(str(record.get("game", ""))).from_json(record)


def parse_record(text: str) -> GameState[Any]:
    """Replay a text record of either game: its first word names the game."""
    return game_kind(read_record(text).game).parse_record(text)
