"""The ladder's matchmaking: a bot left running climbs or falls by itself.

Every ``ladder_pace_seconds`` one server process (whichever takes the round's lease) pairs
the bots that opted in (``tetrad bots ladder NAME on``), have their stream open and play no
game now: at random two by two, and the one left over against the computer level rated
nearest to it. Each game is rated, on a board drawn from ``ladder_boards``, and both sides
hear of it on their stream as of an accepted challenge (a ``game`` event).
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine

from server.bots import challenges, ladder
from server.bots.accounts import BotAccount, list_bots
from server.bots.challenges import now_utc
from server.bots.ratings import ANCHORS, Skill, anchor_player
from server.bots.service import IN_PLAY_WINDOW, BotService, board_size
from server.bots.streams import CONNECTED_SECONDS
from server.refusals import Refusal
from server.rooms.model import Holder, Level, RoomOptions

log = logging.getLogger("tetrad.bots")
LEASE = "ladder-matchmaking"


@dataclass(frozen=True, slots=True)
class Board:
    game: str
    options: dict[str, Any]


def parse_boards(text: str) -> list[Board]:
    """``boxes:5x5,dots:12x12`` (rows x cols for Dots and Boxes, width x height for Dots)."""
    boards = []
    for item in text.split(","):
        game, _, size = item.strip().partition(":")
        first, _, second = size.partition("x")
        a, b = int(first), int(second)
        if game == "boxes":
            boards.append(Board("boxes", {"rows": a, "cols": b}))
        elif game == "dots":
            boards.append(Board("dots", {"width": a, "height": b, "start": "cross"}))
        else:
            raise ValueError(f"not a board: {item!r} (boxes:RxC or dots:WxH)")
    return boards


def idle_ladder_bots(engine: Engine) -> list[BotAccount]:
    """Opted-in bots with their stream open and no game going on."""
    recent = now_utc() - timedelta(seconds=CONNECTED_SECONDS)
    busy = ladder.busy_players(engine, IN_PLAY_WINDOW)
    return [
        bot
        for bot in list_bots(engine)
        if bot.active
        and bot.ladder
        and bot.seen_at is not None
        and bot.seen_at >= recent
        and bot.name not in busy
    ]


def nearest_level(skill: Skill | None) -> Level:
    mu = Skill().mu if skill is None else skill.mu
    level = min(ANCHORS, key=lambda name: abs(ANCHORS[name] - mu))
    return "easy" if level == "easy" else "normal" if level == "normal" else "hard"


class Matchmaker:
    def __init__(self, bots: BotService, boards: list[Board], owner: str) -> None:
        self.bots = bots
        self.boards = boards
        self.owner = owner
        self.rng = random.Random()

    async def round(self) -> int:
        """Pair the idle opted-in bots once (if this process holds the round); games made."""
        pace = self.bots.settings.ladder_pace_seconds
        leases = self.bots.rooms.stores.leases
        if not await leases.acquire(LEASE, self.owner, max(pace * 0.9, 0.5)):
            return 0
        engine = self.bots.engine
        waiting = await asyncio.to_thread(idle_ladder_bots, engine)
        self.rng.shuffle(waiting)
        made = 0
        while waiting:
            board = self.rng.choice(self.boards)
            first = waiting.pop()
            try:
                if waiting:
                    await self._pair(first, waiting.pop(), board)
                else:
                    await self._against_computer(first, board)
                made += 1
            except Refusal as refusal:
                log.warning("matchmaking failed", extra={"bot": first.name, "code": refusal.code})
        return made

    async def _pair(self, one: BotAccount, two: BotAccount, board: Board) -> None:
        asked = RoomOptions(
            game=board.game,
            mode="live",
            level="normal",
            first="random",
            options=board.options,
            holder=Holder(one.name, True),
            guest=Holder(two.name, True),
            rated=True,
        )
        granted = await self.bots.rooms.create(
            asked, None, token_hash=one.token_hash, guest_token_hash=two.token_hash
        )
        assert granted.seat is not None
        players = [one.name, one.name]
        players[1 - granted.seat] = two.name
        await self._announce(granted.room.id, board, players, one.name, granted.seat, two.name)

    async def _against_computer(self, bot: BotAccount, board: Board) -> None:
        size = board_size(board.game, board.options)
        engine = self.bots.engine
        skill = await asyncio.to_thread(ladder.rating_of, engine, bot.name, board.game, size)
        level = nearest_level(skill)
        asked = RoomOptions(
            game=board.game,
            mode="computer",
            level=level,
            first="random",
            options=board.options,
            holder=Holder(bot.name, True),
            rated=True,
        )
        granted = await self.bots.rooms.create(asked, None, token_hash=bot.token_hash)
        assert granted.seat is not None
        players = [bot.name, bot.name]
        players[1 - granted.seat] = anchor_player(level)
        await self._announce(
            granted.room.id, board, players, bot.name, granted.seat, anchor_player(level)
        )

    async def _announce(
        self,
        room_id: str,
        board: Board,
        players: list[str],
        first: str,
        first_seat: int,
        second: str,
    ) -> None:
        engine = self.bots.engine
        size = board_size(board.game, board.options)
        mode = "computer" if second.startswith("level:") else "live"
        await asyncio.to_thread(
            ladder.record_room,
            engine,
            room_id,
            board.game,
            size,
            mode,
            True,
            (players[0], players[1]),
        )
        await asyncio.to_thread(
            challenges.record_match,
            engine,
            game=board.game,
            options=board.options,
            mode=mode,
            first=first,
            first_seat=first_seat,
            second=second,
            room_id=room_id,
        )
