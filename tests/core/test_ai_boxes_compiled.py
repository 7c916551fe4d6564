"""The optional compiled build of the Dots and Boxes search (tools/compiled.py, mypyc).

The session runs whichever build tests/conftest.py chose; ``make test`` runs the AI tests
once with the compiled build and once more with ``TETRAD_AI_BUILD=pure``. Here: the build
in force is the one expected (a build that exists and is up to date is never quietly left
unused), and the two builds search alike — same lines, values and node counts.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

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
