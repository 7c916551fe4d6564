"""Throw hostile cases (:mod:`tests.fuzz.hostile`) at a running server and check every
answer: no 500, every refusal a documented code with its documented HTTP status, websocket
connections that stay open and answer, and a room that does not change.

``python -m tests.fuzz.runner --cases 100000`` (``make fuzz-long``) starts a `tetrad serve`
of its own on the local Redis and prints the figures; the test suite runs a few thousand
cases against an in-process server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from server.errors import HTTP_STATUS
from server.refusals import ERROR_CODES
from tests.fuzz.hostile import Case, cases

FUZZ_SETTINGS = {
    # Limits high enough that the cases reach the parsers instead of the rate limiters.
    "messages_per_second": 1_000_000.0,
    "message_burst": 1_000_000,
    "rest_moves_per_minute": 1_000_000,
    "room_creations_per_minute": 1_000_000,
}


@dataclass
class Report:
    cases: int = 0
    replies: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)
    reconnects: int = 0
    seconds: float = 0.0

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    def summary(self) -> str:
        by_code = ", ".join(f"{code} {n}" for code, n in self.replies.most_common())
        return (
            f"{self.cases} cases in {self.seconds:.1f} s ({self.cases / self.seconds:.0f}/s); "
            f"replies: {by_code}; 500s: {self.replies['status-500']}; "
            f"websocket reconnects: {self.reconnects}; problems: {len(self.problems)}"
        )


class Target:
    """The fuzz room: live, its guest never came, so every move is refused and (with the
    room-changing commands left out of the cases) nothing can change it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.ws_url = "ws" + url.removeprefix("http")
        self.room_id = ""
        self.token = ""

    async def create(self, http: httpx.AsyncClient) -> dict[str, Any]:
        body = {"game": "boxes", "rows": 3, "cols": 3, "mode": "live"}
        response = await http.post("/api/rooms", json=body)
        response.raise_for_status()
        grant = response.json()
        self.room_id, self.token = grant["room_id"], grant["token"]
        return await self.state(http)

    async def state(self, http: httpx.AsyncClient) -> dict[str, Any]:
        response = await http.get(f"/api/rooms/{self.room_id}")
        response.raise_for_status()
        state = dict(response.json()["state"])
        for volatile in ("seats", "spectators", "expires_in_seconds"):
            state.pop(volatile, None)
        return state

    async def socket(self, seated: bool) -> websockets.ClientConnection:
        """A socket of the seat (one at a time: a second would take it over) or a
        spectator's."""
        ws = await websockets.connect(
            f"{self.ws_url}/api/rooms/{self.room_id}/ws", max_size=2**22, open_timeout=20
        )
        token = self.token if seated else None
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(await asyncio.wait_for(ws.recv(), 20)).get("type") != "welcome":
            pass
        return ws


def _check_rest(report: Report, case: Case, response: httpx.Response) -> None:
    status = response.status_code
    if status >= 500 and status != 503:
        report.replies[f"status-{status}"] += 1
        report.problem(f"{case.target} {case.body[:120]!r} -> {status} {response.text[:200]}")
        return
    if status < 300:
        report.replies[f"ok-{status}"] += 1
        return
    try:
        code = response.json()["code"]
    except (ValueError, KeyError, TypeError):
        report.replies[f"status-{status}"] += 1
        report.problem(f"{case.target}: {status} without a code: {response.text[:200]}")
        return
    report.replies[code] += 1
    if code not in ERROR_CODES or HTTP_STATUS.get(code) != status:
        report.problem(f"{case.target}: {status} {code} is not what docs/api.md says")


async def _rest(report: Report, http: httpx.AsyncClient, target: Target, case: Case) -> None:
    headers = {"Content-Type": "application/json"}
    room = target.room_id
    path = {
        "move": f"/api/rooms/{room}/moves",
        "action": f"/api/rooms/{room}/actions",
        "join": f"/api/rooms/{room}/join",
        "create": "/api/rooms",
    }[case.target]
    if case.target == "move":
        headers["Authorization"] = f"Bearer {target.token}"
    response = await http.post(path, content=case.body, headers=headers)
    _check_rest(report, case, response)


async def _ws(report: Report, target: Target, state: dict[str, Any], batch: list[Case]) -> None:
    """Send a batch of frames on one socket, then a ping: every frame must get exactly its
    answer (an error with a documented code, a pong, an ack or a resync) and the socket must
    still answer the ping."""
    ws = state.get("ws")
    if ws is None:
        ws = state["ws"] = await target.socket(state["seated"])
    for case in batch:
        await ws.send(case.body)
    ref = f"end-{uuid.uuid4().hex[:8]}"
    await ws.send(json.dumps({"type": "ping", "ref": ref}))
    try:
        async with asyncio.timeout(30):
            while True:
                message = json.loads(await ws.recv())
                kind = message.get("type")
                if kind == "pong" and message.get("ref") == ref:
                    return
                if kind == "error":
                    report.replies[message.get("code", "?")] += 1
                    if message.get("code") not in ERROR_CODES:
                        report.problem(f"websocket error without a documented code: {message}")
                elif kind in ("pong", "ack", "resync"):
                    report.replies[f"ws-{kind}"] += 1
                elif kind not in ("presence", "event"):
                    report.problem(f"unexpected websocket message: {str(message)[:200]}")
    except (websockets.ConnectionClosed, TimeoutError) as error:
        report.problem(f"websocket handler gone after {[c.body[:60] for c in batch]!r}: {error!r}")
        report.reconnects += 1
        state["ws"] = None


async def run(url: str, count: int, seed: int, concurrency: int = 4) -> Report:
    report = Report()
    target = Target(url)
    started = time.monotonic()
    limits = httpx.Limits(max_connections=concurrency * 2)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:
        before = await target.create(http)
        all_cases = cases(seed, count)
        ws_cases = [c for c in all_cases if c.target == "ws"]
        rest_cases = [c for c in all_cases if c.target != "ws"]

        async def rest_worker(share: list[Case]) -> None:
            for case in share:
                await _rest(report, http, target, case)
                report.cases += 1

        async def ws_worker(share: list[Case], seated: bool) -> None:
            state: dict[str, Any] = {"seated": seated}
            for start in range(0, len(share), 20):
                batch = share[start : start + 20]
                await _ws(report, target, state, batch)
                report.cases += len(batch)
            if state.get("ws") is not None:
                await state["ws"].close()

        await asyncio.gather(
            *(rest_worker(rest_cases[i::concurrency]) for i in range(concurrency)),
            *(ws_worker(ws_cases[i::concurrency], i == 0) for i in range(concurrency)),
        )
        after = await target.state(http)
    if after != before:
        report.problem(f"the room changed: version {before['version']} -> {after['version']}")
    report.seconds = time.monotonic() - started
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--url", help="a running server; default: start `tetrad serve`")
    args = parser.parse_args()
    if args.url:
        report = asyncio.run(run(args.url, args.cases, args.seed))
        print(report.summary())
        return 1 if report.problems else 0
    from tests.processes import forget_keys, start_tetrad

    with tempfile.TemporaryDirectory() as directory:
        env = {f"TETRAD_{k.upper()}": str(v) for k, v in FUZZ_SETTINGS.items()}
        env |= {
            "TETRAD_REDIS_URL": "redis://127.0.0.1:6379/0",
            "TETRAD_KEY_PREFIX": f"fuzz-{uuid.uuid4().hex[:8]}",
            "TETRAD_DATA_DIR": directory,
            "TETRAD_LOG_LEVEL": "WARNING",
        }
        server = start_tetrad("fuzz-server", Path(directory), env=env)
        try:
            report = asyncio.run(run(server.url, args.cases, args.seed))
        finally:
            server.stop()
            forget_keys(env["TETRAD_REDIS_URL"], env["TETRAD_KEY_PREFIX"])
        errors = [line for line in server.output().splitlines() if '"level": "error"' in line]
    print(report.summary())
    for problem in report.problems:
        print("problem:", problem)
    print(f"server error log lines: {len(errors)}")
    for line in errors[:2]:
        print("  ", line[:4000])
    return 1 if report.problems or errors else 0


if __name__ == "__main__":
    sys.exit(main())
