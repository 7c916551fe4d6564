"""The REST side of tetrad: create, join and read rooms, and open a room's websocket."""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import urlsplit

import httpx

from tetrad_client import models
from tetrad_client.room import Pacer, Refused, Room


def size_options(game: str, size: str | None) -> dict[str, int]:
    """A board size as ``--size`` writes it (``5x5``) in the options of a room or challenge:
    ``rows`` and ``cols`` of boxes, or ``width`` and ``height`` in points for Dots."""
    if size is None:
        return {}
    first, _, second = size.lower().partition("x")
    a, b = int(first), int(second)
    return {"rows": a, "cols": b} if game == "boxes" else {"width": a, "height": b}


def parse_invite(url: str) -> tuple[str, str, str]:
    """The server, room id and invite code of an invite link
    (``https://host/r/<room>#invite=<code>``)."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    fragment = dict(item.split("=", 1) for item in parts.fragment.split("&") if "=" in item)
    if len(path) < 2 or path[-2] != "r" or "invite" not in fragment:
        raise ValueError(f"not an invite link: {url!r}")
    prefix = "/".join(path[:-2])
    return f"{parts.scheme}://{parts.netloc}{prefix}", path[-1], fragment["invite"]


class Tetrad:
    """A tetrad server: ``async with Tetrad("http://127.0.0.1:8000") as tetrad: ...``.

    REST calls that are refused raise :class:`Refused` with the error's stable ``code``; one
    refused ``rate_limited`` (429) is tried again after its ``Retry-After``.
    """

    def __init__(self, server: str, *, http: httpx.AsyncClient | None = None) -> None:
        self.server = server.rstrip("/")
        self.http = http or httpx.AsyncClient(base_url=self.server, timeout=30)
        self.pacer = Pacer()

    @property
    def ws_url(self) -> str:
        return "ws" + self.server.removeprefix("http")

    async def __aenter__(self) -> Tetrad:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def request(
        self, method: str, path: str, *, token: str | None = None, body: Any = None
    ) -> Any:
        """One REST call; its JSON reply, or Refused."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        while True:
            response = await self.http.request(method, path, json=body, headers=headers)
            if response.status_code < 400:
                return response.json()
            try:
                error = models.ErrorBody.model_validate_json(response.content)
            except ValueError:
                raise Refused("http_error", f"{response.status_code}: {response.text}") from None
            if error.code == "rate_limited":
                await asyncio.sleep(
                    error.retry_after or float(response.headers.get("Retry-After", 1))
                )
                continue
            raise Refused(error.code, error.message, error.details, error.retry_after)

    async def create_room(
        self, game: str = "boxes", *, token: str | None = None, **options: Any
    ) -> models.SeatGrant:
        """A new room (the options of ``POST /api/rooms``: ``mode``, ``rows``, ``cols``,
        ``width``, ``height``, ``start``, ``level``, ``first``, ...); you hold seat ``seat``.
        With a bot account's ``token``, the bot's own token holds the seat (``token`` of the
        answer is None) and ``rated`` may be asked for against the computer."""
        body = {"game": game, **{k: v for k, v in options.items() if v is not None}}
        reply = await self.request("POST", "/api/rooms", token=token, body=body)
        return models.SeatGrant.model_validate(reply)

    async def join(
        self, room_id: str, invite_code: str | None = None, *, token: str | None = None
    ) -> models.SeatGrant:
        """Take the free seat with the invite code, or watch once both are taken (``role``
        spectator); with your ``token``, your own seat again."""
        body = {"invite_code": invite_code} if invite_code else {}
        reply = await self.request("POST", f"/api/rooms/{room_id}/join", token=token, body=body)
        return models.SeatGrant.model_validate(reply)

    async def room(self, room_id: str, token: str | None = None) -> models.RoomStateResponse:
        reply = await self.request("GET", f"/api/rooms/{room_id}", token=token)
        return models.RoomStateResponse.model_validate(reply)

    def connect(self, room_id: str, token: str | None = None, **options: Any) -> Room:
        """The room's websocket (``async with tetrad.connect(room, token) as room``); no
        token: watch as a spectator."""
        return Room(self.ws_url, room_id, token, **options)
