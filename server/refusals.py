"""Refusals: what the server will not do, as values with stable codes.

A :class:`Refusal` is made where a rule says no (``core``'s errors carry their own code, the
room rules return one, the service raises one) and travels unchanged to the edge that
answers: REST turns it into an HTTP status and a JSON body (:mod:`server.errors`), the
websocket into an ``error`` message. Nothing between translates it.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from core.errors import TetradError

ErrorCode = Literal[
    "bad_request",
    "not_found",
    "method_not_allowed",
    "invalid_move",
    "illegal_move",
    "invalid_options",
    "not_your_turn",
    "opponent_offline",
    "stale_version",
    "move_id_reused",
    "room_not_found",
    "game_not_found",
    "bad_record",
    "analysis_not_found",
    "bad_token",
    "bad_invite",
    "not_allowed",
    "no_request",
    "rate_limited",
    "message_too_large",
    "game_over",
    "busy",
    "challenge_not_found",
    "too_many_games",
    "server_full",
    "unavailable",
    "internal_error",
]
ERROR_CODES: tuple[ErrorCode, ...] = get_args(ErrorCode)


class Refusal(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``details`` (facts
    about the refusal) and ``retry_after`` (seconds, when waiting is what helps)."""

    def __init__(
        self, code: ErrorCode, message: str, *, retry_after: float | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.details = details
        self.retry_after = retry_after

    @classmethod
    def of(cls, error: TetradError) -> Refusal:
        """The refusal a ``core`` error stands for, under the error's own code."""
        code = error.code if error.code in ERROR_CODES else "invalid_move"
        return cls(code, error.reason)

    def body(self) -> dict[str, Any]:
        """The JSON body of this refusal (REST), or the fields of an ``error`` message."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


def unavailable() -> Refusal:
    """What a request that met a storage outage is told (the client retries)."""
    return Refusal("unavailable", "storage is unavailable; retry in a moment", retry_after=1.0)
