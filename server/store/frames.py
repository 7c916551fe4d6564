"""The messages of a room's pub/sub channel: a short head and the JSON text, unchanged.

Readers route on the head (``kind:version:``, or ``event:version/ms:`` for an event stamped
with its commit time) and forward the text untouched, without parsing it.
"""

from __future__ import annotations

from dataclasses import dataclass

FRAME_KINDS = ("event", "presence", "control")


def frame_head(kind: str, version: int, committed_ms: int | None = None) -> str:
    """The head of a pub/sub message."""
    stamp = "" if committed_ms is None else f"/{committed_ms}"
    return f"{kind}:{version}{stamp}:"


def frame(kind: str, version: int, text: str) -> str:
    """A pub/sub message: its head and the JSON text."""
    return frame_head(kind, version) + text


@dataclass(frozen=True, slots=True)
class Frame:
    kind: str
    version: int
    text: str
    committed: float | None = None
    """When the event was committed (seconds since the epoch), if stamped."""


def parse_frame(data: bytes | str) -> Frame | None:
    text = data.decode() if isinstance(data, bytes) else data
    kind, _, rest = text.partition(":")
    head, _, body = rest.partition(":")
    version, _, stamp = head.partition("/")
    if kind not in FRAME_KINDS or not version.isdigit() or not (stamp or "0").isdigit():
        return None
    return Frame(kind, int(version), body, int(stamp) / 1000 if stamp else None)
