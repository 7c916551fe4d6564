"""The fight-for-control measure of bench/boxes_fight.py (a bench, run by hand).

What it reports rests on its positions' values being the exact ones, so these check them
against the solver's value of every line.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from core.ai.boxes.solver import line_values

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_fight_positions_hold_the_exact_value_of_every_line(monkeypatch, tmp_path) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    fight = importlib.import_module("boxes_fight")
    positions = fight.make_positions("4x4", 2, 3, 6, seed=1, node_limit=2_000_000)
    assert len(positions) == 2
    for position in positions:
        assert 3 <= position.safe_lines <= 6
        state = fight.replay(4, 4, position.drawn)
        assert state.drawn == position.drawn
        exact = line_values(state)
        assert all(exact[line] == value for line, value in position.values.items())
        assert max(position.values.values()) == max(exact.values())
        assert fight.loss(position, "hard@0.05", 0) >= 0
    kept = tmp_path / "positions.jsonl"
    fight.save(kept, positions)
    assert fight.load(kept) == positions
