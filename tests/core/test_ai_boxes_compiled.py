"""The optional compiled build of the Dots and Boxes search (tools/compiled.py, mypyc and
the Cython kernel of the exact search).

The session runs whichever build tests/conftest.py chose; ``make test`` runs the AI tests
once with the compiled build and once more with ``TETRAD_AI_BUILD=pure``. Here: the build
in force is the one expected (a build that exists and is up to date is never quietly left
unused), the two builds search alike — same lines, values and node counts — and the
kernel leaves the exact solver's table as the Python search does.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from random import Random
from typing import Any

import pytest

from core.ai.boxes import solver
from core.ai.boxes.analysis import bits, safe_mask, side_counts
from core.ai.boxes.tables import tables
from core.boxes.search import draw
from tools import compiled

ROOT = Path(__file__).resolve().parents[2]


def test_the_modules_in_force_are_those_of_the_expected_build() -> None:
    import importlib

    wanted = os.environ.get(compiled.MODE_VARIABLE, "")
    expected = wanted == compiled.COMPILED or (
        wanted != compiled.PURE and compiled.built() and not compiled.stale()
    )
    kinds = {name: compiled.is_compiled(importlib.import_module(name)) for name in compiled.MODULES}
    assert kinds == dict.fromkeys(compiled.MODULES, expected)
    assert (solver.KERNEL is not None) == expected


def kernel_positions(rows: int, cols: int, count: int) -> list[int]:
    """Seeded positions from the middle game to the end: random safe lines until a random
    few are left, then up to three random lines of any kind (chains opened, boxes to take)."""
    t = tables(rows, cols)
    rng = Random(rows * 100 + cols)
    positions = []
    for _ in range(count):
        drawn = 0
        stop = rng.randint(0, 10)
        while len(safe := bits(safe_mask(t, drawn, side_counts(t, drawn)))) > stop:
            drawn, _ = draw(t.geo, drawn, rng.choice(safe))
        for _ in range(rng.randint(0, 3)):
            free = bits(t.geo.all_lines & ~drawn)
            if len(free) > 1:
                drawn |= 1 << rng.choice(free)
        positions.append(drawn)
    return positions


@pytest.mark.skipif(solver.KERNEL is None, reason="the exact search's kernel is not built")
@pytest.mark.parametrize(("rows", "cols", "count"), [(5, 5, 40), (4, 5, 30), (2, 7, 30), (7, 7, 8)])
def test_the_kernel_searches_as_the_python_does(rows: int, cols: int, count: int) -> None:
    # The same value, node count and transposition table, whether the budget stops the
    # search or not (a node limit, or a deadline on a clock that ticks once a reading,
    # cuts some of these short).
    t = tables(rows, cols)
    cut = 0
    for index, drawn in enumerate(kernel_positions(rows, cols, count)):
        found = []
        for native in (True, False):
            budget = solver.Budget(node_limit=20_000)
            if index % 3 == 0:
                budget = solver.Budget(deadline=300, clock=itertools.count().__next__)
            search = solver.Solver(t, budget)
            if not native:
                search.kernel = None
            counts = side_counts(t, drawn) if index % 2 else None
            try:
                value: int | None = search.value(drawn, counts=counts)
            except solver.SearchTimeout:
                value = None
            found.append((value, search.budget.nodes, search.table))
        assert found[0] == found[1], (rows, cols, drawn)
        cut += found[0][0] is None
    assert cut < count


def fixed_depth(mode: str, rows: int, cols: int, positions: int, depth: int) -> dict[str, Any]:
    """tools.fixed_depth's searches in a process of their own running ``mode``."""
    command = [sys.executable, "-m", "tools.fixed_depth", "--rows", str(rows), "--cols"]
    command += [str(cols), "--positions", str(positions), "--depth", str(depth)]
    command += ["--node-limit", "2000"]
    environment = {**os.environ, compiled.MODE_VARIABLE: mode, "PYTHONPATH": str(ROOT)}
    output = subprocess.run(
        command, env=environment, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, Any] = json.loads(output)
    assert result["compiled"] == (mode == compiled.COMPILED)
    return result


@pytest.mark.skipif(not compiled.built() or compiled.stale(), reason="no up-to-date compiled build")
@pytest.mark.skipif(
    os.environ.get(compiled.MODE_VARIABLE) == compiled.PURE,
    reason="runs both builds itself: once per `make test` is enough",
)
@pytest.mark.parametrize(("rows", "cols", "positions", "depth"), [(5, 5, 6, 3), (7, 7, 2, 1)])
def test_compiled_and_pure_search_alike(rows: int, cols: int, positions: int, depth: int) -> None:
    pure = fixed_depth(compiled.PURE, rows, cols, positions, depth)
    native = fixed_depth(compiled.COMPILED, rows, cols, positions, depth)
    assert native["searches"] == pure["searches"]
    # The positions give both searches something to do (the exact one within its budget).
    assert all(search["control"]["nodes"] > 10 for search in pure["searches"])
    assert all(search["exact"]["nodes"] > 10 for search in pure["searches"])
