"""What every game state offers, so the AI, the server and the tests treat both games alike."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, Self, TypeVar

Player = Literal[0, 1]
"""Seat number: ``0`` moves first (gold in Dots and Boxes, pen in Dots), ``1`` second."""

EndReason = Literal["board_full", "resignation", "agreement", "grounding", "margin"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: the winner (``None`` for a draw), why, and the final score."""

    winner: Player | None
    reason: EndReason
    scores: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """The outcome as plain JSON data."""
        return {"winner": self.winner, "reason": self.reason, "scores": list(self.scores)}


def leader(scores: tuple[int, int]) -> Player | None:
    """The player with the higher score, or ``None`` when the scores are level."""
    if scores[0] == scores[1]:
        return None
    return 0 if scores[0] > scores[1] else 1


MoveT = TypeVar("MoveT")


class GameState(Protocol[MoveT]):
    """An immutable position of either game; ``play`` returns a new state."""

    @property
    def to_move(self) -> Player: ...

    @property
    def scores(self) -> tuple[int, int]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> Player | None: ...

    @property
    def moves(self) -> tuple[MoveT, ...]: ...

    def outcome(self) -> Outcome | None: ...

    def play(self, move: MoveT) -> Self: ...

    def legal_moves(self) -> Iterator[MoveT]: ...

    def resign(self, player: Player) -> Self: ...

    def end_by_agreement(self) -> Self: ...

    def move_to_json(self, move: MoveT) -> dict[str, Any]: ...

    def move_from_json(self, data: Mapping[str, Any]) -> MoveT: ...

    def to_json(self) -> dict[str, Any]: ...

    def view(self) -> dict[str, Any]: ...
