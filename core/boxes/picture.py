"""``print(state)`` for Dots and Boxes: the position as a picture in plain text.

Dots are ``+``, drawn lines ``---`` and ``|``, and a claimed box shows its owner's number,
under the column letters and beside the row numbers of the dots::

        a   b   c
     1  +---+---+
        | 0 |
     2  +---+   +
            |
     3  +   +---+
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.notation import column_name

if TYPE_CHECKING:
    from core.boxes.state import BoxesState


def picture(state: BoxesState) -> str:
    """The position of ``state`` as text, with the column letters and row numbers."""
    geo = state.geometry
    drawn = state.drawn
    owned = state.owned
    horizontal = (geo.rows + 1) * geo.cols
    label = len(str(geo.rows + 1))
    margin = " " * (label + 2)
    lines = [margin + "".join(column_name(x).ljust(4) for x in range(geo.cols + 1))]
    for y in range(geo.rows + 1):
        row = [f"{y + 1:>{label}}  +"]
        for x in range(geo.cols):
            row.append("---+" if drawn >> (y * geo.cols + x) & 1 else "   +")
        lines.append("".join(row))
        if y == geo.rows:
            break
        row = [margin]
        for x in range(geo.cols + 1):
            row.append("|" if drawn >> (horizontal + y * (geo.cols + 1) + x) & 1 else " ")
            if x < geo.cols:
                box = 1 << (y * geo.cols + x)
                row.append(" 0 " if owned[0] & box else " 1 " if owned[1] & box else "   ")
        lines.append("".join(row))
    return "\n".join(line.rstrip() for line in lines)
