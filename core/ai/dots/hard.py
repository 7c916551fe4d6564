"""The hard Dots player: every candidate searched by the forcing fight search, deepening."""

from __future__ import annotations

from random import Random

from core.ai.dots.fight import Budget, OutOfBudget, double_threats, fight_value, threat_moves
from core.ai.dots.search import (
    NOISE,
    Closers,
    all_closers,
    candidates,
    closers_after,
    lead,
    shape_value,
    threats,
)
from core.dots.board import DotsBoard

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


def hard_move(board: DotsBoard, recent: list[int], rng: Random, budget: Budget) -> int:
    """Hard: the candidate with the best fight value, deepened until the budget runs out.

    Threat moves of the side to move join the candidates, so a ladder or a double threat
    starting away from the latest marks is still tried; the other side's double threats
    near the fight are watched at every node, and the points that answer them join too.
    The result of the last finished depth is kept; an unfinished depth only counts when it
    already covers the best move.
    """
    player = board.player
    closers: Closers = (all_closers(board, 0), all_closers(board, 1))
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
    moves += sorted(defences.difference(moves))
    budget.watch = frozenset(index for index, _ in dangers)
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
                        closers_after(board, child, closers, index, depth > 0),
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
        depth += 1
    return max(moves, key=lambda index: (values[index] + bias[index], -index))
