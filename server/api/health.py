"""Liveness, readiness and Prometheus metrics.

``/healthz`` says the process serves requests (the web client and the API's front door):
a proxy's health check and a container's use it, so an outage of Redis does not take the
static client down with it. ``/readyz`` says the storage answers: Redis, the database,
and whether Redis persists its data (reported, not required).
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from redis.exceptions import RedisError

from server.api.schemas import Health
from server.db.session import database_ping
from server.store.persistence import persists, redis_persistence

router = APIRouter(tags=["health"])
REPORTED_ONLY = {"redis_persistence", "outbox_backlog"}
"""Checks shown by ``/readyz`` that do not make the server unready."""


@router.get("/healthz", summary="The process is alive")
async def healthz() -> Health:
    return Health(status="ok")


async def _redis_checks(request: Request) -> dict[str, str]:
    metrics = request.app.state.metrics
    redis = request.app.state.redis
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(redis.ping(), timeout=2)
        checks["redis"] = "ok"
        kind = await asyncio.wait_for(redis_persistence(redis), timeout=2)
        checks["redis_persistence"] = kind
        metrics.redis_persistence.set(1 if persists(kind) else 0)
    except (RedisError, OSError, TimeoutError) as error:
        if isinstance(error, RedisError):
            metrics.count_redis_error(error)
        checks.setdefault("redis", type(error).__name__)
        checks.setdefault("redis_persistence", "unknown")
    return checks


@router.get("/readyz", summary="Redis and the database answer", response_model=Health)
async def readyz(request: Request) -> Response:
    checks = await _redis_checks(request)
    try:
        ping = asyncio.to_thread(database_ping, request.app.state.engine)
        await asyncio.wait_for(ping, timeout=5)
        checks["database"] = "ok"
    except Exception as error:
        checks["database"] = type(error).__name__
    # Finished games committed in Redis, not yet written to the database (0 when healthy).
    checks["outbox_backlog"] = str(request.app.state.outbox.backlog)
    ready = all(value == "ok" for key, value in checks.items() if key not in REPORTED_ONLY)
    body = Health(status="ok" if ready else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get("/metrics", summary="Prometheus metrics (of all workers of this server)")
async def metrics(request: Request) -> Response:
    return Response(request.app.state.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
