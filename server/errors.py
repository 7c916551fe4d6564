"""The one error type of the server: a stable machine-readable code and a human message.

Every refusal, over REST or the websocket, is an :class:`ApiError`; ``server.app`` maps it
to JSON in one place and the websocket endpoint sends the same body as an ``error`` event.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

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
    "server_full",
    "unavailable",
    "internal_error",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)

HTTP_STATUS: dict[str, int] = {
    "bad_request": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "invalid_move": 400,
    "illegal_move": 409,
    "invalid_options": 400,
    "not_your_turn": 409,
    "opponent_offline": 409,
    "stale_version": 409,
    "move_id_reused": 409,
    "room_not_found": 404,
    "game_not_found": 404,
    "bad_record": 400,
    "analysis_not_found": 404,
    "bad_token": 401,
    "bad_invite": 403,
    "not_allowed": 403,
    "no_request": 409,
    "rate_limited": 429,
    "message_too_large": 413,
    "game_over": 409,
    "busy": 409,
    "server_full": 503,
    "unavailable": 503,
    "internal_error": 500,
}


class ApiError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people."""

    def __init__(
        self, code: ErrorCode, message: str, *, retry_after: float | None = None, **details: Any
    ) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.details = details
        self.retry_after = retry_after
        """Seconds before the same request may be taken (``rate_limited``, ``unavailable``)."""

    @property
    def status(self) -> int:
        return HTTP_STATUS.get(self.code, 400)

    def body(self) -> dict[str, Any]:
        """The JSON body sent for this error (REST) or inside an ``error`` event (websocket)."""
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        if self.retry_after is not None:
            body["retry_after"] = self.retry_after
        return body

    def __repr__(self) -> str:
        return f"ApiError({self.code!r}, {self.message!r})"


def unavailable() -> ApiError:
    """What a request that met a storage outage is told (the client retries)."""
    return ApiError("unavailable", "storage is unavailable; retry in a moment", retry_after=1.0)


def code_for_validation(locations: list[tuple[str | int, ...]], *, tagged: bool) -> ErrorCode:
    """``invalid_move`` when every problem lies inside the ``move`` field (a malformed move),
    ``bad_request`` otherwise. ``tagged``: locations start with the union tag (websocket)."""

    def inside_move(loc: tuple[str | int, ...]) -> bool:
        path = [str(part) for part in loc[1 if tagged else 0 :] if part != "body"]
        return len(path) > 1 and path[0] == "move"

    if locations and all(inside_move(loc) for loc in locations):
        return "invalid_move"
    return "bad_request"
