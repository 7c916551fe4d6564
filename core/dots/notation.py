"""A compact text record of a Dots game, for logs, bug reports and tests.

The record has up to three parts separated by ``;``::

    dots 39x32 start=cross margin=10 grounding; 19,15 20,16 18,14; resign 1

* the header: ``dots``, the size ``WxH``, then the options that differ from the defaults
  (``start=cross`` or ``start=four_crosses``, ``margin=N``, ``grounding``);
* the moves, each ``x,y`` (0-based, ``0,0`` top-left), separated by spaces;
* how the game ended early, if it did: ``resign P``, ``agreement`` or ``ground P``.

Whitespace, including line breaks, may be used freely between tokens.
"""

from __future__ import annotations

import re

from core.dots.geometry import START_NAMES, Point
from core.dots.state import DotsState, new_game
from core.errors import InvalidMove, InvalidOptions
from core.game import Player

_POINT = re.compile(r"(\d+),(\d+)")
_SIZE = re.compile(r"(\d+)x(\d+)")


def format_point(point: Point) -> str:
    """``Point(19, 15)`` as ``19,15``."""
    return f"{point.x},{point.y}"


def parse_point(text: str) -> Point:
    """Read ``x,y`` (non-negative integers); InvalidMove for anything else."""
    found = _POINT.fullmatch(text.strip())
    if found is None:
        raise InvalidMove(f"{text!r} is not a point like '19,15'")
    return Point(int(found[1]), int(found[2]))


def format_record(state: DotsState) -> str:
    """The game as one line of text that :func:`parse_record` reads back to an equal state."""
    options = state.options
    header = ["dots", f"{options.width}x{options.height}"]
    if options.start != "empty":
        header.append(f"start={options.start}")
    if options.win_margin is not None:
        header.append(f"margin={options.win_margin}")
    if options.grounding:
        header.append("grounding")
    parts = [" ".join(header), " ".join(format_point(point) for point in state.moves)]
    ending = state.ending
    if ending is not None:
        if ending.kind == "resignation":
            parts.append(f"resign {ending.player}")
        elif ending.kind == "grounding":
            parts.append(f"ground {ending.player}")
        else:
            parts.append("agreement")
    return "; ".join(parts).rstrip()


def parse_record(text: str) -> DotsState:
    """Replay a text record; InvalidOptions for a bad header or ending, InvalidMove for a
    malformed move, IllegalMove for a move the rules forbid where it stands.
    """
    if not isinstance(text, str):
        raise InvalidOptions("a Dots record is text")
    parts = text.split(";")
    if len(parts) > 3:
        raise InvalidOptions("a Dots record has at most three parts separated by ';'")
    header = parts[0].split()
    if len(header) < 2 or header[0].lower() != "dots":
        raise InvalidOptions("a Dots record starts with 'dots WxH'")
    size = _SIZE.fullmatch(header[1].lower())
    if size is None:
        raise InvalidOptions(f"{header[1]!r} is not a board size like '39x32'")
    start = "empty"
    margin: int | None = None
    grounding = False
    for token in header[2:]:
        key, _, value = token.partition("=")
        if key == "start" and value in START_NAMES:
            start = value
        elif key == "margin" and value.isdigit():
            margin = int(value)
        elif token == "grounding":
            grounding = True
        else:
            raise InvalidOptions(f"unknown option {token!r} in a Dots record")
    state = new_game(
        int(size[1]),
        int(size[2]),
        start,  # type: ignore[arg-type]
        win_margin=margin,
        grounding=grounding,
    )
    for token in parts[1].split() if len(parts) > 1 else ():
        state = state.play(parse_point(token))
    if len(parts) == 3:
        ending = parts[2].split()
        if ending == ["agreement"]:
            state = state.end_by_agreement()
        elif len(ending) == 2 and ending[0] in ("resign", "ground") and ending[1] in ("0", "1"):
            player: Player = 0 if ending[1] == "0" else 1
            state = state.resign(player) if ending[0] == "resign" else state.ground(player)
        else:
            raise InvalidOptions(f"unknown ending {parts[2].strip()!r} in a Dots record")
    return state
