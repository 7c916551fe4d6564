"""The daily board."""

from __future__ import annotations

from fastapi import APIRouter

from server.api.schemas import DailyBoard
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
        first="human",
    )
