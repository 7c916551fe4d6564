"""Positions of both games as plain JSON data, for the tests that compare whole positions:
built from the states' typed snapshots (what the server sends is built by its own views)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import boxes, dots
from core.dots import Point
from core.dots.snapshot import Enclosure


def view(state: boxes.BoxesState | dots.DotsState) -> dict[str, Any]:
    """Everything a client needs to draw the position."""
    if isinstance(state, boxes.BoxesState):
        return _boxes(state)
    return _dots(state)


def _boxes(state: boxes.BoxesState) -> dict[str, Any]:
    snapshot = state.snapshot()
    outcome, last = snapshot.outcome, snapshot.last_move
    return {
        "game": "boxes",
        "rows": snapshot.rows,
        "cols": snapshot.cols,
        "lines": [
            {"line": entry.line.to_json()["line"], "player": entry.player}
            for entry in snapshot.lines
        ],
        "boxes": [{"box": list(box.box), "owner": box.owner} for box in snapshot.boxes],
        "last_move": None if last is None else last.to_json()["line"],
        "to_move": snapshot.to_move,
        "scores": list(snapshot.scores),
        "outcome": None if outcome is None else outcome.to_json(),
        "legal_moves": [line.to_json()["line"] for line in state.legal_moves()],
    }


def _xy(point: Point) -> list[int]:
    return [point.x, point.y]


def _enclosures(found: Sequence[Enclosure], who: str) -> list[dict[str, Any]]:
    return [
        {
            who: item.owner,
            "chain": [_xy(point) for point in item.chain],
            "inside": [_xy(point) for point in item.inside],
        }
        for item in found
    ]


def _dots(state: dots.DotsState) -> dict[str, Any]:
    snapshot = state.snapshot()
    outcome, last = snapshot.outcome, snapshot.last_move
    return {
        "game": "dots",
        "width": snapshot.width,
        "height": snapshot.height,
        "start": snapshot.start,
        "win_margin": snapshot.win_margin,
        "grounding": snapshot.grounding,
        "marks": [
            {"point": _xy(mark.point), "owner": mark.owner, "captured": mark.captured}
            for mark in snapshot.marks
        ],
        "areas": _enclosures(snapshot.areas, "captor"),
        "houses": _enclosures(snapshot.houses, "owner"),
        "last_move": None if last is None else _xy(last),
        "move_count": snapshot.move_count,
        "scores": list(snapshot.scores),
        "to_move": snapshot.to_move,
        "is_over": state.is_over,
        "outcome": None if outcome is None else outcome.to_json(),
        "ungrounded": [_xy(point) for point in snapshot.ungrounded],
    }
