"""Rated live games are played out: a bot that leaves one, or stops moving in it, loses it.

In a live room a move needs both players connected, so a bot that disconnects would leave
its opponent waiting for ever, and a bot that stays but never moves the same. Every few
seconds each server process looks at the rated live games going on: a seat whose holder
has not been connected for ``bot_forfeit_seconds`` (the grace period), or whose turn it has
been for that long with nothing happening in the room, resigns, by the server's hand. A
resign that comes second (another process acted first) is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging

from server.bots import ladder
from server.bots.service import IN_PLAY_WINDOW, BotService
from server.refusals import Refusal
from server.rooms.model import Resign

log = logging.getLogger("tetrad.bots")
CHECK_SECONDS = 2.0


class Forfeits:
    def __init__(self, bots: BotService) -> None:
        self.bots = bots
        self.away_since: dict[tuple[str, int], float] = {}
        self.still_since: dict[str, tuple[int, float]] = {}
        """Per room: the version last seen and since when it has not changed."""
        self._checked = 0.0

    async def round(self, now: float) -> None:
        if now - self._checked < CHECK_SECONDS:
            return
        self._checked = now
        grace = self.bots.settings.bot_forfeit_seconds
        if grace <= 0:
            return
        engine = self.bots.engine
        rooms = await asyncio.to_thread(ladder.rated_live_rooms, engine, IN_PLAY_WINDOW)
        keep = set(rooms)
        self.away_since = {k: v for k, v in self.away_since.items() if k[0] in keep}
        self.still_since = {k: v for k, v in self.still_since.items() if k in keep}
        for room_id in rooms:
            try:
                await self._check(room_id, now, grace)
            except Refusal as refusal:  # gone, or over meanwhile
                log.debug("forfeit check", extra={"room": room_id, "code": refusal.code})

    async def _check(self, room_id: str, now: float, grace: float) -> None:
        service = self.bots.rooms
        loaded = await service.repository.reload(room_id)
        room = loaded.room
        if room.game.is_over:
            return
        presence = await service.presence.now(room_id)
        loser: int | None = None
        for seat in (0, 1):
            key = (room_id, seat)
            if presence.connected[seat]:
                self.away_since.pop(key, None)
            elif now - self.away_since.setdefault(key, now) >= grace:
                loser = seat
        version, since = self.still_since.get(room_id, (loaded.version, now))
        if version != loaded.version:
            since = now
        self.still_since[room_id] = (loaded.version, since)
        if loser is None and now - since >= grace:
            loser = room.game.to_move
        if loser is not None:
            log.info("rated live game forfeited", extra={"room": room_id, "seat": loser})
            await service.execute(room_id, None, Resign(), seat=0 if loser == 0 else 1)
