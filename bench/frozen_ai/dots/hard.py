"""The hard Dots player: every candidate searched by the forcing fight search, deepening."""

from __future__ import annotations

from random import Random

from core.dots.board import EMPTY, DotsBoard
from frozen_ai.dots.fight import (
    Budget,
    OutOfBudget,
    double_threats,
    fight_value,
    net_points,
    net_value,
    threat_moves,
)
from frozen_ai.dots.search import (
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

WIDE_DEPTH = 2
"""Every candidate is searched up to this depth, then only the best few deeper."""
NARROW = 12
"""How many of the best candidates are searched beyond the wide depth."""
MAX_DEPTH = 11
"""Deepening stops here even with time to spare."""
THREAT_WEIGHT = 0.1
"""Bonus per capture threat a move leaves standing: it keeps the opponent busy."""
TAKE_NOW = 0.5
"""Bonus per mark captured by the move itself: a capture put off can still be spoiled, and
the search's stand-pat cannot tell taking now from threatening to take later."""
DEFENCE_BONUS = 0.05
"""Bonus for a point of an opponent's double threat (its mark or its closing points): it
puts the defences among the few candidates searched deep enough to see the threat."""
NET_REACH = 2
"""Nets (see :func:`~frozen_ai.dots.fight.net_points`) are looked for within this
Chebyshev distance of the recent marks, the latest first: a net is laid round a fight,
not always the latest one."""
NET_SHARE = 0.15
"""Share of the budget left that the look for nets, and each screening of the best
candidates against them, may spend."""
NET_CHECKS = 4
"""How many of the best candidates are screened against the nets after each depth."""


def hard_move(board: DotsBoard, recent: list[int], rng: Random, budget: Budget) -> int:
    """Hard: the candidate with the best fight value, deepened until the budget runs out.

    Threat moves of the side to move join the candidates, so a ladder or a double threat
    starting away from the latest marks is still tried; the other side's double threats
    near the fight are watched at every node, and the points that answer them join too.
    The other side's nets near the recent marks (quiet marks leaving double threats no one
    mark answers) are looked for once; their points join the candidates, and after each
    depth the best candidates are marked down by what a net still wins after them.
    The result of the last finished depth is kept; an unfinished depth only counts when it
    already covers the best move.
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
    try:
        extra = threat_moves(board, closers, focus, budget)
    except OutOfBudget:
        extra = []
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
    moves += sorted(defences.difference(moves))
    bias = {
        index: shape_value(board, index)
        + NOISE * rng.random()
        + (DEFENCE_BONUS if index in defences else 0.0)
        for index in moves
    }
    # Captures and blocks first, then by shape: a first depth cut short by a loaded machine
    # has still weighed the moves that matter most.
    urgent = set(closers[0]) | set(closers[1])
    moves.sort(key=lambda index: (index in urgent, bias[index]), reverse=True)
    children: dict[int, tuple[int, DotsBoard, Closers]] = {}
    values: dict[int, float] = {}
    screened: dict[int, float] = {}
    depth = 0
    while depth <= MAX_DEPTH:
        searched = moves if depth <= WIDE_DEPTH else moves[:NARROW]
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
