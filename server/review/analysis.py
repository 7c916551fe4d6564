"""The computer's analysis of a whole game, in the background, cached in the database.

An analysis is named by a hash of the record's starting position and moves, so a game
is analysed once whoever asks (the game's page, an import of the same record). Its row
holds the progress (``done`` of ``total`` positions, the positions analysed so far) and
is written at most :data:`SAVE_EVERY` seconds after each position; a ``running`` row that
has not moved for ``stale_seconds`` belonged to a process that died, and the next request
for it goes on from the positions it holds (they are not analysed again).

Analyses run in a pool of their own (the analyst's, not the one thinking for the computer
in live rooms, and at a lower OS priority), at most one position per worker at a time
whatever the number of analyses running, each bounded in time (see
:class:`core.review.Limits`). Dots and Boxes positions are analysed from the last one back:
the solver finishes quickly near the end, each position solved fills the worker's table
for the earlier ones, the exact value of the next position is handed to the previous one
(a narrow search then proves it), and once the solver runs out of time on a position it
is not tried on the earlier (harder) ones, which get hard's estimate at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

from core.review import Limits
from server.api.schemas import AnalysisView, PlayerSummary, PositionAnalysis
from server.db.models import AnalysisRow
from server.refusals import Refusal
from server.review.worker import analyse_position_json
from server.rooms.computer import ComputerPlayer

log = logging.getLogger("tetrad.analysis")

STALE_SECONDS = 60.0
"""A running analysis whose row has not changed for this long goes on in the next process
asking for it (the default of ``stale_seconds``)."""
SAVE_EVERY = 0.5
"""Seconds between writes of a running analysis's progress (a long Dots game has many
positions; the row is rewritten whole each time)."""
MIN_HINT_SECONDS = 0.02
"""The least time the hard level gets to suggest a move in a position of a long Dots game."""
RUNNING_PER_WORKER = 3
"""Analyses one server process runs at once per AI worker; past that, ``busy``."""


def analysed_part(record: Mapping[str, Any]) -> dict[str, Any]:
    """What an analysis looks at in a game's JSON record: its start and moves, not its end."""
    return {name: value for name, value in record.items() if name != "end"}


def analysis_id(record: Mapping[str, Any]) -> str:
    """The name of the analysis of the game whose JSON record (its ``to_json``) is
    ``record``: a hash of its start and moves (not its end)."""
    text = json.dumps(analysed_part(record), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """``moment`` with its zone: the database gives back UTC times without one."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


BLUNDER_BOXES = 3
"""A judged move that gives away this many boxes or more is a blunder; fewer, a mistake."""


def players(positions: list[PositionAnalysis]) -> list[PlayerSummary]:
    """Each seat's judged moves, mistakes, blunders, boxes given away and accuracy (the
    share of its judged moves that were best)."""
    summaries = []
    for seat in (0, 1):
        costs = [p.cost for p in positions if p.to_move == seat and p.cost is not None]
        best = sum(1 for cost in costs if cost == 0)
        summaries.append(
            PlayerSummary(
                seat=seat,
                judged=len(costs),
                mistakes=sum(1 for cost in costs if 0 < cost < BLUNDER_BOXES),
                blunders=sum(1 for cost in costs if cost >= BLUNDER_BOXES),
                lost=sum(costs),
                accuracy=round(100 * best / len(costs), 1) if costs else None,
            )
        )
    return summaries


def view(row: AnalysisRow, since: int = 0) -> AnalysisView:
    """The analysis in ``row``; with ``since``, only the positions analysed after the first
    ``since`` (a poll of a long game then costs what changed, not the whole game again).
    The stored list only grows, in the order of analysis (a run taken up again keeps what
    was saved); a failed one started again begins anew, and a ``since`` past its end gets
    everything (``since`` 0 in the reply)."""
    stored = json.loads(row.positions)
    positions = [PositionAnalysis.model_validate(p) for p in stored]
    since = since if 0 < since <= len(positions) else 0
    shown = sorted(positions[since:], key=lambda p: p.ply)
    positions.sort(key=lambda p: p.ply)
    status = row.status if row.status in ("running", "done", "failed") else "failed"
    game = "boxes" if row.game == "boxes" else "dots"
    return AnalysisView(
        id=row.id,
        game=game,
        status=status,
        done=row.done,
        total=row.total,
        positions=shown,
        since=since,
        players=players(positions) if game == "boxes" else [],
    )


class Analyses:
    """Starts analyses, runs them in the AI pool and keeps their progress in the database."""

    def __init__(
        self,
        engine: Engine,
        computer: ComputerPlayer,
        workers: int,
        limits: Limits,
        game_seconds: float = 120.0,
        clock: Callable[[], datetime] = _now,
        stale_seconds: float = STALE_SECONDS,
    ) -> None:
        self.engine = engine
        self.computer = computer
        self.workers = max(1, workers)
        self.limits = limits
        self.game_seconds = game_seconds
        self.clock = clock
        self.stale_seconds = stale_seconds
        self._running: dict[str, asyncio.Task[None]] = {}
        self._slots = asyncio.Semaphore(self.workers)
        """One analysed position per worker in the pool at a time: a hint asked meanwhile
        waits for one position at most, not for every analysis's queue."""

    def limits_for(self, game: str, positions: int) -> Limits:
        """The time limits of each position of a game: a long Dots game gets less time a
        position, so that the whole analysis takes about ``game_seconds`` of the workers'
        time and does not hold them (and everyone else's analyses) for many minutes."""
        if game != "dots" or not positions:
            return self.limits
        share = self.game_seconds * self.workers / positions
        hint = min(self.limits.hint_seconds, max(MIN_HINT_SECONDS, share))
        return replace(self.limits, hint_seconds=hint)

    async def start(self, record: Mapping[str, Any]) -> AnalysisView:
        """The analysis of the game whose JSON record (its ``to_json``, replayed already)
        is ``record``: from the cache, or started now (asking again while it runs changes
        nothing)."""
        key = analysis_id(record)
        if key not in self._running and len(self._running) >= RUNNING_PER_WORKER * self.workers:
            found = await asyncio.to_thread(self._load, key)
            if found is None or found.status == "failed" or self._stale(found):
                raise Refusal("busy", "the server is analysing other games; try again shortly")
        row, claimed = await asyncio.to_thread(self._claim, key, record)
        if claimed and row.status == "running" and key not in self._running:
            known = json.loads(row.positions)
            if known:
                log.info(
                    "analysis resumed from its saved positions",
                    extra={"analysis": key, "known": len(known), "total": row.total},
                )
            self._running[key] = asyncio.create_task(self._run(key, analysed_part(record), known))
        return view(row)

    async def get(self, key: str, since: int = 0) -> AnalysisView:
        """The analysis named ``key`` as far as it has gone (from ``since``, see
        :func:`view`); one left running by a process that died goes on here from its saved
        positions (a failed one starts again, only when started again)."""
        row = await asyncio.to_thread(self._load, key)
        if row is None:
            raise Refusal("analysis_not_found", "no analysis with this id; start one first")
        if self._stale(row) and key not in self._running:
            return await self.start(json.loads(row.record))
        return view(row, since)

    async def find(self, record: Mapping[str, Any], since: int = 0) -> AnalysisView:
        """The analysis of the game whose JSON record is ``record``, if one was started."""
        return await self.get(analysis_id(record), since)

    async def close(self) -> None:
        for task in self._running.values():
            task.cancel()
        await asyncio.gather(*self._running.values(), return_exceptions=True)
        self._running.clear()

    # -- the database ---------------------------------------------------------------------

    def _stale(self, row: AnalysisRow) -> bool:
        """Whether ``row`` says running but its process stopped moving it on (died)."""
        return row.status == "running" and self.clock() - _utc(row.updated_at) > timedelta(
            seconds=self.stale_seconds
        )

    def _load(self, key: str) -> AnalysisRow | None:
        with Session(self.engine) as session:
            return session.get(AnalysisRow, key)

    def _claim(self, key: str, record: Mapping[str, Any]) -> tuple[AnalysisRow, bool]:
        """The row of ``key``, and whether this call made it (or took it over, when stale,
        keeping the positions it holds) as a running analysis of ours to run."""
        with Session(self.engine) as session:
            row = session.get(AnalysisRow, key)
            if row is not None and row.status != "failed" and not self._stale(row):
                session.expunge(row)
                return row, False
            kept = row.positions if row is not None and row.status == "running" else "[]"
            moves = len(record["moves"])
            fresh = AnalysisRow(
                id=key,
                game="boxes" if record["game"] == "boxes" else "dots",
                record=json.dumps(analysed_part(record), separators=(",", ":")),
                status="running" if moves else "done",
                done=len(json.loads(kept)),
                total=moves,
                positions=kept,
                updated_at=self.clock(),
            )
            if row is None:
                session.add(fresh)
            else:
                for field in ("status", "done", "total", "positions", "updated_at"):
                    setattr(row, field, getattr(fresh, field))
                fresh = row
            try:
                session.commit()
            except IntegrityError:  # another process claimed it first
                session.rollback()
                found = session.get(AnalysisRow, key)
                assert found is not None
                session.expunge(found)
                return found, False
            session.refresh(fresh)
            session.expunge(fresh)
            return fresh, True

    def _save(self, key: str, status: str, done: int, positions: list[dict[str, Any]]) -> None:
        with Session(self.engine) as session:
            row = session.get(AnalysisRow, key)
            if row is None:
                return
            row.status = status
            row.done = done
            row.positions = json.dumps(positions, separators=(",", ":"))
            row.updated_at = self.clock()
            session.add(row)
            session.commit()

    # -- the work -------------------------------------------------------------------------

    async def _run(self, key: str, record: dict[str, Any], known: list[dict[str, Any]]) -> None:
        positions = list(known)
        try:
            await self._analyse(key, record, positions)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis failed", extra={"analysis": key})
            await asyncio.to_thread(self._save, key, "failed", len(positions), positions)
        else:
            await asyncio.to_thread(self._save, key, "done", len(positions), positions)
        finally:
            self._running.pop(key, None)

    async def _analyse(
        self, key: str, record: dict[str, Any], positions: list[dict[str, Any]]
    ) -> None:
        limits = self.limits_for(record["game"], len(record["moves"]))
        boxes = record["game"] == "boxes"
        known = {position["ply"] for position in positions}
        plies = [ply for ply in range(len(record["moves"])) if ply not in known]
        if boxes:
            plies.reverse()
        frontier = max((p["ply"] for p in positions if boxes and not p["exact"]), default=-1)
        """Plies up to this one skip the solver: it ran out of time on this position."""
        exact = {p["ply"]: p["value"] for p in positions if p["exact"]}
        """The exact values found so far, by ply: each is handed to the position before."""
        queue = iter(plies)
        loop = asyncio.get_running_loop()
        saved = loop.time()

        async def worker() -> None:
            nonlocal saved
            nonlocal frontier
            for ply in queue:
                async with self._slots:
                    found = await self.computer.run(
                        analyse_position_json,
                        record,
                        ply,
                        limits,
                        ply > frontier,
                        exact.get(ply + 1),
                        key,
                    )
                if found["exact"]:
                    exact[ply] = found["value"]
                elif boxes:
                    frontier = max(frontier, ply)
                positions.append(found)
                if loop.time() - saved >= SAVE_EVERY:
                    saved = loop.time()
                    snapshot = list(positions)
                    await asyncio.to_thread(self._save, key, "running", len(snapshot), snapshot)

        await asyncio.gather(*(worker() for _ in range(self.workers)))
