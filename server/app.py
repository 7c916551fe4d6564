"""The FastAPI application: ``create_app(settings)`` and its lifespan."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse, Response
from pydantic import TypeAdapter, ValidationError
from pydantic.json_schema import JsonSchemaMode
from redis.asyncio import Redis
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.review import Limits
from server.api import bots as bots_api
from server.api import challenges, daily, games, health, review, rooms
from server.api import ladder as ladder_api
from server.background import Background, every
from server.bots import ladder
from server.bots.forfeits import Forfeits
from server.bots.matchmaking import Matchmaker, parse_boards
from server.bots.service import BotService
from server.bots.streams import ROUND_SECONDS as BOTS_ROUND_SECONDS
from server.bots.streams import BotStreams
from server.connection_guard import GUARD, RefuseMarked, raise_open_file_limit
from server.db.records import FinishedGame, finished_game_id, store_finished_game
from server.db.session import database_ping, database_url, make_engine, migrate
from server.errors import code_for_validation, http_status
from server.http_edge import HeadAsGet, SecurityHeaders
from server.http_observer import HttpObserver
from server.log_format import configure_logging
from server.metrics import Metrics
from server.protocol import client_message_adapter, server_message_adapter
from server.refusals import ErrorCode, Refusal, unavailable
from server.review.analysis import Analyses
from server.review.reader import RecordReader
from server.rooms.computer import ComputerPlayer
from server.rooms.outbox import OutboxDrainer
from server.rooms.service import RoomService
from server.runtime import tune_garbage_collector
from server.settings import Settings
from server.static import serve_client
from server.store.cold_rooms import ColdAwareRoomStore, ColdRooms, sweep_interval
from server.store.embedded import EmbeddedValkey
from server.store.keys import write_probe_key
from server.store.memory_watch import MemoryWatch
from server.store.outage import STORAGE_ERRORS, Outages
from server.store.redis_client import (
    check_kind,
    close_dropped_cluster_nodes,
    is_cluster,
    redis_client,
)
from server.store.redis_stores import RedisStores
from server.ws import endpoint
from server.ws.hub import Hub, Listener

log = logging.getLogger("tetrad.app")
ANY_METHOD = ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
HTTP_CODES: dict[int, ErrorCode] = {
    404: "not_found",
    405: "method_not_allowed",
    413: "message_too_large",
}
"""Codes of the refusals Starlette makes itself (no route, a route without that method)."""
REDIS_WARM_CONNECTIONS = 8
WRITE_PROBE_MS = 10_000
RECORD_BODY_BYTES = 64 * 1024
"""Bodies that carry a whole game record (review, analysis, a room continuing a game) may
be this large: a long Dots game does not fit in the few KiB of other requests."""
RECORD_PATHS = ("/api/records/review", "/api/analysis", "/api/rooms")


class BodySizeLimit:
    """Refuse request bodies over the limit with ``message_too_large`` (413), whether the
    size is announced (``Content-Length``) or only found out while reading (chunked).

    The body is read here, before the app sees the request: bodies are small (the limit is a
    few KiB), and an error raised from inside the app's body reading would come out as a
    generic 400.
    """

    def __init__(
        self, app: ASGIApp, limit: int, record_limit: int = 0, record_paths: tuple[str, ...] = ()
    ) -> None:
        self.app = app
        self.limit = limit
        self.record_limit = max(limit, record_limit)
        self.record_paths = record_paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.record_limit if scope["path"] in self.record_paths else self.limit
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await _too_large(limit)(scope, receive, send)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client left; the app finds out from the replay below
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > limit:
                await _too_large(limit)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return message
            return await receive()

        await self.app(scope, replay, send)


def _too_large(limit: int) -> Response:
    error = Refusal("message_too_large", f"bodies are limited to {limit} bytes")
    return JSONResponse(error.body(), status_code=http_status(error))


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    configure_logging(settings.log_level, settings.log_json)
    file_limit_before, file_limit = raise_open_file_limit()
    GUARD.configure(
        settings.max_connections_per_address, settings.trusted_proxies, settings.http_idle_seconds
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        embedded: EmbeddedValkey | None = None
        metrics = Metrics()
        redis_url = settings.redis_url
        if redis_url is None:
            embedded = EmbeddedValkey(settings.data_dir / "valkey", settings.embedded_fsync)
            redis_url = await asyncio.to_thread(embedded.start)
        # Timeouts on every connection and command: a Redis that hangs (paused, a network
        # partition) gives ``unavailable`` in about TETRAD_REDIS_TIMEOUT, not a request that
        # never ends.
        timeout = settings.redis_timeout
        redis = redis_client(redis_url, timeout=timeout)
        if is_cluster(redis):
            close_dropped_cluster_nodes(asyncio.get_running_loop())
        # The subscriber blocks on reads for as long as no room message comes: no read
        # timeout there (redis-py would apply the socket timeout to that wait).
        subscriber = redis_client(redis_url, socket_connect_timeout=timeout)
        outages = Outages(metrics.count_redis_error)
        outages.watch("redis", lambda: store_ping(redis))
        outages.watch("redis writes", lambda: store_write(redis, settings.key_prefix))
        # Open a few pooled connections now: redis-py's connection setup is slow (it looks up
        # package metadata each time), better paid at startup than by the first moves.
        await asyncio.gather(*(store_ping(redis) for _ in range(REDIS_WARM_CONNECTIONS)))
        await check_kind(redis, redis_url)
        engine = make_engine(database_url(settings.database_url, settings.data_dir))
        await asyncio.to_thread(migrate, engine)
        outages.watch("database", lambda: asyncio.to_thread(database_ping, engine))
        computer = ComputerPlayer(settings.ai_workers)
        computer.warm()
        # Analyses and hints think in processes of their own, at a lower priority: they
        # never queue in front of a computer move in a live room (started on first use).
        analyst = ComputerPlayer(settings.analysis_workers, niceness=settings.analysis_niceness)

        async def write_finished(finished: FinishedGame) -> bool:
            written = await asyncio.to_thread(store_finished_game, engine, finished)
            game_id = finished_game_id(finished.room_id, finished.game_number)
            await asyncio.to_thread(
                ladder.finish, engine, finished.room_id, game_id, finished.winner
            )
            return written

        streams = BotStreams(engine)
        storage = RedisStores(redis, settings.key_prefix, settings.events_kept)
        stores = storage.stores
        background: list[Background] = []
        if settings.correspondence_idle_seconds:
            # Idle correspondence rooms wait in the database, back on their next visit.
            cold = ColdRooms(
                redis, settings.key_prefix, engine, settings.correspondence_idle_seconds
            )
            stores = dataclasses.replace(stores, rooms=ColdAwareRoomStore(stores.rooms, cold))

            def sweep_failed(error: Exception) -> None:
                if not outages.report(error, "cold rooms"):
                    log.error("moving idle rooms to the database failed", exc_info=error)

            interval = sweep_interval(settings.correspondence_idle_seconds)
            background.append(
                Background("cold-rooms", lambda: every(interval, cold.sweep, sweep_failed))
            )
        drainer = OutboxDrainer(
            stores.outbox, write_finished, on_backlog=metrics.outbox_backlog.set
        )
        memory = MemoryWatch(
            redis,
            settings.redis_memory_limit_mb * 2**20,
            on_reading=metrics.redis_memory.set,
        )
        service = RoomService(
            stores,
            settings,
            computer,
            metrics=metrics.room_hooks(),
            on_finished=drainer.kick,
            full=lambda: memory.full,
            revoked=streams.is_revoked,
            analyst=analyst,
        )
        bots = BotService(engine, service, streams)
        limits = Limits(
            exact_seconds=settings.analysis_position_seconds,
            moves_seconds=settings.analysis_position_seconds / 2,
            hint_seconds=min(settings.ai_time_limit, settings.analysis_position_seconds, 0.15),
            processor_seconds=True,  # low in priority, the same work on a busy machine
        )
        analyses = Analyses(
            engine,
            analyst,
            settings.analysis_workers,
            limits,
            settings.analysis_game_seconds,
            stale_seconds=settings.analysis_stale_seconds,
        )
        records = RecordReader()

        async def catch_up(room_id: str, listeners: list[Listener]) -> None:
            await endpoint.catch_up_listeners(service, room_id, listeners)

        hub = Hub(
            subscriber,
            settings.key_prefix,
            on_rooms=metrics.watched_rooms.set,
            catch_up=catch_up,
            on_event=service.repository.saw_version,
        )
        await hub.start(f"{settings.key_prefix}:process:{service.turns.process_id}")

        def presence_failed(error: Exception) -> None:
            if not outages.report(error, "presence"):
                log.error("presence round failed", exc_info=error)

        async def presence_round() -> None:
            await service.presence.round(hub.watched(), outages.report)

        presence = Background(
            "presence", lambda: every(settings.heartbeat_seconds, presence_round, presence_failed)
        )

        def bots_failed(error: Exception) -> None:
            if not outages.report(error, "bots"):
                log.error("bots round failed", exc_info=error)

        forfeits = Forfeits(bots)

        async def bots_round() -> None:
            now = time.monotonic()
            await streams.round(now)
            await forfeits.round(now)

        bot_rounds = Background("bots", lambda: every(BOTS_ROUND_SECONDS, bots_round, bots_failed))
        background += [presence, drainer.background, memory.background, bot_rounds]
        if settings.ladder_pace_seconds > 0:
            boards = parse_boards(settings.ladder_boards)
            matchmaker = Matchmaker(bots, boards, service.turns.process_id)
            pace = settings.ladder_pace_seconds

            async def ladder_round() -> None:
                await matchmaker.round()

            background.append(Background("ladder", lambda: every(pace, ladder_round, bots_failed)))
        for task in background:
            task.start()
        app.state.settings = settings
        app.state.redis = redis
        app.state.engine = engine
        app.state.rooms = service
        app.state.bots = bots
        app.state.analyses = analyses
        app.state.records = records
        app.state.hub = hub
        app.state.memory = memory
        app.state.outbox = drainer
        app.state.outages = outages
        app.state.metrics = metrics
        tune_garbage_collector()
        log.info(
            "tetrad ready",
            extra={
                "embedded_store": embedded is not None,
                "open_file_limit": file_limit,
                "open_file_limit_before": file_limit_before,
                "connection_capacity": GUARD.capacity,
            },
        )
        try:
            yield
        finally:
            for task in background:
                await task.stop()
            await hub.stop()
            await service.turns.close()
            await service.time_outs.close()
            await service.presence.close()
            await analyses.close()
            await records.close()
            metrics.close()
            await computer.close()
            await analyst.close()
            await outages.close()
            await storage.aclose()
            await redis.aclose()
            await subscriber.aclose()
            engine.dispose()
            if embedded is not None:
                await asyncio.to_thread(embedded.stop)

    app = FastAPI(
        title="tetrad",
        version="1",
        summary="Dots and Boxes and Dots: rooms, moves and events over HTTP and websocket",
        description="See docs/api.md. Errors are JSON `{code, message}` with stable codes.",
        lifespan=lifespan,
    )

    @app.exception_handler(Refusal)
    async def api_error(request: Request, error: Refusal) -> JSONResponse:
        return JSONResponse(
            error.body(), status_code=http_status(error), headers=retry_header(error)
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = error.errors()
        first = problems[0] if problems else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        code = code_for_validation([tuple(p.get("loc", ())) for p in problems], tagged=False)
        api = Refusal(code, f"{where}: {first.get('msg', 'invalid request')}".strip(": "))
        return JSONResponse(api.body(), status_code=http_status(api))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        code = HTTP_CODES.get(error.status_code, "bad_request")
        headers = getattr(error, "headers", None)
        return JSONResponse(
            {"code": code, "message": str(error.detail)},
            status_code=error.status_code,
            headers=headers,
        )

    async def storage_down(request: Request, error: Exception) -> JSONResponse:
        outages: Outages | None = getattr(request.app.state, "outages", None)
        if outages is not None:
            outages.report(error, request.url.path)
        api = unavailable()
        return JSONResponse(api.body(), status_code=http_status(api), headers=retry_header(api))

    for storage_error in STORAGE_ERRORS:
        app.add_exception_handler(storage_error, storage_down)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", extra={"path": request.url.path})
        api = Refusal("internal_error", "something went wrong on the server")
        return JSONResponse(api.body(), status_code=500)

    app.include_router(rooms.router)
    app.include_router(daily.router)
    app.include_router(games.router)
    app.include_router(review.router)
    app.include_router(health.router)
    app.include_router(bots_api.router)
    app.include_router(challenges.router)
    app.include_router(ladder_api.router)
    # First: the router tries routes in order, and a crowd of sockets saying hello would
    # otherwise be matched against every HTTP route before its own (HTTP requests pass it
    # at the cost of one comparison of the scope's type).
    app.router.routes.insert(0, endpoint.RoomSocketRoute())

    @app.api_route("/api/{rest:path}", methods=list(ANY_METHOD), include_in_schema=False)
    async def unknown_api(request: Request, rest: str) -> JSONResponse:
        allowed = _methods_at(app, request.scope)
        if allowed:
            api = Refusal("method_not_allowed", f"{request.method} is not allowed here")
            headers = {"Allow": ", ".join(sorted(allowed))}
            return JSONResponse(api.body(), status_code=http_status(api), headers=headers)
        api = Refusal("not_found", f"no such endpoint: /api/{rest}")
        return JSONResponse(api.body(), status_code=http_status(api))

    serve_client(app, settings)
    app.add_middleware(
        BodySizeLimit,
        limit=max(settings.max_message_bytes, 4096),
        record_limit=RECORD_BODY_BYTES,
        record_paths=RECORD_PATHS,
    )
    app.add_middleware(RefuseMarked)
    app.add_middleware(HeadAsGet)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(HttpObserver)  # outermost: access log and request metrics
    app.openapi = lambda: _openapi_with_messages(app)  # type: ignore[method-assign]
    return app


def _methods_at(app: FastAPI, scope: Scope) -> set[str]:
    """The methods the app's own routes (not the catch-alls) answer at the request's path."""
    routes = [r for r in app.routes if ":path}" not in str(getattr(r, "path", ""))]
    return {
        method
        for method in ANY_METHOD
        if any(r.matches({**scope, "method": method})[0] == Match.FULL for r in routes)
    }


def retry_header(error: Refusal) -> dict[str, str] | None:
    """``Retry-After`` (whole seconds, at least 1) for a refusal that says when to retry."""
    if error.retry_after is None:
        return None
    return {"Retry-After": str(max(1, math.ceil(error.retry_after)))}


def _openapi_with_messages(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, plus the websocket messages under ``components.schemas``.

    FastAPI lists a 422 answer for every route that takes input; this server answers a
    request that does not validate with 400 ``bad_request`` (or ``invalid_move``), as the
    routes' own responses say, so the 422 and its schemas are left out."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    for operations in schema.get("paths", {}).values():
        for operation in operations.values():
            operation.get("responses", {}).pop("422", None)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    template = "#/components/schemas/{model}"
    adapters: list[tuple[str, TypeAdapter[Any], JsonSchemaMode]] = [
        ("ClientMessage", client_message_adapter, "validation"),
        ("ServerMessage", server_message_adapter, "serialization"),
    ]
    for name, adapter, mode in adapters:
        generated = adapter.json_schema(ref_template=template, mode=mode)
        for def_name, definition in generated.pop("$defs", {}).items():
            components.setdefault(def_name, definition)
        components[name] = generated
    app.openapi_schema = schema
    return schema


def app_from_env() -> FastAPI:
    """Factory for ``uvicorn --factory server.app:app_from_env`` (settings from TETRAD_*)."""
    return create_app(Settings())


__all__ = ["ValidationError", "app_from_env", "create_app"]


async def store_ping(redis: Redis) -> bool:
    return bool(await redis.ping())  # type: ignore[misc]


async def store_write(redis: Redis, prefix: str) -> bool:
    """Write one short-lived key: refused while Redis refuses writes."""
    return bool(await redis.set(write_probe_key(prefix), "1", px=WRITE_PROBE_MS))
