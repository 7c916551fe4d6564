"""Writing finished games (and daily-board results) once a game ends."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Engine, case, func
from sqlmodel import Session, col, select

from server.db.models import DailyResultRow, FinishedGameRow
from server.rooms.service import FinishedGame


def finished_game_id(room_id: str, game_number: int) -> str:
    return f"{room_id}-{game_number}"


def store_finished_game(engine: Engine, finished: FinishedGame) -> bool:
    """Insert the finished game; False if it was stored already (at most once per game)."""
    game_id = finished_game_id(finished.room_id, finished.game_number)
    now = datetime.now(UTC)
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
            )
        )
        if finished.daily is not None and finished.human_seat is not None:
            human = finished.human_seat
            session.add(
                DailyResultRow(
                    day=date.fromisoformat(finished.daily),
                    game_id=game_id,
                    score=finished.scores[human],
                    opponent_score=finished.scores[1 - human],
                    finished_at=now,
                )
            )
        session.commit()
    return True


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
