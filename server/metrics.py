"""Prometheus metrics: rooms, connections, moves, computer think time, HTTP requests, Redis
errors, move commit and delivery latency, the outbox backlog.

With one process, the metrics live in that process. With several workers (``tetrad serve
--workers N``), the supervisor gives the run its own directory in
``PROMETHEUS_MULTIPROC_DIR`` before the workers start; every worker then writes its values to
files there (prometheus_client's multiprocess mode) and ``/metrics`` on any worker adds up
all of them, so a scrape sees the whole server whichever worker answers it. Gauges count
live processes only: a worker that stops cleanly removes its share.
"""

from __future__ import annotations

import functools
import os
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

from server.rooms.service import RoomMetrics

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

LATENCY_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
"""Seconds; from a move committed on a quiet server to a struggling one."""


def multiprocess_dir() -> str | None:
    return os.environ.get(MULTIPROC_ENV) or None


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.rooms_created = Counter(
            "tetrad_rooms_created", "Rooms created", ["game", "mode"], registry=self.registry
        )
        self.moves = Counter(
            "tetrad_moves", "Moves committed", ["game", "mode"], registry=self.registry
        )
        self.connections = Gauge(
            "tetrad_websocket_connections",
            "Open websockets",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        self.connections_refused = Counter(
            "tetrad_connections_refused",
            "Connections refused at the door, by code: server_full (too many for the "
            "process's file descriptors) or rate_limited (too many from one address)",
            ["code"],
            registry=self.registry,
        )
        self.watched_rooms = Gauge(
            "tetrad_watched_rooms",
            "Rooms with a listener, summed over processes",
            registry=self.registry,
            multiprocess_mode="livesum",
        )
        self.ai_think = Histogram(
            "tetrad_ai_think_seconds",
            "Time the computer took for a move or hint",
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5),
            registry=self.registry,
        )
        self.commit_seconds = Histogram(
            "tetrad_move_commit_seconds",
            "Time to commit a room change to Redis (one round trip when the room is cached)",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1),
            registry=self.registry,
        )
        self.event_delivery = Histogram(
            "tetrad_event_delivery_seconds",
            "Time from a room event's commit to its sending on a websocket of this process",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.outbox_backlog = Gauge(
            "tetrad_outbox_backlog",
            "Finished games waiting to be written to the database",
            registry=self.registry,
            multiprocess_mode="max",
        )
        self.http_requests = Counter(
            "tetrad_http_requests",
            "HTTP requests and websocket connections served, by route template and status "
            "(websockets: method WS, status 101 once accepted)",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.http_duration = Histogram(
            "tetrad_http_request_duration_seconds",
            "Time from an HTTP request's arrival to the end of its response",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.redis_memory = Gauge(
            "tetrad_redis_used_memory_bytes",
            "Memory Redis uses for data (all primaries of a cluster); new rooms are refused "
            "past TETRAD_REDIS_MEMORY_LIMIT_MB",
            registry=self.registry,
            multiprocess_mode="max",
        )
        self.redis_errors = Counter(
            "tetrad_redis_errors",
            "Redis commands that failed, by error type (connection lost, timeout, ...)",
            ["error"],
            registry=self.registry,
        )
        self.redis_persistence = Gauge(
            "tetrad_redis_persistence",
            "1 if the Redis in use persists its data (append-only file or snapshots), else 0",
            registry=self.registry,
            multiprocess_mode="livemostrecent",
        )

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one request (or websocket connection) and, for HTTP, time it."""
        self.http_requests.labels(method, route, str(status)).inc()
        if method != "WS":  # a websocket's duration is its whole life, not a latency
            self.http_duration.labels(method, route).observe(seconds)

    def count_redis_error(self, error: BaseException) -> None:
        """Count a failed Redis command; call it where a Redis error is caught."""
        self.redis_errors.labels(type(error).__name__).inc()

    def room_hooks(self) -> RoomMetrics:
        # One child per game and mode, looked up once: labels() costs more than inc().
        moves_of = functools.cache(self.moves.labels)
        return RoomMetrics(
            on_room_created=lambda game, mode: self.rooms_created.labels(game, mode).inc(),
            on_move=lambda game, mode: moves_of(game, mode).inc(),
            on_ai_think=self.ai_think.observe,
            on_commit=self.commit_seconds.observe,
        )

    def exposition(self) -> bytes:
        """The text a scrape gets: this process's metrics, or every worker's added up."""
        directory = multiprocess_dir()
        if directory is None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    def close(self) -> None:
        """Remove this process's share of live gauges (multiprocess mode)."""
        directory = multiprocess_dir()
        if directory is not None:
            mark_process_dead(os.getpid(), directory)  # type: ignore[no-untyped-call]
