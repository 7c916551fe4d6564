"""Finished games, from the database."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path

from server.api.schemas import ErrorBody, FinishedGameView
from server.db.models import FinishedGameRow
from server.db.session import SessionDep
from server.refusals import Refusal

router = APIRouter(prefix="/api/games", tags=["games"], responses={404: {"model": ErrorBody}})


@router.get("/{game_id}", summary="A finished game's record")
def finished_game(
    session: SessionDep, game_id: Annotated[str, Path(max_length=64)]
) -> FinishedGameView:
    row = session.get(FinishedGameRow, game_id)
    if row is None:
        raise Refusal("game_not_found", "no finished game with this id")
    return FinishedGameView(
        id=row.id,
        room_id=row.room_id,
        game=row.game,
        mode=row.mode,
        game_number=row.game_number,
        winner=row.winner,
        reason=row.reason,
        scores=(row.score0, row.score1),
        finished_at=row.finished_at,
        daily=row.daily,
        record=json.loads(row.record),
    )
