"""Dots ("Точки"), the encirclement game: enclose the opponent's marks with chains of yours.

Public API (SPEC §6)::

    from core import dots
    d = dots.new_game(width=39, height=32)            # start="cross" or "four_crosses";
                                                      # win_margin=N, grounding=True
    d = d.play(dots.Point.from_str("t16"))            # a new state; the old one is unchanged
    d.to_move, d.scores, d.is_over, d.winner, d.outcome(), d.ending
    d.is_legal(p), d.mark_at(p), d.is_captured(p), d.is_dead(p)
    d.legal_moves()                                   # a Sequence of points, row by row
    d.moves, d.last_move, d.movers(), d.options
    d.resign(1), d.end_by_agreement(), d.ground(0)    # transitions that end the game
    d.to_json(), dots.from_json(record)               # the record, and its replay
    dots.format_record(d), dots.parse_record(text)    # the same record as one line of text
    print(d)                                          # the position as a picture

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

The rules, in the words of SPEC §3, are stated one by one in the docstrings of
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
