"""The refusals a route may answer with, as OpenAPI responses: one per HTTP status, naming
the stable codes behind it, each with the error body every refusal has."""

from __future__ import annotations

from typing import Any

from server.api.schemas import ErrorBody
from server.errors import HTTP_STATUS, ErrorCode

RETRY_AFTER = {
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer"},
    }
}


def refusals(*codes: ErrorCode) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` for a route that may refuse with ``codes``."""
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(HTTP_STATUS[code], []).append(code)
    responses: dict[int | str, dict[str, Any]] = {}
    for status, found in sorted(by_status.items()):
        response: dict[str, Any] = {
            "model": ErrorBody,
            "description": "refused: " + ", ".join(f"`{code}`" for code in found),
        }
        if status in (429, 503):
            response["headers"] = RETRY_AFTER
        responses[status] = response
    return responses
