"""Open challenges: post, list, read, take, decline, withdraw."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Response
from pydantic import BaseModel, Field

from server.api.bots import BotServiceDep, MaybeBotDep
from server.api.deps import ClientAddressDep, TokenDep
from server.api.refusals import refusals
from server.api.schemas import DisplayName
from server.bots.accounts import token_hash
from server.bots.challenges import Challenge, now_utc, open_ones
from server.bots.streams import challenge_view
from server.protocol import Seat, Strict
from server.refusals import ErrorCode, Refusal

router = APIRouter(prefix="/api/challenges", tags=["challenges"])
ChallengeId = Annotated[str, Path(max_length=24, description="challenge id")]


class ChallengeBase(Strict):
    mode: Literal["live", "correspondence"] = "live"
    rated: bool = Field(
        default=False, description="counts for the ladder: bots only, taken by a bot"
    )
    to: str | None = Field(
        default=None, max_length=24, description="one bot's name; null: anyone may take it"
    )
    name: DisplayName | None = None


class BoxesChallenge(ChallengeBase):
    game: Literal["boxes"]
    rows: int = Field(default=5, ge=1, le=10)
    cols: int = Field(default=5, ge=1, le=10)


class DotsChallenge(ChallengeBase):
    game: Literal["dots"]
    width: int = Field(default=20, ge=5, le=60)
    height: int = Field(default=20, ge=5, le=60)
    start: Literal["empty", "cross", "four_crosses"] = "empty"


NewChallenge = Annotated[BoxesChallenge | DotsChallenge, Field(discriminator="game")]


class Challenger(BaseModel):
    name: str | None
    bot: bool


class ChallengeView(BaseModel):
    id: str
    game: Literal["boxes", "dots"]
    options: dict[str, Any] = Field(description="the board: rows and cols, or width, height, start")
    mode: Literal["live", "correspondence"]
    rated: bool
    from_: Challenger = Field(alias="from", serialization_alias="from")
    to: str | None = Field(description="the one bot that may take it; null: anyone")
    status: Literal["open", "taking", "accepted", "declined", "cancelled", "expired"]
    reason: str | None = Field(description="why it was declined")
    room_id: str | None = Field(description="once accepted: the room")
    seat: Seat | None = Field(
        default=None, description="once accepted, to who posted it: their seat"
    )
    expires_at: datetime


class PostedChallenge(BaseModel):
    challenge: ChallengeView
    token: str | None = Field(
        description="a person's seat token for the game (and the key to withdraw the "
        "challenge); null for a bot, whose own token holds its seat"
    )


class AcceptBody(Strict):
    name: DisplayName | None = None


class DeclineBody(Strict):
    reason: str = Field(default="declined", min_length=1, max_length=200)


class Accepted(BaseModel):
    room_id: str
    seat: Seat
    token: str | None = Field(
        description="a person's seat token; null for a bot (its own token holds the seat)"
    )


def view(challenge: Challenge, token: str | None = None) -> ChallengeView:
    status = "expired" if _expired(challenge) else challenge.status
    mine = token is not None and token_hash(token) == challenge.token_hash
    seat = challenge.seat if mine else None
    return ChallengeView.model_validate(
        {**challenge_view(challenge), "status": status, "seat": seat}
    )


def _expired(challenge: Challenge) -> bool:
    return challenge.status == "open" and challenge.expires_at <= now_utc()


CHALLENGE_REFUSALS: tuple[ErrorCode, ...] = (
    "bad_request",
    "bad_token",
    "rate_limited",
    "unavailable",
)


@router.post(
    "",
    status_code=201,
    summary="Post a challenge",
    responses=refusals(*CHALLENGE_REFUSALS, "invalid_options", "not_found", "too_many_games"),
)
async def post_challenge(
    bots: BotServiceDep,
    bot: MaybeBotDep,
    token: TokenDep,
    client: ClientAddressDep,
    body: Annotated[NewChallenge, Body()],
) -> PostedChallenge:
    await bots.limit(bot, client)
    if isinstance(body, BoxesChallenge):
        options: dict[str, Any] = {"rows": body.rows, "cols": body.cols}
    else:
        options = {"width": body.width, "height": body.height, "start": body.start}
    challenge, seat_token = await bots.post(
        bot=bot,
        name=body.name,
        game=body.game,
        options=options,
        mode=body.mode,
        rated=body.rated,
        target=body.to,
        token=token,
    )
    return PostedChallenge(challenge=view(challenge), token=seat_token)


@router.get("", summary="Open challenges, newest first")
async def list_challenges(bots: BotServiceDep, bot: MaybeBotDep) -> list[ChallengeView]:
    found = await asyncio.to_thread(open_ones, bots.engine)
    if bot is not None:
        key = bot.name.lower()
        found = [c for c in found if c.for_bot(key) or c.from_name == bot.name]
    else:
        found = [c for c in found if c.target is None]
    return [view(challenge) for challenge in found]


@router.get(
    "/{challenge_id}",
    summary="One challenge (with your seat, once accepted, if you posted it)",
    responses=refusals("bad_request", "challenge_not_found"),
)
async def read_challenge(
    bots: BotServiceDep, token: TokenDep, challenge_id: ChallengeId
) -> ChallengeView:
    return view(await bots.find(challenge_id), token)


@router.delete(
    "/{challenge_id}",
    status_code=204,
    summary="Withdraw your challenge",
    responses=refusals(*CHALLENGE_REFUSALS, "challenge_not_found"),
)
async def cancel_challenge(
    bots: BotServiceDep,
    bot: MaybeBotDep,
    token: TokenDep,
    client: ClientAddressDep,
    challenge_id: ChallengeId,
) -> Response:
    await bots.limit(bot, client)
    await bots.cancel(challenge_id, token)
    return Response(status_code=204)


@router.post(
    "/{challenge_id}/accept",
    summary="Take a challenge: the room is made with both seats taken",
    responses=refusals(*CHALLENGE_REFUSALS, "challenge_not_found", "not_allowed", "too_many_games"),
)
async def accept_challenge(
    bots: BotServiceDep,
    bot: MaybeBotDep,
    token: TokenDep,
    client: ClientAddressDep,
    challenge_id: ChallengeId,
    body: Annotated[AcceptBody | None, Body()] = None,
) -> Accepted:
    await bots.limit(bot, client)
    taken = await bots.accept(challenge_id, bot, token, None if body is None else body.name)
    return Accepted(room_id=taken.room_id, seat=taken.seat, token=taken.token)


@router.post(
    "/{challenge_id}/decline",
    summary="Decline a challenge addressed to you, with a reason",
    responses=refusals(*CHALLENGE_REFUSALS, "challenge_not_found", "not_allowed"),
)
async def decline_challenge(
    bots: BotServiceDep,
    bot: MaybeBotDep,
    client: ClientAddressDep,
    challenge_id: ChallengeId,
    body: Annotated[DeclineBody | None, Body()] = None,
) -> ChallengeView:
    if bot is None:
        raise Refusal("bad_token", "only a bot declines; send its token")
    await bots.limit(bot, client)
    await bots.decline(challenge_id, bot, "declined" if body is None else body.reason)
    return view(await bots.find(challenge_id))
