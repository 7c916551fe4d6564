"""How well players fight for control in Dots and Boxes, judged by exact values.

    cd bench && ../.venv/bin/python boxes_fight.py [--size 5x5] [--positions 120] \\
        [--safe 6-12] [--players hard@0.2,hard@0.8,frozen-hard@0.8] [--seed 1] \\
        [--file fight.jsonl] [--node-limit 4000000] [--games 0] [--boxes-setting NAME=VALUE]

Games decide the strength question but slowly: at 60 games a result is ±6 points, which
hides most changes to the search. This asks it position by position. Positions come from
games hard plays against itself (0.05 s a move, from a few random safe lines), each taken
at a random moment with between the given numbers of safe lines left: the middle game,
where the fight for control is decided and the search cannot read to its end. The exact
solver values every legal line there (positions it cannot finish within
``--node-limit`` nodes are skipped). Then each player picks a line; the table gives the
share of optimal lines and the boxes lost a position against perfect play, overall and by
safe lines left. ``--file`` keeps the solved positions (JSON lines) and reuses them, so
runs compare players on the same set; positions made on another machine differ, as hard's
self-play runs on the clock.

Measured (150 positions, ``--positions 150 --safe 6-14 --seed 1``, compiled build), optimal
lines and boxes lost a position, before and after the control search's late-line
reductions (both with its memory kept between moves):

    player            before            after
    hard@0.2          64.7 %, 1.32      66.0 %, 1.21
    hard@0.8          73.3 %, 0.85      82.7 %, 0.57
    frozen-hard@0.8   66.0 %, 1.33      64.7 %, 1.45

(The frozen player is unchanged: its two figures show the run-to-run noise, about ±0.1
box; the second run shared the machine with the test suite.)
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path

from ai_tournament import add_boxes_setting_option, apply_boxes_settings, pick

from core import boxes
from core.ai.boxes.analysis import bits, capture_choices, safe_mask, side_counts
from core.ai.boxes.solver import Budget, SearchTimeout, line_values
from core.ai.boxes.tables import Tables, tables

SELF_PLAY_TIME = 0.05
"""Hard's time a move in the games the positions come from."""
RANDOM_LINES = 8
"""Random safe lines that open each of those games, so that they differ."""


@dataclass(frozen=True)
class Position:
    """A solved position: its drawn lines and the exact value of each legal line."""

    rows: int
    cols: int
    drawn: int
    safe_lines: int
    values: dict[int, int]


def game_positions(t: Tables, rng: random.Random, low: int, high: int) -> list[int]:
    """The positions with ``low``..``high`` safe lines and no box to take in one hard game."""
    found: list[int] = []
    state = boxes.new_game(t.geo.rows, t.geo.cols)
    for _ in range(RANDOM_LINES):
        safe = bits(safe_mask(t, state.drawn, side_counts(t, state.drawn)))
        state = state.play(t.geo.lines[rng.choice(safe)])
    while not state.is_over:
        counts = side_counts(t, state.drawn)
        safe = bits(safe_mask(t, state.drawn, counts))
        if low <= len(safe) <= high and not capture_choices(t, state.drawn, counts):
            found.append(state.drawn)
        state = state.play(pick(state, "hard", rng.randrange(1 << 30), SELF_PLAY_TIME))
    return found


def replay(rows: int, cols: int, drawn: int) -> boxes.BoxesState:
    """A game state with the lines ``drawn`` (whose turn it is does not matter to hard)."""
    t = tables(rows, cols)
    state = boxes.new_game(rows, cols)
    for line in bits(drawn):
        state = state.play(t.geo.lines[line])
    return state


def make_positions(
    size: str, count: int, low: int, high: int, seed: int, node_limit: int, games: int = 0
) -> list[Position]:
    """``count`` solved positions with ``low``..``high`` safe lines, one per hard game, or
    as many as ``games`` games give if that is not 0 (on 7×7 the solver settles only some
    middle games: the rest are dropped)."""
    rows, cols = (int(part) for part in size.split("x"))
    t = tables(rows, cols)
    rng = random.Random(seed)
    made: list[Position] = []
    played = 0
    while len(made) < count and (not games or played < games):
        played += 1
        found = game_positions(t, rng, low, high)
        if not found:
            continue
        drawn = rng.choice(found)
        try:
            values = line_values(replay(rows, cols, drawn), Budget(node_limit=node_limit))
        except SearchTimeout:
            continue
        safe = len(bits(safe_mask(t, drawn, side_counts(t, drawn))))
        made.append(Position(rows, cols, drawn, safe, values))
    return made


def load(path: Path) -> list[Position]:
    """The positions kept in ``path``."""
    positions = []
    for text in path.read_text().splitlines():
        row = json.loads(text)
        values = {int(line): value for line, value in row.pop("values").items()}
        positions.append(Position(values=values, **row))
    return positions


def save(path: Path, positions: list[Position]) -> None:
    """Keep ``positions`` in ``path``, one JSON object a line."""
    lines = [
        json.dumps(
            {
                "rows": p.rows,
                "cols": p.cols,
                "drawn": p.drawn,
                "safe_lines": p.safe_lines,
                "values": p.values,
            }
        )
        for p in positions
    ]
    path.write_text("\n".join(lines) + "\n")


def loss(position: Position, spec: str, seed: int) -> int:
    """The boxes ``spec`` loses against perfect play in ``position``."""
    state = replay(position.rows, position.cols, position.drawn)
    line = state.geometry.index_of[pick(state, spec, seed, 1.0)]
    return max(position.values.values()) - position.values[line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="5x5")
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--safe", default="6-12", help="safe lines left, LOW-HIGH")
    parser.add_argument("--players", default="hard@0.2,hard@0.8,frozen-hard@0.8")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--node-limit", type=int, default=4_000_000)
    parser.add_argument(
        "--games",
        type=int,
        default=0,
        help="stop making positions after this many games (0: until --positions are solved)",
    )
    parser.add_argument("--file", type=Path, help="keep the solved positions here and reuse them")
    add_boxes_setting_option(parser)
    options = parser.parse_args()
    low, high = (int(part) for part in options.safe.split("-"))
    started = time.perf_counter()
    if options.file is not None and options.file.exists():
        positions = load(options.file)
    else:
        positions = make_positions(
            options.size,
            options.positions,
            low,
            high,
            options.seed,
            options.node_limit,
            options.games,
        )
        if options.file is not None:
            save(options.file, positions)
    settings = apply_boxes_settings(options.boxes_setting)
    print(
        f"boxes fight for control: {len(positions)} positions, seed {options.seed}, "
        f"ready in {time.perf_counter() - started:.0f} s"
        + "".join(f", {name}={value!r}" for name, value in settings.items())
    )
    buckets = sorted({p.safe_lines for p in positions})
    print(f"{'player':<20}{'optimal %':>10}{'loss':>7}   by safe lines left: optimal/all, loss")
    for spec in options.players.split(","):
        losses = [loss(p, spec, n) for n, p in enumerate(positions)]
        optimal = sum(lost == 0 for lost in losses) / len(losses) * 100
        detail = []
        for safe in buckets:
            mine = [lost for lost, p in zip(losses, positions, strict=True) if p.safe_lines == safe]
            detail.append(f"{safe}: {mine.count(0)}/{len(mine)}, {sum(mine) / len(mine):.1f}")
        print(f"{spec:<20}{optimal:>10.1f}{sum(losses) / len(losses):>7.2f}   " + "; ".join(detail))


if __name__ == "__main__":
    main()
