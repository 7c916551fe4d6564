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


class ColdRoomRow(SQLModel, table=True):
    """A room that left Redis after a long idle time (:mod:`server.store.cold_rooms`), as
    its keys were there: it goes back on its next visit."""

    __tablename__ = "cold_rooms"

    room_id: str = Field(primary_key=True, max_length=32)
    version: int = Field(description="the room's version when it left Redis")
    snapshot: str = Field(description="the room's keys, JSON (written and read by Lua)")
    stored_at: datetime
