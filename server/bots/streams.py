"""The bots' event streams of one server process, and what it learns from the database.

A bot keeps one stream open (server-sent events, ``GET /api/bots/stream``). Challenges
live in the database, which every process shares, so each process looks at what changed
there a few times a second (:meth:`BotStreams.round`) and tells its own streams: a new
challenge a bot may take, a challenge it was offered that went away, a game it plays that
began. The same round notices revoked tokens: it ends their streams and room websockets on
this process at once, and from then on the token holds no seat (see
:meth:`BotStreams.is_revoked`), and it notes which bots are connected (``seen_at``), and
which left: a bot whose last stream here closed is no longer shown connected from the next
round (another process that still has one of its streams marks it again within
``SEEN_SECONDS``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from server.bots import challenges
from server.bots.accounts import mark_gone, mark_seen, name_key
from server.bots.challenges import Challenge
from server.db.models import BotRow

log = logging.getLogger("tetrad.bots")

ROUND_SECONDS = 0.5
"""How often a process looks for changed challenges and revoked tokens."""
SEEN_SECONDS = 5.0
"""How often a process writes down which bots have a stream open here."""
CONNECTED_SECONDS = 20.0
"""A bot whose stream was seen this recently is connected (four rounds of ``seen_at``)."""
KEEPALIVE_SECONDS = 15.0
"""A comment line this often keeps proxies from closing an idle stream."""
OVERLAP = timedelta(seconds=2)
"""Each round reads the changes since a little before the last one (clocks of processes
writing the database differ a little); what was told already is not told again."""


def sse(event: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def challenge_view(challenge: Challenge) -> dict[str, Any]:
    return {
        "id": challenge.id,
        "game": challenge.game,
        "options": challenge.options,
        "mode": challenge.mode,
        "rated": challenge.rated,
        "from": {"name": challenge.from_name, "bot": challenge.from_bot},
        "to": challenge.target,
        "status": challenge.status,
        "reason": challenge.reason,
        "room_id": challenge.room_id,
        "expires_at": challenge.expires_at.isoformat(),
    }


@dataclass(eq=False)
class Listener:
    """One open stream: the bot's name, its token's hash, the events waiting to be sent."""

    name: str
    token_hash: str
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    offered: set[str] = field(default_factory=set)
    """Challenges this stream was told of that are still open."""

    @property
    def key(self) -> str:
        return name_key(self.name)

    def send(self, event: str, data: dict[str, Any]) -> None:
        self.queue.put_nowait(sse(event, data))

    def end(self) -> None:
        self.queue.put_nowait(None)


class BotStreams:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.listeners: set[Listener] = set()
        self.sockets: dict[str, set[Callable[[], None]]] = {}
        """Closers of this process's room websockets, by the hash of the bot token that
        opened them."""
        self.revoked: set[str] = set()
        self._told: dict[tuple[str, str], datetime] = {}
        self._since: datetime | None = None
        self._seen_at = 0.0
        self._left: set[str] = set()
        """Bots whose last stream on this process closed since the last round."""

    def is_revoked(self, token_hash: str) -> bool:
        return token_hash in self.revoked

    # -- streams and sockets -----------------------------------------------------------

    async def open(self, name: str, token_hash: str) -> Listener:
        """A new stream of bot ``name``: told at once of every open challenge it may take."""
        listener = Listener(name, token_hash)
        self.listeners.add(listener)
        for challenge in await asyncio.to_thread(challenges.open_ones, self.engine):
            if challenge.for_bot(listener.key):
                listener.offered.add(challenge.id)
                listener.send("challenge", challenge_view(challenge))
        await asyncio.to_thread(mark_seen, self.engine, [name])
        return listener

    def close(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        self._left.add(listener.name)

    def connected(self) -> set[str]:
        return {listener.name for listener in self.listeners}

    def watch_socket(self, token_hash: str, closer: Callable[[], None]) -> Callable[[], None]:
        """Remember a room websocket opened with a bot token; returns its forgetter."""
        self.sockets.setdefault(token_hash, set()).add(closer)

        def forget() -> None:
            held = self.sockets.get(token_hash)
            if held is not None:
                held.discard(closer)
                if not held:
                    del self.sockets[token_hash]

        return forget

    # -- the round ---------------------------------------------------------------------

    async def round(self, now: float) -> None:
        """Look at the database once: revocations, and for open streams expiries and changed
        challenges (a server no bot listens to writes nothing: lists read expiry times)."""
        revoked, changed = await asyncio.to_thread(self._read, bool(self.listeners))
        self._revoke(revoked)
        for challenge in changed:
            self._tell(challenge)
        if now - self._seen_at >= SEEN_SECONDS and self.listeners:
            self._seen_at = now
            await asyncio.to_thread(mark_seen, self.engine, sorted(self.connected()))
        left, self._left = self._left - self.connected(), set()
        if left:
            await asyncio.to_thread(mark_gone, self.engine, sorted(left))

    def _read(self, streams_open: bool) -> tuple[set[str], list[Challenge]]:
        with Session(self.engine) as session:
            query = select(BotRow.token_hash).where(col(BotRow.revoked_at).is_not(None))
            revoked = set(session.exec(query).all())
        if not streams_open:
            self._since = None  # a stream that opens is told of every open challenge at once
            return revoked, []
        challenges.expire(self.engine)
        now = challenges.now_utc()
        since = self._since if self._since is not None else now
        self._since = now
        changed = challenges.changed_since(self.engine, since - OVERLAP)
        cutoff = now - 2 * OVERLAP
        self._told = {key: at for key, at in self._told.items() if at >= cutoff}
        fresh = []
        for challenge in changed:
            key = (challenge.id, challenge.status)
            if key not in self._told:
                self._told[key] = challenge.updated_at
                fresh.append(challenge)
        return revoked, fresh

    def _revoke(self, revoked: set[str]) -> None:
        new = revoked - self.revoked
        self.revoked = revoked
        for token_hash in new:
            for listener in [x for x in self.listeners if x.token_hash == token_hash]:
                log.info("bot token revoked: stream ended", extra={"bot": listener.name})
                listener.send("revoked", {"message": "this bot's token was revoked"})
                listener.end()
                self.listeners.discard(listener)
            for closer in list(self.sockets.pop(token_hash, ())):
                closer()

    def _tell(self, challenge: Challenge) -> None:
        for listener in list(self.listeners):
            key = listener.key
            if challenge.status == "open" and challenge.for_bot(key):
                if challenge.id not in listener.offered:
                    listener.offered.add(challenge.id)
                    listener.send("challenge", challenge_view(challenge))
                continue
            if challenge.status in challenges.FINAL and challenge.id in listener.offered:
                listener.offered.discard(challenge.id)
                view = {"id": challenge.id, "status": challenge.status}
                if challenge.reason:
                    view["reason"] = challenge.reason
                listener.send("challenge_gone", view)
            if challenge.status == "accepted" and challenge.seat is not None:
                mine = challenge.from_bot and name_key(challenge.from_name or "") == key
                took = challenge.taker_bot and name_key(challenge.taker_name or "") == key
                if mine or took:
                    seat = challenge.seat if mine else 1 - challenge.seat
                    listener.send(
                        "game",
                        {
                            "room_id": challenge.room_id,
                            "seat": seat,
                            "challenge": challenge.id,
                            "game": challenge.game,
                            "mode": challenge.mode,
                            "rated": challenge.rated,
                        },
                    )
