"""How often hard plays an optimal line, against the exact solver, new hard vs frozen hard.

    .venv/bin/python bench/boxes_exactness.py [--positions 1000] [--sizes 4x4,5x5] \\
        [--time-limit 1.0] [--node-limit 3000000] [--max-safe 8] [--seed 0] [--jobs 2] \\
        [--new-only] [--boxes-setting NAME=VALUE]

Positions come from random games of safe lines stopped while 1 to ``--max-safe`` safe
lines remain (the fight for control, where the levels differ), spread evenly over the sizes. Each is
solved exactly — the value of every line — with a node budget; positions the solver cannot
finish within it are skipped and counted. Then the new hard (``core.ai``) and the frozen
hard (``bench/frozen_ai``) each choose a line with the same time limit; a line is optimal
when its exact value equals the best. Reported per size: the share of optimal lines and the
boxes lost per position against perfect play, for both players (``--new-only``: the new
hard alone, in half the time; ``--boxes-setting`` sets a constant of hard's search, as in
ai_tournament.py).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from tools.compiled import apply_frozen_mode, apply_mode

# Before core is imported: frozen_ai imports it, and ai_tournament would then find it too
# late to fall back to the sources when the compiled build is stale.
apply_mode()
apply_frozen_mode()

import frozen_ai  # noqa: E402
from ai_tournament import add_boxes_setting_option, apply_boxes_settings, run_all  # noqa: E402

from core import ai, boxes  # noqa: E402
from core.ai.boxes.analysis import bits, safe_mask, side_counts  # noqa: E402
from core.ai.boxes.solver import Budget, SearchTimeout, line_values  # noqa: E402
from core.ai.boxes.tables import tables  # noqa: E402

MAX_SAFE_LEFT = 8
"""Positions are taken with between 1 and this many safe lines left, unless told."""


@dataclass
class Outcome:
    """One position: its size, whether it was solved, and each player's loss (None: skipped)."""

    size: str
    new_loss: int | None
    frozen_loss: int | None


def random_position(
    rows: int, cols: int, rng: random.Random, max_safe: int = MAX_SAFE_LEFT
) -> boxes.BoxesState:
    """Random safe lines until at most a random 1..``max_safe`` safe lines are left."""
    t = tables(rows, cols)
    stop_at = rng.randint(1, max_safe)
    state = boxes.new_game(rows, cols)
    while True:
        safe = bits(safe_mask(t, state.drawn, side_counts(t, state.drawn)))
        if len(safe) <= stop_at:
            return state
        state = state.play(t.geo.lines[rng.choice(safe)])


def exact_line_values(state: boxes.BoxesState, node_limit: int) -> dict[int, int] | None:
    """The exact value of every legal line for the player to move, or None if too costly."""
    try:
        return line_values(state, Budget(node_limit=node_limit))
    except SearchTimeout:
        return None


def measure(args: tuple[str, int, float, int, int, bool]) -> Outcome:
    """Generate, solve and play position number ``index`` of the size given."""
    size, index, time_limit, node_limit, max_safe, new_only = args
    rows, cols = (int(part) for part in size.split("x"))
    rng = random.Random(index * 7919 + rows * 31 + cols)
    state = random_position(rows, cols, rng, max_safe)
    values = exact_line_values(state, node_limit)
    if values is None:
        return Outcome(size, None, None)
    best = max(values.values())
    index_of = state.geometry.index_of
    new = ai.choose_move(state, "hard", seed=index, time_limit=time_limit)
    if new_only:
        return Outcome(size, best - values[index_of[new]], 0)
    frozen = frozen_ai.choose_move(state, "hard", seed=index, time_limit=time_limit)
    return Outcome(size, best - values[index_of[new]], best - values[index_of[frozen]])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--sizes", default="4x4,5x5")
    parser.add_argument("--time-limit", type=float, default=1.0)
    parser.add_argument("--node-limit", type=int, default=3_000_000)
    parser.add_argument("--max-safe", type=int, default=MAX_SAFE_LEFT)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--new-only", action="store_true", help="leave the frozen hard out")
    add_boxes_setting_option(parser)
    options = parser.parse_args()
    settings = apply_boxes_settings(options.boxes_setting)
    sizes = options.sizes.split(",")
    jobs = [
        (
            sizes[n % len(sizes)],
            options.seed * 1_000_003 + n,
            options.time_limit,
            options.node_limit,
            options.max_safe,
            options.new_only,
        )
        for n in range(options.positions)
    ]
    started = time.perf_counter()
    outcomes = run_all(measure, jobs, options.jobs)
    print(
        f"boxes exactness: {options.positions} positions ({options.sizes}), 1..{options.max_safe} "
        f"safe lines left, time limit {options.time_limit:g} s, node limit "
        f"{options.node_limit}, seed {options.seed}, {time.perf_counter() - started:.0f} s"
        + (", new hard only (frozen columns empty)" if options.new_only else "")
        + "".join(f", {name}={value!r}" for name, value in settings.items())
    )
    print(
        f"{'size':<6}{'solved':>8}{'skipped':>9}{'new opt %':>11}{'frozen opt %':>14}"
        f"{'new loss':>10}{'frozen loss':>13}"
    )
    for size in sizes:
        mine = [o for o in outcomes if o.size == size]
        solved = [o for o in mine if o.new_loss is not None and o.frozen_loss is not None]
        n = max(1, len(solved))
        new_opt = sum(o.new_loss == 0 for o in solved) / n * 100
        frozen_opt = sum(o.frozen_loss == 0 for o in solved) / n * 100
        new_loss = sum(o.new_loss or 0 for o in solved) / n
        frozen_loss = sum(o.frozen_loss or 0 for o in solved) / n
        print(
            f"{size:<6}{len(solved):>8}{len(mine) - len(solved):>9}{new_opt:>11.1f}"
            f"{frozen_opt:>14.1f}{new_loss:>10.2f}{frozen_loss:>13.2f}"
        )


if __name__ == "__main__":
    main()
