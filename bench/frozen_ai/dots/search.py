"""Easy and normal Dots players, and the board reading all three levels share.

Everything runs on the fast mutable
:class:`~core.dots.DotsBoard` (``state.to_board()``), trying a move on a copy to learn
exactly what it captures.

* **easy** plays near the marks already on the sheet, nearly at random, but takes the
  largest capture lying there, or else blocks the largest one the opponent has.
* **normal** looks one move deep: for every candidate near the action it plays the move and
  asks what the opponent could capture at once, so it takes captures, blocks the threat to
  its marks (usually by occupying the closing point) and never walks into an obvious loss;
  quiet moves are ranked by a cheap shape evaluation.
* **hard** (:mod:`frozen_ai.dots.hard`) searches the fight deeper with the same closers.

A *closer* of a player is a free point that, played by that player, closes an area (a
capture or a house).  Closers are computed once per position and updated incrementally:
a mark of the other player never creates or removes closers (only its captures do), and
an own mark can only make areas near it closable (:data:`REFRESH_REACH`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from random import Random

from core.dots.board import EMPTY, LOCAL_GROUPS, DotsBoard, neighbour_walls
from core.dots.geometry import Point
from frozen_ai.player import Clock

EASY_REACH = 2
"""Easy plays within this Chebyshev distance of a mark on the sheet."""
RECENT_MARKS = 16
"""Normal and hard look for quiet moves near this many of the latest marks."""
CANDIDATE_REACH = 2
"""Quiet candidates lie within this Chebyshev distance of a recent mark."""
REFRESH_REACH = 4
"""After an own mark, closing points this far from it are tried again (bigger rings are missed)."""
TIME_SHARE = 0.8
"""Share of the time limit spent choosing; the rest covers the caller's overhead and slack."""

CONNECT_WEIGHT = 0.06
"""Worth of each own neighbour (up to two): linked marks make walls that hold."""
CONTACT_WEIGHT = 0.05
"""Worth of each opponent neighbour (up to three): contact blocks their walls and builds ours."""
EDGE_PENALTY = 0.15
"""Cost of a mark on the edge line, where it can neither enclose nor be enclosed usefully."""
NOISE = 0.02
"""Random spread that varies play between moves the evaluation cannot tell apart."""


# -- looking at the board ---------------------------------------------------------------


def live_marks(board: DotsBoard, player: int) -> list[int]:
    """Indices of the live marks of ``player``."""
    wall = player + 1
    return [index for index, value in enumerate(board.cell) if value == wall]


def free_near(board: DotsBoard, sources: Iterable[int], reach: int) -> set[int]:
    """Free points within Chebyshev distance ``reach`` of any of ``sources``."""
    cell = board.cell
    geo = board.geometry
    stride, last_x, last_y = geo.stride, geo.width - 1, geo.height - 1
    found: set[int] = set()
    for source in sources:
        point = geo.points[source]
        if point is None:
            continue
        left, right = max(point.x - reach, 0), min(point.x + reach, last_x)
        for y in range(max(point.y - reach, 0), min(point.y + reach, last_y) + 1):
            row = (y + 1) * stride + 1
            for index in range(row + left, row + right + 1):
                if cell[index] == EMPTY:
                    found.add(index)
    return found


def may_close(board: DotsBoard, index: int, player: int) -> bool:
    """Whether a mark of ``player`` on ``index`` joins separate runs of their marks around it."""
    around = neighbour_walls(board.cell, index, board.geometry.stride, player + 1)
    return len(LOCAL_GROUPS[around]) > 1


def lead(board: DotsBoard, player: int) -> int:
    """How many captured marks ``player`` is ahead by."""
    score = board.score
    return score[player] - score[1 - player]


Closing = tuple[int, frozenset[int]]
"""What a closer does: the marks it gains and the points of the area it closes."""
Closers = tuple[dict[int, Closing], dict[int, Closing]]
"""Per player, every closer with what it does."""


def closed_area(board: DotsBoard, child: DotsBoard) -> frozenset[int]:
    """The points captured or newly enclosed between ``board`` and its descendant ``child``."""
    inside: set[int] = set()
    link = child.areas
    while link is not None and link is not board.areas:
        inside.update(link[1])
        link = link[2]
    if child.enclosed != board.enclosed:
        # A house: find the changed bytes of the enclosure flags without a Python-level scan.
        changed = int.from_bytes(child.enclosed, "little") ^ int.from_bytes(
            board.enclosed, "little"
        )
        while changed:
            lowest = changed & -changed
            inside.add((lowest.bit_length() - 1) >> 3)
            changed ^= lowest
    return frozenset(inside)


def try_move(board: DotsBoard, index: int, player: int) -> Closing | None:
    """What a mark of ``player`` on ``index`` would gain and close, or None if it closes nothing."""
    child = board.copy()
    child.player = player  # type: ignore[assignment]
    child.place(index)
    gain = lead(child, player) - lead(board, player)
    area = closed_area(board, child)
    if gain == 0 and not area:
        return None
    return gain, area


Check = Callable[[], None]
"""Called before each costly step; raises to stop the work (hard's clock)."""


def no_check() -> None:
    """The check of callers without a clock: never stops."""


def add_closers(
    board: DotsBoard,
    player: int,
    found: dict[int, Closing],
    points: Iterable[int],
    check: Check = no_check,
) -> None:
    """Try each free point of ``points`` for ``player`` and record those that close an area."""
    cell = board.cell
    for index in points:
        if index not in found and cell[index] == EMPTY and may_close(board, index, player):
            check()
            closing = try_move(board, index, player)
            if closing is not None:
                found[index] = closing


def all_closers(board: DotsBoard, player: int, check: Check = no_check) -> dict[int, Closing]:
    """Every free point that closes an area (a capture or a house) when ``player`` plays it."""
    found: dict[int, Closing] = {}
    points = sorted(free_near(board, live_marks(board, player), 1))
    add_closers(board, player, found, points, check)
    return found


def closers_after(
    board: DotsBoard,
    child: DotsBoard,
    closers: Closers,
    index: int,
    refresh_own: bool,
    reach: int = REFRESH_REACH,
    check: Check = no_check,
) -> Closers:
    """The closers of both players in ``child``, which is ``board`` after a mark on ``index``.

    A quiet mark leaves the other side's areas as they were, only adding itself to those
    it lies in; it changes the mover's areas only where it lies inside them or next to
    their closing point, and makes new ones closable only nearby.  After a capture every
    old closer is tried again.  The mover's own closers are only worked out when
    ``refresh_own`` (a search that stops at the other side's reply never reads them), and
    new ones only within ``reach`` of the mark.  ``check`` runs before each point tried.
    """
    mover = board.player
    captured = child.areas is not board.areas
    other: dict[int, Closing] = {}
    for point, (gain, area) in closers[1 - mover].items():
        if point == index:
            continue
        if captured:
            if child.cell[point] != EMPTY:
                continue
            check()
            closing = try_move(child, point, 1 - mover)
            if closing is not None:
                other[point] = closing
        else:
            other[point] = (gain + 1, area) if index in area else (gain, area)
    own = closers[mover]
    if refresh_own:
        ring = board.geometry.ring
        near_mark = {index + step for step in ring}
        own = {
            point: closing
            for point, closing in own.items()
            if not captured and index not in closing[1] and point not in near_mark
        }
        retry = [point for point in closers[mover] if point not in own]
        add_closers(child, mover, own, retry, check)
        add_closers(child, mover, own, sorted(free_near(child, (index,), reach)), check)
    return (own, other) if mover == 0 else (other, own)


def threats(closers: dict[int, Closing]) -> list[tuple[int, int]]:
    """The captures among ``closers``: (gain, point), largest first."""
    return sorted(((gain, point) for point, (gain, _) in closers.items() if gain > 0), reverse=True)


# -- easy -------------------------------------------------------------------------------


def easy_move(board: DotsBoard, rng: Random) -> int:
    """Easy: the largest capture near the marks on the sheet, else a block of the largest
    capture the opponent has there, else a random point near them.
    """
    geo = board.geometry
    marks = live_marks(board, 0) + live_marks(board, 1)
    near = sorted(free_near(board, marks, EASY_REACH))
    if not near:
        centre = geo.index(Point(geo.width // 2, geo.height // 2))
        near = [centre] if board.cell[centre] == EMPTY else sorted(board.playable)
    for player in (board.player, 1 - board.player):
        best = largest_capture(board, near, player)
        if best >= 0:
            return best
    return rng.choice(near)


def largest_capture(board: DotsBoard, points: list[int], player: int) -> int:
    """The point of ``points`` where ``player`` would capture most, or -1 if none captures."""
    best_gain, best = 0, -1
    for index in points:
        closing = try_move(board, index, player) if may_close(board, index, player) else None
        if closing is not None and closing[0] > best_gain:
            best_gain, best = closing[0], index
    return best


# -- normal and hard --------------------------------------------------------------------


def shape_value(board: DotsBoard, index: int) -> float:
    """Small bonus for linking to own marks and touching the opponent's; the edge line is weak."""
    cell = board.cell
    geo = board.geometry
    wall = board.player + 1
    other = 2 - board.player
    own = sum(1 for step in geo.ring if cell[index + step] == wall)
    contact = sum(1 for step in geo.ring if cell[index + step] == other)
    point = geo.points[index]
    assert point is not None
    on_edge = point.x in (0, geo.width - 1) or point.y in (0, geo.height - 1)
    return (
        CONNECT_WEIGHT * min(own, 2)
        + CONTACT_WEIGHT * min(contact, 3)
        - (EDGE_PENALTY if on_edge else 0.0)
    )


def candidates(board: DotsBoard, recent: list[int], closers: Closers) -> list[int]:
    """Moves worth a look: near recent live marks, and every point where a capture is made."""
    cell = board.cell
    sources = [index for index in recent if cell[index] in (1, 2)]
    if not sources:
        sources = live_marks(board, 0) + live_marks(board, 1)
    found = free_near(board, sources, CANDIDATE_REACH)
    found.update(closers[0])
    found.update(closers[1])
    if not found:
        everywhere = live_marks(board, 0) + live_marks(board, 1)
        found = free_near(board, everywhere, CANDIDATE_REACH)
    if not found:
        geo = board.geometry
        centre = geo.index(Point(geo.width // 2, geo.height // 2))
        found = {centre} if cell[centre] == EMPTY else set(board.playable)
    return sorted(found)


def normal_move(
    board: DotsBoard, recent: list[int], rng: Random, deadline: float, clock: Clock
) -> int:
    """Normal: the candidate that gains most against the opponent's largest capture at once.

    Shape and a little noise break ties; if the clock runs out, the moves tried so far
    are compared (at least one always is).
    """
    player = board.player
    closers: Closers = (all_closers(board, 0), all_closers(board, 1))
    moves = candidates(board, recent, closers)
    values: dict[int, float] = {}
    for index in moves:
        if values and clock() > deadline:
            break
        child = board.copy()
        child.place(index)
        gain = lead(child, player) - lead(board, player)
        after = closers_after(board, child, closers, index, False)
        reply = threats(after[1 - player])
        values[index] = gain - (reply[0][0] if reply else 0)
        values[index] += shape_value(board, index) + NOISE * rng.random()
    return max(values, key=lambda index: (values[index], -index))
