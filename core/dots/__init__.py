"""Dots ("Точки"), the encirclement game: enclose the opponent's marks with chains of yours.

A game is an immutable state: ``play`` returns the next one. Pen (``x``, seat 0) closes a
ring round pencil's mark at c3 and captures it:

>>> from core import dots
>>> d = dots.new_game(width=5, height=5)        # start="cross" or "four_crosses";
>>> for text in ["c2", "c3", "b3", "a1", "d3", "a5", "c4"]:     # win_margin=N, grounding=True
...     d = d.play(dots.Point.from_str(text))
>>> d.scores, d.is_captured(dots.Point.from_str("c3")), d.is_legal(dots.Point.from_str("c3"))
((1, 0), True, False)
>>> print(d)
  a b c d e
1 o . . . .
2 . . x . .
3 . x O x .
4 . . x . .
5 o . . . .
>>> d.areas()[0].inside
(Point.from_str('c3'),)

A game and its record (the text notation of :mod:`core.notation`, or JSON) stand for each
other, and the ``repr`` of a state is the code that makes it again:

>>> d
dots.parse_record('dots 5x5; c2 c3 b3 a1 d3 a5 c4')
>>> dots.parse_record(dots.format_record(d)) == d == dots.from_json(d.to_json())
True
>>> d.to_move, d.is_over, d.resign(1).outcome().winner
(1, False, 0)
>>> dots.new_game(width=5, height=5, start="cross").play(dots.Point.from_str("c3"))
Traceback (most recent call last):
...
core.errors.IllegalMove: c3 is already taken

Moves own their notation: ``Point.from_str("t16")``, ``str(point)``, and a ``repr`` that
is the code making the point again (the grammar is in :mod:`core.notation`).

What a client draws
-------------------
Typed, immutable values (:mod:`core.dots.snapshot`); the server turns them into JSON::

    d.snapshot()      # DotsSnapshot: size, options, marks, areas, houses, scores, ...
    d.marks()         # Mark(point, owner, captured) for every mark, row by row
    d.areas()         # Area(owner=captor, chain, inside): the visible captured areas
    d.houses()        # House(owner, chain, inside): the empty enclosures of both players
    d.ungrounded      # after a grounding ending: the grounder's unlinked marks
    d.change()        # DotsChange: what the last move added and removed
    d.change_since(e) # the same from an earlier state ``e`` of the game

An area's or a house's ``key`` is its first inside point, row by row.  Visible areas never
overlap, so a key names an area; one player's houses never overlap, so ``(owner, key)``
names a house.  ``change()`` lists the areas and houses that appeared and those that went
(swallowed by a capture, captured by the house rule, dissolved, or changed by a mark put
inside a house); a client that applies it to the previous snapshot, and puts the move's
mark, holds the next one: a mark is captured exactly when it lies inside a visible area
of the other player, and an empty point is dead exactly when it lies inside any visible
area.  ``change()`` costs nothing for a move that captured nothing, closed nothing and
went on no enclosed point.  Areas are always kept; houses are kept from the first time a
state is asked for them (``snapshot``, ``houses``, ``change``), so ask once before
playing on a game you will follow.

The rules are stated one by one, a sentence each, in the docstrings of
:class:`DotsBoard` (captures, houses, re-capture) and :class:`DotsState` (turns, the end,
resignation, agreement, grounding, the immediate-win margin).

Fast path for search
--------------------
:class:`DotsBoard` is the mutable engine every state is built on.  Get one with
``state.to_board()`` (a copy the caller owns), then::

    board.place(index)        # the player to move puts a mark; all captures are taken
    child = board.copy()      # cheap: a few bytearray copies
    board.player              # 0 or 1, to move
    board.score               # [captured by 0, captured by 1]
    board.playable            # indices that may be played, in increasing order
    board.is_over             # no playable point left, or the win margin is reached
    board.cell[index]         # EMPTY, LIVE0, LIVE1, DEAD or BORDER
    board.geometry.point(index), board.geometry.index(point)
    board.geometry.ring       # offsets of the 8 neighbours; .steps for the 4 orthogonal

Indices address a flat array with a one-cell border sentinel (``core.dots.geometry``).
``place`` finds captures by walking outlines from the new mark only; it never rescans
the board.  A random 39×32 game is played in a few milliseconds (``bench/dots_speed.py``).
"""

from core.dots.board import BORDER, DEAD, EMPTY, LIVE0, LIVE1, DotsBoard
from core.dots.geometry import MAX_SIDE, MIN_SIDE, Geometry, Start, geometry, start_marks
from core.dots.notation import format_record, parse_record
from core.dots.point import Point
from core.dots.snapshot import Area, DotsChange, DotsSnapshot, Enclosure, House, Mark
from core.dots.state import DotsState, LegalPoints, Options, from_json, from_options, new_game
from core.game import Ending

__all__ = [
    "BORDER",
    "DEAD",
    "EMPTY",
    "LIVE0",
    "LIVE1",
    "MAX_SIDE",
    "MIN_SIDE",
    "Area",
    "DotsBoard",
    "DotsChange",
    "DotsSnapshot",
    "DotsState",
    "Enclosure",
    "Ending",
    "Geometry",
    "House",
    "LegalPoints",
    "Mark",
    "Options",
    "Point",
    "Start",
    "format_record",
    "from_json",
    "from_options",
    "geometry",
    "new_game",
    "parse_record",
    "start_marks",
]
