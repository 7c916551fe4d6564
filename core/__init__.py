"""tetrad core: the pure rules of Dots and Boxes and Dots, and the computer players.

Nothing here does I/O or imports anything outside the standard library, so the same
code serves the server, the tests, the benchmarks and bot authors::

    from core import boxes, dots, ai
"""

from core.errors import IllegalMove, InvalidMove, InvalidOptions, TetradError
from core.game import Ending, GameState, Outcome, Player, other

__all__ = [
    "Ending",
    "GameState",
    "IllegalMove",
    "InvalidMove",
    "InvalidOptions",
    "Outcome",
    "Player",
    "TetradError",
    "other",
]
