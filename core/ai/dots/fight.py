"""Hard's reading of the local fight in Dots: a forcing search over captures, blocks and threats.

The fight around the latest marks is searched as a small game in which the side to move
may take a capture, block one of the other side's captures by occupying its closing
point, make a *threat* (a quiet mark that leaves a new capture standing) or stand pat
and play elsewhere (modelled as a pass).  Captures are counted as they happen, and at the
horizon the side to move takes its largest capture.  Because threats are moves of the
search, it reads what a two-ply search cannot:

* captures in 2 and 3 of one's own moves — a threat that cannot be answered, or a chain
  of threats each of which must be blocked until one cannot;
* double threats — a mark that leaves two captures only one of which can be blocked;
* ladders — a group that extends to block each threat and is threatened again, until it
  reaches the edge (captured) or a friendly mark (escaped);
* escapes — at the root every candidate is searched, so a move that spoils the other
  side's forcing sequence scores as well as it deserves.

What it cannot read is a *net*: a quiet mark (no capture, no new closing point) after
which the other side has double threats no single mark answers.  The root looks for the
nets of both sides (:func:`net_points`): it plays its own where one wins most, and marks
down its best candidates by what a net of the other side still wins after them
(:func:`net_value`).

Threat moves are looked for only near the latest marks of the line being searched
(:data:`FOCUS_REACH`), which keeps the branching small; the search deepens one ply at a
time under a node budget and a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from core.ai.dots.search import (
    Closers,
    closers_after,
    lead,
    threats,
)
from core.dots.board import BORDER, EMPTY, DotsBoard
from core.game import other

FOCUS_REACH = 2
"""Threat moves are looked for within this Chebyshev distance of the line's latest marks."""
FOCUS_MARKS = 2
"""How many of the line's latest marks the threat moves are looked for around."""
SEARCH_REACH = 3
"""Inside the fight search, new closing points are looked for this far from each mark."""
MIN_THREAT_DEPTH = 3
"""A threat pays only with a reply and a capture after it, so it needs this many plies left."""
LADDER_PLIES = 24
"""Plies of ladders (forced blocks and the threats that follow them) a line of the fight
search may read without using depth: a ladder across the widest board."""
DANGER_DEPTH = 2
"""Plies the root reads after each threat of the other side to tell whether one mark
holds it (see :func:`double_threats`)."""


Threat = tuple[int, DotsBoard, Closers]
"""A threat move, the board after it and the closers there (boards in it are never changed)."""

ThreatKey = tuple[bytes, int, tuple[int, ...]]
"""A position's cells, the side to move and the focus: what the threat moves depend on."""


class OutOfBudget(Exception):
    """The node budget or the clock ran out in the middle of a search."""


@dataclass
class Budget:
    """How much searching is left: nodes to visit and a deadline on an injected clock."""

    nodes: int
    deadline: float
    clock: Callable[[], float]
    visited: int = 0
    finished_depth: int = -1
    """The deepest search depth finished at the root (for benches and tests)."""
    threat_cache: dict[ThreatKey, list[Threat]] = field(default_factory=dict)
    """Threat moves already found, by position, side to move and focus."""
    watch: frozenset[int] = frozenset()
    """Points where threats are tried at every node besides those near the focus: the
    root's danger points (see :func:`double_threats`), which may lie far from the line."""

    def check(self) -> None:
        """Raise OutOfBudget once the deadline has passed."""
        if self.clock() > self.deadline:
            raise OutOfBudget

    def share(self, fraction: float) -> Budget:
        """A budget of ``fraction`` of the nodes and time left, sharing the threat cache
        and the watched points: a side search that must not starve the main one."""
        now = self.clock()
        return Budget(
            int(fraction * max(self.nodes - self.visited, 0)),
            now + fraction * max(self.deadline - now, 0.0),
            self.clock,
            threat_cache=self.threat_cache,
            watch=self.watch,
        )

    def spend(self) -> None:
        """Count one node; raise OutOfBudget when the nodes or the time are used up."""
        self.visited += 1
        if self.visited > self.nodes or self.clock() > self.deadline:
            raise OutOfBudget


def focus_points(
    board: DotsBoard, focus: tuple[int, ...], watch: frozenset[int] = frozenset()
) -> list[int]:
    """Free points near the latest marks of the line, and the free ``watch`` points: where
    threats are looked for."""
    cell = board.cell
    ring = board.geometry.ring
    found: set[int] = {index for index in watch if cell[index] == EMPTY}
    for source in focus[-FOCUS_MARKS:]:
        for step in ring:
            near = source + step
            if cell[near] == BORDER:
                continue
            if cell[near] == EMPTY:
                found.add(near)
            for step2 in ring:
                far = near + step2
                if cell[far] == EMPTY:
                    found.add(far)
    return sorted(found)


def threat_moves(
    board: DotsBoard, closers: Closers, focus: tuple[int, ...], budget: Budget
) -> list[Threat]:
    """Quiet moves of the side to move near ``focus`` that leave a new capture standing.

    A move qualifies when it touches an own mark (only a wall can close a ring) and an
    opponent's mark (the one it threatens), and once played some point closes a capture
    that did not, or captures more than it did.  Returns each with the board after it.
    """
    key = (bytes(board.cell), board.player, focus[-FOCUS_MARKS:])
    cached = budget.threat_cache.get(key)
    if cached is not None:
        return cached
    found = threats_among(board, closers, focus_points(board, focus, budget.watch), budget)
    budget.threat_cache[key] = found
    return found


def threats_among(
    board: DotsBoard, closers: Closers, points: list[int], budget: Budget
) -> list[Threat]:
    """The threat moves (see :func:`threat_moves`) of the side to move among ``points``."""
    player = board.player
    cell = board.cell
    ring = board.geometry.ring
    wall = player + 1
    enemy = 2 - player
    before = closers[player]
    found: list[Threat] = []
    for index in points:
        budget.check()
        if index in before or index in closers[1 - player]:
            continue
        around = [cell[index + step] for step in ring]
        if wall not in around or enemy not in around:
            continue
        child = board.copy()
        child.place(index)
        if lead(child, player) != lead(board, player):
            continue  # it captures (or is captured): not a quiet threat
        child_closers = closers_after(
            board, child, closers, index, True, SEARCH_REACH, budget.check
        )
        for point, (gain, _) in child_closers[player].items():
            if gain > 0 and (point not in before or before[point][0] < gain):
                found.append((index, child, child_closers))
                break
    return found


def double_threats(
    board: DotsBoard, closers: Closers, points: list[int], budget: Budget
) -> list[tuple[int, list[int]]]:
    """The other side's threats among ``points`` that one mark of the side to move could
    not answer (two closing points, or a capture that also opens another), were it their
    turn now: each with its point and the new closing points it makes.

    The forcing search only tries threats near the latest marks of a line; these may
    lie anywhere near the fight, so the root looks for them once and watches them.
    """
    player = board.player
    board.player = other(player)
    try:
        found = threats_among(board, closers, points, budget)
    finally:
        board.player = player
    dangers: list[tuple[int, list[int]]] = []
    for index, child, child_closers in found:
        # The child has the side to move to play: can one mark hold the loss to nothing?
        if fight_value(child, child_closers, DANGER_DEPTH, -1.0, 0.0, (index,), budget) < 0:
            before = closers[1 - player]
            new = [
                point
                for point, (gain, _) in child_closers[1 - player].items()
                if gain > 0 and (point not in before or before[point][0] < gain)
            ]
            dangers.append((index, new))
    return dangers


def fight_value(
    board: DotsBoard,
    closers: Closers,
    depth: int,
    alpha: float,
    beta: float,
    focus: tuple[int, ...],
    budget: Budget,
    after_pass: bool = False,
    chased: int = -1,
    free: int = LADDER_PLIES,
) -> float:
    """What the side to move gains in the local fight, searched ``depth`` plies deep.

    At depth 0 the side to move takes its largest capture.  Deeper it may stand pat (a
    pass), capture, block a capture of the other side, or — with at least
    :data:`MIN_THREAT_DEPTH` plies left — make a threat near the line's latest marks.

    A ladder costs the depth of its first threat only: the block of the only capture
    standing against the side to move (with none of its own to take) is forced, and a
    threat against the mark that just blocked so (``chased``) is the ladder's next step;
    neither uses depth, up to ``free`` such plies in a line. So the search reads a ladder
    to its end, where the group is captured or escapes, instead of stopping at a horizon
    where the last block looks safe.
    """
    budget.spend()
    player = board.player
    mine = threats(closers[player])
    if depth == 0 or board.is_over:
        return float(mine[0][0]) if mine else 0.0
    board.player = other(player)
    try:
        best = -fight_value(board, closers, depth - 1, -beta, -alpha, focus, budget, True)
    finally:
        board.player = player
    if best >= beta:
        return best
    alpha = max(alpha, best)
    theirs = threats(closers[1 - player])
    moves: list[tuple[int, DotsBoard | None, Closers | None]] = [(i, None, None) for _, i in mine]
    moves += [(i, None, None) for _, i in theirs if i not in closers[player]]
    if depth >= MIN_THREAT_DEPTH and not after_pass:
        found = threat_moves(board, closers, focus, budget)
        if free < LADDER_PLIES:
            # Inside a ladder each side's threats are read at its first step only; from
            # then on the chaser only chases and the runner only runs (or gives up), so
            # a ladder across the board costs a few nodes a step.
            found = [
                (index, child, child_closers)
                for index, child, child_closers in found
                if chased >= 0 and threatens(closers, child_closers, player, chased)
            ]
        moves += found
    forced = theirs[0][1] if len(theirs) == 1 and not mine and free > 0 else -1
    for index, known, known_closers in moves:
        if known is None or known_closers is None:
            child = board.copy()
            child.place(index)
            child_closers = closers_after(
                board,
                child,
                closers,
                index,
                depth > 1 or index == forced,
                SEARCH_REACH,
                budget.check,
            )
        else:
            # A cached board is shared: the search below flips ``player`` but puts it back.
            child, child_closers = known, known_closers
        gain = lead(child, player) - lead(board, player)
        ladder = index == forced or (
            chased >= 0
            and free > 0
            and known is not None
            and threatens(closers, child_closers, player, chased)
        )
        value = gain - fight_value(
            child,
            child_closers,
            depth if ladder else depth - 1,
            gain - beta,
            gain - alpha,
            (*focus[-FOCUS_MARKS:], index),
            budget,
            chased=index if index == forced else -1,
            free=free - 1 if ladder else free,
        )
        if value > best:
            best = value
            if value >= beta:
                break
            alpha = max(alpha, value)
    return best


def threatens(before: Closers, after: Closers, player: int, mark: int) -> bool:
    """Whether ``player``'s move, from closers ``before`` to ``after``, made a capture that
    takes ``mark`` (or made one that does capture more)."""
    old = before[player]
    return any(
        gain > 0 and mark in area and (point not in old or old[point][0] < gain)
        for point, (gain, area) in after[player].items()
    )


NET_DEPTH = 3
"""Plies the netter needs after a defence: the double threat, the block, the capture."""


def net_value(
    board: DotsBoard,
    closers: Closers,
    index: int,
    budget: Budget,
    known: frozenset[int] = frozenset(),
) -> float:
    """What the side to move wins with the quiet mark ``index`` when it sets a *net*: it
    leaves double threats (see :func:`double_threats`) that no single mark of the other
    side answers; 0 when some mark does (or the move captures: the forcing search's case).

    The answers tried are the points of the double threats and their closing points, and
    the other side's own captures and blocks; double threats at ``known`` points stood
    before the mark (the root watches those) and do not count.  Each answer is searched
    as a forcing fight with the double threats watched, and the least the netter wins
    over them is the net's value.
    """
    player = board.player
    child = board.copy()
    child.place(index)
    if lead(child, player) != lead(board, player):
        return 0.0
    child_closers = closers_after(board, child, closers, index, True, SEARCH_REACH, budget.check)
    near = [point for point in focus_points(child, (index,)) if point not in known]
    dangers = double_threats(child, child_closers, near, budget)
    if not dangers:
        return 0.0
    victim = 1 - player
    answers = {point for danger, new in dangers for point in (danger, *new)}
    answers.update(point for _, point in threats(child_closers[victim]))
    answers.update(point for _, point in threats(child_closers[player]))
    watch = budget.watch
    budget.watch = frozenset(danger for danger, _ in dangers)
    try:
        least = float("inf")
        for answer in sorted(answers):
            if child.cell[answer] != EMPTY:
                continue
            grand = child.copy()
            grand.place(answer)
            gain = lead(grand, victim) - lead(child, victim)
            grand_closers = closers_after(
                child, grand, child_closers, answer, True, SEARCH_REACH, budget.check
            )
            won = fight_value(
                grand,
                grand_closers,
                NET_DEPTH,
                -float("inf"),
                float("inf"),
                (index, answer),
                budget,
            )
            least = min(least, won - gain)
            if least <= 0:
                return 0.0
    finally:
        budget.watch = watch
    return least if least != float("inf") else 0.0


def net_points(
    board: DotsBoard,
    closers: Closers,
    points: list[int],
    budget: Budget,
    known: frozenset[int] = frozenset(),
    netter: int | None = None,
) -> list[tuple[int, float]]:
    """The nets of ``netter`` (the other side unless given) among ``points`` (see
    :func:`net_value`), were it their turn now: each point with what it would win, largest
    first.

    Only points touching one of the netter's marks and next but one to one of the other
    side's are tried: a net closes in on the victim's marks and leans on the netter's.
    When the budget runs out the nets found so far are returned.
    """
    player = board.player
    netter = other(player) if netter is None else netter
    cell = board.cell
    ring = board.geometry.ring
    victim, leaning = 2 - netter, netter + 1
    board.player = netter  # type: ignore[assignment]
    found: list[tuple[int, float]] = []
    try:
        for index in points:
            budget.check()
            if cell[index] != EMPTY or index in closers[0] or index in closers[1]:
                continue
            near = [index + step for step in ring]
            if not any(cell[point] == leaning for point in near):
                continue
            if not any(
                cell[point] == victim or cell[point + step] == victim
                for point in near
                for step in ring
                if cell[point] != BORDER
            ):
                continue
            value = net_value(board, closers, index, budget, known)
            if value > 0:
                found.append((index, value))
    except OutOfBudget:
        pass
    finally:
        board.player = player
    found.sort(key=lambda item: item[1], reverse=True)
    return found
