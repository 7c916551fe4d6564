"""Computer players for Dots and Boxes: chain analysis, three levels and an exact solver.

* :func:`analyse` — safe lines, capturable boxes, chains, loops, long-chain control;
* :func:`choose` — the line a level ("easy", "normal", "hard") draws;
* :func:`solve` — the exact margin the player to move can force (remaining boxes).
"""

from frozen_ai.boxes.analysis import ChainView, PositionAnalysis, analyse
from frozen_ai.boxes.book import book_values
from frozen_ai.boxes.levels import LEVELS, choose
from frozen_ai.boxes.solver import Budget, SearchTimeout, solve


def warm_up() -> None:
    """Build the 3×3 opening book now (about half a second) rather than on the first move."""
    book_values()


__all__ = [
    "LEVELS",
    "Budget",
    "ChainView",
    "PositionAnalysis",
    "SearchTimeout",
    "analyse",
    "choose",
    "solve",
    "warm_up",
]
