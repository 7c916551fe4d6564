"""Random complete Dots and Boxes games per second: tetrad's public API and search path
against OpenSpiel's C++ engine driven from Python, measured side by side in one run.

Run by hand (needs the ``bench`` extra for OpenSpiel)::

    .venv/bin/pip install -e '.[dev,bench]'
    .venv/bin/python bench/boxes_speed.py [--seconds 2]

Every engine plays games in which each move is chosen uniformly among the legal lines.
The table prints games per second and each engine's ratio to OpenSpiel.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from core import boxes
from core.boxes.search import random_playout

SIZES = ((3, 3), (5, 5), (7, 7))


def public_api_game(rows: int, cols: int) -> Callable[[random.Random], None]:
    def play(rng: random.Random) -> None:
        game = boxes.new_game(rows, cols)
        while not game.is_over:
            game = game.play(rng.choice(game.legal_moves()))

    return play


def search_path_game(rows: int, cols: int) -> Callable[[random.Random], None]:
    geo = boxes.geometry(rows, cols)

    def play(rng: random.Random) -> None:
        random_playout(geo, rng)

    return play


def open_spiel_game(rows: int, cols: int) -> Callable[[random.Random], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    spiel_game = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")

    def play(rng: random.Random) -> None:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))

    return play


def games_per_second(play: Callable[[random.Random], None], seconds: float) -> float:
    """Games per second over one burst of ``seconds``."""
    rng = random.Random(2026)
    count = 0
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        play(rng)
        count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - started)


def best_rates(
    engines: dict[str, Callable[[random.Random], None]], seconds: float
) -> dict[str, float]:
    """Each engine's best burst rate, the engines taking turns so that load hits all alike."""
    rounds = 5
    best = dict.fromkeys(engines, 0.0)
    for _ in range(rounds):
        for name, play in engines.items():
            best[name] = max(best[name], games_per_second(play, seconds / rounds))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per engine and size")
    args = parser.parse_args()
    print(f"{'board':>6} {'engine':>12} {'games/s':>10} {'vs OpenSpiel':>13}")
    for rows, cols in SIZES:
        engines = {
            "public API": public_api_game(rows, cols),
            "search path": search_path_game(rows, cols),
        }
        spiel = open_spiel_game(rows, cols)
        if spiel is not None:
            engines = {"OpenSpiel": spiel, **engines}
        rates = best_rates(engines, args.seconds)
        baseline = rates.get("OpenSpiel")
        for name, rate in rates.items():
            ratio = f"{rate / baseline:.2f}" if baseline else "n/a"
            print(f"{rows}x{cols:<4} {name:>12} {rate:>10.0f} {ratio:>13}")
    if not open_spiel_game(1, 1):
        print("OpenSpiel is not installed: pip install -e '.[bench]' to compare.")


if __name__ == "__main__":
    main()
