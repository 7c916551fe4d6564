"""What bots (and the people who meet them) may do, between the routes and the stores.

Bots authenticate with their account's token; a person needs no account. Challenges are
posted, listed, taken, declined and withdrawn here; taking one makes the room through the
room service with both seats taken. Every room with a bot on a seat is written down for the
ladder (:mod:`server.bots.ladder`), and its end moves the ratings when it was rated.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import Engine

from server.bots import challenges, ladder
from server.bots.accounts import BotAccount, bot_by_token, bot_named, name_key, token_hash
from server.bots.challenges import Challenge
from server.bots.ratings import anchor_player, size_class
from server.bots.streams import BotStreams
from server.refusals import Refusal
from server.rooms.model import Holder, Level, Mode, RoomOptions
from server.rooms.service import Granted, RoomService, new_token
from server.settings import Settings

AUTH_CACHE_SECONDS = 1.0
"""A bot token found valid is believed this long without asking the database again (a
revocation is also caught by the streams' round within half a second)."""
IN_PLAY_WINDOW = timedelta(hours=6)
"""A bot's game counts against its cap on games at once until it ends, or for this long
after it began (a room left unfinished expires; it must not block the bot forever)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """A challenge taken: the room, the taker's seat, and the taker's seat token (None for a
    bot: its own token holds the seat)."""

    challenge: Challenge
    room_id: str
    seat: int
    token: str | None


def player_of(bot: BotAccount | None, name: str | None) -> str:
    """How a seat's holder is named in the ladder's records."""
    if bot is not None:
        return bot.name
    return ladder.PERSON if not name else f"{ladder.PERSON}:{name}"


def board_size(game: str, options: dict[str, Any]) -> str:
    if game == "boxes":
        return size_class(game, int(options["cols"]), int(options["rows"]))
    return size_class(game, int(options["width"]), int(options["height"]))


class BotService:
    def __init__(self, engine: Engine, rooms: RoomService, streams: BotStreams) -> None:
        self.engine = engine
        self.rooms = rooms
        self.streams = streams
        self._known: dict[str, tuple[float, BotAccount]] = {}

    @property
    def settings(self) -> Settings:
        return self.rooms.settings

    async def bot(self, token: str) -> BotAccount:
        """The active bot ``token`` belongs to, or ``bad_token``."""
        hashed = token_hash(token)
        if self.streams.is_revoked(hashed):
            raise Refusal("bad_token", "this bot token was revoked")
        known = self._known.get(hashed)
        if known is not None and time.monotonic() - known[0] < AUTH_CACHE_SECONDS:
            return known[1]
        account = await asyncio.to_thread(bot_by_token, self.engine, token)
        if account is None:
            self._known.pop(hashed, None)
            raise Refusal("bad_token", "not a bot token, or one that was revoked")
        if len(self._known) > 1024:
            self._known.clear()
        self._known[hashed] = (time.monotonic(), account)
        return account

    async def limit(self, bot: BotAccount | None, client: str) -> None:
        """Challenge requests per minute, per bot (or per address, without a bot token)."""
        subject = f"bot:{bot.name}" if bot is not None else f"addr:{client}"
        per_minute = self.settings.bot_requests_per_minute
        await self.rooms.allow("challenges", subject, per_minute, "challenge requests")

    async def _room_to_spare(self, player: str) -> None:
        cap = self.settings.bot_games_at_once
        playing = await asyncio.to_thread(ladder.games_in_play, self.engine, player, IN_PLAY_WINDOW)
        if playing >= cap:
            raise Refusal(
                "too_many_games", f"{player} plays {playing} games already (at most {cap})"
            )

    # -- challenges --------------------------------------------------------------------

    async def post(
        self,
        *,
        bot: BotAccount | None,
        name: str | None,
        game: str,
        options: dict[str, Any],
        mode: Mode,
        rated: bool,
        target: str | None,
        token: str | None,
    ) -> tuple[Challenge, str | None]:
        """Post a challenge; the seat token of a person who posts it comes back (a bot's own
        token will hold its seat)."""
        if rated and bot is None:
            raise Refusal("invalid_options", "only a bot may post a rated challenge")
        if target is not None:
            named = await asyncio.to_thread(ladder_bot, self.engine, target)
            if named is None:
                raise Refusal("not_found", f"there is no bot named {target}")
            if bot is not None and name_key(bot.name) == name_key(target):
                raise Refusal("invalid_options", "a bot cannot challenge itself")
        if bot is not None:
            await self._room_to_spare(bot.name)
        seat_token = None if bot is not None else new_token()
        assert token is not None or seat_token is not None
        lifetime = (
            self.settings.challenge_live_seconds
            if mode == "live"
            else self.settings.challenge_correspondence_seconds
        )
        challenge = await asyncio.to_thread(
            challenges.post,
            self.engine,
            game=game,
            options=options,
            mode=mode,
            rated=rated,
            from_name=bot.name if bot is not None else name,
            from_bot=bot is not None,
            target=None if target is None else name_key(target),
            token_hash=token_hash(seat_token or token or ""),
            lifetime=timedelta(seconds=lifetime),
        )
        return challenge, seat_token

    async def find(self, challenge_id: str) -> Challenge:
        found = await asyncio.to_thread(challenges.get, self.engine, challenge_id)
        if found is None:
            raise Refusal("challenge_not_found", "no such challenge")
        return found

    async def accept(
        self, challenge_id: str, bot: BotAccount | None, token: str | None, name: str | None
    ) -> Taken:
        challenge = await self.find(challenge_id)
        key = None if bot is None else name_key(bot.name)
        if challenge.status != "open" or challenge.expires_at <= challenges.now_utc():
            raise Refusal("challenge_not_found", f"this challenge is {_gone(challenge)}")
        if challenge.target is not None and challenge.target != key:
            raise Refusal("not_allowed", "this challenge is for another bot")
        if bot is not None and token is not None and token_hash(token) == challenge.token_hash:
            raise Refusal("not_allowed", "this is your own challenge")
        if challenge.rated and bot is None:
            raise Refusal("not_allowed", "a rated challenge is for bots")
        if bot is not None:
            await self._room_to_spare(bot.name)
        taker = bot.name if bot is not None else name
        if not await asyncio.to_thread(
            challenges.take, self.engine, challenge.id, taker, bot is not None
        ):
            raise Refusal("challenge_not_found", "someone else took this challenge, or it ended")
        seat_token = None if bot is not None else new_token()
        taker_hash = token_hash(seat_token or token or "")
        asked = RoomOptions(
            game=challenge.game,
            mode="live" if challenge.mode == "live" else "correspondence",
            level="normal",
            first="random",
            options=challenge.options,
            holder=Holder(challenge.from_name, challenge.from_bot),
            guest=Holder(taker, bot is not None),
            rated=challenge.rated,
        )
        try:
            granted = await self.rooms.create(
                asked, None, token_hash=challenge.token_hash, guest_token_hash=taker_hash
            )
        except BaseException:
            await asyncio.to_thread(challenges.release, self.engine, challenge.id)
            raise
        assert granted.seat is not None
        challenger_seat = granted.seat
        await asyncio.to_thread(
            challenges.settle, self.engine, challenge.id, granted.room.id, challenger_seat
        )
        first = player_of(None, challenge.from_name)
        if challenge.from_bot:
            first = challenge.from_name or first
        players = [first, first]
        players[1 - challenger_seat] = player_of(bot, name)
        await self._record(granted, challenge.game, challenge.options, players)
        return Taken(challenge, granted.room.id, 1 - challenger_seat, seat_token)

    async def decline(self, challenge_id: str, bot: BotAccount, reason: str) -> None:
        challenge = await self.find(challenge_id)
        if challenge.target != name_key(bot.name):
            raise Refusal("not_allowed", "only the bot a challenge names may decline it")
        if not await asyncio.to_thread(challenges.decline, self.engine, challenge.id, reason):
            raise Refusal("challenge_not_found", f"this challenge is {_gone(challenge)}")

    async def cancel(self, challenge_id: str, token: str | None) -> None:
        challenge = await self.find(challenge_id)
        if token is None or token_hash(token) != challenge.token_hash:
            raise Refusal("bad_token", "only who posted a challenge may withdraw it")
        if not await asyncio.to_thread(challenges.cancel, self.engine, challenge.id):
            raise Refusal("challenge_not_found", f"this challenge is {_gone(challenge)}")

    # -- rooms with bots ---------------------------------------------------------------

    async def play_computer(
        self,
        bot: BotAccount,
        game: str,
        options: dict[str, Any],
        level: Level,
        rated: bool,
        first: Any,
        *,
        client: str | None,
    ) -> Granted:
        """A computer room whose human seat is the bot's (held by its own token)."""
        await self._room_to_spare(bot.name)
        asked = RoomOptions(
            game=game,
            mode="computer",
            level=level,
            first=first,
            options=options,
            holder=Holder(bot.name, True),
            rated=rated,
        )
        granted = await self.rooms.create(asked, client, token_hash=bot.token_hash)
        assert granted.seat is not None
        players = [bot.name, bot.name]
        players[1 - granted.seat] = anchor_player(level)
        await self._record(granted, game, options, players)
        return granted

    async def _record(
        self, granted: Granted, game: str, options: dict[str, Any], players: list[str]
    ) -> None:
        """Write down a room a bot plays; ``players`` by seat."""
        room = granted.room
        await asyncio.to_thread(
            ladder.record_room,
            self.engine,
            room.id,
            game,
            board_size(game, options),
            room.mode,
            room.rated,
            (players[0], players[1]),
        )


def ladder_bot(engine: Engine, name: str) -> BotAccount | None:
    found = bot_named(engine, name)
    return found if found is not None and found.active else None


def _gone(challenge: Challenge) -> str:
    if challenge.status == "open":
        return "expired"
    return "taken" if challenge.status in ("taking", "accepted") else challenge.status
