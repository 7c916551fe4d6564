"""Liveness, readiness and Prometheus metrics.

``/healthz`` says the process serves requests (the web client and the API's front door):
a proxy's health check and a container's use it, so an outage of Redis does not take the
static client down with it. ``/readyz`` says the storage does what the server needs: Redis
takes a write (on a cluster, after ``CLUSTER INFO`` shows every slot served; behind a
Sentinel, on the master it names now), the database answers, and whether Redis persists
its data (reported, not required).
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST
from redis.exceptions import RedisClusterException, RedisError

from server.api.schemas import Health
from server.db.session import database_ping
from server.store.persistence import persists, redis_persistence
from server.store.redis_client import is_cluster

router = APIRouter(tags=["health"])
REPORTED_ONLY = {"redis_persistence", "outbox_backlog"}
HEALTH_KEY_MS = 10_000
"""Checks shown by ``/readyz`` that do not make the server unready."""


@router.get("/healthz", summary="The process is alive")
async def healthz() -> Health:
    return Health(status="ok")


async def _redis_checks(request: Request) -> dict[str, str]:
    metrics = request.app.state.metrics
    redis = request.app.state.redis
    checks: dict[str, str] = {}
    try:
        await asyncio.wait_for(_redis_writable(request), timeout=2)
        checks["redis"] = "ok"
        kind = await asyncio.wait_for(redis_persistence(redis), timeout=2)
        checks["redis_persistence"] = kind
        metrics.redis_persistence.set(1 if persists(kind) else 0)
    except (RedisError, RedisClusterException, OSError, TimeoutError) as error:
        if isinstance(error, RedisError):
            metrics.count_redis_error(error)
        checks.setdefault("redis", type(error).__name__)
        checks.setdefault("redis_persistence", "unknown")
    return checks


class ClusterUnready(RedisError):
    """The cluster says it cannot serve every slot."""


async def _redis_writable(request: Request) -> None:
    """A short-lived key is written (to the master of the moment, wherever the topology
    puts it); on a cluster, ``CLUSTER INFO`` must first show every slot served."""
    redis = request.app.state.redis
    if is_cluster(redis):
        info = await redis.cluster_info()
        if info.get("cluster_state") != "ok" or str(info.get("cluster_slots_ok")) != "16384":
            raise ClusterUnready(f"cluster_state:{info.get('cluster_state')}")
    key = f"{request.app.state.settings.key_prefix}:readyz"
    await redis.set(key, "1", px=HEALTH_KEY_MS)


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
