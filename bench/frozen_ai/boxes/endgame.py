"""Exact values of simple loony endgames: independent chains and loops, no safe line left.

When every unclaimed box has exactly two sides drawn, the board is a set of independent
chains (both ends at the border) and loops, and the player to move must open one. The
opponent then either takes everything and must open the next, or takes all but the last
two boxes of a chain (four of a loop) and hands those over, keeping control. Opening a
chain of two in the middle forbids that refusal, so it is always the way to give one.
The recursion below is exact for such positions and costs microseconds with its cache.
"""

from __future__ import annotations

from functools import cache

from frozen_ai.boxes.analysis import LONG_CHAIN


def simple_endgame_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Best final margin for the player to move who must open one of these chains or loops."""
    return _value(tuple(sorted(chains)), tuple(sorted(loops)))


def opponent_gain(kind: str, length: int, rest_value: int) -> int:
    """What the opponent nets from a chain ("chain") or loop ("loop") given to them.

    ``rest_value`` is the value of the other components for whoever must open next.
    """
    if kind == "loop":
        return max(length + rest_value, length - 8 - rest_value)
    if length < LONG_CHAIN:
        return length + rest_value
    return max(length + rest_value, length - 4 - rest_value)


@cache
def _value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """The cached recursion of :func:`simple_endgame_value` on sorted length tuples."""
    if not chains and not loops:
        return 0
    best = -(1 << 30)
    previous = -1
    for index, length in enumerate(chains):
        if length == previous:
            continue
        previous = length
        rest = _value(chains[:index] + chains[index + 1 :], loops)
        best = max(best, -opponent_gain("chain", length, rest))
    previous = -1
    for index, length in enumerate(loops):
        if length == previous:
            continue
        previous = length
        rest = _value(chains, loops[:index] + loops[index + 1 :])
        best = max(best, -opponent_gain("loop", length, rest))
    return best
