"""How well hard's leaf estimate predicts the exact value, with and without Nimstring values.

    .venv/bin/python bench/boxes_estimate.py [--size 5x5] [--positions 100] [--seed 9]

Positions come from random games of safe lines stopped with 2 to 8 safe lines left (where
the exact solver still finishes within its node budget). For each, the control search's
estimate — fill the safe lines, value the chains — is computed twice: with the player to
move after the fill decided by the fill order alone (the old estimate), and corrected by
Nimstring values (who wins the fight for control). Printed: how often each estimate has the
sign of the exact value, and its mean absolute error in boxes.
"""

from __future__ import annotations

import argparse
import random

from core.ai.boxes.analysis import bits, safe_mask, side_counts
from core.ai.boxes.levels import ControlSearch
from core.ai.boxes.solver import Budget, SearchTimeout, Solver
from core.ai.boxes.tables import tables
from core.boxes.search import draw

NODE_LIMIT = 400_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9)
    options = parser.parse_args()
    rows, cols = (int(part) for part in options.size.split("x"))
    t = tables(rows, cols)
    rng = random.Random(options.seed)
    scores = {"nimstring": [0, 0], "fill order": [0, 0]}
    counted = 0
    for index in range(options.positions):
        drawn = 0
        stop = rng.randint(2, 8)
        while len(safe := bits(safe_mask(t, drawn, side_counts(t, drawn)))) > stop:
            drawn, _ = draw(t.geo, drawn, rng.choice(safe))
        try:
            exact = Solver(t, Budget(node_limit=NODE_LIMIT)).value(drawn)
        except SearchTimeout:
            continue
        counted += 1
        # Nimstring tried on every component, or never (the estimate before it); a setting
        # rather than a subclass, which the compiled build would not allow.
        for name, nimber_strings in (("nimstring", t.geo.line_count), ("fill order", 0)):
            search = ControlSearch(t, Budget(), random.Random(index))
            search.nimber_strings = nimber_strings
            estimate = search.estimate(drawn)
            scores[name][0] += (estimate > 0) == (exact > 0)
            scores[name][1] += abs(estimate - exact)
    print(f"{options.size}: {counted} positions solved exactly of {options.positions}")
    for name, (signs, error) in scores.items():
        n = max(1, counted)
        print(f"{name:<12} sign right {100 * signs / n:5.1f} %   mean error {error / n:5.2f} boxes")


if __name__ == "__main__":
    main()
