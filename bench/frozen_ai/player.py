"""What every computer player shares: the level names, the clock type and the level check."""

from __future__ import annotations

from collections.abc import Callable

from core.errors import InvalidOptions

Clock = Callable[[], float]
"""Seconds from an arbitrary start; injected so tests can stop a search deterministically."""

LEVELS = ("easy", "normal", "hard")
"""The computer levels, weakest first, named the same for both games."""


def check_level(level: str) -> None:
    """Refuse any level name but the three of :data:`LEVELS` with InvalidOptions."""
    if level not in LEVELS:
        raise InvalidOptions(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
