"""A bot account at work: ``tetrad-bot --token TOKEN --listen``.

The bot keeps its event stream open (``GET /api/bots/stream``, server-sent events), takes
the challenges offered to it (or declines those it does not play, ``--only``, saying why),
plays every game that begins for it (a challenge taken by either side, or one the
ladder's matchmaking made), and may post challenges of its own (``--challenge NAME``).
Its own token holds its seats, so it needs no seat token and keeps none.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

from tetrad_client.client import Tetrad, size_options
from tetrad_client.engines import Engine
from tetrad_client.room import Refused, Room, RoomClosed


async def events(http: httpx.AsyncClient, token: str) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """The bot's stream, event by event (the server ends it if the token is revoked)."""
    headers = {"Authorization": f"Bearer {token}"}
    async with http.stream("GET", "/api/bots/stream", headers=headers, timeout=None) as response:
        if response.status_code != 200:
            body = await response.aread()
            raise Refused("bad_token", f"the stream was refused: {body.decode(errors='replace')}")
        kind = ""
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                kind = line.removeprefix("event: ")
            elif line.startswith("data: "):
                yield kind, json.loads(line.removeprefix("data: "))


@dataclass(frozen=True)
class Wanted:
    """A kind of game the bot takes: a game, and perhaps only one board size."""

    game: str
    size: str | None = None
    """As ``--size`` writes it (``5x5``); None: any size."""

    @classmethod
    def parse(cls, text: str) -> Wanted:
        """``boxes``, ``dots`` or ``GAME:SIZE`` (``boxes:5x5``)."""
        game, _, size = text.strip().lower().partition(":")
        if game not in ("boxes", "dots"):
            raise ValueError(f"{text!r}: the game is boxes or dots")
        if size and not re.fullmatch(r"\d+x\d+", size):
            raise ValueError(f"{text!r}: the size is written like 5x5")
        return cls(game, size or None)

    def takes(self, challenge: dict[str, Any]) -> bool:
        if challenge["game"] != self.game:
            return False
        wanted = size_options(self.game, self.size)
        return all(challenge["options"].get(key) == value for key, value in wanted.items())

    def __str__(self) -> str:
        return f"{self.game} {self.size}" if self.size else self.game


ANY_GAME = (Wanted("boxes"), Wanted("dots"))


class Listener:
    """Takes challenges and plays the games of one bot account."""

    def __init__(
        self,
        tetrad: Tetrad,
        token: str,
        engine: Engine,
        play: Callable[[Room, Engine, int], Awaitable[None]],
        *,
        games: int,
        only: tuple[Wanted, ...] = ANY_GAME,
        say: Any = print,
    ) -> None:
        self.tetrad = tetrad
        self.token = token
        self.engine = engine
        self.play = play
        """Plays one game of a room to its end (the runner's loop)."""
        self.games = games
        """Stop after this many games (0: never)."""
        self.only = only
        """The kinds of game taken; other challenges are declined, saying why."""
        self.say = say
        self.playing: dict[str, asyncio.Task[None]] = {}
        self.finished = 0
        self.done = asyncio.Event()

    async def challenge(
        self, to: str | None, game: str, options: dict[str, Any], rated: bool
    ) -> str:
        body = {"game": game, "to": to, "rated": rated, "mode": "live", **options}
        reply = await self.tetrad.request("POST", "/api/challenges", token=self.token, body=body)
        challenge_id: str = reply["challenge"]["id"]
        self.say(f"challenge {challenge_id} to {to or 'anyone'}")
        return challenge_id

    async def run(self) -> None:
        """Listen until the wanted number of games is played (or the stream ends)."""
        reading = asyncio.create_task(self._read())
        stopping = asyncio.create_task(self.done.wait())
        try:
            await asyncio.wait({reading, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if reading.done():
                reading.result()
        finally:
            for task in (reading, stopping, *self.playing.values()):
                task.cancel()

    async def _read(self) -> None:
        async for kind, data in events(self.tetrad.http, self.token):
            if kind == "challenge":
                await self._consider(data)
            elif kind == "game":
                self._start(data["room_id"], data["seat"])
            elif kind == "revoked":
                self.say("stopped: this bot's token was revoked")
                return

    async def _consider(self, challenge: dict[str, Any]) -> None:
        path = f"/api/challenges/{challenge['id']}"
        if not any(wanted.takes(challenge) for wanted in self.only):
            if challenge.get("to"):
                body = {"reason": f"this bot plays only {', '.join(map(str, self.only))}"}
                await self._quietly("POST", f"{path}/decline", body)
            return
        taken = await self._quietly("POST", f"{path}/accept", None)
        if taken is not None:
            self._start(taken["room_id"], taken["seat"])

    async def _quietly(self, method: str, path: str, body: Any) -> Any:
        """A request whose refusal only means someone else was quicker (or a limit)."""
        try:
            return await self.tetrad.request(method, path, token=self.token, body=body)
        except Refused as refused:
            self.say(f"skipped {path}: {refused.code}")
            return None

    def _start(self, room_id: str, seat: int) -> None:
        if room_id in self.playing:
            return
        self.say(f"room {room_id} seat {seat}")
        self.playing[room_id] = asyncio.create_task(self._play(room_id))

    async def _play(self, room_id: str) -> None:
        try:
            async with self.tetrad.connect(room_id, self.token) as room:
                await self.play(room, self.engine, 1)
        except (RoomClosed, Refused) as stopped:
            self.say(f"room {room_id} stopped: {stopped}")
        self.finished += 1
        if self.games and self.finished >= self.games:
            self.done.set()
