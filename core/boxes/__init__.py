"""Dots and Boxes: draw lines between adjacent dots, close boxes, and the most boxes win.

A game is an immutable state: ``play`` returns the next one.

>>> from core import boxes
>>> g = boxes.new_game(rows=2, cols=2)          # optional: lines=[...] drawn at the start
>>> for text in ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]:
...     g = g.play(boxes.Line.from_str(text))
>>> g.to_move, g.scores, g.last_closed, g.box_owner((0, 0))
(1, (0, 1), ((0, 0),), 1)

The fourth line closed the top-left box, so the same player moves again. What may be
played next, and what may not:

>>> len(g.legal_moves()), g.legal_moves()[0]
(8, Line.from_str('b1-c1'))
>>> g.play(boxes.Line.from_str("a1-b1"))
Traceback (most recent call last):
...
core.errors.IllegalMove: a1-b1 is already drawn
>>> boxes.Line.from_str("a1-c1")
Traceback (most recent call last):
...
core.errors.InvalidMove: dots (0, 0) and (2, 0) are not adjacent

A game and its record (the text notation of :mod:`core.notation`, or JSON) stand for each
other, and the ``repr`` of a state is the code that makes it again:

>>> boxes.format_record(g)
'boxes 2x2; a1-b1 a1-a2 b1-b2 a2-b2'
>>> g
boxes.parse_record('boxes 2x2; a1-b1 a1-a2 b1-b2 a2-b2')
>>> boxes.parse_record(boxes.format_record(g)) == g == boxes.from_json(g.to_json())
True

A game ends when every line is drawn, or earlier by resignation or agreement:

>>> g.is_over, g.resign(0).outcome()
(False, Outcome(winner=1, reason='resignation', scores=(0, 1)))
>>> print(g)
   a   b   c
1  +---+   +
   | 1 |
2  +---+   +
<BLANKLINE>
3  +   +   +

Moves own their notation: ``Line.from_str("a1-b1")``, ``str(line)``, and a ``repr`` that
is the code making the line again (the grammar is in :mod:`core.notation`).

What a client draws
-------------------
Typed, immutable values (:mod:`core.boxes.snapshot`): the whole position; what one move
changed is its line, its player and ``last_closed`` (all a client holding the previous
position needs):

>>> g.snapshot().boxes
(OwnedBox(box=(0, 0), owner=1),)

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
from core.boxes.snapshot import BoxesSnapshot, DrawnLine, OwnedBox
from core.boxes.state import BoxesState, Options, from_json, from_options, new_game
from core.game import Ending

__all__ = [
    "BoxesBoard",
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
