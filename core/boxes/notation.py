"""The text record of a Dots and Boxes game (the grammar both games share is in
:mod:`core.notation`)::

    boxes 3x2 start=c1-c2; a1-b1 a1-a2 b2-b3; resign 1

The size is columns ``x`` rows of boxes (``3x2``: three boxes across, two down); the one
option, ``start=``, lists the lines drawn before the first move, separated by commas; each
move is a line such as ``a1-b1`` (see :class:`core.boxes.Line`).
"""

from __future__ import annotations

from core.boxes.line import Line
from core.boxes.state import BoxesState, Options, from_options
from core.errors import InvalidOptions
from core.notation import read_record, write_record


def format_record(state: BoxesState) -> str:
    """The whole game of ``state`` in notation; :func:`parse_record` reads it back."""
    options = [f"start={','.join(map(str, state.start))}"] if state.start else []
    moves = [str(line) for line in state.moves]
    return write_record("boxes", state.cols, state.rows, options, moves, state.ending)


def parse_record(text: str) -> BoxesState:
    """Replay a game written by :func:`format_record`."""
    record = read_record(text)
    if record.game != "boxes":
        raise InvalidOptions("a Dots and Boxes record starts with 'boxes WxH'")
    start: tuple[Line, ...] = ()
    for name, value in record.options:
        if name != "start" or not value:
            word = name if value is None else f"{name}={value}"
            raise InvalidOptions(f"unknown option {word!r} in a Dots and Boxes record")
        start = tuple(Line.from_str(word) for word in value.split(","))
    state = from_options(Options(record.height, record.width, start))
    for word in record.moves:
        state = state.play(Line.from_str(word))
    return state if record.ending is None else state.end(record.ending)
