"""Strings and coins: canonical components, and Nimstring values against brute force.

The brute force plays Nimstring itself — cut a string, move again after a capture, the
player who cannot move loses — on a component plus a Nim heap of ``k``; the component's
value is the ``k`` for which the player to move loses. It knows nothing of loony moves,
chains or gifts, so it checks the shortcuts :mod:`core.ai.boxes.nimstring` takes.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.ai.boxes import nimstring
from core.ai.boxes.analysis import side_counts
from core.ai.boxes.coins import (
    BOTTOM,
    LEFT,
    RIGHT,
    SIDES,
    STEP,
    TOP,
    Component,
    Key,
    canonical,
    component_lines,
    shape_key,
    side_lines,
)
from core.ai.boxes.nimstring import component_nimber, position_nimber
from core.ai.boxes.solver import Budget, SearchTimeout
from core.ai.boxes.tables import Tables, tables
from tests.core.coin_components import components_of, position_key

GROUND = -99
"""Ground ends are (GROUND - side, coin row): one per string, so strings stay distinct."""
BRUTE_MAX_STRINGS = 13
"""Brute force handles components up to this many strings in well under a second."""

String = tuple[tuple[int, int], tuple[int, int]]


def chain_cells(length: int) -> Component:
    """A straight chain of ``length`` coins, both ends at the ground."""
    return tuple((x, 0, LEFT | RIGHT) for x in range(length))


def loop_cells(length: int) -> Component:
    """A ring of ``length`` coins (an even number, at least 4) as a 2 × (length / 2) band."""
    width = length // 2
    cells: list[tuple[int, int, int]] = []
    for x in range(width):
        for y in (0, 1):
            sides = (LEFT if x > 0 else 0) | (RIGHT if x < width - 1 else 0)
            if x in (0, width - 1):
                sides |= BOTTOM if y == 0 else TOP
            cells.append((x, y, sides))
    return tuple(sorted(cells))


def image_of(key: Key) -> Component:
    """A component with this canonical key."""
    if key[0] in ("chain", "loop"):
        length = key[1]
        assert isinstance(length, int)
        return chain_cells(length) if key[0] == "chain" else loop_cells(length)
    cells = key[1]
    assert isinstance(cells, tuple)
    return cells


def strings_of(components: list[Component]) -> frozenset[String]:
    """Every string of the components as a pair of coin positions (or a ground end)."""
    result: set[String] = set()
    for cells in components:
        inside = {(x, y) for x, y, _ in cells}
        for x, y, sides in cells:
            for side in SIDES:
                if sides & side:
                    dx, dy = STEP[side]
                    other = (x + dx, y + dy)
                    if other not in inside:
                        result.add(((x, y), (GROUND - side, y)))
                    else:
                        result.add((min((x, y), other), max((x, y), other)))
    return frozenset(result)


@cache
def player_to_move_wins(strings: frozenset[String], heap: int) -> bool:
    """Nimstring on ``strings`` plus a Nim heap: a capture obliges its maker to move again."""
    for string in strings:
        rest = strings - {string}
        captured = any(coin[0] > GROUND and not any(coin in s for s in rest) for coin in string)
        if captured:
            if player_to_move_wins(rest, heap):
                return True
        elif not player_to_move_wins(rest, heap):
            return True
    return any(not player_to_move_wins(strings, smaller) for smaller in range(heap))


def brute_nimber(components: list[Component]) -> int:
    """The heap size that makes the sum a loss for the player to move."""
    strings = strings_of(components)
    for heap in range(12):
        if not player_to_move_wins(strings, heap):
            return heap
    raise AssertionError("loony: no heap balances it")


def settled_positions(rows: int, cols: int) -> list[int]:
    """Every position of the board with no box on three sides (none capturable)."""
    t = tables(rows, cols)
    result = []
    for drawn in range(1 << t.geo.line_count):
        counts = side_counts(t, drawn)
        if 3 not in counts and any(c < 4 for c in counts):
            result.append(drawn)
    return result


def test_chains_and_loops_get_their_keys_wherever_they_lie() -> None:
    assert canonical(chain_cells(4)) == ("chain", 4)
    assert canonical(loop_cells(6)) == ("loop", 6)
    t = tables(2, 2)
    # Nothing drawn on 2×2: one component of four coins, twelve strings (eight to the ground).
    assert position_key(t, 0) == (canonical(components_of(t, 0)[0]),)
    assert [strings.bit_count() for strings in component_lines(t, 0)] == [12]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 5), st.integers(1, 5), st.lists(st.integers(0, 2**60), min_size=2, max_size=6)
)
def test_shape_keys_match_exactly_when_position_keys_do(
    rows: int, cols: int, masks: list[int]
) -> None:
    t = tables(rows, cols)
    positions = [mask & t.geo.all_lines for mask in masks]
    # A position and its mirror image have equal keys; so does a position with itself.
    positions += [t.canonical(drawn) for drawn in positions]
    for drawn in positions:
        assert sorted(component_lines(t, drawn)) == sorted(
            sum(1 << line for line in lines_of(t, cells)) for cells in components_of(t, drawn)
        )
    for a in positions:
        for b in positions:
            same = position_key(t, a) == position_key(t, b)
            assert (shape_key(t, a) == shape_key(t, b)) == same


def lines_of(t: Tables, cells: Component) -> list[int]:
    """The undrawn lines of a component's coins, as numbered on the board of ``t``."""
    tops, rights, bottoms, lefts = zip(*side_lines(t), strict=True)
    found = []
    for x, y, sides in cells:
        box = y * t.geo.cols + x
        for side, lines in zip(SIDES, (tops, rights, bottoms, lefts), strict=True):
            if sides & side:
                found.append(lines[box])
    return list(set(found))


def test_equal_components_share_a_key_under_the_symmetries() -> None:
    t = tables(3, 3)
    keys: dict[object, set[int]] = {}
    rng = random.Random(7)
    for _ in range(300):
        drawn = rng.getrandbits(t.geo.line_count)
        for cells in components_of(t, drawn):
            # Every image of a component under the square's symmetries has the same key.
            images = {canonical(image_of(canonical(cells)))}
            assert images == {canonical(cells)}
            keys.setdefault(canonical(cells), set()).add(len(cells))
    assert all(len(sizes) == 1 for sizes in keys.values())


def strings_on_board(t: Tables, cells: Component) -> int:
    """The component's strings as the bitmask of its undrawn lines on the board of ``t``."""
    return sum(1 << line for line in lines_of(t, cells))


def test_every_small_component_has_its_brute_force_value() -> None:
    checked = set()
    for rows, cols in ((1, 1), (1, 2), (1, 3), (1, 4), (2, 2)):
        t = tables(rows, cols)
        for drawn in settled_positions(rows, cols):
            for cells in components_of(t, drawn):
                key = canonical(cells)
                strings = strings_on_board(t, cells)
                if key in checked or strings.bit_count() > BRUTE_MAX_STRINGS:
                    continue
                checked.add(key)
                assert component_nimber(t, strings) == brute_nimber([cells]), cells
    assert len(checked) > 100


def test_a_position_is_worth_the_nim_sum_of_its_components() -> None:
    t = tables(2, 2)
    for drawn in settled_positions(2, 2)[::7]:
        assert position_nimber(t, drawn) == brute_nimber(components_of(t, drawn))


def test_chains_and_loops_have_their_known_values() -> None:
    # A chain of one or two can be given away whole: *1; longer chains and every loop
    # can only be opened loonily: 0.
    for length in range(1, 9):
        t = tables(1, length)
        chain = sum(1 << line for line in lines_of(t, chain_cells(length)))
        assert component_nimber(t, chain) == (1 if length <= 2 else 0)
    for length in (4, 6, 8, 10):
        t = tables(2, length // 2)
        loop = sum(1 << line for line in lines_of(t, loop_cells(length)))
        assert component_nimber(t, loop) == 0


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 3), (3, 2), (1, 5), (3, 3)]), st.randoms(use_true_random=False))
def test_larger_boards_components_match_brute_force(
    size: tuple[int, int], rng: random.Random
) -> None:
    rows, cols = size
    t = tables(rows, cols)
    for _ in range(50):
        drawn = rng.getrandbits(t.geo.line_count)
        counts = side_counts(t, drawn)
        if 3 in counts or all(c == 4 for c in counts):
            continue
        for cells in components_of(t, drawn):
            strings = strings_on_board(t, cells)
            if strings.bit_count() <= BRUTE_MAX_STRINGS:
                assert component_nimber(t, strings) == brute_nimber([cells]), cells
        return


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.lists(st.integers(0, 2**60), max_size=6))
def test_equal_components_have_equal_values_wherever_they_lie(
    rows: int, cols: int, masks: list[int]
) -> None:
    # Values are remembered by where a component lies, so each image is worked out apart.
    t = tables(rows, cols)
    values: dict[object, int] = {}
    for mask in masks:
        drawn = mask & t.geo.all_lines
        if 3 in side_counts(t, drawn):
            continue  # Nimstring values are for positions with nothing to capture
        for image in {drawn, t.canonical(drawn)}:
            for cells in components_of(t, image):
                try:
                    value = component_nimber(t, strings_on_board(t, cells), Budget(node_limit=500))
                except SearchTimeout:
                    continue
                assert values.setdefault(canonical(cells), value) == value


def test_values_stay_right_when_the_memo_starts_over(monkeypatch: pytest.MonkeyPatch) -> None:
    positions = settled_positions(2, 2)[::5]
    small = tables(2, 2)
    expected = [position_nimber(small, drawn) for drawn in positions]
    # A memo of three entries starts over in the middle of valuing most components.
    monkeypatch.setattr(nimstring, "MEMO_LIMIT", 3)
    nimstring._memo.clear()
    assert [position_nimber(small, drawn) for drawn in positions] == expected
    assert nimstring.memo_size() <= 3
    # The empty 3×3 board is one component of 24 strings: more work than ten nodes.
    assert position_nimber(tables(3, 3), 0, Budget(node_limit=10)) is None
