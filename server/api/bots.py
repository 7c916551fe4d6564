"""Bot accounts over HTTP: who is there (``GET /api/bots``), who am I, and the stream of
challenges and games a bot listens to (server-sent events)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from server.api.deps import TokenDep
from server.api.refusals import refusals
from server.bots import ladder
from server.bots.accounts import TOKEN_PREFIX, BotAccount, list_bots
from server.bots.challenges import now_utc
from server.bots.service import BotService
from server.bots.streams import CONNECTED_SECONDS, KEEPALIVE_SECONDS
from server.refusals import Refusal

router = APIRouter(prefix="/api/bots", tags=["bots"])


async def get_bots(request: Request) -> BotService:
    bots: BotService = request.app.state.bots
    return bots


BotServiceDep = Annotated[BotService, Depends(get_bots)]


async def bot_or_none(bots: BotServiceDep, token: TokenDep) -> BotAccount | None:
    """The bot whose token came, or None when none did or it is a seat token."""
    if token is None or not token.startswith(TOKEN_PREFIX):
        return None
    return await bots.bot(token)


async def required_bot(bot: Annotated[BotAccount | None, Depends(bot_or_none)]) -> BotAccount:
    if bot is None:
        raise Refusal("bad_token", "send the bot's token as `Authorization: Bearer <token>`")
    return bot


MaybeBotDep = Annotated[BotAccount | None, Depends(bot_or_none)]
BotDep = Annotated[BotAccount, Depends(required_bot)]


class BotView(BaseModel):
    name: str
    connected: bool = Field(description="its challenge stream is open now")
    ladder: bool = Field(description="opted in to the ladder's matchmaking")
    ratings: dict[str, float] = Field(
        description="its ratings by `game/size_class` (`boxes/standard`); none before its "
        "first rated game"
    )


def _view(bot: BotAccount, ratings: dict[str, dict[str, float]]) -> BotView:
    recent = now_utc() - timedelta(seconds=CONNECTED_SECONDS)
    return BotView(
        name=bot.name,
        connected=bot.seen_at is not None and bot.seen_at >= recent,
        ladder=bot.ladder,
        ratings={key: round(value, 1) for key, value in ratings.get(bot.name, {}).items()},
    )


@router.get("", summary="The bots of this server, connected ones first")
async def bots_list(bots: BotServiceDep) -> list[BotView]:
    def read() -> list[BotView]:
        active = [bot for bot in list_bots(bots.engine) if bot.active]
        ratings = ladder.ratings_of(bots.engine, [bot.name for bot in active])
        return [_view(bot, ratings) for bot in active]

    views = await asyncio.to_thread(read)
    return sorted(views, key=lambda view: (not view.connected, view.name.lower()))


@router.get("/me", summary="Your bot account", responses=refusals("bad_token"))
async def bot_me(bots: BotServiceDep, bot: BotDep) -> BotView:
    ratings = await asyncio.to_thread(ladder.ratings_of, bots.engine, [bot.name])
    return _view(bot, ratings)


@router.get(
    "/stream",
    summary="Your challenges and games as they come (server-sent events)",
    responses={
        **refusals("bad_token"),
        200: {"content": {"text/event-stream": {}}, "description": "the event stream"},
    },
    response_class=StreamingResponse,
)
async def bot_stream(bots: BotServiceDep, bot: BotDep) -> StreamingResponse:
    listener = await bots.streams.open(bot.name, bot.token_hash)

    async def events() -> AsyncIterator[str]:
        try:
            yield ": tetrad bot stream\n\n"
            while True:
                try:
                    text = await asyncio.wait_for(listener.queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield ": keepalive\n\n"
                    continue
                if text is None:
                    return
                yield text
        finally:
            bots.streams.close(listener)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(events(), media_type="text/event-stream", headers=headers)
