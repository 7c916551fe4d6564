"""Why a Dots and Boxes line is good, in the words of the theory: a reason code and a count.

:func:`reason_for` looks at the line a player (usually hard) chose and names the idea behind
it, for the hint shown to a person. The codes, each with the count it carries in ``boxes``:

* ``takes_free_boxes`` — completes a box that costs nothing (boxes: capturable now);
* ``takes_all`` — at the end of a chain, takes everything: declining would not pay;
* ``declines_to_keep_control`` — leaves the last two boxes of a chain (four of a loop) to
  the opponent, who must then open the next long chain (boxes: how many are left);
* ``sacrifice_to_keep_control`` — gives boxes away while safe lines remain, to win the
  fight for control (boxes: the boxes offered);
* ``gives_fewest_boxes`` — no safe line is left, so it opens the chain or loop that costs
  least (boxes: its length);
* ``keeps_control`` — a safe line after which the opponent cannot win the fight for
  control by Nimstring theory: the long chains are yours;
* ``safe_line`` — a line that gives nothing away, with no stronger reason known.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from frozen_ai.boxes.analysis import capture_choices, components, safe_mask, side_counts
from frozen_ai.boxes.nimstring import position_nimber
from frozen_ai.boxes.search import draw
from frozen_ai.boxes.solver import Budget
from frozen_ai.boxes.tables import Tables
from frozen_ai.player import Clock

REASONS = (
    "takes_free_boxes",
    "takes_all",
    "declines_to_keep_control",
    "sacrifice_to_keep_control",
    "gives_fewest_boxes",
    "keeps_control",
    "safe_line",
)
"""Every reason code :func:`reason_for` can give."""

REASON_SECONDS = 0.2
"""Longest the Nimstring check of a hint may take (values it finds stay memoised)."""


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason code from :data:`REASONS` and the number of boxes it is about."""

    code: str
    boxes: int


def offered_boxes(t: Tables, drawn: int, line: int) -> int:
    """How many boxes the chain or loop that ``line`` opens holds (0 if it opens none)."""
    counts = side_counts(t, drawn)
    chains, loops = components(t, drawn, counts)
    for chain in chains:
        if line in chain.lines:
            return chain.length
    for loop in loops:
        if line in loop.lines:
            return loop.length
    return sum(1 for box in t.line_boxes[line] if counts[box] == 2)


def reason_for(t: Tables, drawn: int, line: int, clock: Clock = time.perf_counter) -> Reason:
    """The reason the theory gives for drawing ``line`` in the position ``drawn``."""
    counts = side_counts(t, drawn)
    after, completed = draw(t.geo, drawn, line)
    capturable = counts.count(3)
    if completed:
        choices = capture_choices(t, drawn, counts)
        if len(choices) > 1:
            return Reason("takes_all", capturable)
        return Reason("takes_free_boxes", capturable)
    after_counts = side_counts(t, after)
    handed = after_counts.count(3)
    if capturable:
        return Reason("declines_to_keep_control", handed)
    if handed:
        boxes = offered_boxes(t, drawn, line)
        if safe_mask(t, drawn, counts):
            return Reason("sacrifice_to_keep_control", boxes)
        return Reason("gives_fewest_boxes", boxes)
    work = Budget(deadline=clock() + REASON_SECONDS, clock=clock)
    if position_nimber(t, after, work) == 0:
        return Reason("keeps_control", 0)
    return Reason("safe_line", 0)
