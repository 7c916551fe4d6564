"""The hard Dots player: every candidate searched by the forcing fight search, deepening."""

from __future__ import annotations

from random import Random

from core.ai.dots.fight import (
    Budget,
    OutOfBudget,
    Threat,
    double_threats,
    fight_value,
    net_points,
    net_value,
    threat_moves,
    threats_among,
)
from core.ai.dots.search import (
    NOISE,
    Closers,
    all_closers,
    candidates,
    closers_after,
    free_near,
    lead,
    shape_value,
    threats,
)
from core.dots.board import EMPTY, DotsBoard

WIDE_DEPTH = 2
"""Every candidate is searched up to this depth, then only the best few deeper (and every
forcing one: see :data:`NARROW`)."""
NARROW = 12
"""How many of the best quiet candidates are searched beyond the wide depth. Forcing
candidates (captures, blocks, threats, and the answers to the other side's double threats
and nets) are always searched deeper: a ladder's first mark looks worth nothing until the
search reaches its end, many plies on."""
MAX_DEPTH = 41
"""Deepening stops here even with time to spare: a search with nothing left to read (a
nearly full small board) still stops before its clock. Ladders need no such depth: the
fight search reads them to their end at the depth of their first threat."""
THREAT_WEIGHT = 0.1
"""Bonus per capture threat a move leaves standing: it keeps the opponent busy."""
TAKE_NOW = 0.5
"""Bonus per mark captured by the move itself: a capture put off can still be spoiled, and
the search's stand-pat cannot tell taking now from threatening to take later."""
DEFENCE_BONUS = 0.05
"""Bonus for a point of an opponent's double threat (its mark or its closing points): it
puts the defences among the few candidates searched deep enough to see the threat."""
NET_REACH = 2
"""Nets (see :func:`~core.ai.dots.fight.net_points`) are looked for within this
Chebyshev distance of the recent marks, the latest first: a net is laid round a fight,
not always the latest one."""
NET_SHARE = 0.15
"""Share of the budget left that the look for nets, and each screening of the best
candidates against them, may spend."""
OWN_NET_SHARE = 0.25
"""Share of the budget left that the look for our own nets may spend (after the look for
the other side's)."""
NET_CHECKS = 4
"""How many of the best candidates are screened against the nets after each depth."""


def hard_move(board: DotsBoard, recent: list[int], rng: Random, budget: Budget) -> int:
    """Hard: the candidate with the best fight value, deepened until the budget runs out.

    Threat moves of the side to move, anywhere among the candidates, join them, so a ladder
    or a double threat starting away from the latest marks is still tried; the other
    side's double threats near the fight are watched at every node, and the points that
    answer them join too. Nets near the recent marks (quiet marks leaving double threats
    no one mark answers) are looked for once for each side: ours join the candidates with
    what they win, theirs join as defences, and after each depth the best candidates are
    marked down by what a net of theirs still wins after them. Forcing candidates are
    searched to the last depth, quiet ones only while among the best. The result of the
    last finished depth is kept; an unfinished depth only counts when it already covers
    the best move.
    """
    player = board.player
    try:
        closers: Closers = (
            all_closers(board, 0, budget.check),
            all_closers(board, 1, budget.check),
        )
    except OutOfBudget:
        # No time even to read the captures (a badly loaded machine): the best-shaped
        # point near the fight still beats overrunning the clock.
        near = candidates(board, recent, ({}, {}))
        return max(near, key=lambda index: (shape_value(board, index), -index))
    focus = tuple(recent[-2:])
    moves = candidates(board, recent, closers)
    extra: list[Threat] = []
    try:
        extra += threat_moves(board, closers, focus, budget)
        # The forcing search tries threats near the latest marks of a line only; at the
        # root every candidate is tried, so a ladder or a double threat that starts away
        # from the latest marks is searched as deep as the ones next to them.
        extra += threats_among(board, closers, moves, budget)
    except OutOfBudget:
        pass
    moves += [index for index, _, _ in extra if index not in moves]
    try:
        dangers = double_threats(board, closers, moves, budget)
    except OutOfBudget:
        dangers = []
    defences = {point for index, new in dangers for point in (index, *new)}
    budget.watch = frozenset(index for index, _ in dangers)
    # A net is a quiet mark after which the other side has a double threat we cannot
    # answer: the forcing search never plays quiet marks, so the root looks for them
    # (on a share of the budget) and screens its best candidates against them.
    net_budget = budget.share(NET_SHARE)
    nets = [
        index
        for index, _ in net_points(
            board,
            closers,
            latest_first(board, recent),
            net_budget,
            budget.watch,
        )
    ]
    budget.visited += net_budget.visited
    defences.update(nets)
    # Our own nets: what one wins is read by net_value, since the forcing search lets the
    # other side stand pat after a quiet mark and then tries no threat of ours. Only in a
    # quiet position: a capture standing now (either side's) would count as a threat the
    # net leaves, and the forcing search reads those positions anyway.
    own_nets: dict[int, float] = {}
    if not threats(closers[0]) and not threats(closers[1]):
        own_budget = budget.share(OWN_NET_SHARE)
        own_nets = dict(
            net_points(board, closers, latest_first(board, recent), own_budget, netter=player)
        )
        budget.visited += own_budget.visited
    moves += sorted(defences.union(own_nets).difference(moves))
    bias = {
        index: shape_value(board, index)
        + NOISE * rng.random()
        + (DEFENCE_BONUS if index in defences else 0.0)
        + own_nets.get(index, 0.0)
        for index in moves
    }
    # Captures and blocks first, then by shape: a first depth cut short by a loaded machine
    # has still weighed the moves that matter most.
    urgent = set(closers[0]) | set(closers[1])
    moves.sort(key=lambda index: (index in urgent, bias[index]), reverse=True)
    forcing = urgent | defences | set(own_nets) | {index for index, _, _ in extra}
    children: dict[int, tuple[int, DotsBoard, Closers]] = {}
    values: dict[int, float] = {}
    screened: dict[int, float] = {}
    depth = 0
    while depth <= MAX_DEPTH:
        searched = (
            moves
            if depth <= WIDE_DEPTH
            else moves[:NARROW] + [index for index in moves[NARROW:] if index in forcing]
        )
        found: dict[int, float] = {}
        try:
            for index in searched:
                budget.check()
                if index not in children or depth == 1:
                    # Depth 0 reads only the reply's captures, so the mover's own closers
                    # are worked out (the costly part) from depth 1 on.
                    child = board.copy()
                    child.place(index)
                    gain = lead(child, player) - lead(board, player)
                    children[index] = (
                        gain,
                        child,
                        closers_after(board, child, closers, index, depth > 0, check=budget.check),
                    )
                gain, child, child_closers = children[index]
                reply = fight_value(
                    child,
                    child_closers,
                    depth,
                    -float("inf"),
                    float("inf"),
                    (*focus, index),
                    budget,
                )
                found[index] = (
                    gain * (1 + TAKE_NOW)
                    - reply
                    + THREAT_WEIGHT * len(threats(child_closers[player]))
                )
        except OutOfBudget:
            if not values:
                values = {index: found.get(index, -1e9) for index in moves}
            break
        values.update(found)
        budget.finished_depth = depth
        moves = searched
        moves.sort(key=lambda index: values[index] + bias[index], reverse=True)
        if nets and depth >= 1:
            screen(moves, nets, children, screened, bias, budget)
            moves.sort(key=lambda index: values[index] + bias[index], reverse=True)
        depth += 1
    return max(moves, key=lambda index: (values[index] + bias[index], -index))


def screen(
    moves: list[int],
    nets: list[int],
    children: dict[int, tuple[int, DotsBoard, Closers]],
    screened: dict[int, float],
    bias: dict[int, float],
    budget: Budget,
) -> None:
    """Mark down the best of ``moves`` (ranked) by what the other side's nets still win
    after them, until one is clean, :data:`NET_CHECKS` are screened or the budget's share
    is spent; each move is screened once (``screened`` keeps what it lost).
    """
    share = budget.share(NET_SHARE)
    checked = 0
    try:
        for index in moves:
            if checked >= NET_CHECKS:
                break
            if index in screened:
                if screened[index] <= 0:
                    break
                continue
            _, child, child_closers = children[index]
            loss = 0.0
            for net in nets:
                if child.cell[net] == EMPTY:
                    loss = max(loss, net_value(child, child_closers, net, share, budget.watch))
            screened[index] = loss
            checked += 1
            if loss <= 0:
                break
            bias[index] -= loss
    except OutOfBudget:
        pass
    budget.visited += share.visited


def latest_first(board: DotsBoard, recent: list[int]) -> list[int]:
    """Free points within :data:`NET_REACH` of the recent marks, nearest the latest first."""
    seen: set[int] = set()
    points: list[int] = []
    for mark in reversed(recent):
        for index in sorted(free_near(board, (mark,), NET_REACH).difference(seen)):
            seen.add(index)
            points.append(index)
    return points
