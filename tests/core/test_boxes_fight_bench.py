"""The fight-for-control measure of bench/boxes_fight.py (a bench, run by hand).

What it reports rests on its positions' values being the exact ones, so these check them
against the solver's value of every line.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from core import boxes
from core.ai.boxes.analysis import bits
from core.ai.boxes.solver import line_values
from core.ai.boxes.tables import tables

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_fight_positions_hold_exact_values_and_an_optimal_line(monkeypatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    fight = importlib.import_module("boxes_fight")
    positions = fight.make_positions("4x4", 2, 3, 6, seed=1, node_limit=2_000_000)
    assert len(positions) == 2
    for position in positions:
        assert 3 <= position.safe_lines <= 6
        t = tables(4, 4)
        state = boxes.new_game(4, 4)
        for line in bits(position.drawn):
            state = state.play(t.geo.lines[line])
        exact = line_values(state)
        assert all(exact[line] == value for line, value in position.values.items())
        # Only one line per chain is kept; an optimal line must be among them.
        assert max(position.values.values()) == max(exact.values())
        assert fight.loss(position, "hard@0.05", 0) >= 0
    kept = tmp_path / "positions.jsonl"
    fight.save(kept, positions)
    assert fight.load(kept) == positions
