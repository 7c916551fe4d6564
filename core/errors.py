"""The two ways a move can be wrong: malformed (it is not a move at all) or illegal here."""


class TetradError(ValueError):
    """Base of every error raised by ``core``; ``code`` is stable and machine-readable."""

    code = "tetrad_error"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidMove(TetradError):
    """The input does not describe a move on this board (bad shape, out of range, not adjacent)."""

    code = "invalid_move"


class IllegalMove(TetradError):
    """A well-formed move that the rules forbid in this position (taken, dead, game over)."""

    code = "illegal_move"


class InvalidOptions(TetradError):
    """The options of a new game are out of range or contradict each other."""

    code = "invalid_options"
