"""States of both games are values: playing from any of them, in any order, never changes
what another one answers, although Dots states hand one board along (see core.dots.state).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import boxes, dots
from core.dots import Point


def dots_answers(state: dots.DotsState) -> tuple[object, ...]:
    """Everything a Dots state tells about its position."""
    return (
        state.snapshot(),
        tuple(state.legal_moves()),
        state.moves,
        state.scores,
        state.to_move,
        state.is_over,
        state.outcome(),
        state.to_board().score,
        state.houses(),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=5, max_value=9))
def test_dots_states_answer_the_same_whatever_is_played_from_them(seed: int, size: int) -> None:
    rng = random.Random(seed)
    states = [dots.new_game(size, size, grounding=True)]
    answers = [dots_answers(states[0])]
    views = [states[0].legal_moves()]
    for _ in range(120):
        pick = rng.randrange(len(states))
        # Mostly play on from the newest state, sometimes branch from an older one.
        at = len(states) - 1 if rng.random() < 0.7 else pick
        state = states[at]
        action = rng.random()
        if state.is_over:
            continue
        if action < 0.05:
            child = state.resign(state.to_move)
        elif action < 0.08:
            child = state.ground(state.to_move)
        else:
            child = state.play(rng.choice(state.legal_moves()))
        if rng.random() < 0.3:  # ask the child for nothing yet: its board goes on untouched
            states.append(child)
            answers.append(dots_answers(dots.from_json(child.to_json())))
            views.append(dots.from_json(child.to_json()).legal_moves())
            continue
        states.append(child)
        answers.append(dots_answers(child))
        views.append(child.legal_moves())
        # Any earlier state, asked again, answers as it did and as a fresh replay does.
        check = rng.randrange(len(states))
        assert dots_answers(states[check]) == answers[check]
        assert list(views[check]) == list(answers[check][1])  # type: ignore[call-overload]
    for state, answer in zip(states, answers, strict=True):
        assert dots_answers(state) == answer
        assert dots_answers(dots.from_json(state.to_json())) == answer


def test_a_view_of_the_legal_points_keeps_showing_its_own_state() -> None:
    game = dots.new_game(5, 5)
    view = game.legal_moves()
    child = game.play(Point(0, 0))
    assert len(view) == 25 and Point(0, 0) in view and view[0] == Point(0, 0)
    assert len(child.legal_moves()) == 24 and Point(0, 0) not in child.legal_moves()
    grandchild = child.play(Point(1, 0))
    assert list(view) == [Point(x, y) for y in range(5) for x in range(5)]
    assert Point(1, 0) not in grandchild.legal_moves() and Point(1, 0) in child.legal_moves()
    assert game.mark_at(Point(0, 0)) is None and child.mark_at(Point(1, 0)) is None


def test_branching_from_one_dots_state_many_times() -> None:
    game = dots.new_game(7, 7).play(Point(3, 3))
    children = [game.play(point) for point in list(game.legal_moves())[:10]]
    for child, point in zip(children, list(game.legal_moves())[:10], strict=True):
        assert child.moves == (Point(3, 3), point)
        assert child.mark_at(point) == 1 and child.mark_at(Point(3, 3)) == 0
    assert game.moves == (Point(3, 3),) and len(game.legal_moves()) == 48


def test_branching_from_one_boxes_state_many_times() -> None:
    game = boxes.new_game(2, 2)
    first = game.legal_moves()[0]
    children = [game.play(line) for line in game.legal_moves()]
    assert [child.moves for child in children] == [(line,) for line in game.legal_moves()]
    grandchild = children[0].play(children[0].legal_moves()[0])
    assert children[0].moves == (first,) and len(grandchild.moves) == 2
    assert game.moves == () and len(game.legal_moves()) == 12
