"""Exact values of simple loony endgames: independent chains and loops, no safe line left.

When every unclaimed box has exactly two sides drawn, the board is a set of independent
chains (both ends at the border) and loops, and the player to move must open one. The
opponent then either takes everything and must open the next, or takes all but the last
two boxes of a chain (four of a loop) and hands those over, keeping control. Opening a
chain of two in the middle forbids that refusal, so it is always the way to give one.
The recursion below is exact for such positions and costs microseconds with its cache.

When only long chains (three boxes or more) and loops are left — a *simple loony endgame*
(Buzzard & Ciere, 2014) — the value mostly follows from a formula instead: the
*controlled value* (:func:`controlled_value`) is what the player in control nets by keeping
control to the end, and when it is at least 2 it is the exact value, except when every
chain is a three-chain and a loop is left (then the controller may do better by giving up
control once). The player who must open then opens a three-chain if there is one, else the
smallest loop, else the smallest chain (:func:`loony_opening`). Tests check the formula
and the opening rule against the recursion and the exact solver.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from frozen_ai.boxes.analysis import LONG_CHAIN

LONG_LOOP: Final = 4
"""Every loop on a square grid has at least four boxes."""


def simple_endgame_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Best final margin for the player to move who must open one of these chains or loops."""
    formula = loony_formula(chains, loops)
    if formula is not None:
        return formula
    return _value(tuple(sorted(chains)), tuple(sorted(loops)))


def controlled_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """What the player in control nets by keeping control to the end of these components.

    They give away two boxes of every chain and four of every loop but the last one
    opened, which the opener makes a chain when there is one.
    """
    if not chains and not loops:
        return 0
    last_bonus = 4 if chains else 8
    return sum(chains) + sum(loops) - 4 * len(chains) - 8 * len(loops) + last_bonus


def is_simple_loony(chains: tuple[int, ...], loops: tuple[int, ...]) -> bool:
    """Whether only long chains and loops are left (a simple loony endgame)."""
    return all(length >= LONG_CHAIN for length in chains) and all(
        length >= LONG_LOOP for length in loops
    )


def loony_formula(chains: tuple[int, ...], loops: tuple[int, ...]) -> int | None:
    """The value for the player who must open, by the controlled-value formula, or None.

    None when the formula does not settle it: short chains are left, the controlled
    value is below 2, or loops are left with three-chains only.
    """
    if not is_simple_loony(chains, loops):
        return None
    value = controlled_value(chains, loops)
    if value < 2 or (loops and all(length == LONG_CHAIN for length in chains)):
        return None
    return -value


def loony_opening(chains: tuple[int, ...], loops: tuple[int, ...]) -> tuple[str, int]:
    """Which component the player who must open should open: ("chain" or "loop", length)."""
    if loony_formula(chains, loops) is not None:
        if LONG_CHAIN in chains:
            return ("chain", LONG_CHAIN)
        if loops:
            return ("loop", min(loops))
        return ("chain", min(chains))
    best: tuple[int, str, int] | None = None
    for kind, lengths in (("chain", chains), ("loop", loops)):
        for length in sorted(set(lengths)):
            rest_chains = list(chains)
            rest_loops = list(loops)
            (rest_chains if kind == "chain" else rest_loops).remove(length)
            rest = simple_endgame_value(tuple(rest_chains), tuple(rest_loops))
            gain = opponent_gain(kind, length, rest)
            if best is None or gain < best[0]:
                best = (gain, kind, length)
    assert best is not None, "nothing to open"
    return best[1], best[2]


def keeps_control(kind: str, rest_value: int) -> bool:
    """Whether the player given a long chain or loop should decline its last boxes.

    ``rest_value`` is the value of the other components for whoever must open next;
    declining hands over two boxes of a chain (four of a loop) to make the opponent open.
    """
    return rest_value <= (-2 if kind == "chain" else -4)


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
