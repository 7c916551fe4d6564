"""``print(state)`` for Dots: the position as a picture in plain text.

Each point is one character, under its column's letters and beside its row's number::

       a  b  c  d  e
     1 .  x  .  .  .
     2 x  O  x  .  .
     3 .  x  -  .  .

``x`` and ``o`` are live marks of player 0 and player 1, ``X`` and ``O`` captured ones,
``.`` a free point and ``-`` a dead one (inside a captured area).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.dots.board import DEAD, EMPTY
from core.notation import column_name

if TYPE_CHECKING:
    from core.dots.state import DotsState

_LIVE = ".xo"
_CAPTURED = ".XO"


def picture(state: DotsState) -> str:
    """The position of ``state`` as text, with the column letters and row numbers."""
    board = state.to_board()
    geo = board.geometry
    names = [column_name(x) for x in range(geo.width)]
    cell_width = max(len(name) for name in names) + 1
    label_width = len(str(geo.height))
    lines = [" " * (label_width + 1) + "".join(name.ljust(cell_width) for name in names)]
    for y in range(geo.height):
        row = []
        for x in range(geo.width):
            index = (y + 1) * geo.stride + x + 1
            who = board.mark[index]
            if who:
                row.append((_CAPTURED if board.cell[index] == DEAD else _LIVE)[who])
            else:
                row.append("." if board.cell[index] == EMPTY else "-")
        lines.append(f"{y + 1:>{label_width}} " + "".join(c.ljust(cell_width) for c in row))
    return "\n".join(line.rstrip() for line in lines)
