"""The ladder: ratings per game and board size class, and each player's recent games."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from server.api.bots import BotServiceDep
from server.bots import ladder
from server.bots.ratings import ANCHORS

router = APIRouter(prefix="/api/ladder", tags=["ladder"])
SizeClass = Literal["small", "standard", "large"]


class LadderEntry(BaseModel):
    rank: int
    player: str = Field(description="a bot's name, or `level:easy|normal|hard`")
    computer: bool = Field(description="a computer level: a fixed anchor")
    rating: int
    deviation: int = Field(description="the rating's uncertainty (OpenSkill's sigma)")
    games: int
    wins: int
    draws: int
    losses: int
    games_url: str = Field(description="the player's recent games")


class Ladder(BaseModel):
    game: Literal["boxes", "dots"]
    size_class: SizeClass
    anchors: dict[str, int] = Field(description="the computer levels' fixed ratings")
    entries: list[LadderEntry]


class LadderGame(BaseModel):
    room_id: str
    game_id: str | None = Field(description="the finished game: GET /api/games/{game_id}")
    game: str
    size_class: str
    mode: str
    rated: bool
    players: tuple[str, str] = Field(description="by seat (gold first)")
    winner: int | None
    started_at: datetime
    finished_at: datetime | None


@router.get("/{game}/{size_class}", summary="The ladder of one game and board size class")
async def ladder_table(
    bots: BotServiceDep,
    game: Annotated[Literal["boxes", "dots"], Path()],
    size_class: Annotated[SizeClass, Path()],
) -> Ladder:
    rows = await asyncio.to_thread(ladder.leaderboard, bots.engine, game, size_class)
    entries = [
        LadderEntry(
            rank=index + 1,
            player=row.player,
            computer=row.computer,
            rating=round(row.rating),
            deviation=round(row.sigma),
            games=row.games,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
            games_url=f"/api/ladder/players/{row.player}/games",
        )
        for index, row in enumerate(rows)
    ]
    anchors = {level: round(mu) for level, mu in ANCHORS.items()}
    return Ladder(game=game, size_class=size_class, anchors=anchors, entries=entries)


@router.get("/players/{player}/games", summary="A player's latest finished games")
async def player_games(
    bots: BotServiceDep,
    player: Annotated[str, Path(max_length=40)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> list[LadderGame]:
    games = await asyncio.to_thread(ladder.recent_games, bots.engine, player, limit)
    return [
        LadderGame(
            room_id=g.room_id,
            game_id=g.game_id,
            game=g.game,
            size_class=g.size_class,
            mode=g.mode,
            rated=g.rated,
            players=g.players,
            winner=g.winner,
            started_at=g.started_at,
            finished_at=g.finished_at,
        )
        for g in games
    ]
