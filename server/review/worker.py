"""Runs in the AI process pool: one position of a record, analysed by :mod:`core.review`.

Imports only ``core`` (and the standard library), like :mod:`server.rooms.ai_worker`.
"""

from __future__ import annotations

from typing import Any

from core.boxes import BoxesState
from core.dots import DotsState
from core.registry import replay
from core.review import Endgames, Limits, PositionReview, review_boxes, review_dots

ENDGAMES = Endgames()
"""The exact solver's table of this worker, kept across the positions and games it analyses."""


def analyse_position_json(
    record: dict[str, Any],
    ply: int,
    limits: Limits,
    try_exact: bool,
    next_value: int | None = None,
    key: str | None = None,
) -> dict[str, Any]:
    """The analysis of the position after the first ``ply`` moves of ``record`` (a JSON
    record), in the wire form of ``server.api.schemas.PositionAnalysis``; ``next_value``:
    the exact value of the next position, if known; ``key``: the analysis's id, under
    which the worker keeps the position to go on from."""
    moves = record["moves"]
    game = _position(record, ply, key)
    return _position_json(game, moves[ply], ply, limits, try_exact, next_value)


def line_values_json(record: dict[str, Any], limits: Limits) -> dict[str, Any]:
    """What every undrawn line of the current position of ``record`` (a Dots and Boxes
    game's JSON record) is worth, in the wire form of ``server.protocol.LineValuesView``:
    the review's verdict on that position, with no move played from it."""
    state = replay(record)
    assert isinstance(state, BoxesState), "line values are for Dots and Boxes"
    found = review_boxes(state, None, limits, endgames=ENDGAMES)
    return {
        "to_move": found.to_move,
        "exact": found.exact,
        "value": found.value,
        "complete": found.complete,
        "best": [state.move_to_json(move) for move in found.best],
        "values": [{"move": state.move_to_json(move), "value": got} for move, got in found.values],
    }


KEPT_POSITIONS = 4
"""Analyses whose last position a worker keeps, to go on from it."""
_kept: dict[str, tuple[int, Any]] = {}
"""By analysis: the ply and state of the last position this worker rebuilt."""


def _position(record: dict[str, Any], ply: int, key: str | None) -> Any:
    """The position after ``ply`` moves of ``record``: played on from the last one this
    worker rebuilt for analysis ``key`` when that was earlier (a long Dots game analysed
    from its start costs one move a position, not a replay each time)."""
    moves = record["moves"]
    kept = _kept.pop(key, None) if key is not None else None
    if kept is not None and kept[0] <= ply:
        done, state = kept
        name = "line" if isinstance(state, BoxesState) else "point"
        for move in moves[done:ply]:
            state = state.play(state.move_from_json({name: move}))
    else:
        state = replay({**record, "moves": moves[:ply], "end": None})
    if key is not None:
        _kept[key] = (ply, state)
        while len(_kept) > KEPT_POSITIONS:
            del _kept[next(iter(_kept))]  # the one used longest ago
    return state


def _position_json(
    state: Any,
    played_json: Any,
    ply: int,
    limits: Limits,
    try_exact: bool,
    next_value: int | None,
) -> dict[str, Any]:
    key = "line" if isinstance(state, BoxesState) else "point"
    played = state.move_from_json({key: played_json})
    found: PositionReview[Any]
    if isinstance(state, BoxesState):
        found = review_boxes(
            state, played, limits, try_exact, ply, next_value=next_value, endgames=ENDGAMES
        )
    else:
        assert isinstance(state, DotsState)
        found = review_dots(state, played, limits, seed=ply)
    margin = None
    if found.value is not None:
        lead = state.scores[0] - state.scores[1]
        margin = lead + (found.value if found.to_move == 0 else -found.value)
    return {
        "ply": ply,
        "to_move": found.to_move,
        "exact": found.exact,
        "value": found.value,
        "margin": margin,
        "best": [state.move_to_json(move) for move in found.best],
        "complete": found.complete,
        "played": state.move_to_json(played),
        "loss": found.loss,
        "cost": found.cost,
        "mistake": found.mistake,
        "line": [state.move_to_json(move) for move in found.line],
        "values": [{"move": state.move_to_json(move), "value": got} for move, got in found.values],
    }
