"""The strength ladder of bench/levels.py (a bench, run by hand; docs/levels.md shows its
table): a match is played as the tournament plays it, and its row counts what happened."""

from __future__ import annotations

import argparse
import importlib
import re
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
