"""Clocks of friend rooms: how much time each player has, and who ran out.

Plain values, computed from the time they are given (the server's clock, seconds since the
epoch): nothing here reads the time itself. A clock runs for the player whose turn it is,
from the first move of a game on; a turn that passes to the other player charges the mover
what it took and, in a live game, adds the increment. In a correspondence game every turn
has the same time (``per_move``), however long the others took.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.game import Player


@dataclass(frozen=True, slots=True)
class TimeControl:
    """``initial`` seconds for each player's whole game and ``increment`` seconds added after
    each of their turns (live); or, ``per_move``, ``initial`` seconds for every turn
    (correspondence)."""

    initial: float
    increment: float = 0.0
    per_move: bool = False


@dataclass(frozen=True, slots=True)
class Clock:
    """The time each player had left at ``since`` and whose clock runs from then (None: no
    clock runs, before the first move and once the game is over)."""

    control: TimeControl
    left: tuple[float, float]
    running: Player | None = None
    since: float = 0.0

    @classmethod
    def start(cls, control: TimeControl) -> Clock:
        """The clocks of a new game: full, and stopped until its first move."""
        return cls(control, (control.initial, control.initial))

    def left_at(self, now: float) -> tuple[float, float]:
        """The time each player has left at ``now`` (never below zero)."""
        if self.running is None:
            return self.left
        spent = max(0.0, now - self.since)
        left = list(self.left)
        left[self.running] = max(0.0, left[self.running] - spent)
        return (left[0], left[1])

    def out_of_time(self, now: float) -> Player | None:
        """The player whose time has run out at ``now``, if one has."""
        if self.running is None:
            return None
        return self.running if self.left_at(now)[self.running] <= 0 else None

    def deadline(self) -> float | None:
        """When the running clock runs out (seconds since the epoch), if one runs."""
        if self.running is None:
            return None
        return self.since + self.left[self.running]

    def after_move(self, mover: Player, to_move: Player, now: float) -> Clock:
        """The clocks after ``mover`` played at ``now`` and ``to_move`` is to move: the same
        player moving again keeps their clock running; a turn that passes charges the mover
        and starts the other's clock. The first move of a game starts the clocks."""
        if self.running is None:
            return replace(self, running=to_move, since=now) if to_move != mover else self
        if to_move == mover:
            return self
        control = self.control
        left = list(self.left_at(now))
        if control.per_move:
            left = [control.initial, control.initial]
        else:
            left[mover] += control.increment
        return Clock(control, (left[0], left[1]), to_move, now)

    def switched(self, to_move: Player, now: float) -> Clock:
        """The clocks charged up to ``now`` and running for ``to_move`` (after moves were
        taken back, say)."""
        if self.running is None:
            return self
        left = self.left_at(now)
        if self.control.per_move:
            left = (self.control.initial, self.control.initial)
        return Clock(self.control, left, to_move, now)

    def stopped(self, now: float) -> Clock:
        """The clocks charged up to ``now`` and stopped (the game is over)."""
        return Clock(self.control, self.left_at(now), None, now)
