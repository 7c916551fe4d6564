"""Dots and Boxes: draw lines between adjacent dots, close boxes, and the most boxes win.

Public API (SPEC §6)::

    from core import boxes
    g = boxes.new_game(rows=5, cols=5)            # optional: lines=[...] drawn at the start
    g = g.play(boxes.Line((0, 0), (1, 0)))        # a new state; the old one is unchanged
    g.to_move, g.scores, g.is_over, g.winner
    list(g.legal_moves()); g.box_owner((x, y))

For search, ``g.drawn`` is the drawn lines as an ``int`` bitmask over the numbering of
``g.geometry`` (see :mod:`core.boxes.geometry`), whose cached tables say which lines
surround each box; :mod:`core.boxes.search` plays on those ints directly.
"""

from core.boxes.geometry import Geometry, geometry
from core.boxes.line import Dot, Line
from core.boxes.notation import format_line, format_record, parse_line, parse_record
from core.boxes.state import BoxesState, from_json, new_game

__all__ = [
    "BoxesState",
    "Dot",
    "Geometry",
    "Line",
    "format_line",
    "format_record",
    "from_json",
    "geometry",
    "new_game",
    "parse_line",
    "parse_record",
]
