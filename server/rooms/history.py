"""A room's history, as clients catch up on it: the events after the version a client holds,
or one snapshot when those events cannot bring it up to date.

This is the one place that decides between the two, for the websocket's ``hello`` and
``sync``, REST's ``GET /events``, the catch-up after the subscriber lost its connection and
the events a socket must receive before an ``ack``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from server.protocol import RoomSnapshot


@dataclass(frozen=True, slots=True)
class CatchUp:
    """What brings a client to ``version``: ``events`` (the texts of the event messages after
    the version it holds, oldest first) or, when those do not do it, a ``snapshot``."""

    version: int
    events: tuple[str, ...] = ()
    snapshot: RoomSnapshot | None = None


def events_after(since: int | None, version: int, kept: Sequence[str]) -> tuple[str, ...] | None:
    """The events that take a client from ``since`` to the room's ``version``, given the
    events the room keeps after ``since`` (at most ``version - since``, oldest first); None
    when a snapshot must do it instead: the client holds nothing (``since`` None), holds a
    version the room never had (ahead of it), or some events it missed are no longer kept."""
    if since is None or since > version:
        return None
    missed = version - since
    if len(kept) < missed:
        return None
    return tuple(kept[len(kept) - missed :]) if missed else ()
