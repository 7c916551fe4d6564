"""Prometheus metrics of one process (rooms, connections, moves, computer think time)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

from server.rooms.service import RoomMetrics


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
            "Open websockets in this process",
            registry=self.registry,
        )
        self.watched_rooms = Gauge(
            "tetrad_watched_rooms", "Rooms with a listener in this process", registry=self.registry
        )
        self.ai_think = Histogram(
            "tetrad_ai_think_seconds",
            "Time the computer took for a move or hint",
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5),
            registry=self.registry,
        )

    def room_hooks(self) -> RoomMetrics:
        return RoomMetrics(
            on_room_created=lambda game, mode: self.rooms_created.labels(game, mode).inc(),
            on_move=lambda game, mode: self.moves.labels(game, mode).inc(),
            on_ai_think=self.ai_think.observe,
        )
