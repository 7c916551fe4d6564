"""SQLModel table models (kept apart from the wire schemas in ``server.api.schemas``)."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class FinishedGameRow(SQLModel, table=True):
    __tablename__ = "finished_games"

    id: str = Field(primary_key=True, max_length=64, description="{room_id}-{game_number}")
    room_id: str = Field(index=True, max_length=32)
    game: str = Field(max_length=16)
    mode: str = Field(max_length=16)
    game_number: int
    winner: int | None = None
    reason: str = Field(max_length=16)
    score0: int
    score1: int
    record: str = Field(description="the replayable game record, JSON")
    finished_at: datetime
    daily: date | None = Field(default=None, index=True)
    computer_seat: int | None = Field(default=None, description="the computer's seat, if any")
    level: str | None = Field(default=None, max_length=16, description="the computer's level")


class DailyResultRow(SQLModel, table=True):
    __tablename__ = "daily_results"
    __table_args__ = (UniqueConstraint("day", "player", name="uq_daily_results_day_player"),)

    id: int | None = Field(default=None, primary_key=True)
    day: date = Field(index=True)
    game_id: str = Field(unique=True, max_length=64)
    score: int = Field(description="boxes the human took")
    opponent_score: int
    finished_at: datetime
    player: str | None = Field(
        default=None, max_length=64, description="hash of the browser's anonymous id"
    )


class AnalysisRow(SQLModel, table=True):
    """The computer's analysis of a record, cached: the same moves are analysed once."""

    __tablename__ = "analyses"

    id: str = Field(primary_key=True, max_length=64, description="hash of the record's moves")
    game: str = Field(max_length=16)
    record: str = Field(description="the JSON record analysed")
    status: str = Field(max_length=16, description="running, done or failed")
    done: int
    total: int
    positions: str = Field(description="JSON list of the analysed positions")
    updated_at: datetime = Field(description="last progress: a stale running row is restarted")


class BotRow(SQLModel, table=True):
    """A bot account the operator issued (``tetrad bots add``): its token is kept hashed."""

    __tablename__ = "bots"

    name: str = Field(primary_key=True, max_length=32, description="as the operator wrote it")
    name_key: str = Field(unique=True, max_length=32, description="the name, compared alike")
    token_hash: str = Field(unique=True, max_length=64, description="SHA-256 of the token")
    created_at: datetime
    revoked_at: datetime | None = Field(default=None, index=True)
    ladder: bool = Field(default=False, description="opted in to matchmaking")
    seen_at: datetime | None = Field(
        default=None, description="last sign of life of its challenge stream"
    )


class ChallengeRow(SQLModel, table=True):
    """An open game offered by a bot or a person, until taken, declined, withdrawn or
    expired."""

    __tablename__ = "challenges"

    id: str = Field(primary_key=True, max_length=24)
    game: str = Field(max_length=16)
    options: str = Field(description="the board's options, JSON")
    mode: str = Field(max_length=16, description="live or correspondence")
    rated: bool = False
    from_name: str | None = Field(default=None, max_length=32)
    from_bot: bool = False
    token_hash: str = Field(max_length=64, description="the challenger's seat token, hashed")
    target: str | None = Field(
        default=None, max_length=32, index=True, description="one bot's name key; null: anyone"
    )
    status: str = Field(max_length=16, index=True)
    reason: str | None = Field(default=None, max_length=200)
    room_id: str | None = Field(default=None, max_length=32)
    seat: int | None = Field(default=None, description="the challenger's seat in the room")
    taker_name: str | None = Field(default=None, max_length=32)
    taker_bot: bool = False
    created_at: datetime
    expires_at: datetime = Field(index=True)
    updated_at: datetime = Field(index=True)


class BotGameRow(SQLModel, table=True):
    """A room a bot plays in: for the cap on games at once, the ladder's recent games and
    the rating update when its game ends."""

    __tablename__ = "bot_games"

    room_id: str = Field(primary_key=True, max_length=32)
    game: str = Field(max_length=16)
    size_class: str = Field(max_length=16)
    mode: str = Field(max_length=16)
    rated: bool = False
    player0: str = Field(max_length=40, index=True, description="a bot's name or level:NAME")
    player1: str = Field(max_length=40, index=True)
    started_at: datetime
    finished_at: datetime | None = Field(default=None, index=True)
    winner: int | None = None
    game_id: str | None = Field(default=None, max_length=64, description="the finished game")


class RatingRow(SQLModel, table=True):
    """A player's rating on one game and board size class (OpenSkill's mu and sigma)."""

    __tablename__ = "ratings"

    player: str = Field(primary_key=True, max_length=40, description="a bot's name key")
    game: str = Field(primary_key=True, max_length=16)
    size_class: str = Field(primary_key=True, max_length=16)
    mu: float
    sigma: float
    games: int = 0
    wins: int = 0
    draws: int = 0
    updated_at: datetime


class ColdRoomRow(SQLModel, table=True):
    """A room that left Redis after a long idle time (:mod:`server.store.cold_rooms`), as
    its keys were there: it goes back on its next visit."""

    __tablename__ = "cold_rooms"

    room_id: str = Field(primary_key=True, max_length=32)
    version: int = Field(description="the room's version when it left Redis")
    snapshot: str = Field(description="the room's keys as JSON made by Lua, compressed")
    stored_at: datetime
