"""The three Dots (encirclement) computer players: easy, normal and hard.

:func:`choose` returns the point a level plays; everything runs on the fast mutable
:class:`~core.dots.DotsBoard` (``state.to_board()``), trying a move on a copy to learn
exactly what it captures.

* **easy** plays near the marks already on the sheet, nearly at random, but takes the
  largest capture lying there.
* **normal** looks one move deep: for every candidate near the action it plays the move and
  asks what the opponent could capture at once, so it takes captures, blocks the threat to
  its marks (usually by occupying the closing point) and never walks into an obvious loss;
  quiet moves are ranked by a cheap shape evaluation.
* **hard** adds the opponent's best reply: a small alpha-beta search in which, after each
  candidate, the side to move may capture, block a capture of the other side or play
  quietly ("pass"), deepened one ply at a time until the time runs out.  It therefore sees
  double threats (two rings only one of which can be blocked) and captures that lose more
  on the reply.

A *closer* of a player is a free point that, played by that player, closes an area (a
capture or a house).  Closers are computed once per position and updated incrementally:
a mark of the other player never creates or removes closers (only its captures do), and
an own mark can only make areas near it closable (:data:`REFRESH_REACH`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from random import Random

from core.ai.player import Clock, check_level
from core.dots.board import EMPTY, LOCAL_GROUPS, DotsBoard, neighbour_walls
from core.dots.geometry import Point
from core.dots.state import DotsState
from core.errors import IllegalMove

EASY_REACH = 2
"""Easy plays within this Chebyshev distance of a mark on the sheet."""
RECENT_MARKS = 16
"""Normal and hard look for quiet moves near this many of the latest marks."""
CANDIDATE_REACH = 2
"""Quiet candidates lie within this Chebyshev distance of a recent mark."""
REFRESH_REACH = 4
"""After an own mark, closing points this far from it are tried again (bigger rings are missed)."""
HARD_WIDE_DEPTH = 2
"""Hard searches every candidate up to this depth, then only the best few deeper."""
HARD_NARROW = 16
"""How many of the best candidates hard keeps searching beyond the wide depth."""
HARD_MAX_DEPTH = 8
"""Deepening stops here even with time to spare (the threat search is narrow)."""
TIME_SHARE = 0.8
"""Share of the time limit spent choosing; the rest covers the caller's overhead and slack."""

CONNECT_WEIGHT = 0.06
"""Worth of each own neighbour (up to two): linked marks make walls that hold."""
CONTACT_WEIGHT = 0.05
"""Worth of each opponent neighbour (up to three): contact blocks their walls and builds ours."""
EDGE_PENALTY = 0.15
"""Cost of a mark on the edge line, where it can neither enclose nor be enclosed usefully."""
THREAT_WEIGHT = 0.1
"""Hard's bonus per capture threat a move leaves standing: it keeps the opponent busy."""
NOISE = 0.02
"""Random spread that varies play between moves the evaluation cannot tell apart."""


class _Timeout(Exception):
    """The clock ran out in the middle of a search."""


def choose(
    state: DotsState,
    level: str,
    rng: Random,
    time_limit: float,
    clock: Clock = time.perf_counter,
) -> Point:
    """The point the computer at ``level`` plays in ``state``."""
    check_level(level)
    if state.is_over:
        raise IllegalMove("the game is over")
    deadline = clock() + TIME_SHARE * time_limit
    board = state.to_board()
    geo = board.geometry
    recent = [geo.index(point) for point in state.moves[-RECENT_MARKS:]]
    if level == "easy":
        index = easy_move(board, rng)
    else:
        depth = 0 if level == "normal" else HARD_MAX_DEPTH
        index = searched_move(board, recent, depth, rng, deadline, clock)
    return geo.point(index)


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


def add_closers(
    board: DotsBoard, player: int, found: dict[int, Closing], points: Iterable[int]
) -> None:
    """Try each free point of ``points`` for ``player`` and record those that close an area."""
    cell = board.cell
    for index in points:
        if index not in found and cell[index] == EMPTY and may_close(board, index, player):
            closing = try_move(board, index, player)
            if closing is not None:
                found[index] = closing


def all_closers(board: DotsBoard, player: int) -> dict[int, Closing]:
    """Every free point that closes an area (a capture or a house) when ``player`` plays it."""
    found: dict[int, Closing] = {}
    add_closers(board, player, found, sorted(free_near(board, live_marks(board, player), 1)))
    return found


def closers_after(
    board: DotsBoard,
    child: DotsBoard,
    closers: Closers,
    index: int,
    refresh_own: bool,
    reach: int = REFRESH_REACH,
) -> Closers:
    """The closers of both players in ``child``, which is ``board`` after a mark on ``index``.

    A quiet mark leaves the other side's areas as they were, only adding itself to those
    it lies in; it changes the mover's areas only where it lies inside them or next to
    their closing point, and makes new ones closable only nearby.  After a capture every
    old closer is tried again.  The mover's own closers are only worked out when
    ``refresh_own`` (a search that stops at the other side's reply never reads them), and
    new ones only within ``reach`` of the mark.
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
        add_closers(child, mover, own, retry)
        add_closers(child, mover, own, sorted(free_near(child, (index,), reach)))
    return (own, other) if mover == 0 else (other, own)


def threats(closers: dict[int, Closing]) -> list[tuple[int, int]]:
    """The captures among ``closers``: (gain, point), largest first."""
    return sorted(((gain, point) for point, (gain, _) in closers.items() if gain > 0), reverse=True)


# -- easy -------------------------------------------------------------------------------


def easy_move(board: DotsBoard, rng: Random) -> int:
    """Easy: the largest capture near the marks on the sheet, else a random point near them."""
    geo = board.geometry
    marks = live_marks(board, 0) + live_marks(board, 1)
    near = sorted(free_near(board, marks, EASY_REACH))
    if not near:
        centre = geo.index(Point(geo.width // 2, geo.height // 2))
        near = [centre] if board.cell[centre] == EMPTY else sorted(board.playable)
    player = board.player
    best_gain, best = 0, -1
    for index in near:
        closing = try_move(board, index, player) if may_close(board, index, player) else None
        if closing is not None and closing[0] > best_gain:
            best_gain, best = closing[0], index
    return best if best >= 0 else rng.choice(near)


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


def threat_value(
    board: DotsBoard,
    closers: Closers,
    depth: int,
    alpha: float,
    beta: float,
    deadline: float,
    clock: Clock,
) -> float:
    """What the side to move wins in the fight over captures, searched ``depth`` plies deep.

    At depth 0 the side to move simply takes its largest capture.  Deeper, it may capture,
    block one of the other side's captures by occupying its closing point, or play quietly
    elsewhere (modelled as a pass), and the other side answers in turn.
    """
    if clock() > deadline:
        raise _Timeout
    player = board.player
    mine = threats(closers[player])
    if depth == 0 or board.is_over:
        return float(mine[0][0]) if mine else 0.0
    board.player = 1 - player  # type: ignore[assignment]
    try:
        best = -threat_value(board, closers, depth - 1, -beta, -alpha, deadline, clock)
    finally:
        board.player = player
    alpha = max(alpha, best)
    if alpha >= beta:
        return best
    theirs = threats(closers[1 - player])
    moves = [index for _, index in mine]
    moves += [index for _, index in theirs if index not in moves]
    for index in moves:
        child = board.copy()
        child.place(index)
        gain = lead(child, player) - lead(board, player)
        child_closers = closers_after(board, child, closers, index, depth > 1)
        value = gain - threat_value(
            child, child_closers, depth - 1, gain - beta, gain - alpha, deadline, clock
        )
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


def searched_move(
    board: DotsBoard,
    recent: list[int],
    max_depth: int,
    rng: Random,
    deadline: float,
    clock: Clock,
) -> int:
    """Normal (``max_depth`` 0) and hard: the candidate with the best threat search value.

    Every candidate is searched to depth 0, i.e. against the opponent's largest immediate
    capture; hard then deepens, every candidate up to :data:`HARD_WIDE_DEPTH` and the best
    :data:`HARD_NARROW` beyond, keeping the result of the last finished depth.
    """
    player = board.player
    closers: Closers = (all_closers(board, 0), all_closers(board, 1))
    moves = candidates(board, recent, closers)
    # Shape and a little noise break ties between moves the search cannot tell apart.
    bias = {index: shape_value(board, index) + NOISE * rng.random() for index in moves}
    children: dict[int, tuple[int, DotsBoard, Closers]] = {}
    values: dict[int, float] = {}
    depth = 0
    while True:
        searched = moves if depth <= HARD_WIDE_DEPTH else moves[:HARD_NARROW]
        found: dict[int, float] = {}
        try:
            for index in searched:
                if clock() > deadline:
                    raise _Timeout
                if index not in children:
                    child = board.copy()
                    child.place(index)
                    gain = lead(child, player) - lead(board, player)
                    child_closers = closers_after(board, child, closers, index, max_depth > 0)
                    children[index] = (gain, child, child_closers)
                gain, child, child_closers = children[index]
                reply = threat_value(
                    child, child_closers, depth, -float("inf"), float("inf"), deadline, clock
                )
                found[index] = gain - reply
                if max_depth:
                    found[index] += THREAT_WEIGHT * len(threats(child_closers[player]))
        except _Timeout:
            # An unfinished depth compares some moves deeper than others: keep the last
            # finished one, unless not even the first depth finished.
            if not values:
                values = {index: found.get(index, -1e9) for index in moves}
            break
        values.update(found)
        # Moves left out of a narrow depth keep shallower values that are not comparable.
        moves = searched
        moves.sort(key=lambda index: values[index] + bias[index], reverse=True)
        depth += 1
        if depth > max_depth:
            break
    return max(moves, key=lambda index: (values[index] + bias[index], -index))
