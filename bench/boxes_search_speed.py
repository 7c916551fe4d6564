"""How fast hard's control search does a fixed amount of work, to compare two checkouts.

    cd bench && ../.venv/bin/python boxes_search_speed.py --file fight.jsonl [--depth 4] \\
        [--positions 150] [--repeats 3] [--boxes-setting NAME=VALUE]

The positions are a ``boxes_fight.py --file`` set (5×5 middle games). Each is searched to
a fixed depth with a fresh memory and no clock, so the work is the same in any run; the
best of ``--repeats`` times is printed with the nodes searched and a digest of the lines
and values found. Run it in two checkouts, one after the other on an idle machine: equal
digests say the search found the same things, and the ratio of the times is the speed-up
(the compiled build, ``make compiled``, is what counts).

Measured on this machine (depth 4, 150 positions): 1.08 s before this bench's first use,
0.85 s after the exact search's leaner inner loop (a344518), 0.49-0.54 s with numbered
component shapes (7075945) against 1.23-1.45 s without them in the same run (beside two
tournaments), and 0.40 s once a sacrifice is valued by one search of what is left
(5c1b00c). The digest stayed 13398 until that last change, which lets more of the
leaves' budget-limited exact solves finish.

It also prints how often the line found is optimal by the positions' exact values, which
shows what a setting buys at a fixed depth. On a set made later (``--seed 1``), depth 4:
without Nimstring (``--boxes-setting NIMBER_STRINGS=0``) 84 of 150 optimal, 1.88 boxes lost
a position, 2.6 s; with components of up to 24 strings valued, 107, 1.08 and 5.6 s; up to
30, 116, 0.68 and 9.8 s (``--repeats 1``). Nimstring values stay memoised from one repeat
to the next, so only the first repeat pays for working them out.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from ai_tournament import add_boxes_setting_option, apply_boxes_settings
from boxes_fight import load

from core.ai.boxes import levels
from core.ai.boxes.analysis import bits, safe_mask, side_counts
from core.ai.boxes.solver import Budget, sacrifices
from core.ai.boxes.tables import tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, required=True, help="positions of boxes_fight.py")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=3)
    add_boxes_setting_option(parser)
    options = parser.parse_args()
    apply_boxes_settings(options.boxes_setting)
    positions = load(options.file)[: options.positions]
    best = float("inf")
    found: list[tuple[int, int]] = []
    nodes = 0
    for _ in range(options.repeats):
        started = time.perf_counter()
        found, nodes = [], 0
        for position in positions:
            t = tables(position.rows, position.cols)
            drawn = position.drawn
            counts = side_counts(t, drawn)
            moves = bits(safe_mask(t, drawn, counts)) + sacrifices(t, drawn, counts)[0]
            memory = levels.ControlMemory(t, random.Random(1))
            search = levels.ControlSearch(t, Budget(), random.Random(1), memory)
            found.append(search.best_move(drawn, options.depth, moves))
            nodes += search.budget.nodes
        best = min(best, time.perf_counter() - started)
    digest = hash(tuple(found)) & 0xFFFF
    chosen = [line for line, _ in found]
    losses = [
        max(p.values.values()) - p.values[line] for p, line in zip(positions, chosen, strict=True)
    ]
    print(
        f"{len(positions)} positions to depth {options.depth}: best of {options.repeats} "
        f"{best:.3f} s, {nodes} control-search nodes, digest {digest}; optimal line in "
        f"{losses.count(0)}, {sum(losses) / max(1, len(losses)):.2f} boxes lost a position"
    )


if __name__ == "__main__":
    main()
