"""Dots ("Точки"), the encirclement game: enclose the opponent's marks with chains of yours.

Public API (SPEC §6)::

    from core import dots
    d = dots.new_game(width=39, height=32)            # start="cross" or "four_crosses";
                                                      # win_margin=N, grounding=True
    d = d.play(dots.Point(19, 15))                    # a new state; the old one is unchanged
    d.to_move, d.scores, d.is_over, d.winner, d.outcome()
    d.is_legal(p), d.mark_at(p), d.is_captured(p), list(d.legal_moves()), d.moves
    d.resign(1), d.end_by_agreement(), d.ground(0)    # transitions that end the game
    d.to_json(), dots.from_json(record), d.view()     # record, replay, what to draw
    dots.format_record(d), dots.parse_record(text)    # the same record as one line of text

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
    board.playable            # indices that may be played (unordered list)
    board.is_over             # no playable point left, or the win margin is reached
    board.cell[index]         # EMPTY, LIVE0, LIVE1, DEAD or BORDER
    board.geometry.point(index), board.geometry.index(point)
    board.geometry.ring       # offsets of the 8 neighbours; .steps for the 4 orthogonal

Indices address a flat array with a one-cell border sentinel (``core.dots.geometry``).
``place`` finds captures by walking outlines from the new mark only; it never rescans
the board.  A random 39×32 game is played in a few milliseconds (``bench/dots_speed.py``).
"""

from core.dots.board import BORDER, DEAD, EMPTY, LIVE0, LIVE1, DotsBoard
from core.dots.geometry import MAX_SIDE, MIN_SIDE, Geometry, Point, Start, geometry, start_marks
from core.dots.notation import format_point, format_record, parse_point, parse_record
from core.dots.state import DotsState, Ending, Options, from_json, new_game

__all__ = [
    "BORDER",
    "DEAD",
    "EMPTY",
    "LIVE0",
    "LIVE1",
    "MAX_SIDE",
    "MIN_SIDE",
    "DotsBoard",
    "DotsState",
    "Ending",
    "Geometry",
    "Options",
    "Point",
    "Start",
    "format_point",
    "format_record",
    "from_json",
    "geometry",
    "new_game",
    "parse_point",
    "parse_record",
    "start_marks",
]
