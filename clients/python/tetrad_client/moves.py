"""Moves as a bot handles them: plain tuples, written to and read from the wire.

* Dots and Boxes: a line, ``((x1, y1), (x2, y2))`` between two adjacent dots, its ends in
  order (the lesser first), so that equal lines are equal tuples.
* Dots: a point, ``(x, y)``.

``(0, 0)`` is the top-left dot or point. :func:`wire_move` also takes the wire's own forms
(``{"line": [[0, 0], [1, 0]]}``, ``{"point": [3, 4]}`` or the generated ``LineMove`` and
``PointMove`` models), so an engine may answer in whichever it likes.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from pydantic import BaseModel

Dot: TypeAlias = tuple[int, int]
Line: TypeAlias = tuple[Dot, Dot]
Point: TypeAlias = tuple[int, int]
Move: TypeAlias = Line | Point


def line(a: Any, b: Any) -> Line:
    """The line between dots ``a`` and ``b`` (any order)."""
    first, second = (int(a[0]), int(a[1])), (int(b[0]), int(b[1]))
    return (first, second) if first <= second else (second, first)


def is_line(move: Move) -> bool:
    return isinstance(move[0], tuple | list)


def wire_move(move: Any) -> dict[str, Any]:
    """The JSON form of a move given as a tuple, a wire dict or a generated model."""
    if isinstance(move, BaseModel):
        move = move.model_dump(mode="json")
    if isinstance(move, dict):
        if "line" in move:
            a, b = move["line"]
            return {"line": [list(a), list(b)]}
        if "point" in move:
            return {"point": list(move["point"])}
        raise ValueError(f"not a move: {move!r}")
    if len(move) == 2 and all(isinstance(part, tuple | list) for part in move):
        a, b = line(*move)
        return {"line": [list(a), list(b)]}
    if len(move) == 2:
        return {"point": [int(move[0]), int(move[1])]}
    raise ValueError(f"not a move: {move!r}")


def from_wire(move: Any) -> Move:
    """The tuple form of a wire move (a dict or a generated model)."""
    if isinstance(move, BaseModel):
        move = move.model_dump(mode="json")
    if "line" in move:
        return line(*move["line"])
    x, y = move["point"]
    return (int(x), int(y))


def format_move(move: Move) -> str:
    """The engine protocol's text of a move: ``x1,y1-x2,y2`` for a line, ``x,y`` for a point."""
    if is_line(move):
        (x1, y1), (x2, y2) = move  # type: ignore[misc]
        return f"{x1},{y1}-{x2},{y2}"
    x, y = move
    return f"{x},{y}"


def parse_move(text: str) -> Move:
    """A move in the engine protocol's text (see :func:`format_move`); ValueError if it is none."""
    parts = text.strip().split("-")
    try:
        dots = [tuple(int(value) for value in part.split(",")) for part in parts]
    except ValueError:
        raise ValueError(f"not a move: {text!r}") from None
    if len(dots) == 1 and len(dots[0]) == 2:
        return (dots[0][0], dots[0][1])
    if len(dots) == 2 and all(len(dot) == 2 for dot in dots):
        return line(dots[0], dots[1])
    raise ValueError(f"not a move: {text!r}")
