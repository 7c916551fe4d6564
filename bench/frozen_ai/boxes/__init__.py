"""Computer players for Dots and Boxes: chain analysis, three levels and an exact solver.

* :func:`analyse` — safe lines, capturable boxes, chains, loops, long-chain control;
* :func:`choose` — the line a level ("easy", "normal", "hard") draws;
* :func:`solve` — the exact margin the player to move can force (remaining boxes);
* :func:`position_nimber` — the Nimstring value that decides the fight for control;
* :func:`reason_for` — why a line is good, as a reason code for hints.

The modules: ``tables`` (bitmask tables), ``analysis`` (chains and loops on the board),
``coins`` (strings-and-coins components and their canonical keys), ``nimstring``
(component values), ``endgame`` (loony endgames by formula and recursion), ``book``
(3×3 openings), ``solver`` (exact search), ``levels`` (the players), ``reasons`` (hints).
"""

from frozen_ai.boxes.analysis import ChainView, PositionAnalysis, analyse
from frozen_ai.boxes.book import book_values
from frozen_ai.boxes.levels import LEVELS, choose
from frozen_ai.boxes.nimstring import position_nimber
from frozen_ai.boxes.reasons import REASONS, Reason, reason_for
from frozen_ai.boxes.solver import Budget, SearchTimeout, solve


def warm_up() -> None:
    """Build the 3×3 opening book now (about half a second) rather than on the first move."""
    book_values()


__all__ = [
    "LEVELS",
    "REASONS",
    "Budget",
    "ChainView",
    "PositionAnalysis",
    "Reason",
    "SearchTimeout",
    "analyse",
    "choose",
    "position_nimber",
    "reason_for",
    "solve",
    "warm_up",
]
