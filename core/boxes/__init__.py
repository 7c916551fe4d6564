"""Dots and Boxes: draw lines between adjacent dots, close boxes, and the most boxes win.

Public API (SPEC §6)::

    from core import boxes
    g = boxes.new_game(rows=5, cols=5)            # optional: lines=[...] drawn at the start
    g = g.play(boxes.Line.from_str("a1-b1"))      # a new state; the old one is unchanged
    g.to_move, g.scores, g.is_over, g.winner, g.outcome(), g.ending
    g.is_legal(line), g.is_drawn(line), g.box_owner((x, y))
    g.legal_moves()                               # a Sequence of lines, in line-number order
    g.moves, g.last_move, g.last_closed, g.movers(), g.options
    g.resign(1), g.end_by_agreement()             # transitions that end the game
    g.to_json(), boxes.from_json(record)          # the record, and its replay
    boxes.format_record(g), boxes.parse_record(text)
    print(g)                                      # the position as a picture

Moves own their notation: ``Line.from_str("a1-b1")``, ``str(line)``, and a ``repr`` that
is the code making the line again (the grammar is in :mod:`core.notation`).

What a client draws
-------------------
Typed, immutable values (:mod:`core.boxes.snapshot`)::

    g.snapshot()      # BoxesSnapshot: size, start lines, every DrawnLine(line, player)
                      # (start lines: player None), every OwnedBox(box, owner), scores, ...
    g.last_closed     # the boxes the last move closed: none, one or two
    g.change()        # BoxesChange(move, player, closed): all a client needs per move

Search path
-----------
``g.drawn`` is the drawn lines as an ``int`` bitmask over the numbering of ``g.geometry``
(see :mod:`core.boxes.geometry`), whose cached tables say which lines surround each box;
:mod:`core.boxes.search` plays on those ints directly, and ``g.to_board()`` gives a mutable
:class:`BoxesBoard` over them.
"""

from core.boxes.geometry import Geometry, geometry
from core.boxes.line import Dot, Line
from core.boxes.notation import format_record, parse_record
from core.boxes.search import BoxesBoard
from core.boxes.snapshot import BoxesChange, BoxesSnapshot, DrawnLine, OwnedBox
from core.boxes.state import BoxesState, Options, from_json, from_options, new_game
from core.game import Ending

__all__ = [
    "BoxesBoard",
    "BoxesChange",
    "BoxesSnapshot",
    "BoxesState",
    "Dot",
    "DrawnLine",
    "Ending",
    "Geometry",
    "Line",
    "Options",
    "OwnedBox",
    "format_record",
    "from_json",
    "from_options",
    "geometry",
    "new_game",
    "parse_record",
]
