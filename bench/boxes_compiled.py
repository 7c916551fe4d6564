"""The compiled (mypyc) Dots and Boxes search against pure Python: nodes per second at fixed
depth on the same seeded positions, both measured in one run, results checked equal.

    make compiled
    PYTHONPATH=. .venv/bin/python bench/boxes_compiled.py [--positions 8] [--rounds 3]

Each mode runs in its own process (``TETRAD_AI_BUILD=pure`` / ``compiled``, see
tools/compiled.py); the two take turns ``--rounds`` times and the best round of each
counts, so that load from other processes hits both alike. The control search of hard
runs iterative deepening to a fixed depth (3 on 5×5, 2 on 7×7) on positions reached by
random safe lines (with a few safe lines left), and the exact solver runs with a node
budget on the same positions; lines, values and node counts must be the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZES = ((5, 5, 3), (7, 7, 2))
"""Boards and the depth searched on each."""


def run_mode(
    mode: str, args: argparse.Namespace, rows: int, cols: int, depth: int
) -> dict[str, object]:
    """One timed run of the fixed-depth searches in a fresh process in ``mode``."""
    command = [
        sys.executable,
        "-m",
        "tools.fixed_depth",
        "--rows",
        str(rows),
        "--cols",
        str(cols),
        "--positions",
        str(args.positions),
        "--depth",
        str(depth),
        "--node-limit",
        "20000",
    ]
    environment = {**os.environ, "TETRAD_AI_BUILD": mode, "PYTHONPATH": str(ROOT)}
    output = subprocess.run(
        command, env=environment, cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    result: dict[str, object] = json.loads(output)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    header = ("board", "depth", "mode", "nodes", "seconds", "nodes/s", "speed-up")
    print("{:>6} {:>5} {:>9} {:>9} {:>8} {:>9} {:>9}".format(*header))
    for rows, cols, depth in SIZES:
        best: dict[str, dict[str, object]] = {}
        for _ in range(args.rounds):
            for mode in ("pure", "compiled"):
                started = time.perf_counter()
                result = run_mode(mode, args, rows, cols, depth)
                result["wall"] = time.perf_counter() - started
                seconds = float(result["seconds"])  # type: ignore[arg-type]
                if mode not in best or seconds < float(best[mode]["seconds"]):  # type: ignore[arg-type]
                    best[mode] = result
        if best["pure"]["searches"] != best["compiled"]["searches"]:
            raise SystemExit(f"{rows}x{cols}: compiled and pure Python disagree")
        pure_rate = 0.0
        for mode in ("pure", "compiled"):
            nodes = int(best[mode]["nodes"])  # type: ignore[call-overload]
            seconds = float(best[mode]["seconds"])  # type: ignore[arg-type]
            rate = nodes / seconds
            pure_rate = pure_rate or rate
            print(
                f"{rows}x{cols:<4} {depth:>5} {mode:>9} {nodes:>9} {seconds:>8.2f} {rate:>9.0f} "
                f"{rate / pure_rate:>8.2f}×"
            )
    print("lines, values and node counts identical in both modes")


if __name__ == "__main__":
    main()
