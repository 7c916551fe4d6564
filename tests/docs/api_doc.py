"""Reading the runnable examples of a Markdown guide.

Every fenced ``sh`` or ``json`` block of a guide carries, on the line before it, an HTML
comment that says what the block is (invisible when the page is shown):

* ``<!-- run -->`` before ``sh``: shell commands, run in order in one shell where ``$SERVER``
  is the live server. ``<!-- run; keep NAME=field … -->`` then sets shell variables from
  fields of the JSON the block printed last; ``<!-- run; until field=value -->`` (or ``until
  field``) runs the block again until its JSON says so (waiting on the server's state).
* ``<!-- reply Model -->`` before ``json``: the reply of the run before it, shown as an
  example; the real reply and the example must both be a ``Model`` and have the same shape.
* ``<!-- send -->`` before ``json``: client messages, one per line, sent over a websocket.
* ``<!-- message Model -->`` before ``json``: a server message, compared with real ones.

``text`` blocks (grammar, sample records) carry no marker and are not run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FENCE = re.compile(r"^```(\w*)\s*$")
MARKER = re.compile(r"^<!--\s*(.*?)\s*-->$")


@dataclass(frozen=True)
class Block:
    language: str
    body: str
    line: int
    marker: str | None

    @property
    def verb(self) -> str:
        return (self.marker or "").split(";")[0].split()[0] if self.marker else ""

    @property
    def argument(self) -> str:
        words = (self.marker or "").split(";")[0].split()
        return words[1] if len(words) > 1 else ""

    def options(self, name: str) -> list[str]:
        """The words after ``name`` in the marker's ``; name …`` part."""
        for part in (self.marker or "").split(";")[1:]:
            words = part.split()
            if words and words[0] == name:
                return words[1:]
        return []


@dataclass
class Guide:
    path: Path
    blocks: list[Block] = field(default_factory=list)


def read_guide(path: Path) -> Guide:
    lines = path.read_text(encoding="utf-8").splitlines()
    guide = Guide(path)
    index = 0
    while index < len(lines):
        opened = FENCE.match(lines[index])
        if not opened:
            index += 1
            continue
        language = opened.group(1)
        before = next((lines[i] for i in range(index - 1, -1, -1) if lines[i].strip()), "")
        found = MARKER.match(before.strip())
        end = index + 1
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = "\n".join(lines[index + 1 : end])
        guide.blocks.append(Block(language, body, index + 1, found.group(1) if found else None))
        index = end + 1
    return guide


def json_values(text: str) -> list[Any]:
    """Every JSON value in ``text``, in order (curl prints them back to back)."""
    decoder = json.JSONDecoder()
    values, index = [], 0
    while True:
        while index < len(text) and text[index].isspace():
            index += 1
        if index >= len(text):
            return values
        value, index = decoder.raw_decode(text, index)
        values.append(value)


def shape_differences(example: Any, actual: Any, where: str = "") -> list[str]:
    """How the shape of ``actual`` differs from ``example``'s: the same keys in every object,
    the same JSON types (null stands for any), lists compared by their first items."""
    if example is None or actual is None:
        return []
    if isinstance(example, dict) != isinstance(actual, dict):
        return [f"{where or '.'}: {type(example).__name__} vs {type(actual).__name__}"]
    if isinstance(example, dict):
        found = []
        if set(example) != set(actual):
            missing, extra = set(actual) - set(example), set(example) - set(actual)
            found.append(f"{where or '.'}: keys the example lacks {sorted(missing)}, "
                         f"has in excess {sorted(extra)}")  # fmt: skip
        for key in set(example) & set(actual):
            found += shape_differences(example[key], actual[key], f"{where}.{key}")
        return found
    if isinstance(example, list) != isinstance(actual, list):
        return [f"{where}: {type(example).__name__} vs {type(actual).__name__}"]
    if isinstance(example, list):
        if example and actual:
            return shape_differences(example[0], actual[0], f"{where}[0]")
        return []
    kinds = (bool, int | float, str)
    for kind in kinds:
        if isinstance(example, kind) or isinstance(actual, kind):
            if not (isinstance(example, kind) and isinstance(actual, kind)):
                return [f"{where}: {example!r} vs {actual!r}"]
            if kind is not bool and (isinstance(example, bool) or isinstance(actual, bool)):
                return [f"{where}: {example!r} vs {actual!r}"]
            return []
    return []
