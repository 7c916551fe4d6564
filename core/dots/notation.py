"""The text record of a Dots game (the grammar both games share is in :mod:`core.notation`)::

    dots 39x32 start=cross margin=10 grounding; t16 u17 s15; ground 0

The size is the board's width and height in points; the options are ``start=cross`` or
``start=four_crosses``, ``margin=N`` (the immediate-win margin) and ``grounding``; each
move is a point such as ``t16`` (see :class:`core.dots.Point`).
"""

from __future__ import annotations

from core.dots.geometry import START_NAMES, Start
from core.dots.point import Point
from core.dots.state import DotsState, Options, from_options
from core.errors import InvalidOptions
from core.notation import read_record, write_record


def format_record(state: DotsState) -> str:
    """The game as one line of text that :func:`parse_record` reads back to an equal state."""
    options = state.options
    words = []
    if options.start != "empty":
        words.append(f"start={options.start}")
    if options.win_margin is not None:
        words.append(f"margin={options.win_margin}")
    if options.grounding:
        words.append("grounding")
    moves = [str(point) for point in state.moves]
    return write_record("dots", options.width, options.height, words, moves, state.ending)


def parse_record(text: str) -> DotsState:
    """Replay a text record; InvalidOptions for a bad header or ending, InvalidMove for a
    malformed move, IllegalMove for a move the rules forbid where it stands.
    """
    record = read_record(text)
    if record.game != "dots":
        raise InvalidOptions("a Dots record starts with 'dots WxH'")
    start: Start = "empty"
    margin: int | None = None
    grounding = False
    for name, value in record.options:
        if name == "start" and value in START_NAMES:
            start = next(known for known in START_NAMES if known == value)
        elif name == "margin" and value is not None and value.isdigit():
            margin = int(value)
        elif name == "grounding" and value is None:
            grounding = True
        else:
            word = name if value is None else f"{name}={value}"
            raise InvalidOptions(f"unknown option {word!r} in a Dots record")
    state = from_options(Options(record.width, record.height, start, margin, grounding))
    for word in record.moves:
        state = state.play(Point.from_str(word))
    return state if record.ending is None else state.end(record.ending)
