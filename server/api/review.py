"""Game review: a finished or imported game move by move, its record to download, and the
computer's analysis."""

from __future__ import annotations

import asyncio
import gzip
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


GZIP_FROM = 8192
"""Replies this long or longer go gzipped to a client that takes gzip: a long Dots game's
review or analysis is a hundred kilobytes and more of repetitive JSON (about a twentieth
gzipped)."""


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (not ``gzip;q=0``)."""
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() not in ("gzip", "*"):
            continue
        quality = params.strip().lower().removeprefix("q=")
        try:
            return not params.strip() or float(quality) > 0
        except ValueError:
            return True
    return False


def _packed(request: Request, body: bytes) -> Response:
    if len(body) < GZIP_FROM or not takes_gzip(request.headers.get("accept-encoding", "")):
        return Response(body, media_type="application/json", headers={"Vary": "Accept-Encoding"})
    return Response(
        gzip.compress(body, compresslevel=6),
        media_type="application/json",
        headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
    )


async def json_reply(request: Request, body: bytes | str) -> Response:
    """``body`` (JSON) as the reply, gzipped when long and the client takes it (the
    compressing is done off the event loop)."""
    data = body.encode() if isinstance(body, str) else body
    if len(data) < GZIP_FROM:
        return _packed(request, data)
    return await asyncio.to_thread(_packed, request, data)


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
    "/api/games/{game_id}/review",
    summary="A finished game, move by move",
    response_model=GameReview,
    dependencies=RECORD_READ,
)
def game_review(session: SessionDep, request: Request, game_id: GameId) -> Response:
    row = _row(session, game_id)
    found = review(read_record(json.loads(row.record)), _facts(row, session))
    return _packed(request, found.model_dump_json().encode())


@router.post(
    "/api/records/review",
    summary="Review a record (text notation or JSON)",
    response_model=GameReview,
    dependencies=RECORD_READ,
)
async def record_review(reader: ReaderDep, request: Request, body: RecordBody) -> Response:
    return await json_reply(request, await reader.review(body.record))


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


@router.post(
    "/api/analysis",
    summary="Start (or read) the analysis of a record",
    response_model=AnalysisView,
)
async def start_analysis(
    analyses: AnalysesDep,
    reader: ReaderDep,
    rooms: RoomServiceDep,
    client: ClientAddressDep,
    request: Request,
    body: RecordBody,
) -> Response:
    await rooms.analysis_allowed(client)  # before the record is read: reading costs
    found = await analyses.start(await reader.replayed(body.record))
    return await json_reply(request, found.model_dump_json())


@router.get(
    "/api/analysis/{analysis_id}",
    summary="An analysis, as far as it has gone",
    response_model=AnalysisView,
)
async def read_analysis(
    analyses: AnalysesDep,
    request: Request,
    analysis_id: Annotated[str, Path(max_length=64)],
    since: Since = 0,
) -> Response:
    found = await analyses.get(analysis_id, since)
    return await json_reply(request, found.model_dump_json())


@router.post(
    "/api/games/{game_id}/analysis",
    summary="Start (or read) a game's analysis",
    response_model=AnalysisView,
)
async def start_game_analysis(
    analyses: AnalysesDep,
    rooms: RoomServiceDep,
    client: ClientAddressDep,
    request: Request,
    game_id: GameId,
) -> Response:
    await rooms.analysis_allowed(client)
    found = await analyses.start(await _stored(request, game_id))
    return await json_reply(request, found.model_dump_json())


@router.get(
    "/api/games/{game_id}/analysis",
    summary="A game's analysis, as far as it has gone",
    response_model=AnalysisView,
)
async def read_game_analysis(
    analyses: AnalysesDep, request: Request, game_id: GameId, since: Since = 0
) -> Response:
    found = await analyses.find(await _stored(request, game_id), since)
    return await json_reply(request, found.model_dump_json())
