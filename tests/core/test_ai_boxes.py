"""The Dots and Boxes computer players: chain analysis, what each level must (not) do."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import IllegalMove, InvalidOptions, ai, boxes
from core.ai.boxes import analyse, levels, warm_up
from core.ai.boxes.analysis import (
    CHAIN,
    CLOSED_CHAIN,
    LOOP,
    bits,
    chain_offers,
    components,
    safe_mask,
    side_counts,
)
from core.ai.boxes.solver import Budget, SearchTimeout, Solver, line_values, sacrifices
from core.ai.boxes.tables import tables
from core.boxes import Line


def H(x: int, y: int) -> Line:
    """The horizontal line from dot (x, y) to (x + 1, y)."""
    return Line((x, y), (x + 1, y))


def V(x: int, y: int) -> Line:
    """The vertical line from dot (x, y) to (x, y + 1)."""
    return Line((x, y), (x, y + 1))


def position(rows: int, cols: int, lines: list[Line]) -> boxes.BoxesState:
    """The position after drawing ``lines`` in order (whoever's turn that makes it)."""
    state = boxes.new_game(rows, cols)
    for line in lines:
        state = state.play(line)
    return state


def all_horizontals(rows: int, cols: int, skip_rows: tuple[int, ...] = ()) -> list[Line]:
    return [H(x, y) for y in range(rows + 1) for x in range(cols) if y not in skip_rows]


def gives_third_side(state: boxes.BoxesState, line: Line) -> bool:
    after = state.play(line)
    geo = state.geometry
    before_counts = side_counts(tables(geo.rows, geo.cols), state.drawn)
    after_counts = side_counts(tables(geo.rows, geo.cols), after.drawn)
    return any(b < 3 and a == 3 for b, a in zip(before_counts, after_counts, strict=True))


# -- analysis -----------------------------------------------------------------------


def test_analysis_of_a_lone_long_chain() -> None:
    state = position(1, 3, all_horizontals(1, 3))
    facts = analyse(state)
    assert facts.safe_lines == ()
    assert facts.capturable_boxes == ()
    assert [chain.length for chain in facts.chains] == [3]
    assert facts.chains[0].ends == ("ground", "ground")
    assert set(facts.chains[0].lines) == {V(0, 0), V(1, 0), V(2, 0), V(3, 0)}
    assert facts.loops == ()
    assert facts.long_chains == 1
    # The player to move must open it and the other takes all three: the last move is theirs.
    assert facts.controller == 1 - state.to_move


def test_analysis_of_a_loop_and_of_capturable_boxes() -> None:
    outside = [H(0, 0), H(1, 0), H(0, 2), H(1, 2), V(0, 0), V(0, 1), V(2, 0), V(2, 1)]
    facts = analyse(position(2, 2, outside))
    assert [loop.length for loop in facts.loops] == [4]
    assert facts.chains == ()
    assert facts.long_chains == 0 and facts.controller is None
    opened = analyse(position(2, 2, [*outside, H(0, 1)]))
    assert set(opened.capturable_boxes) == {(0, 0), (0, 1)}
    assert [chain.length for chain in opened.chains] == [4]
    assert opened.chains[0].ends == ("capturable", "capturable")


def test_analysis_of_safe_lines_and_junctions() -> None:
    facts = analyse(boxes.new_game(2, 2))
    assert len(facts.safe_lines) == 12
    # Two sides of the top-left box drawn: its other sides are no longer safe.
    state = position(2, 2, [H(0, 0), V(0, 0)])
    facts = analyse(state)
    assert H(0, 1) not in facts.safe_lines and V(1, 0) not in facts.safe_lines
    assert H(1, 0) in facts.safe_lines
    assert [sorted(chain.ends) for chain in facts.chains] == [
        ["junction (0, 1)", "junction (1, 0)"]
    ]


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.randoms(use_true_random=False), st.floats(0.2, 0.9))
def test_chain_offers_match_the_chains_and_loops(
    rows: int, cols: int, rng: random.Random, density: float
) -> None:
    t = tables(rows, cols)
    drawn = 0
    for line in range(t.geo.line_count):
        if rng.random() < density:
            drawn |= 1 << line
    counts = side_counts(t, drawn)
    chains, loops = components(t, drawn, counts)
    offers = chain_offers(t, drawn, counts)
    lines = offers.ordered_lines()
    assert offers.chain_lengths == tuple(chain.length for chain in chains)
    assert offers.loop_lengths == tuple(loop.length for loop in loops)
    assert offers.simple == all(chain.ends[0] < 0 and chain.ends[1] < 0 for chain in chains)
    # One line of each chain and loop, shortest first, a two-chain's by its centre.
    offered = [(chain.length, chain.lines) for chain in chains] + [
        (loop.length + 1, loop.lines) for loop in loops
    ]
    picked = [next(i for i, (_, on) in enumerate(offered) if line in on) for line in lines]
    assert sorted(picked) == list(range(len(offered)))
    ranks = [offered[i][0] for i in picked]
    assert ranks == sorted(ranks)
    # Each with its size, all its undrawn lines and its kind.
    for index, i in zip(offers.order, picked, strict=True):
        component = [*chains, *loops][i]
        assert offers.sizes[index] == component.length
        assert offers.masks[index] == sum(1 << line for line in component.lines)
        if i >= len(chains):
            assert offers.kinds[index] == LOOP
        else:
            closed = component.ends[0] == component.ends[1] >= 0
            assert offers.kinds[index] == (CLOSED_CHAIN if closed else CHAIN)
    if 3 not in counts:
        for line, i in zip(lines, picked, strict=True):
            if offered[i][0] == 2 and i < len(chains):
                assert line == offered[i][1][1]


# -- every level ----------------------------------------------------------------------


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_choose_move_returns_a_legal_line(level) -> None:
    state = position(3, 3, [H(0, 0), V(1, 1), H(2, 3)])
    move = ai.choose_move(state, level, seed=3, time_limit=0.5)
    assert move in set(state.legal_moves())


def test_unknown_level_and_finished_game_are_refused() -> None:
    state = boxes.new_game(2, 2)
    with pytest.raises(InvalidOptions):
        ai.choose_move(state, "grandmaster")
    with pytest.raises(InvalidOptions):
        ai.choose_move(state, "hard", time_limit=0)
    for line in list(state.legal_moves()):
        state = state.play(line)
    with pytest.raises(IllegalMove):
        ai.choose_move(state, "easy")
    with pytest.raises(IllegalMove):
        ai.hint(state)


def test_dots_states_go_to_the_dots_players() -> None:
    from core import dots

    state = dots.new_game(width=10, height=10)
    try:
        import core.ai.dots  # noqa: F401
    except ModuleNotFoundError:
        with pytest.raises(NotImplementedError, match=r"core\.ai\.dots"):
            ai.choose_move(state, "easy")
    else:
        assert state.is_legal(ai.choose_move(state, "easy", seed=1, time_limit=0.2))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_the_same_seed_gives_the_same_move(level) -> None:
    rng = random.Random(7)
    for _ in range(5):
        state = boxes.new_game(3, 3)
        for _ in range(rng.randrange(0, 12)):
            state = state.play(rng.choice(list(state.legal_moves())))
        if state.is_over:
            continue
        seed = rng.randrange(1000)
        # A stopped clock: on a busy machine a search cut short by time may choose otherwise.
        moves = {
            levels.choose(state, level, random.Random(seed), 2.0, clock=STOPPED) for _ in range(3)
        }
        assert len(moves) == 1


def test_hint_is_what_hard_plays() -> None:
    # A position whose best move does not depend on how deep a loaded machine lets the
    # two clock-limited searches go: taking the free box.
    state = position(3, 3, FREE_BOX)
    assert ai.hint(state, seed=5) == ai.choose_move(state, "hard", seed=5) == H(0, 1)


# -- taking boxes -------------------------------------------------------------------

FREE_BOX = [H(0, 0), V(0, 0), V(1, 0), H(2, 2), V(3, 1)]
"""On 3×3: box (0, 0) has three sides and its last side hands nothing else over."""


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_take_a_free_box(level) -> None:
    state = position(3, 3, FREE_BOX)
    assert ai.choose_move(state, level, seed=1) == H(0, 1)


def test_easy_takes_a_free_box_now_and_then() -> None:
    state = position(3, 3, FREE_BOX)
    taken = sum(ai.choose_move(state, "easy", seed=seed) == H(0, 1) for seed in range(100))
    assert 40 <= taken < 100


def random_safe_phase_position(rows: int, cols: int, rng: random.Random) -> boxes.BoxesState:
    """A position reached by random safe lines, stopped while some safe lines remain."""
    state = boxes.new_game(rows, cols)
    for _ in range(rng.randrange(0, 2 * rows * cols)):
        safe = analyse(state).safe_lines
        after = state.play(rng.choice(safe))
        if not analyse(after).safe_lines:
            break
        state = after
    return state


def random_loony_position(rows: int, cols: int, rng: random.Random) -> boxes.BoxesState:
    """A position reached by random safe lines until none is left (nothing capturable)."""
    state = boxes.new_game(rows, cols)
    while safe := analyse(state).safe_lines:
        state = state.play(rng.choice(safe))
    return state


def test_normal_never_hands_out_a_box_while_a_safe_line_exists() -> None:
    rng = random.Random(11)
    for _ in range(60):
        state = random_safe_phase_position(5, 5, rng)
        move = ai.choose_move(state, "normal", seed=rng.randrange(99))
        assert move in analyse(state).safe_lines


def test_easy_mostly_avoids_third_sides() -> None:
    rng = random.Random(12)
    careless = 0
    for _ in range(200):
        state = random_safe_phase_position(5, 5, rng)
        careless += gives_third_side(state, ai.choose_move(state, "easy", seed=rng.randrange(99)))
    assert careless < 200 * 0.3


def test_normal_gives_the_shortest_chain() -> None:
    rng = random.Random(13)
    for _ in range(40):
        state = random_loony_position(5, 5, rng)
        facts = analyse(state)
        move = ai.choose_move(state, "normal", seed=1)
        shortest = min(c.length for c in (*facts.chains, *facts.loops))
        given = [c for c in (*facts.chains, *facts.loops) if move in c.lines]
        assert len(given) == 1 and given[0].length == shortest
        if given[0] in facts.chains and shortest == 2:
            # The middle of a two-chain, so that it cannot be declined.
            assert move == given[0].lines[1]


# -- the double-cross ---------------------------------------------------------------


def chain_end_position(rest: str) -> boxes.BoxesState:
    """2×3: row 0 opened and its first box taken, so the mover holds the last two boxes.

    ``rest`` is what row 1 holds: "chain" (a chain of three) or "single" (one box).
    """
    row_zero = [H(0, 0), H(1, 0), H(2, 0), H(0, 1), H(1, 1), H(2, 1)]
    if rest == "chain":
        row_one = [H(0, 2), H(1, 2), H(2, 2)]
    else:
        row_one = [H(0, 2), H(1, 2), V(0, 1), V(1, 1), V(2, 1)]  # boxes (0,1), (1,1) closed
    return position(2, 3, [*row_zero, *row_one, V(1, 0), V(0, 0)])


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_double_crosses_when_a_long_chain_follows(level) -> None:
    state = chain_end_position("chain")
    assert analyse(state).capturable_boxes == ((1, 0),)
    values = line_values(state)
    index = state.geometry.index_of
    assert values[index[V(3, 0)]] == 1 and values[index[V(2, 0)]] == -1
    assert ai.choose_move(state, level, seed=1) == V(3, 0)  # decline the last two


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_all_when_declining_does_not_pay(level) -> None:
    state = chain_end_position("single")
    assert analyse(state).capturable_boxes == ((1, 0),)
    assert ai.choose_move(state, level, seed=1) == V(2, 0)
    last_chain = position(1, 3, [H(0, 0), H(1, 0), H(2, 0), H(0, 1), H(1, 1), H(2, 1)])
    last_chain = last_chain.play(V(1, 0)).play(V(0, 0))
    assert ai.choose_move(last_chain, level, seed=1) == V(2, 0)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_declines_four_of_an_opened_loop_when_a_chain_follows(level) -> None:
    # 2×3: a loop in the left 2×2 block (opened), a vertical chain of two on the right.
    loop = [H(0, 0), H(1, 0), H(0, 2), H(1, 2), V(0, 0), V(0, 1)]
    right = [H(2, 0), H(2, 2), V(3, 0), V(3, 1), V(2, 0), V(2, 1)]
    state = position(2, 3, [*loop, *right, H(0, 1)])
    values = line_values(state)
    best = max(values.values())
    move = ai.choose_move(state, level, seed=1)
    assert values[state.geometry.index_of[move]] == best


# -- hard ---------------------------------------------------------------------------


SHARED_3X3 = Solver(tables(3, 3))
warm_up()  # as the server's AI worker processes do when they start


def optimal_lines(state: boxes.BoxesState) -> set[Line]:
    values = {}
    for line in state.legal_moves():
        after = state.play(line)
        completed = sum(after.scores) - sum(state.scores)
        if after.is_over:
            values[line] = completed
        elif completed:
            values[line] = completed + SHARED_3X3.value(after.drawn)
        else:
            values[line] = -SHARED_3X3.value(after.drawn)
    best = max(values.values())
    return {line for line, value in values.items() if value == best}


def STOPPED() -> float:
    """A clock that never advances: searches on it end by finishing, never by time."""
    return 0.0


@pytest.mark.parametrize("opponent", ["random", "easy", "normal"])
def test_hard_plays_every_move_of_a_3x3_game_optimally(opponent) -> None:
    for game in range(2):
        rng = random.Random(game)
        state = boxes.new_game(3, 3)
        hard_seat = game % 2
        while not state.is_over:
            if state.to_move == hard_seat:
                # A clock that never moves: the exact search always finishes, however
                # busy the machine, so the check depends on the position alone.
                move = levels.choose(state, "hard", random.Random(game), 1.0, clock=STOPPED)
                assert move in optimal_lines(state), (state.to_json(), move)
            elif opponent == "random":
                move = rng.choice(list(state.legal_moves()))
            else:
                move = ai.choose_move(state, opponent, seed=rng.randrange(99))
            state = state.play(move)


def test_hard_is_exact_once_no_safe_line_is_left_on_5x5() -> None:
    # Five rows of horizontal lines fully drawn: five independent chains of five.
    state = position(5, 5, all_horizontals(5, 5))
    move = ai.choose_move(state, "hard", seed=1)
    after = state.play(move)
    assert analyse(after).capturable_boxes  # it must open a chain; any will do
    assert move in {V(x, y) for y in range(5) for x in range(6)}


def test_hard_answers_a_7x7_middle_game_under_a_short_limit() -> None:
    # How long it takes is measured by bench/ai_tournament.py (think times), not here:
    # the deadline itself is checked on an injected clock below.
    state = random_safe_phase_position(7, 7, random.Random(3))
    move = ai.choose_move(state, "hard", seed=1, time_limit=0.3)
    assert move in set(state.legal_moves())


def test_hard_search_stops_at_a_deadline_on_an_injected_clock() -> None:
    readings = iter(range(10**9))
    calls = 0

    def clock() -> float:
        nonlocal calls
        calls += 1
        return next(readings) * 0.001  # every reading is a millisecond later

    state = random_safe_phase_position(7, 7, random.Random(5))
    move = levels.choose(state, "hard", random.Random(1), 0.05, clock=clock)
    assert move in set(state.legal_moves())
    # 0.05 s of fake time is 50 clock readings; each is taken every CHECK_EVERY nodes.
    assert calls <= 60


# -- hints with reasons ---------------------------------------------------------------


def test_hint_with_reason_is_hards_move_with_a_known_code() -> None:
    state = position(3, 3, [H(0, 0), V(1, 1), H(2, 3), V(3, 2)])
    found = ai.hint_with_reason(state, seed=5)
    assert found.move == ai.choose_move(state, "hard", seed=5)
    assert found.reason in ai.REASONS
    assert found.reason in ("safe_line", "keeps_control")


def test_hint_reasons_for_taking_declining_and_opening() -> None:
    assert ai.hint_with_reason(position(3, 3, FREE_BOX), seed=1) == ai.Hint(
        H(0, 1), "takes_free_boxes", 1
    )
    declined = ai.hint_with_reason(chain_end_position("chain"), seed=1)
    assert declined == ai.Hint(V(3, 0), "declines_to_keep_control", 2)
    taken = ai.hint_with_reason(chain_end_position("single"), seed=1)
    assert taken.reason == "takes_all"
    # Five independent chains of five and nothing else: open one, it costs five.
    opened = ai.hint_with_reason(position(5, 5, all_horizontals(5, 5)), seed=1)
    assert (opened.reason, opened.boxes) == ("gives_fewest_boxes", 5)


def test_keeps_control_exactly_when_the_nimstring_value_left_is_zero() -> None:
    from core.ai.boxes.coins import component_lines
    from core.ai.boxes.nimstring import position_nimber
    from core.ai.boxes.reasons import reason_for

    t = tables(3, 3)
    rng = random.Random(4)
    checked = 0
    while checked < 40:
        state = random_safe_phase_position(3, 3, rng)
        if max(strings.bit_count() for strings in component_lines(t, state.drawn)) > 16:
            continue  # small components only: valued in milliseconds
        for line in analyse(state).safe_lines:
            index = state.geometry.index_of[line]
            # A stopped clock: the reason's Nimstring check always finishes.
            code = reason_for(t, state.drawn, index, clock=STOPPED).code
            nimber = position_nimber(t, state.drawn | 1 << index)
            assert code == ("keeps_control" if nimber == 0 else "safe_line")
            checked += 1


def test_dots_hints_carry_no_reason() -> None:
    from core import dots

    found = ai.hint_with_reason(dots.new_game(width=8, height=8), level="easy", seed=1)
    assert found.reason is None


def fight_for_control_position(rows: int, cols: int, free: int, seed: int) -> boxes.BoxesState:
    """Random safe lines until at most ``free`` lines are undrawn (safe lines may run out)."""
    rng = random.Random(seed)
    state = boxes.new_game(rows, cols)
    while (safe := analyse(state).safe_lines) and len(list(state.legal_moves())) > free:
        state = state.play(rng.choice(safe))
    return state


def test_hard_plays_5x5_fights_for_control_with_few_free_lines_optimally() -> None:
    # With 32 free lines left and safe lines still to play, hard's search can read the
    # fight to its end; time stopping it after an odd depth is what makes it pick a losing
    # sacrifice now and then. A stopped clock lets every search finish, so this checks
    # the lines (the values and cut-offs the search works with), not the timing.
    checked = 0
    for seed in range(12):
        state = fight_for_control_position(5, 5, 32, seed)
        if not analyse(state).safe_lines:
            continue
        values = line_values(state)
        move = levels.choose(state, "hard", random.Random(seed), 1.0, clock=STOPPED)
        assert values[state.geometry.index_of[move]] == max(values.values()), seed
        checked += 1
    assert checked >= 5


def test_the_control_search_estimate_fills_the_first_safe_line_in_its_order() -> None:
    # The estimate fills a leaf's safe lines in one pass over its fill order; that must be
    # the same as taking the first safe line in that order again after every line drawn.
    t = tables(5, 5)
    for seed in range(30):
        state = fight_for_control_position(5, 5, 60 - seed, seed)
        search = levels.ControlSearch(t, Budget(), random.Random(seed))
        search.nimber_strings = 0  # who moves after the fill follows the fill order alone
        drawn, moves = state.drawn, 0
        while safe := safe_mask(t, drawn, side_counts(t, drawn)):
            drawn |= 1 << next(line for line in search.fill_order if safe >> line & 1)
            moves += 1
        value = search.endgame_value(drawn, side_counts(t, drawn))
        expected = value if moves % 2 == 0 else -value
        if analyse(state).safe_lines:
            assert search.estimate(state.drawn) == expected, seed


def test_the_control_search_estimate_gives_the_filled_position_to_the_nimstring_winner() -> None:
    # Whoever wins Nimstring at the leaf makes the other side open the first long chain,
    # whatever order the safe lines are filled in: the leaf's player is the one to move
    # once they are filled exactly when both positions' Nimstring values are 0 or both not.
    from core.ai.boxes.nimstring import position_nimber

    t = tables(5, 5)
    checked = 0
    for seed in range(120):
        state = fight_for_control_position(5, 5, 28 + seed % 8, seed)
        if not analyse(state).safe_lines:
            continue
        search = levels.ControlSearch(t, Budget(), random.Random(seed))
        search.nimber_strings = t.geo.line_count
        drawn = state.drawn
        while safe := safe_mask(t, drawn, side_counts(t, drawn)):
            drawn |= 1 << next(line for line in search.fill_order if safe >> line & 1)
        leaf_nimber = position_nimber(t, state.drawn, Budget(node_limit=20_000))
        filled_nimber = position_nimber(t, drawn, Budget(node_limit=20_000))
        if leaf_nimber is None or filled_nimber is None:
            continue
        value = search.endgame_value(drawn, side_counts(t, drawn))
        leaf_player_moves = (leaf_nimber != 0) == (filled_nimber != 0)
        assert search.estimate(state.drawn) == (value if leaf_player_moves else -value), seed
        checked += 1
    assert checked >= 20


def control_search(t, memory=None, seed=0) -> levels.ControlSearch:
    """A control search with no clock (it ends by finishing) and, if given, a kept memory."""
    return levels.ControlSearch(t, Budget(), random.Random(seed), memory)


def root_lines(t, drawn: int) -> list[int]:
    counts = side_counts(t, drawn)
    lines = [line for line in range(t.geo.line_count) if safe_mask(t, drawn, counts) >> line & 1]
    return lines + sacrifices(t, drawn, counts)[0]


def test_a_search_reading_a_kept_depth_limited_value_knows_it_was_cut_off() -> None:
    # Iterative deepening stops once a search saw the end of every line; values kept from a
    # deeper search that did not must not make a shallow one believe it did.
    t = tables(5, 5)
    state = fight_for_control_position(5, 5, 44, 3)
    memory = levels.ControlMemory(t, random.Random(0))
    moves = root_lines(t, state.drawn)
    deep = control_search(t, memory)
    deep.best_move(state.drawn, 3, moves)
    assert deep.cut
    shallow = control_search(t, memory)
    shallow.best_move(state.drawn, 1, moves)
    assert shallow.cut


def test_a_position_searched_to_its_end_is_kept_for_any_depth() -> None:
    t = tables(5, 5)
    for seed in range(12):
        state = fight_for_control_position(5, 5, 30, seed)
        if not analyse(state).safe_lines:
            continue
        memory = levels.ControlMemory(t, random.Random(seed))
        moves = root_lines(t, state.drawn)
        whole = control_search(t, memory)
        _, value = whole.best_move(state.drawn, 60, moves)
        assert not whole.cut
        again = control_search(t, memory)
        assert again.best_move(state.drawn, 1, moves)[1] == value
        assert not again.cut, seed


def test_the_control_memory_is_kept_per_board_and_started_over_when_full(monkeypatch) -> None:
    t = tables(5, 5)
    kept = levels.control_memory(t, random.Random(1))
    assert levels.control_memory(t, random.Random(2)) is kept
    assert levels.control_memory(tables(4, 4), random.Random(1)) is not kept
    kept.leaves[0] = 0
    monkeypatch.setattr(levels, "CONTROL_MEMORY_LIMIT", 0)
    assert levels.control_memory(t, random.Random(1)) is not kept


def test_a_full_control_memory_keeps_what_can_still_arise(monkeypatch) -> None:
    t = tables(5, 5)
    memory = levels.control_memory(t, random.Random(1))
    memory.leaves.clear()
    memory.table.clear()
    memory.best.clear()
    memory.endgame.table.clear()
    now = 0b1011
    for drawn in range(1 << 6):
        memory.leaves[drawn] = drawn
        memory.best[drawn] = 0
        memory.table[drawn] = (1, 0, 0)
        memory.endgame.table[drawn] = (0, 0)
    later = [drawn for drawn in range(1 << 6) if drawn & now == now]
    # Full: what does not hold every line drawn now goes, and that is enough.
    monkeypatch.setattr(levels, "CONTROL_MEMORY_LIMIT", 2 * 4 * len(later))
    assert levels.control_memory(t, random.Random(1), now) is memory
    for kept in (memory.leaves, memory.best, memory.table, memory.endgame.table):
        assert sorted(kept) == later
    # Full of what can still arise: started over.
    monkeypatch.setattr(levels, "CONTROL_MEMORY_LIMIT", 4 * len(later) - 1)
    assert levels.control_memory(t, random.Random(1), now) is not memory


def test_a_full_memory_starts_over_when_sorting_it_out_runs_past_its_deadline(
    monkeypatch,
) -> None:
    t = tables(5, 5)
    entries = 3 * levels.PRUNE_CHECK_EVERY
    now = 0b11  # a quarter of the entries hold both lines: enough to keep them in time
    monkeypatch.setattr(levels, "CONTROL_MEMORY_LIMIT", entries - 1)
    monkeypatch.setattr(levels, "SHARED_TABLE_LIMIT", entries - 1)

    def full() -> tuple[levels.ControlMemory, Solver]:
        levels._control_memories.clear()
        levels._shared_solvers.clear()
        memory = levels.control_memory(t, random.Random(1))
        solver = levels.shared_solver(t, Budget())
        for drawn in range(entries):
            memory.leaves[drawn] = 0
            solver.table[drawn] = (0, 0)
        return memory, solver

    # In time: what can still arise is kept.
    memory, solver = full()
    early = Budget(deadline=10, clock=lambda: 0)
    assert levels.control_memory(t, random.Random(1), now, early) is memory
    assert sorted(memory.leaves) == list(range(3, entries, 4))
    assert levels.shared_solver(t, Budget(), now, early) is solver
    assert sorted(solver.table) == list(range(3, entries, 4))
    # Too late: the clock, read once every PRUNE_CHECK_EVERY entries, passes the deadline
    # at the third reading (the last entry of the memory), so both start over.
    memory, solver = full()
    ticks = itertools.count()
    late = Budget(deadline=1, clock=lambda: next(ticks))
    assert levels.control_memory(t, random.Random(1), now, late) is not memory
    assert levels.shared_solver(t, Budget(), now, late) is not solver


def test_the_exact_solvers_table_is_kept_between_moves_and_pruned_when_full(monkeypatch) -> None:
    t = tables(5, 5)
    solver = levels.shared_solver(t, Budget(node_limit=10))
    assert levels.shared_solver(t, Budget(node_limit=20)) is solver
    assert solver.budget.node_limit == 20  # each search brings its own budget
    solver.table.clear()
    now = 0b1011
    for drawn in range(1 << 6):
        solver.table[drawn] = (0, 0)
    later = [drawn for drawn in range(1 << 6) if drawn & now == now]
    # Full: what does not hold every line drawn now goes, and that is enough.
    monkeypatch.setattr(levels, "SHARED_TABLE_LIMIT", 2 * len(later))
    assert levels.shared_solver(t, Budget(), now) is solver
    assert sorted(solver.table) == later
    # Full of what can still arise: started over.
    monkeypatch.setattr(levels, "SHARED_TABLE_LIMIT", len(later) - 1)
    assert levels.shared_solver(t, Budget(), now) is not solver


def test_an_exact_search_cut_short_leaves_only_bounds_it_finished() -> None:
    # What a move's unfinished exact search stored is reused by the next move's: it must
    # agree with a search that ran to the end.
    t = tables(4, 4)
    rng = random.Random(5)
    drawn = 0
    while len(bits(safe_mask(t, drawn, side_counts(t, drawn)))) > 6:
        drawn |= 1 << rng.choice(bits(safe_mask(t, drawn, side_counts(t, drawn))))
    cut = Solver(t, Budget(node_limit=300))
    with pytest.raises(SearchTimeout):
        cut.value(drawn)
    assert cut.table
    whole = Solver(t)
    whole.value(drawn)
    for position, (low, high) in cut.table.items():
        exact = Solver(t).value(position)
        assert low <= exact <= high, position
    cut.budget = Budget()
    assert cut.value(drawn) == whole.value(drawn)
