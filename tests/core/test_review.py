"""The review of positions (core.review) against an independent brute force on 2×2 boards,
and against the exact solver on 2×3 and 3×3 games with known mistakes."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from core import ai, boxes, dots
from core.ai.boxes import Budget, solve
from core.ai.boxes.analysis import safe_mask, side_counts
from core.ai.boxes.tables import tables_for
from core.review import (
    LINE_MOVES,
    Endgames,
    Limits,
    hard_estimate,
    move_value,
    review_boxes,
    review_dots,
)

GENEROUS = Limits(exact_seconds=60.0, moves_seconds=60.0, hint_seconds=0.05)


def brute(state: boxes.BoxesState) -> int:
    """The margin of the remaining boxes the player to move forces, by plain negamax over
    every line (no solver, no pruning): small boards only."""
    drawn = " ".join(sorted(map(str, state.moves)))
    return _brute(f"boxes {state.cols}x{state.rows}; {drawn}")


@cache
def _brute(record: str) -> int:
    # The value depends only on the lines drawn, so the lines in sorted order name it.
    state = boxes.parse_record(record)
    return max(line_value(state, line) for line in state.legal_moves())


def line_value(state: boxes.BoxesState, line: boxes.Line) -> int:
    after = state.play(line)
    gained = len(after.last_closed)
    if after.is_over:
        return gained
    rest = brute(after)
    return gained + rest if after.to_move == state.to_move else gained - rest


def played_game(rows: int, cols: int, choices: list[int]) -> boxes.BoxesState:
    """A whole game on the board, each move picked from the legal ones by ``choices``."""
    state = boxes.new_game(rows, cols)
    index = 0
    while not state.is_over:
        legal = state.legal_moves()
        state = state.play(legal[choices[index % len(choices)] % len(legal)])
        index += 1
    return state


def positions(game: boxes.BoxesState) -> list[tuple[boxes.BoxesState, boxes.Line]]:
    state = boxes.new_game(game.rows, game.cols, game.start)
    found = []
    for line in game.moves:
        found.append((state, line))
        state = state.play(line)
    return found


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=12))
def test_two_by_two_reviews_match_a_brute_force(choices: list[int]) -> None:
    game = played_game(2, 2, choices)
    for state, played in positions(game):
        found = review_boxes(state, played, GENEROUS)
        values = {line: line_value(state, line) for line in state.legal_moves()}
        best = max(values.values())
        assert found.exact and found.value == best == brute(state)
        assert set(found.best) == {line for line, value in values.items() if value == best}
        assert found.loss == best - values[played]
        assert found.mistake == (values[played] < best)
        assert found.cost is not None and 2 * found.cost == found.loss
        assert found.to_move == state.to_move and found.played == played
        # every line valued exactly, so the best list is complete
        assert found.complete and dict(found.values) == values
        if found.mistake:
            assert_best_line(state, found.line, best)
        else:
            assert found.line == ()


def assert_best_line(state: boxes.BoxesState, line: tuple[boxes.Line, ...], value: int) -> None:
    """``line`` starts with a best move of ``state`` and each move keeps the value of the
    position it is drawn in (the brute force says so)."""
    assert line
    for move in line:
        assert line_value(state, move) == brute(state)
        state = state.play(move)
    assert len(line) == LINE_MOVES or state.is_over


def margins_add_up(game: boxes.BoxesState, first: int = 0) -> list[int]:
    """Review every position from ply ``first``; check each loss moves the best-play margin
    by exactly that much, ending at the real result. The plies of the mistakes."""
    mistakes = []
    state_margin = None
    for ply, (state, played) in enumerate(positions(game)):
        if ply < first:
            continue
        found = review_boxes(state, played, GENEROUS, seed=ply)
        assert found.exact and found.value == solve(state)
        assert found.loss is not None and found.loss >= 0
        lead = state.scores[0] - state.scores[1]
        sign = 1 if state.to_move == 0 else -1
        margin = lead + sign * found.value
        if state_margin is not None:
            assert margin == state_margin
        state_margin = margin - sign * found.loss
        if found.mistake:
            mistakes.append(ply)
            assert played not in found.best
        else:
            assert played in found.best
    assert state_margin == game.scores[0] - game.scores[1]
    return mistakes


def test_a_two_by_three_game_with_a_box_given_and_refused() -> None:
    # b1-b2 gives the top-left box its third side (seat 0 hands it over: two of margin);
    # seat 1 draws c2-d2 instead of taking it with a2-b2, and seat 0 takes it back (four).
    game = boxes.parse_record(
        "boxes 3x2; a1-b1 a1-a2 b1-b2 c2-d2 a2-b2 b2-c2 a3-b3 d1-d2 b3-c3 d2-d3 c1-c2 b1-c1 "
        "c1-d1 a2-a3 b2-b3 c2-c3 c3-d3"
    )
    assert game.is_over
    given_away = review_boxes(*positions(game)[2], GENEROUS)
    refused = review_boxes(*positions(game)[3], GENEROUS)
    assert (given_away.loss, refused.loss) == (2, 4)
    assert refused.best == (boxes.Line.from_str("a2-b2"),)
    state, played = positions(game)[3]
    known = review_boxes(state, played, GENEROUS, next_value=solve(state.play(played)))
    assert known == refused  # the next position's value spares solving it again
    assert margins_add_up(game, first=2) == [2, 3]


def test_a_three_by_three_blunder_is_marked_with_its_loss() -> None:
    # Hard plays both sides, except that at ply 14 the worst line is drawn instead.
    state, seed = boxes.new_game(3, 3), 11
    while not state.is_over:
        if len(state.moves) == 14:
            values = {line: move_value(state, line, Budget()) for line in state.legal_moves()}
            worst = min(values, key=lambda line: values[line])
            blunder = max(values.values()) - values[worst]
            assert blunder > 0
            state = state.play(worst)
        else:
            state = state.play(ai.choose_move(state, "hard", seed=seed, time_limit=0.2))
        seed += 1
    assert 14 in margins_add_up(state, first=14)
    found = review_boxes(*positions(state)[14], GENEROUS)
    assert found.loss == blunder


def test_without_time_the_estimate_and_the_hard_move_stand_in() -> None:
    state = boxes.new_game(5, 5)
    played = state.legal_moves()[0]
    found = review_boxes(state, played, Limits(0.001, 0.001, 0.05), try_exact=False)
    assert not found.exact and found.loss is None and found.mistake is None
    assert found.cost is None and not found.complete and found.values == found.line == ()
    assert len(found.best) == 1 and state.is_legal(found.best[0])
    assert found.value is not None and abs(found.value) <= 25


def test_dots_positions_get_the_hard_move() -> None:
    state = dots.parse_record("dots 7x7; c2 c3 b3")
    played = dots.Point.from_str("d4")
    found = review_dots(state, played, Limits(hint_seconds=0.05))
    assert not found.exact and found.value is None and found.loss is None
    assert len(found.best) == 1 and state.is_legal(found.best[0]) and found.played == played


def test_a_table_kept_across_positions_gives_the_same_verdicts() -> None:
    # One Endgames for a whole 3×3 game, positions taken from the end back as the server
    # does: the same values, best lists and costs as a fresh solver for each.
    game = played_game(3, 3, [5, 1, 7, 3, 2, 9, 4])
    endgames = Endgames()
    for ply, (state, played) in reversed(list(enumerate(positions(game)))[12:]):
        kept = review_boxes(state, played, GENEROUS, seed=ply, endgames=endgames)
        fresh = review_boxes(state, played, GENEROUS, seed=ply)
        assert kept == fresh and kept.complete


def test_a_position_valued_in_part_says_its_best_list_may_be_incomplete() -> None:
    state, played = positions(played_game(3, 3, [5, 1, 7, 3, 2, 9, 4]))[10]
    # the value in time, the played move in time, the other lines: no time at all
    found = review_boxes(state, played, Limits(60.0, 0.0, 0.05))
    assert found.exact and not found.complete and found.mistake is not None
    assert {move for move, _ in found.values} == {played}


def test_values_proven_from_the_next_position_are_the_solvers() -> None:
    # As the server analyses a game: from the last position back with one table, each
    # position told the exact value of the next; a narrow search proves it where the move
    # played was best, and the search goes on where it was not (random games: many).
    followed = {True: 0, False: 0}
    for choices in ([5, 1, 7, 3, 2, 9, 4], [0], [3, 8, 2, 11, 6], [1, 4]):
        game = played_game(3, 3, choices)
        endgames = Endgames()
        next_value = None
        for ply, (state, played) in reversed(list(enumerate(positions(game)))):
            found = review_boxes(
                state,
                played,
                Limits(60.0, 0.0, 0.05),
                seed=ply,
                next_value=next_value,
                endgames=endgames,
            )
            assert found.exact and found.value == solve(state), (choices, ply)
            assert found.loss == found.value - move_value(state, played, Budget())
            followed[found.loss == 0] += 1
            next_value = found.value
    assert followed[True] and followed[False]


def hard_positions(rows: int, cols: int, seed: int) -> list[boxes.BoxesState]:
    state = boxes.new_game(rows, cols)
    found = [state]
    while not state.is_over:
        state = state.play(ai.choose_move(state, "hard", seed=seed, time_limit=0.05))
        found.append(state)
        seed += 1
    return found[:-1]


def test_estimates_are_hards_move_and_value_within_the_boxes_left() -> None:
    for state in hard_positions(5, 5, seed=3)[::4]:
        left = 25 - sum(state.scores)
        for seconds in (0.05, 1e-9):  # in time, and a starved process (not one ply)
            move, value = hard_estimate(state, seed=1, seconds=seconds)
            assert state.is_legal(move) and -left <= value <= left


def test_estimates_of_small_endgames_are_the_exact_values() -> None:
    # No safe line left and few lines: hard's search values the chains exactly.
    t = tables_for(boxes.new_game(5, 5).geometry)
    checked = 0
    for state in hard_positions(5, 5, seed=8):
        if len(state.legal_moves()) <= 14 and not safe_mask(
            t, state.drawn, side_counts(t, state.drawn)
        ):
            assert hard_estimate(state, seed=1, seconds=30.0)[1] == solve(state)
            checked += 1
    assert checked
