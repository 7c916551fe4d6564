"""The daily board: a 5×5 Dots and Boxes position that depends only on the UTC date."""

from __future__ import annotations

import hashlib
import random
from datetime import UTC, date, datetime
from typing import Any, Final

DAILY_ROWS = 5
DAILY_COLS = 5
DAILY_LEVEL: Final = "normal"


def today() -> date:
    return datetime.now(UTC).date()


def _all_lines(rows: int, cols: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    horizontal = [((x, y), (x + 1, y)) for y in range(rows + 1) for x in range(cols)]
    vertical = [((x, y), (x, y + 1)) for y in range(rows) for x in range(cols + 1)]
    return horizontal + vertical


def _boxes_beside(
    line: tuple[tuple[int, int], tuple[int, int]], rows: int, cols: int
) -> list[tuple[int, int]]:
    (x1, y1), (_, y2) = line
    horizontal = y1 == y2
    # A horizontal line borders the boxes below and above it, a vertical one right and left.
    candidates = [(x1, y1), (x1, y1 - 1)] if horizontal else [(x1, y1), (x1 - 1, y1)]
    return [(x, y) for x, y in candidates if 0 <= x < cols and 0 <= y < rows]


def daily_lines(day: date) -> list[dict[str, Any]]:
    """Between 6 and 10 start lines for ``day``, none giving a box more than two sides."""
    seed = int.from_bytes(hashlib.sha256(f"tetrad-daily-{day.isoformat()}".encode()).digest()[:8])
    rng = random.Random(seed)
    candidates = _all_lines(DAILY_ROWS, DAILY_COLS)
    rng.shuffle(candidates)
    wanted = rng.randint(6, 10)
    sides: dict[tuple[int, int], int] = {}
    chosen: list[dict[str, Any]] = []
    for line in candidates:
        beside = _boxes_beside(line, DAILY_ROWS, DAILY_COLS)
        if any(sides.get(box, 0) >= 2 for box in beside):
            continue
        for box in beside:
            sides[box] = sides.get(box, 0) + 1
        chosen.append({"line": [list(line[0]), list(line[1])]})
        if len(chosen) == wanted:
            break
    return chosen
