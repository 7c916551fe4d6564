"""A compact text notation for whole Dots and Boxes games.

Dots are named like squares on a chess board: a letter for the column (``a`` is the
left edge) and a number for the row counted from the top (``1`` is the top edge). A line
is its two dots, so ``a1b1`` is the top-left horizontal line and ``a1a2`` the vertical
one below ``a1``. A record is the board size, optional start lines after ``/``, and the
moves after ``:``; a resignation or an agreed end follows the moves::

    3x3 : a1b1 b2b3 c1c2
    5x5 / c3d3 e1e2 : a1b1 a2b2 #resign:1
"""

from __future__ import annotations

import re

from core.boxes.line import Line
from core.boxes.state import BoxesState, new_game
from core.errors import InvalidMove

_COLUMNS = "abcdefghijk"
_DOT = re.compile(r"([a-k])(\d{1,2})")
_LINE = re.compile(r"([a-k]\d{1,2})([a-k]\d{1,2})")
_SIZE = re.compile(r"(\d{1,2})x(\d{1,2})")


def format_dot(x: int, y: int) -> str:
    """Name dot ``(x, y)`` in notation, e.g. ``(0, 0)`` is ``a1``."""
    return f"{_COLUMNS[x]}{y + 1}"


def format_line(line: Line) -> str:
    """Name ``line`` by its two dots, e.g. ``a1b1``."""
    return format_dot(*line.a) + format_dot(*line.b)


def parse_line(text: str) -> Line:
    """Read a line such as ``a1b1`` (dots in either order)."""
    match = _LINE.fullmatch(text.strip())
    if not match:
        raise InvalidMove(f"{text!r} is not a line like 'a1b1'")
    ends = []
    for name in match.groups():
        dot = _DOT.fullmatch(name)
        assert dot is not None
        row = int(dot.group(2))
        if row < 1:
            raise InvalidMove(f"rows are numbered from 1, not in {text!r}")
        ends.append((_COLUMNS.index(dot.group(1)), row - 1))
    return Line(ends[0], ends[1])


def format_record(state: BoxesState) -> str:
    """The whole game of ``state`` in notation; :func:`parse_record` reads it back."""
    parts = [f"{state.rows}x{state.cols}"]
    if state.start:
        parts += ["/", *(format_line(line) for line in state.start)]
    parts += [":", *(format_line(line) for line in state.moves)]
    record = state.to_json()
    end = record.get("end")
    if end is not None:
        parts.append("#agreed" if end["type"] == "agreement" else f"#resign:{end['player']}")
    return " ".join(parts)


def parse_record(text: str) -> BoxesState:
    """Replay a game written by :func:`format_record`."""
    head, colon, body = text.partition(":")
    if not colon:
        raise InvalidMove("a record needs ':' before its moves")
    size_text, _, start_text = head.partition("/")
    size = _SIZE.fullmatch(size_text.strip())
    if not size:
        raise InvalidMove(f"{size_text.strip()!r} is not a board size like '5x5'")
    start = [parse_line(word) for word in start_text.split()]
    state = new_game(int(size.group(1)), int(size.group(2)), start)
    words = body.split()
    ending = words.pop() if words and words[-1].startswith("#") else None
    for word in words:
        state = state.play(parse_line(word))
    if ending == "#agreed":
        state = state.end_by_agreement()
    elif ending in ("#resign:0", "#resign:1"):
        state = state.resign(0 if ending.endswith("0") else 1)
    elif ending is not None:
        raise InvalidMove(f"unknown ending {ending!r}")
    return state
