"""Simple loony endgames: the controlled-value formula and opening rule against search."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from core import boxes
from core.ai.boxes.analysis import components, side_counts
from core.ai.boxes.endgame import (
    _value,
    controlled_value,
    keeps_control,
    loony_formula,
    loony_opening,
    opponent_gain,
    simple_endgame_value,
)
from core.ai.boxes.solver import Solver, line_values
from core.ai.boxes.tables import tables
from core.boxes import Line


def rest_after(kind: str, length: int, chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """The recursion's value of what is left once one component is opened."""
    rest_chains, rest_loops = list(chains), list(loops)
    (rest_chains if kind == "chain" else rest_loops).remove(length)
    return _value(tuple(sorted(rest_chains)), tuple(sorted(rest_loops)))


def test_controlled_value_of_known_positions() -> None:
    assert controlled_value((), ()) == 0
    assert controlled_value((5,), ()) == 5
    assert controlled_value((3, 3, 3), ()) == 9 - 12 + 4
    assert controlled_value((4,), (6,)) == 10 - 4 - 8 + 4
    assert controlled_value((), (4, 4)) == 8 - 16 + 8


def test_formula_and_opening_rule_agree_with_the_recursion_on_every_small_endgame() -> None:
    settled = 0
    for chain_count in range(5):
        for chains in itertools.combinations_with_replacement(range(3, 10), chain_count):
            for loop_count in range(4):
                for loops in itertools.combinations_with_replacement(range(4, 13, 2), loop_count):
                    if not chains and not loops:
                        continue
                    exact = _value(chains, loops)
                    formula = loony_formula(chains, loops)
                    if formula is not None:
                        settled += 1
                        assert formula == exact, (chains, loops)
                    kind, length = loony_opening(chains, loops)
                    gain = opponent_gain(kind, length, rest_after(kind, length, chains, loops))
                    assert -gain == exact, (chains, loops, kind, length)
    assert settled > 10_000  # the formula settles most of them


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(3, 12), max_size=5),
    st.lists(st.sampled_from([4, 6, 8, 10, 12]), max_size=3),
)
def test_declining_is_right_exactly_when_keeps_control_says(
    chains: list[int], loops: list[int]
) -> None:
    if not chains and not loops:
        return
    kind, length = ("chain", chains[0]) if chains else ("loop", loops[0])
    rest = rest_after(kind, length, tuple(sorted(chains)), tuple(sorted(loops)))
    hand = 2 if kind == "chain" else 4
    take_all, decline = length + rest, length - 2 * hand - rest
    assert keeps_control(kind, rest) == (decline >= take_all)
    assert simple_endgame_value(tuple(chains), tuple(loops)) == _value(
        tuple(sorted(chains)), tuple(sorted(loops))
    )


def strip_position(rows: int, cols: int, loop_bands: tuple[tuple[int, ...], ...]) -> int:
    """Rows as chains of ``cols`` boxes, and pairs of rows split into loops of 2 × width.

    ``loop_bands`` gives, for each band of two rows starting at the top, the widths of its
    loops (at least 2 each, adding up to ``cols``); the rows below are single chains.
    """
    state = boxes.new_game(rows, cols)
    geo = state.geometry
    keep: set[Line] = set()  # the undrawn lines
    y = 0
    for widths in loop_bands:
        x0 = 0
        for width in widths:
            for x in range(x0, x0 + width - 1):
                keep.add(Line((x + 1, y), (x + 1, y + 1)))
                keep.add(Line((x + 1, y + 1), (x + 1, y + 2)))
            keep.add(Line((x0, y + 1), (x0 + 1, y + 1)))
            keep.add(Line((x0 + width - 1, y + 1), (x0 + width, y + 1)))
            x0 += width
        y += 2
    for row in range(y, rows):
        for x in range(cols + 1):
            keep.add(Line((x, row), (x, row + 1)))
    drawn = 0
    for index, line in enumerate(geo.lines):
        if line not in keep:
            drawn |= 1 << index
    return drawn


LAYOUTS = [
    (3, 3, ()),
    (4, 3, ((3,),)),
    (3, 4, ((2, 2),)),
    (4, 4, ((4,),)),
    (5, 4, ((2, 2),)),
    (5, 5, ((2, 3),)),
    (4, 5, ((5,), (2, 3))),
    (5, 6, ((2, 4),)),
    (5, 3, ((3,), (3,))),
]


def test_formula_and_opening_match_the_exact_solver_on_boards() -> None:
    for rows, cols, bands in LAYOUTS:
        t = tables(rows, cols)
        drawn = strip_position(rows, cols, bands)
        counts = side_counts(t, drawn)
        assert set(counts) == {2}
        chains, loops = components(t, drawn, counts)
        chain_lengths = tuple(sorted(c.length for c in chains))
        loop_lengths = tuple(sorted(lp.length for lp in loops))
        assert len(chain_lengths) + 2 * len(bands) == rows
        value = simple_endgame_value(chain_lengths, loop_lengths)
        assert Solver(t).value(drawn) == value, (rows, cols, bands)
        # The component the opening rule picks is opened by a line the solver rates best.
        state = boxes.new_game(rows, cols)
        geo = state.geometry
        for line in geo.lines_in(drawn):
            state = state.play(line)
        values = line_values(state)
        kind, length = loony_opening(chain_lengths, loop_lengths)
        picks = (
            [c for c in chains if c.length == length]
            if kind == "chain"
            else [lp for lp in loops if lp.length == length]
        )
        assert picks
        assert values[picks[0].lines[0]] == max(values.values()) == value
