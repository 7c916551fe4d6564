"""Hard's control search and the exact solver on seeded positions, as JSON, in either build.

    TETRAD_AI_BUILD=pure|compiled python -m tools.fixed_depth --rows 5 --cols 5

Run once per build by the test of the compiled build (tests/core/test_ai_boxes_compiled.py)
and by bench/boxes_compiled.py: both compare the two outputs (lines, values and node
counts must be equal) and the bench compares the times. Prints the build in force too.
"""

from __future__ import annotations

import argparse
import json
import time
from random import Random
from typing import Any

from tools.compiled import apply_mode, is_compiled

MODE = apply_mode()  # before core is imported

from core import boxes  # noqa: E402
from core.ai.boxes import levels  # noqa: E402
from core.ai.boxes.analysis import bits, safe_mask, side_counts  # noqa: E402
from core.ai.boxes.levels import ControlSearch  # noqa: E402
from core.ai.boxes.solver import Budget, SearchTimeout, Solver, sacrifices  # noqa: E402
from core.ai.boxes.tables import Tables, tables_for  # noqa: E402
from core.boxes.search import draw  # noqa: E402

MIN_SAFE_LINES = 4


def seeded_position(t: Tables, rng: Random) -> int:
    """Drawn lines after random safe lines, stopping with a random number of safe lines left."""
    drawn = 0
    stop_at = rng.randint(MIN_SAFE_LINES, 3 * MIN_SAFE_LINES)
    while True:
        safe = bits(safe_mask(t, drawn, side_counts(t, drawn)))
        if len(safe) <= stop_at:
            return drawn
        drawn, _ = draw(t.geo, drawn, rng.choice(safe))


def control_search(t: Tables, drawn: int, depth: int, seed: int) -> dict[str, Any]:
    """Hard's iterative deepening to ``depth`` with no time limit: line, value, nodes."""
    counts = side_counts(t, drawn)
    moves = bits(safe_mask(t, drawn, counts)) + sacrifices(t, drawn, counts)[0]
    search = ControlSearch(t, Budget(), Random(seed))
    line, value = moves[0], 0
    for level in range(1, depth + 1):
        search.cut = False
        line, value = search.best_move(drawn, level, moves)
        if not search.cut:
            break
        moves.remove(line)
        moves.insert(0, line)
    return {"line": line, "value": value, "nodes": search.budget.nodes}


def exact_solve(t: Tables, drawn: int, node_limit: int) -> dict[str, Any]:
    """The exact solver with a node budget: its answer, or that it ran out, and nodes."""
    budget = Budget(node_limit=node_limit)
    counts = side_counts(t, drawn)
    moves = bits(safe_mask(t, drawn, counts)) + sacrifices(t, drawn, counts)[0]
    try:
        line, value = Solver(t, budget).best_move(drawn, moves)
    except SearchTimeout:
        return {"line": None, "value": None, "nodes": budget.nodes}
    return {"line": line, "value": value, "nodes": budget.nodes}


def results(rows: int, cols: int, positions: int, depth: int, node_limit: int) -> dict[str, Any]:
    t = tables_for(boxes.geometry(rows, cols))
    rng = Random(rows * 1000 + cols)
    searches = []
    nodes = 0
    started = time.perf_counter()
    for index in range(positions):
        drawn = seeded_position(t, rng)
        control = control_search(t, drawn, depth, index)
        found: dict[str, Any] = {"drawn": drawn, "control": control}
        nodes += control["nodes"]
        if node_limit:
            exact = found["exact"] = exact_solve(t, drawn, node_limit)
            nodes += exact["nodes"]
        searches.append(found)
    seconds = time.perf_counter() - started
    return {
        "mode": MODE,
        "compiled": is_compiled(levels),
        "searches": searches,
        "nodes": nodes,
        "seconds": seconds,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--cols", type=int, default=5)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--node-limit", type=int, default=0, help="also the exact solver")
    args = parser.parse_args()
    print(json.dumps(results(args.rows, args.cols, args.positions, args.depth, args.node_limit)))


if __name__ == "__main__":
    main()
