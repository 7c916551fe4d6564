"""The text notation both games share: squares named like spreadsheet cells, and records.

Squares
-------
A point of the board (a dot in Dots and Boxes, a point in Dots) is named like a cell of a
spreadsheet: its column as letters, ``a`` for the left edge, then ``b`` … ``z``, ``aa``,
``ab`` … ``az``, ``ba`` …, and its row as a number counted from ``1`` at the top.  So
``(0, 0)`` is ``a1``, ``(2, 4)`` is ``c5`` and ``(27, 31)`` is ``ab32``.  Letters may be
given in either case; they are written in lower case.

* A Dots move is its point: ``c5``.
* A Dots and Boxes move is its two dots joined by ``-``: ``a1-b1`` is the top-left
  horizontal line, ``a1-a2`` the vertical one below ``a1`` (dots in either order).

Records
-------
A whole game is one record with up to three parts separated by ``;``::

    boxes 3x2 start=c1-c2; a1-b1 a1-a2 b2-b3; resign 1
    dots 39x32 start=cross margin=10 grounding; t16 u17 t17; ground 0

* the header: the game, its size as columns ``x`` rows (Dots and Boxes counts boxes, Dots
  counts points), then the options that differ from the defaults: ``start=`` (Dots:
  ``cross`` or ``four_crosses``; Dots and Boxes: the lines drawn before the first move,
  separated by commas), ``margin=N`` and ``grounding`` (Dots);
* the moves, in order, separated by spaces;
* how the game ended early, if it did: ``resign P``, ``time P`` (P's time ran out),
  ``agreement`` or ``ground P``.

Whitespace, line breaks included, may be used freely between tokens, and ``%`` starts a
comment that runs to the end of its line.  :func:`read_record` splits a record into its
parts; each game's ``notation`` module gives them meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.errors import InvalidMove, InvalidOptions
from core.game import Ending, EndingKind, as_player

SQUARE_LETTERS = 3
"""Most letters a column name may have (``zzz`` is column 18,278): a longer name is refused
before it is read, so a hostile name costs no more than its length to turn down."""
SQUARE_DIGITS = 5
"""Most digits a row number may have."""
_SQUARE = re.compile(rf"([a-zA-Z]{{1,{SQUARE_LETTERS}}})([1-9][0-9]{{0,{SQUARE_DIGITS - 1}}})")
_SIZE = re.compile(r"([0-9]+)x([0-9]+)")
_COMMENT = re.compile(r"%[^\n]*")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def column_name(x: int) -> str:
    """The letters of column ``x`` (0-based): ``a`` … ``z``, ``aa`` …"""
    name = ""
    x += 1
    while x:
        x, digit = divmod(x - 1, 26)
        name = _LETTERS[digit] + name
    return name


def format_square(x: int, y: int) -> str:
    """The name of point ``(x, y)``, e.g. ``(2, 4)`` is ``c5``."""
    return f"{column_name(x)}{y + 1}"


def parse_square(text: str) -> tuple[int, int]:
    """The ``(x, y)`` of a square name such as ``c5``; InvalidMove for anything else (a
    name longer than :data:`SQUARE_LETTERS` letters and :data:`SQUARE_DIGITS` digits too:
    no board is that large)."""
    found = _SQUARE.fullmatch(text)
    if found is None:
        shown = text if len(text) <= 20 else f"{text[:20]}…"
        raise InvalidMove(f"{shown!r} is not a square like 'c5' (column letters, row number)")
    x = 0
    for letter in found[1].lower():
        x = x * 26 + _LETTERS.index(letter) + 1
    return x - 1, int(found[2]) - 1


@dataclass(frozen=True, slots=True)
class Record:
    """A record split into its parts, not yet checked against the rules of its game."""

    game: str
    width: int
    height: int
    options: tuple[tuple[str, str | None], ...]
    """Each option as its name and its value (``None`` for a bare flag), in order."""
    moves: tuple[str, ...]
    ending: Ending | None


def read_record(text: str) -> Record:
    """Split a record into its parts (see the module docs); InvalidOptions when it is not
    shaped like one.
    """
    if not isinstance(text, str):
        raise InvalidOptions("a record is text")
    parts = [part.split() for part in _COMMENT.sub(" ", text).split(";")]
    if len(parts) > 3:
        raise InvalidOptions("a record has at most three parts separated by ';'")
    header = parts[0]
    if len(header) < 2:
        raise InvalidOptions("a record starts with the game and its size, e.g. 'dots 39x32'")
    size = _SIZE.fullmatch(header[1].lower())
    if size is None:
        raise InvalidOptions(f"{header[1]!r} is not a board size like '39x32'")
    options = []
    for token in header[2:]:
        name, equals, value = token.partition("=")
        options.append((name, value if equals else None))
    return Record(
        game=header[0].lower(),
        width=int(size[1]),
        height=int(size[2]),
        options=tuple(options),
        moves=tuple(parts[1]) if len(parts) > 1 else (),
        ending=_read_ending(parts[2]) if len(parts) > 2 else None,
    )


ENDING_VERBS: dict[EndingKind, str] = {
    "resignation": "resign",
    "time": "time",
    "grounding": "ground",
}
"""How the record names the endings that name a player."""


def _read_ending(words: list[str]) -> Ending:
    if words == ["agreement"]:
        return Ending("agreement")
    if len(words) == 2 and words[0] in ENDING_VERBS.values() and words[1] in ("0", "1"):
        kind = next(kind for kind, verb in ENDING_VERBS.items() if verb == words[0])
        return Ending(kind, as_player(int(words[1])))
    raise InvalidOptions(f"unknown ending {' '.join(words)!r}; say 'resign P', 'time P', "
                         "'agreement' or 'ground P'")  # fmt: skip


def write_record(
    game: str,
    width: int,
    height: int,
    options: list[str],
    moves: list[str],
    ending: Ending | None,
) -> str:
    """A record from its parts: ``options`` already written as ``name`` or ``name=value``."""
    record = " ".join([game, f"{width}x{height}", *options])
    if moves or ending is not None:
        record += "; " + " ".join(moves)
    if ending is not None:
        if ending.kind == "agreement":
            record += "; agreement"
        else:
            record += f"; {ENDING_VERBS[ending.kind]} {ending.player}"
    return record
