"""What an operator reads: request metrics by route template, the metrics the room
service feeds, and a settings guide that lists every setting the server reads."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import httpx
import websockets

from server.cli import _parser
from server.settings import Settings
from tests.conftest import LiveServer

REPO = Path(__file__).resolve().parents[2]


def sample(metrics: str, name: str, **labels: str) -> float:
    """The value of one sample of the Prometheus text ``metrics`` (0 if absent)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in metrics.splitlines():
        found = re.fullmatch(rf"{name}(?:\{{(.*)\}})? (\S+)", line)
        if found and ",".join(sorted((found.group(1) or "").split(","))) == wanted:
            return float(found.group(2))
    return 0.0


async def test_requests_are_counted_by_route_template(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        created = await http.post("/api/rooms", json={"game": "boxes", "mode": "local"})
        room = created.json()["room_id"]
        for _ in range(3):
            assert (await http.get(f"/api/rooms/{room}")).status_code == 200
        assert (await http.get("/api/rooms/nope-nope-00")).status_code == 404
        async with websockets.connect(f"{server.ws_url}/api/rooms/{room}/ws") as ws:
            await ws.send('{"type": "hello", "token": null}')
            await ws.recv()
        metrics = (await http.get("/metrics")).text
    route = "/api/rooms/{room_id}"
    assert sample(metrics, "tetrad_http_requests_total", method="GET", route=route,
                  status="200") == 3  # fmt: skip
    assert sample(metrics, "tetrad_http_requests_total", method="GET", route=route,
                  status="404") == 1  # fmt: skip
    assert sample(metrics, "tetrad_http_requests_total", method="POST", route="/api/rooms",
                  status="201") == 1  # fmt: skip
    assert sample(metrics, "tetrad_http_request_duration_seconds_count", method="GET",
                  route=route) == 4  # fmt: skip
    assert room not in metrics  # labels are templates, never ids
    for name in (
        "tetrad_redis_errors_total",
        "tetrad_move_commit_seconds",
        "tetrad_event_delivery_seconds",
        "tetrad_outbox_backlog",
        "tetrad_redis_persistence",
    ):
        assert f"# TYPE {name.removesuffix('_total')}" in metrics, name


def test_every_setting_is_described_and_documented_with_its_default() -> None:
    rows = {
        found.group(1): found.group(2)
        for found in re.finditer(
            r"^\| `(TETRAD_[A-Z_]+)` \| `([^`]*)` \|",
            (REPO / "docs" / "self-hosting.md").read_text(),
            re.M,
        )
    }
    for name, field in Settings.model_fields.items():
        assert field.description, f"{name} has no description"
        variable = f"TETRAD_{name.upper()}"
        assert variable in rows, f"{variable} is not in the settings table"
        default = field.default
        shown = "unset" if default is None else str(default)
        assert rows[variable] == (shown.lower() if isinstance(default, bool) else shown), name


def test_every_command_and_flag_has_help() -> None:
    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            assert action.help, f"tetrad {name} {action.option_strings or action.dest}"
