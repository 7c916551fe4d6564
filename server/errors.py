"""Refusals at the HTTP edge: the status each code is answered with, and the code of a
request that does not validate. (The refusals themselves: :mod:`server.refusals`.)"""

from __future__ import annotations

from server.refusals import ErrorCode, Refusal

HTTP_STATUS: dict[ErrorCode, int] = {
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
    "challenge_not_found": 404,
    "too_many_games": 409,
    "server_full": 503,
    "unavailable": 503,
    "internal_error": 500,
}


def http_status(refusal: Refusal) -> int:
    return HTTP_STATUS.get(refusal.code, 400)


def code_for_validation(locations: list[tuple[str | int, ...]], *, tagged: bool) -> ErrorCode:
    """``invalid_move`` when every problem lies inside the ``move`` field (a malformed move),
    ``bad_request`` otherwise. ``tagged``: locations start with the union tag (websocket)."""

    def inside_move(loc: tuple[str | int, ...]) -> bool:
        path = [str(part) for part in loc[1 if tagged else 0 :] if part != "body"]
        return len(path) > 1 and path[0] == "move"

    if locations and all(inside_move(loc) for loc in locations):
        return "invalid_move"
    return "bad_request"
