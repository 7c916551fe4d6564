"""The daily board and everybody's results on it."""

from __future__ import annotations

import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from server.api.schemas import DailyBoard, DailyResults, DailyScore
from server.db.records import daily_results
from server.db.session import SessionDep
from server.rooms import daily

router = APIRouter(prefix="/api/daily", tags=["daily"])


@router.get("", summary="Today's daily board (UTC)")
async def daily_board() -> DailyBoard:
    day = daily.today()
    return DailyBoard(
        date=day,
        rows=daily.DAILY_ROWS,
        cols=daily.DAILY_COLS,
        lines=daily.daily_lines(day),
        level=daily.DAILY_LEVEL,
        first="me",
    )


@router.get("/results", summary="Everybody's results on a day's board")
def daily_board_results(
    session: SessionDep,
    date: Annotated[
        datetime.date | None, Query(description="UTC day, YYYY-MM-DD; default today")
    ] = None,
) -> DailyResults:
    """How many players finished the day's board and how many boxes each took, so a
    player can see where their own result stands. (A plain ``def``: the database call runs
    in a worker thread.)"""
    day = date or daily.today()
    tallies = daily_results(session, day)
    players = sum(t.players for t in tallies)
    wins = sum(t.wins for t in tallies)
    draws = sum(t.draws for t in tallies)
    return DailyResults(
        date=day,
        boxes_total=daily.DAILY_ROWS * daily.DAILY_COLS,
        players=players,
        wins=wins,
        draws=draws,
        losses=players - wins - draws,
        distribution=[DailyScore(boxes=t.boxes, players=t.players) for t in tallies],
    )
