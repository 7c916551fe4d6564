"""Build Dots positions from ASCII pictures and draw positions back as pictures.

In a picture ``x`` is a mark of player 0, ``o`` a mark of player 1 and ``.`` a free point;
row ``y`` of the picture is row ``y`` of the board.  :func:`from_picture` plays the marks
through the public API: player 0's marks in reading order alternate with player 1's, and
when one side runs out the other side's surplus is answered by filler marks on spare rows
below the picture (so the picture itself never needs a pass).  Pictures must therefore
not contain a closed ring around an opponent mark unless the test wants it captured.

:func:`render` draws ``x``/``o`` for live marks, ``X``/``O`` for captured marks, ``.``
for a free point and ``-`` for a dead empty point.
"""

from __future__ import annotations

from core import dots
from core.dots import Point


def _rows(picture: str) -> list[str]:
    return [line.strip() for line in picture.strip().splitlines()]


def from_picture(
    picture: str,
    *,
    to_move: int = 0,
    width: int | None = None,
    **options: object,
) -> dots.DotsState:
    """A game whose board shows ``picture`` in its top-left corner, ``to_move`` to play."""
    rows = _rows(picture)
    marks: dict[str, list[Point]] = {"x": [], "o": []}
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            if char in marks:
                marks[char].append(Point(x, y))
            elif char != ".":
                raise ValueError(f"unknown picture character {char!r}")
    board_width = max(width or 0, 5, *(len(row) for row in rows))
    fillers = abs(len(marks["x"]) - len(marks["o"])) + 2
    filler_rows = -(-fillers // board_width)
    board_height = max(5, len(rows) + 2 * filler_rows)
    # Filler rows are every other row from the bottom, player 0 from the left and player 1
    # from the right: single rows of marks can never close a ring.
    slots = [
        Point(x, board_height - 1 - 2 * row)
        for row in range(filler_rows)
        for x in range(board_width)
    ]
    spare = {0: iter(slots), 1: iter(reversed(slots))}
    queues = {0: iter(marks["x"]), 1: iter(marks["o"])}
    state = dots.new_game(board_width, board_height, **options)  # type: ignore[arg-type]
    remaining = len(marks["x"]) + len(marks["o"])
    while remaining:
        player = state.to_move
        point = next(queues[player], None)
        if point is None:
            point = next(spare[player])
        else:
            remaining -= 1
        state = state.play(point)
    if state.to_move != to_move:
        state = state.play(next(spare[state.to_move]))
    return state


def render(state: dots.DotsState, width: int | None = None, height: int | None = None) -> str:
    """The top-left ``width`` × ``height`` corner of the board as a picture."""
    lines = []
    for y in range(height or state.height):
        line = []
        for x in range(width or state.width):
            point = Point(x, y)
            owner = state.mark_at(point)
            if owner is None:
                line.append("-" if state.is_dead(point) else ".")
            else:
                char = "xo"[owner]
                line.append(char.upper() if state.is_captured(point) else char)
        lines.append("".join(line))
    return "\n".join(lines)


def picture(text: str) -> str:
    """A picture written indented in a test, as :func:`render` draws it."""
    return "\n".join(_rows(text))
