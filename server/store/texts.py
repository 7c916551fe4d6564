"""Redis replies as text: the clients return bytes unless told otherwise."""

from __future__ import annotations

from typing import Any


def text(value: Any) -> str | None:
    return value.decode() if isinstance(value, bytes) else value


def texts(values: list[Any]) -> list[str]:
    return [value.decode() if isinstance(value, bytes) else value for value in values]
