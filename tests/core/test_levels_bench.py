"""The strength ladder of bench/levels.py (a bench, run by hand; docs/levels.md shows its
table): a match is played as the tournament plays it, and its row counts what happened."""

from __future__ import annotations

import argparse
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_a_match_row_counts_its_games(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    levels = importlib.import_module("levels")
    options = argparse.Namespace(time_limit=0.05, seed=1, jobs=1)
    match = levels.play_match("boxes", "2x3", "normal", "random", 4, options)
    margins = [result.margin for result in match.results]
    assert len(margins) == 4
    row = match.row()
    assert row.startswith("| Dots and Boxes 2x3 | normal vs random | 4 | ")
    wins, draws, losses = (int(part) for part in re.findall(r"\| (\d+)/(\d+)/(\d+) \|", row)[0])
    assert (wins, draws, losses) == (
        sum(m > 0 for m in margins),
        margins.count(0),
        sum(m < 0 for m in margins),
    )
    assert f"| {sum(margins) / 4:+.1f} |" in row
    assert row.count("|") == levels.HEADER.splitlines()[0].count("|")


DOC = Path(__file__).resolve().parents[2] / "docs" / "levels.md"
SMALL = ["--games", "1", "--random-games", "1", "--time-limit", "0.05"]
SMALL += ["--boxes-size", "2x2", "--dots-size", "6x6"]
"""Overrides (argparse keeps the last of a flag) that make a documented run take seconds."""


def documented_runs() -> list[list[str]]:
    """The arguments of each ``levels.py`` command in docs/levels.md's shell block."""
    block = DOC.read_text().split("```sh\n", 1)[1].split("```", 1)[0]
    commands = block.replace("\\\n", " ").splitlines()
    return [line.split("levels.py", 1)[1].split() for line in commands if "levels.py" in line]


def test_the_documented_runs_work_on_small_boards() -> None:
    runs = documented_runs()
    assert len(runs) == 2
    for arguments in runs:
        output = subprocess.run(
            [sys.executable, "levels.py", *arguments, *SMALL],
            cwd=BENCH,
            env={**os.environ, "PYTHONPATH": str(BENCH.parent)},
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        rows = [line for line in output.splitlines() if line.startswith("| Dots")]
        matches = arguments[arguments.index("--matches") + 1] if "--matches" in arguments else ""
        assert len(rows) == (len(matches.split(",")) if matches else 5)
