"""Runs in the AI process pool: rebuild the position and ask ``core.ai`` for a move.

Imports only ``core`` so that spawning a worker is cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from core.registry import replay


def choose_move_json(
    record: dict[str, Any], level: str, seed: int, time_limit: float
) -> dict[str, Any]:
    ai = importlib.import_module("core.ai")
    state = replay(record)
    move = ai.choose_move(state, level=level, seed=seed, time_limit=time_limit)
    return state.move_to_json(move)


def warm_up() -> None:
    """Prepare a new worker: import the AI and build its tables, so no player waits for it."""
    ai = importlib.import_module("core.ai")
    ai.boxes.warm_up()
