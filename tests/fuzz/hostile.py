"""Hostile input for the fuzz tests: well-formed messages of the protocol, then broken on
purpose (wrong types, huge numbers, deep nesting, odd unicode, NUL bytes, unknown or missing
fields, truncated JSON, bytes that are not JSON at all). Reproducible from a seed.

Cases that would still be well-formed commands able to change the room (an offer, a resign,
a new game…) are left out: the fuzz run checks that the room is unchanged. Moves stay in:
the room they are sent to refuses every move (a live room whose guest never came)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from server.protocol import MakeMove, Ping, Sync, client_message_adapter

ODD_VALUES: list[Any] = [
    None, True, False, 0, -1, 2**31, 2**63, -(2**64), 10**30, 1e308, -1e-308, 0.5,
    "", "x", "\x00", "\u202e\u0000", "🀄" * 40, "\ud83d", "null", "NaN", "a" * 3000,
    [], {}, [0, 0], [[0, 0], [1, 0]], [[0, 0], [0, 0]], {"line": None}, {"point": "1,2"},
    [[2**70, 0], [0, 0]], [[-1, -1], [-1, 0]],
]  # fmt: skip
"""Values that are wrong somewhere: types, sizes, shapes, encodings."""

TEMPLATES: list[dict[str, Any]] = [
    {"type": "hello", "token": "t", "since": 3},
    {"type": "move", "move": {"line": [[0, 0], [1, 0]]}, "version": 1, "move_id": "m-1"},
    {"type": "move", "move": {"point": [2, 2]}, "version": 1},
    {"type": "offer", "kind": "restart"},
    {"type": "accept", "kind": "end"},
    {"type": "decline", "kind": "undo"},
    {"type": "resign"},
    {"type": "undo"},
    {"type": "hint"},
    {"type": "set_level", "level": "easy"},
    {"type": "new_game", "first": "me"},
    {"type": "sync", "since": 1},
    {"type": "ping", "ref": "p"},
]
HARMLESS = (MakeMove, Ping, Sync)
"""Well-formed commands a case may be: a move (refused in the fuzz room), ping and sync."""


def _nested(depth: int, rng: random.Random) -> Any:
    value: Any = rng.choice(ODD_VALUES[:8])
    for _ in range(depth):
        value = [value] if rng.random() < 0.5 else {"move": value}
    return value


def _mutate(value: Any, rng: random.Random) -> Any:
    """``value`` with one part replaced, removed or added."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        copy = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del copy[key]
        elif roll < 0.25:
            copy[rng.choice(["extra", "\x00", "type ", "Type", "ref" * 30])] = rng.choice(
                ODD_VALUES
            )
        elif roll < 0.6:
            copy[key] = _mutate(copy[key], rng)
        else:
            copy[key] = rng.choice(ODD_VALUES)
        return copy
    if isinstance(value, list) and value and rng.random() < 0.7:
        copy_list = list(value)
        index = rng.randrange(len(copy_list))
        copy_list[index] = _mutate(copy_list[index], rng)
        return copy_list
    roll = rng.random()
    if roll < 0.1:
        return _nested(rng.randrange(10, 400), rng)
    if roll < 0.2 and isinstance(value, int) and not isinstance(value, bool):
        return value + rng.choice([2**64, -(2**64), 10**50])
    return rng.choice(ODD_VALUES)


def _texts(value: Any, rng: random.Random) -> str | bytes:
    """``value`` as a frame: JSON, or JSON broken on purpose."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    if "\ud83d" in text:
        return text.encode("utf-8", "surrogatepass")  # a lone surrogate: invalid UTF-8
    roll = rng.random()
    if roll < 0.1 and len(text) > 1:
        cut = text[: rng.randrange(1, len(text))]  # truncated
        return cut.encode("utf-8", "surrogatepass") if "\ud83d" in cut else cut
    if roll < 0.15:
        return text.replace(":", rng.choice(["", "::", ":\x00", ": NaN,"]), 1)
    if roll < 0.2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    if roll < 0.23:
        return text.encode("utf-16", "surrogatepass")
    if roll < 0.26:
        deep = rng.randrange(100, 2000)
        return rng.choice(
            ["", " ", "null", "[]", "1e999999", "\x00", '"', "{" * deep, "[" * deep + "]" * deep]
        )
    return text


def _changes_the_room(case: str | bytes) -> bool:
    """Whether ``case`` is still a well-formed command other than the harmless ones."""
    try:
        message = client_message_adapter.validate_json(case)
    except (ValidationError, ValueError):
        return False
    return not isinstance(message, HARMLESS)


@dataclass(frozen=True, slots=True)
class Case:
    """One hostile message: where it goes and what it is."""

    target: str
    """``ws``, or a REST endpoint: ``move``, ``action``, ``join``, ``create``."""
    body: str | bytes


REST_TEMPLATES: dict[str, Callable[[], dict[str, Any]]] = {
    "move": lambda: {"move": {"line": [[0, 0], [1, 0]]}, "version": 1, "move_id": "m"},
    "action": lambda: {"type": "resign"},
    "join": lambda: {"invite_code": "not-the-code"},
    "create": lambda: {"game": "boxes", "rows": 3, "cols": 3, "mode": "live", "level": "easy"},
}


def _is_hint(body: str | bytes) -> bool:
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and value.get("type") == "hint"


def cases(seed: int, count: int, ws_share: float = 0.7) -> list[Case]:
    """``count`` hostile cases from ``seed``."""
    rng = random.Random(seed)
    made: list[Case] = []
    while len(made) < count:
        if rng.random() < ws_share:
            template = rng.choice(TEMPLATES)
            body = _texts(_mutate(_mutate(template, rng), rng), rng)
            if _changes_the_room(body) or _is_hint(body):
                continue
            made.append(Case("ws", body))
        else:
            target = rng.choice(list(REST_TEMPLATES))
            # Actions go without a seat token (refused after the body is checked), moves
            # with one (refused: the opponent never came), join without the invite code.
            made.append(Case(target, _texts(_mutate(REST_TEMPLATES[target](), rng), rng)))
    return made
