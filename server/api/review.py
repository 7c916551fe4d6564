"""Game review: a finished or imported game move by move, its record to download, and the
computer's analysis."""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from sqlmodel import Session

from server.api.deps import ClientAddressDep, RoomServiceDep
from server.api.schemas import AnalysisView, ErrorBody, GameReview, RecordBody
from server.bots.ladder import seat_holders
from server.db.models import FinishedGameRow
from server.db.records import load_finished_game
from server.db.session import SessionDep
from server.refusals import Refusal
from server.review.analysis import Analyses
from server.review.reader import RecordReader
from server.review.records import GameFacts, notation, read_record, review

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 404, 409, 413, 429, 503)
}
router = APIRouter(tags=["review"], responses=ERRORS)
GameId = Annotated[str, Path(max_length=64, description="finished game id")]
Since = Annotated[
    int,
    Query(
        ge=0,
        description="positions the caller has already (the `done` of its last reply): "
        "the reply leaves them out",
    ),
]


async def get_analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


async def get_reader(request: Request) -> RecordReader:
    reader: RecordReader = request.app.state.records
    return reader


AnalysesDep = Annotated[Analyses, Depends(get_analyses)]
ReaderDep = Annotated[RecordReader, Depends(get_reader)]


async def count_record_read(rooms: RoomServiceDep, client: ClientAddressDep) -> None:
    """A record read counts against the client's limit before the record is read."""
    await rooms.record_read_allowed(client)


RECORD_READ = [Depends(count_record_read)]


def _row(session: Session, game_id: str) -> FinishedGameRow:
    row = session.get(FinishedGameRow, game_id)
    if row is None:
        raise Refusal("game_not_found", "no finished game with this id")
    return row


async def _stored(request: Request, game_id: str) -> dict[str, Any]:
    """The JSON record of the finished game ``game_id`` (the server wrote it: no replay)."""
    row = await asyncio.to_thread(load_finished_game, request.app.state.engine, game_id)
    if row is None:
        raise Refusal("game_not_found", "no finished game with this id")
    record: dict[str, Any] = json.loads(row.record)
    return record


def _facts(row: FinishedGameRow, session: Session) -> GameFacts:
    holders = seat_holders(session, row.room_id)
    return GameFacts(
        names=(holders[0][0], holders[1][0]),
        bots=(holders[0][1], holders[1][1]),
        id=row.id,
        mode=row.mode,  # type: ignore[arg-type]
        level=row.level,  # type: ignore[arg-type]
        computer_seat=row.computer_seat,
        finished_at=row.finished_at,
        daily=row.daily,
    )


@router.get(
    "/api/games/{game_id}/review", summary="A finished game, move by move", dependencies=RECORD_READ
)
def game_review(session: SessionDep, game_id: GameId) -> GameReview:
    row = _row(session, game_id)
    return review(read_record(json.loads(row.record)), _facts(row, session))


@router.post(
    "/api/records/review",
    summary="Review a record (text notation or JSON)",
    response_model=GameReview,
    dependencies=RECORD_READ,
)
async def record_review(reader: ReaderDep, body: RecordBody) -> Response:
    return Response(await reader.review(body.record), media_type="application/json")


@router.get(
    "/api/games/{game_id}/record.{form}",
    summary="Download the record: record.txt (text notation) or record.json",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}, "application/json": {}}}},
    dependencies=RECORD_READ,
)
def record_download(
    session: SessionDep, game_id: GameId, form: Annotated[Literal["txt", "json"], Path()]
) -> Response:
    game = read_record(json.loads(_row(session, game_id).record))
    if form == "txt":
        content, media_type = notation(game), "text/plain; charset=utf-8"
    else:
        content, media_type = json.dumps(game.to_json(), separators=(",", ":")), "application/json"
    return Response(
        content + "\n",
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="tetrad-{game_id}.{form}"'},
    )


@router.post("/api/analysis", summary="Start (or read) the analysis of a record")
async def start_analysis(
    analyses: AnalysesDep,
    reader: ReaderDep,
    rooms: RoomServiceDep,
    client: ClientAddressDep,
    body: RecordBody,
) -> AnalysisView:
    await rooms.analysis_allowed(client)  # before the record is read: reading costs
    return await analyses.start(await reader.replayed(body.record))


@router.get("/api/analysis/{analysis_id}", summary="An analysis, as far as it has gone")
async def read_analysis(
    analyses: AnalysesDep, analysis_id: Annotated[str, Path(max_length=64)], since: Since = 0
) -> AnalysisView:
    return await analyses.get(analysis_id, since)


@router.post("/api/games/{game_id}/analysis", summary="Start (or read) a game's analysis")
async def start_game_analysis(
    analyses: AnalysesDep,
    rooms: RoomServiceDep,
    client: ClientAddressDep,
    request: Request,
    game_id: GameId,
) -> AnalysisView:
    await rooms.analysis_allowed(client)
    return await analyses.start(await _stored(request, game_id))


@router.get("/api/games/{game_id}/analysis", summary="A game's analysis, as far as it has gone")
async def read_game_analysis(
    analyses: AnalysesDep, request: Request, game_id: GameId, since: Since = 0
) -> AnalysisView:
    return await analyses.find(await _stored(request, game_id), since)
