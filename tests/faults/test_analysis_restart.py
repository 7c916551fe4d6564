"""A game analysis whose server is killed with SIGKILL goes on, in the next server asked for
it, from the positions it had saved: they are not analysed again (issue 29, item 12)."""

from __future__ import annotations

from typing import Any

import httpx

from core import ai, boxes
from tests.faults.conftest import Site, log_lines
from tests.faults.test_faults import until

RESUMED = "analysis resumed from its saved positions"


def hard_game(rows: int, cols: int, seed: int) -> str:
    state = boxes.new_game(rows, cols)
    while not state.is_over:
        state = state.play(ai.choose_move(state, "hard", seed=seed, time_limit=0.05))
        seed += 1
    return boxes.format_record(state)


async def analysis(http: httpx.AsyncClient, key: str) -> dict[str, Any]:
    response = await http.get(f"/api/analysis/{key}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


async def test_an_analysis_killed_with_its_server_goes_on_from_its_saved_positions(
    site: Site,
) -> None:
    site.settings.update(
        {
            "TETRAD_ANALYSIS_STALE_SECONDS": "1",
            "TETRAD_ANALYSIS_POSITION_SECONDS": "0.1",
            # Not this test's concern, and on a machine busy with other work a low priority
            # would stretch the analysis (its budget is processor time) past the timeout.
            "TETRAD_ANALYSIS_NICENESS": "0",
        }
    )
    record = hard_game(4, 4, seed=5)
    first = site.serve()
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as http:
        started = await http.post("/api/analysis", json={"record": record})
        assert started.status_code == 200, started.text
        key = started.json()["id"]

        async def some_saved() -> dict[str, Any] | None:
            found = await analysis(http, key)
            assert found["status"] == "running", "finished before the kill"
            return found if found["done"] >= 6 else None

        saved = await until(some_saved, "six positions saved", timeout=300)
    first.kill_9()

    second = site.serve()
    async with httpx.AsyncClient(base_url=second.url, timeout=30) as http:
        # The first request after the kill takes the analysis over with what was saved.
        taken_over = await analysis(http, key)
        assert taken_over["status"] == "running"
        assert taken_over["done"] >= saved["done"]
        kept = {p["ply"]: p for p in taken_over["positions"]}
        assert all(kept[p["ply"]] == p for p in saved["positions"])

        async def finished() -> dict[str, Any] | None:
            found = await analysis(http, key)
            return found if found["status"] != "running" else None

        done = await until(finished, "the analysis finished", timeout=600)
    assert done["status"] == "done" and done["done"] == done["total"]
    assert sorted(p["ply"] for p in done["positions"]) == list(range(done["total"]))
    final = {p["ply"]: p for p in done["positions"]}
    assert all(final[ply] == position for ply, position in kept.items())
    # ... and analysed only the others: the log says how many it started from.
    resumed = [line for line in log_lines(second) if line.get("msg") == RESUMED]
    assert [line.get("known") for line in resumed] == [taken_over["done"]]
