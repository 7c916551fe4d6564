"""The exact Dots and Boxes solver: known values, and agreement with plain minimax."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import IllegalMove, boxes
from core.ai.boxes import solve
from core.ai.boxes.analysis import side_counts
from core.ai.boxes.book import BOOK_SIZE, book_values
from core.ai.boxes.endgame import simple_endgame_value
from core.ai.boxes.solver import (
    Budget,
    SearchTimeout,
    Solver,
    counts_after,
    line_values,
    take_forced,
)
from core.ai.boxes.tables import tables
from core.boxes.search import draw


def brute_force(rows: int, cols: int):
    """Plain minimax on the margin of the remaining boxes, memoised, with no pruning at all."""
    geo = boxes.geometry(rows, cols)

    @cache
    def value(drawn: int) -> int:
        if drawn == geo.all_lines:
            return 0
        best = -(10**9)
        for line in range(geo.line_count):
            if drawn >> line & 1:
                continue
            after, completed = draw(geo, drawn, line)
            score = completed + value(after) if completed else -value(after)
            best = max(best, score)
        return best

    return value


def random_position(rows: int, cols: int, drawn_lines: int, rng: random.Random) -> int:
    geo = boxes.geometry(rows, cols)
    drawn = 0
    for line in rng.sample(range(geo.line_count), drawn_lines):
        drawn |= 1 << line
    return drawn


@pytest.mark.parametrize(
    ("rows", "cols", "first_player_margin"),
    [(1, 1, -1), (1, 2, 0), (2, 1, 0), (2, 2, 2), (1, 3, -1), (1, 4, 0)],
)
def test_brute_force_and_solver_agree_on_tiny_boards(rows, cols, first_player_margin) -> None:
    assert brute_force(rows, cols)(0) == first_player_margin
    assert solve(boxes.new_game(rows, cols)) == first_player_margin


@pytest.mark.parametrize(
    ("rows", "cols", "margin"), [(1, 1, -1), (2, 2, 2), (1, 3, -1), (2, 3, -2), (3, 2, -2)]
)
def test_known_first_player_margins(rows, cols, margin) -> None:
    assert solve(boxes.new_game(rows, cols)) == margin


@pytest.fixture(scope="module")
def bookless_3x3_solver() -> Solver:
    return Solver(tables(3, 3), use_book=False)


def test_3x3_is_a_loss_by_three_for_the_first_player_solved_from_scratch(
    bookless_3x3_solver,
) -> None:
    # About 10 s on a quiet 2-core box without the opening book (no timing assert: the
    # machine is shared, and it took 50 s with the load average at 9).
    assert bookless_3x3_solver.value(0) == -3


def test_3x3_with_the_book_agrees() -> None:
    assert solve(boxes.new_game(3, 3)) == -3


def test_book_entries_match_a_fresh_solve(bookless_3x3_solver) -> None:
    assert BOOK_SIZE == (3, 3)
    bookless_3x3_solver.value(0)
    rng = random.Random(4)
    values = book_values()
    assert len(values) == 4 + 43 + 258 + 1285 + 4488
    for drawn in rng.sample(sorted(values), 25):
        assert bookless_3x3_solver.value(drawn) == values[drawn], bin(drawn)


@pytest.mark.parametrize(("rows", "cols", "lines"), [(2, 3, 5), (3, 2, 7), (3, 3, 11), (3, 3, 13)])
def test_solver_agrees_with_brute_force_on_random_positions(rows, cols, lines) -> None:
    brute = brute_force(rows, cols)
    solver = Solver(tables(rows, cols))
    rng = random.Random(rows * 100 + cols * 10 + lines)
    for _ in range(40):
        drawn = random_position(rows, cols, lines, rng)
        assert solver.value(drawn) == brute(drawn), bin(drawn)


def test_every_line_value_matches_brute_force_on_2x2() -> None:
    brute = brute_force(2, 2)
    rng = random.Random(2)
    for _ in range(30):
        drawn = random_position(2, 2, rng.randrange(0, 11), rng)
        state = boxes.new_game(2, 2)
        geo = state.geometry
        for line in geo.lines_in(drawn):
            state = state.play(line)
        if state.is_over:
            continue
        for line, value in line_values(state).items():
            after, completed = draw(geo, state.drawn, line)
            expected = completed + brute(after) if completed else -brute(after)
            assert value == expected


def test_simple_endgame_formula_matches_brute_force_on_parallel_chains() -> None:
    # Every horizontal line drawn: each row is an independent chain of `cols` boxes.
    for rows, cols in [(1, 3), (2, 3), (3, 3), (2, 4), (1, 4), (3, 2)]:
        drawn = sum(1 << line for line in range((rows + 1) * cols))
        assert max(side_counts(tables(rows, cols), drawn)) == 2
        expected = brute_force(rows, cols)(drawn)
        assert simple_endgame_value((cols,) * rows, ()) == expected, (rows, cols)
        assert Solver(tables(rows, cols)).value(drawn) == expected


def test_simple_endgame_known_values() -> None:
    assert simple_endgame_value((), ()) == 0
    assert simple_endgame_value((3,), ()) == -3
    assert simple_endgame_value((3, 3), ()) == -2  # declined: +2 -1, then gives the last 3
    assert simple_endgame_value((1, 3), ()) == 2  # give the single box, take the 3 back
    assert simple_endgame_value((), (4,)) == -4
    assert simple_endgame_value((3,), (4,)) == -1


def test_solve_refuses_a_finished_game() -> None:
    state = boxes.new_game(1, 1)
    for line in list(state.legal_moves()):
        state = state.play(line)
    with pytest.raises(IllegalMove):
        solve(state)


def test_a_node_budget_stops_the_search() -> None:
    with pytest.raises(SearchTimeout):
        Solver(tables(4, 4), Budget(node_limit=500)).value(0)


def test_a_deadline_on_an_injected_clock_stops_the_search() -> None:
    ticks = iter(range(10**9))
    budget = Budget(deadline=100.0, clock=lambda: float(next(ticks)))
    with pytest.raises(SearchTimeout):
        Solver(tables(4, 4), budget).value(0)
    # The clock is read every CHECK_EVERY nodes; its 102nd reading (101) passes the deadline.
    assert budget.nodes == 102 * Budget.CHECK_EVERY


def test_equivalent_lines_have_equal_values_and_one_is_kept() -> None:
    from core.ai.boxes.coins import shape_key
    from core.ai.boxes.levels import distinct_moves

    rng = random.Random(11)
    t = tables(3, 3)
    for _ in range(12):
        state = boxes.new_game(3, 3)
        for line in rng.sample(range(t.geo.line_count), rng.randrange(6, 14)):
            if not state.is_over and state.is_legal(t.geo.lines[line]):
                state = state.play(t.geo.lines[line])
        if state.is_over:
            continue
        values = line_values(state)
        kept = distinct_moves(t, state.drawn, list(values))
        by_key = {shape_key(t, state.drawn | 1 << line): line for line in kept}
        for line, value in values.items():
            twin = by_key[shape_key(t, state.drawn | 1 << line)]
            assert values[twin] == value
        assert max(values[line] for line in kept) == max(values.values())


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(6, 17))
def test_side_counts_passed_down_give_the_same_search(seed: int, drawn_lines: int) -> None:
    # The searches pass each node's side counts to its children instead of recounting;
    # forced captures and values must come out as if counted afresh.
    t = tables(2, 3)
    drawn = random_position(2, 3, drawn_lines, random.Random(seed))
    counts = side_counts(t, drawn)
    assert take_forced(t, drawn, counts) == take_forced(t, drawn)
    assert counts == side_counts(t, drawn)  # the caller's counts are left alone
    for line in range(t.geo.line_count):
        if not drawn >> line & 1:
            after = counts_after(t, counts, line)
            assert after == side_counts(t, drawn | 1 << line)
    assert Solver(t).value(drawn, counts=counts) == Solver(t).value(drawn)
