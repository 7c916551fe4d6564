"""Liveness, readiness and Prometheus metrics."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from sqlalchemy import text

from server.api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="The process is alive")
async def healthz() -> Health:
    return Health(status="ok")


def _database_ok(request: Request) -> None:
    with request.app.state.engine.connect() as connection:
        connection.execute(text("SELECT 1"))


@router.get("/readyz", summary="Redis and the database answer", response_model=Health)
async def readyz(request: Request) -> Response:
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(request.app.state.rooms.store.ping(), timeout=2)
        checks["redis"] = "ok"
    except Exception as error:
        checks["redis"] = type(error).__name__
    try:
        await asyncio.wait_for(asyncio.to_thread(_database_ok, request), timeout=5)
        checks["database"] = "ok"
    except Exception as error:
        checks["database"] = type(error).__name__
    ready = all(value == "ok" for value in checks.values())
    body = Health(status="ok" if ready else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get("/metrics", summary="Prometheus metrics (of all workers of this server)")
async def metrics(request: Request) -> Response:
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
