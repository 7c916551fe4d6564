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
    height: int | None = None,
    **options: object,
) -> dots.DotsState:
    """A game whose board shows ``picture`` in its top-left corner, ``to_move`` to play.

    ``width`` and ``height`` make the board larger than the picture (the filler marks then
    lie on the bottom rows of the board)."""
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
    board_height = max(height or 0, 5, len(rows) + 2 * filler_rows)
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


VIEWS = 8
"""The symmetries of a board: views 0-3 keep its axes (as is, mirrored left-right, mirrored
top-bottom, turned half round), views 4-7 swap them (transposed, then the same three)."""


def viewed(point: Point, width: int, height: int, view: int) -> Point:
    """``point`` of a ``width`` × ``height`` board seen in ``view`` (see :data:`VIEWS`)."""
    x, y = point.x, point.y
    if view & 1:
        x = width - 1 - x
    if view & 2:
        y = height - 1 - y
    return Point(y, x) if view & 4 else Point(x, y)


def placed(picture: str, width: int, height: int, view: int = 0) -> dots.DotsState:
    """``picture`` in the top-left corner of a ``width`` × ``height`` board, the whole
    position then seen in ``view`` (a 39 × 32 board in a view that swaps the axes is
    32 × 39); ``x`` to move.

    The filler marks are played first, so the picture's marks are the latest ones, as
    in a game whose fight is there.
    """
    rows = len(_rows(picture))
    base = from_picture(picture, width=width, height=height)
    marks: dict[int, list[Point]] = {0: [], 1: []}
    for number, point in enumerate(base.moves):
        marks[number % 2].append(point)
    for player in (0, 1):
        marks[player].sort(key=lambda point: point.y < rows)
    across, down = (height, width) if view & 4 else (width, height)
    state = dots.new_game(across, down)
    for pair in zip(marks[0], marks[1], strict=True):
        for point in pair:
            state = state.play(viewed(point, width, height, view))
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
