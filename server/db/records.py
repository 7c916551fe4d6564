"""Writing finished games (and daily-board results) once a game ends, at most once each."""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Engine, case, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from server.db.models import DailyResultRow, FinishedGameRow


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game that ended, as the database keeps it."""

    room_id: str
    game: str
    mode: str
    game_number: int
    daily: str | None
    record: dict[str, Any]
    winner: int | None
    reason: str
    scores: tuple[int, int]
    human_seat: int | None
    finished_at: float
    level: str | None = None
    """The computer's level, in computer rooms."""
    daily_player: str | None = None
    """Hash of the browser's anonymous id on the daily board: one counted result a day."""

    def to_json(self) -> str:
        # Not dataclasses.asdict: it deep-copies the record (every move) before dumping it.
        data = {field.name: getattr(self, field.name) for field in fields(self)}
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> FinishedGame:
        data = json.loads(text)
        data["scores"] = tuple(data["scores"])
        return cls(**data)


def finished_game_id(room_id: str, game_number: int) -> str:
    return f"{room_id}-{game_number}"


def store_finished_game(engine: Engine, finished: FinishedGame) -> bool:
    """Insert the finished game; False if it was stored already (at most once per game, so
    writing the same record again, after a retry, changes nothing)."""
    game_id = finished_game_id(finished.room_id, finished.game_number)
    now = datetime.fromtimestamp(finished.finished_at, UTC)
    with Session(engine) as session:
        if session.get(FinishedGameRow, game_id) is not None:
            return False
        session.add(
            FinishedGameRow(
                id=game_id,
                room_id=finished.room_id,
                game=finished.game,
                mode=finished.mode,
                game_number=finished.game_number,
                winner=finished.winner,
                reason=finished.reason,
                score0=finished.scores[0],
                score1=finished.scores[1],
                record=json.dumps(finished.record, separators=(",", ":")),
                finished_at=now,
                daily=None if finished.daily is None else date.fromisoformat(finished.daily),
                computer_seat=None if finished.human_seat is None else 1 - finished.human_seat,
                level=finished.level,
            )
        )
        day = None if finished.daily is None else date.fromisoformat(finished.daily)
        if (
            day is not None
            and finished.human_seat is not None
            and _first_of_the_day(session, day, finished.daily_player)
        ):
            human = finished.human_seat
            session.add(
                DailyResultRow(
                    day=day,
                    game_id=game_id,
                    score=finished.scores[human],
                    opponent_score=finished.scores[1 - human],
                    finished_at=now,
                    player=finished.daily_player,
                )
            )
        try:
            session.commit()
        except IntegrityError:  # another process wrote it meanwhile
            session.rollback()
            return False
    return True


def _first_of_the_day(session: Session, day: date, player: str | None) -> bool:
    """Whether this is the first result of ``player`` on ``day``'s board (an unknown player
    always counts)."""
    if player is None:
        return True
    query = select(DailyResultRow.id).where(
        DailyResultRow.day == day, DailyResultRow.player == player
    )
    return session.exec(query).first() is None


def load_finished_game(engine: Engine, game_id: str) -> FinishedGameRow | None:
    with Session(engine) as session:
        return session.get(FinishedGameRow, game_id)


@dataclass(frozen=True, slots=True)
class DailyTally:
    """How many players took ``boxes`` boxes on one day's board, and how those games ended."""

    boxes: int
    players: int
    wins: int
    draws: int


def daily_results(session: Session, day: date) -> list[DailyTally]:
    """Every result of ``day``'s daily board, grouped by boxes taken (fewest first)."""
    score = col(DailyResultRow.score)
    opponent = col(DailyResultRow.opponent_score)
    query = (
        select(
            score,
            func.count(),
            func.sum(case((score > opponent, 1), else_=0)),
            func.sum(case((score == opponent, 1), else_=0)),
        )
        .where(DailyResultRow.day == day)
        .group_by(score)
        .order_by(score)
    )
    return [
        DailyTally(int(boxes), int(players), int(wins or 0), int(draws or 0))
        for boxes, players, wins, draws in session.exec(query).all()
    ]
