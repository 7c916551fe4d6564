"""The Dots computer players: what each level must and must not play, legality, seeds, time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import ai, dots
from core.ai import dots as dots_ai
from core.ai.dots.fight import Budget, double_threats
from core.ai.dots.search import all_closers
from core.dots import Point
from tests.core.dots_pictures import from_picture

LEVELS = ("easy", "normal", "hard")

# o at (3, 2) is enclosed by x on three sides; x closes the diamond at (3, 3).
FREE_CAPTURE = """
    .......
    ...x...
    ..xox..
    .......
    .......
"""

# x at (3, 2) is enclosed by o on three sides; o would close the diamond at (3, 3).
ONLY_THREAT = """
    .......
    ...o...
    ..oxo..
    .......
    .......
"""

# o threatens the two x marks at (2, 2) and (3, 2) by closing at (3, 3); x could capture
# the o mark at (8, 2) by playing (8, 3), but o would then take two for one.
CAPTURE_OR_BLOCK = """
    ...........
    ..oo....x..
    .oxxo..xox.
    ..o........
    ...........
"""

# x at (3, 2) makes two threats at once, (2, 3) and (4, 3); o can block only one.
DOUBLE_THREAT = """
    ........
    ..x.x...
    .xo.ox..
    ........
    ........
"""


def frozen_clock() -> float:
    return 0.0


def choose(state: dots.DotsState, level: str, seed: int = 1, limit: float = 1.0) -> Point:
    move = ai.choose_move(state, level, seed=seed, time_limit=limit)
    assert isinstance(move, Point)
    return move


def middle_game(width: int, height: int, marks: int, seed: int) -> dots.DotsState:
    """A position after ``marks`` random moves, each near one of the latest marks."""
    rng = random.Random(seed)
    state = dots.new_game(width, height).play(Point(width // 2, height // 2))
    for _ in range(marks - 1):
        near = sorted(
            Point(p.x + dx, p.y + dy)
            for p in state.moves[-20:]
            for dx in range(-2, 3)
            for dy in range(-2, 3)
            if 0 <= p.x + dx < width and 0 <= p.y + dy < height
        )
        legal = [point for point in near if state.is_legal(point)]
        state = state.play(rng.choice(legal or list(state.legal_moves())))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_a_free_capture(level: str) -> None:
    state = from_picture(FREE_CAPTURE)
    assert choose(state, level) == Point(3, 3)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_block_the_only_threat(level: str) -> None:
    state = from_picture(ONLY_THREAT)
    assert choose(state, level) == Point(3, 3)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_capture_that_loses_more_on_the_reply_is_not_grabbed(level: str) -> None:
    state = from_picture(CAPTURE_OR_BLOCK)
    assert choose(state, level) == Point(3, 3)
    after_grab = state.play(Point(8, 3)).play(Point(3, 3))
    assert after_grab.scores == (1, 2)  # what the grab would have cost


def test_hard_makes_a_double_threat() -> None:
    state = from_picture(DOUBLE_THREAT)
    assert choose(state, "hard") == Point(3, 2)
    # Whichever threat o blocks, x captures through the other.
    after = state.play(Point(3, 2))
    for block, capture in ((Point(2, 3), Point(4, 3)), (Point(4, 3), Point(2, 3))):
        assert after.play(block).play(capture).scores == (1, 0)


def test_hard_does_not_walk_into_a_house() -> None:
    # A closed o ring with a free point inside: an x mark there is captured at once.
    state = from_picture(
        """
        .......
        ...o...
        ..o.o..
        ...o...
        .......
        """
    )
    for level in ("normal", "hard"):
        assert choose(state, level) != Point(3, 2)


@pytest.mark.parametrize("level", LEVELS)
def test_first_move_on_an_empty_board_is_the_centre(level: str) -> None:
    assert choose(dots.new_game(15, 15), level) == Point(7, 7)


@pytest.mark.parametrize("level", LEVELS)
def test_easy_and_others_play_near_the_marks(level: str) -> None:
    state = dots.new_game(20, 20, start="cross")
    move = choose(state, level)
    assert 7 <= move.x <= 12 and 7 <= move.y <= 12


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_move(level: str) -> None:
    # A clock that never moves and a node budget: the search stops at the same node each time.
    state = middle_game(12, 12, 30, seed=4)
    moves = {
        dots_ai.choose(state, level, random.Random(7), 1.0, clock=frozen_clock, nodes=3000)
        for _ in range(3)
    }
    assert len(moves) == 1


def test_easy_varies_with_the_seed() -> None:
    state = middle_game(12, 12, 10, seed=2)
    assert len({choose(state, "easy", seed=seed) for seed in range(12)}) > 1


@settings(max_examples=25, deadline=None)
@given(
    width=st.integers(5, 8),
    height=st.integers(5, 8),
    seed=st.integers(0, 10_000),
    fill=st.floats(0.0, 1.0),
)
def test_every_level_plays_a_legal_move(width: int, height: int, seed: int, fill: float) -> None:
    rng = random.Random(seed)
    state = dots.new_game(width, height)
    for _ in range(int(fill * width * height)):
        if state.is_over:
            return
        state = state.play(rng.choice(list(state.legal_moves())))
    if state.is_over:
        return
    for level in LEVELS:
        assert state.is_legal(choose(state, level, seed=seed, limit=0.05))


@pytest.mark.parametrize("level", LEVELS)
def test_a_whole_small_game_is_legal_to_the_end(level: str) -> None:
    state = dots.new_game(7, 7)
    seed = 0
    while not state.is_over:
        state = state.play(choose(state, level, seed=seed, limit=0.05))
        seed += 1
    assert state.outcome() is not None


def test_hard_stops_when_its_clock_runs_out_on_a_large_board() -> None:
    # An injected clock, 10 ms a reading: the search must stop on the clock alone (how long
    # it takes on a real clock is measured by bench/ai_tournament.py, not here).
    state = middle_game(39, 32, 150, seed=3)
    readings = iter(range(10**9))
    point = dots_ai.choose(
        state, "hard", random.Random(1), 0.2, clock=lambda: next(readings) * 0.01
    )
    assert point in set(state.legal_moves())


def test_choose_checks_its_level() -> None:
    with pytest.raises(ValueError):
        dots_ai.choose(dots.new_game(5, 5), "expert", random.Random(0), 1.0)


# -- hard's opening book and the hint's reasons ---------------------------------------------


@pytest.mark.parametrize(
    ("opening", "reply"), [("v16", "u15"), ("u15", "v16"), ("s17", "t18"), ("t18", "s17")]
)
def test_the_book_opens_the_cross_with_a_threat_and_blocks_one(opening: str, reply: str) -> None:
    start = dots.new_game(39, 32, start="cross")  # x: t16 u17, o: u16 t17
    assert choose(start, "hard") == Point.from_str("v16")
    # Each of the four threats against an o mark is answered at the ring's gap.
    assert choose(start.play(Point.from_str(opening)), "hard") == Point.from_str(reply)


def test_no_book_move_walks_into_a_capture() -> None:
    state = dots.new_game(39, 32, start="cross")
    for _ in range(3):
        move = dots_ai.book_move(state)
        assert move is not None
        state = state.play(move)
        board = state.to_board()
        assert not any(gain > 0 for gain, _ in all_closers(board, board.player).values())
    assert dots_ai.book_move(state) is None
    assert dots_ai.book_move(dots.new_game(39, 32)) is None


@pytest.mark.parametrize(
    ("picture", "reason", "marks"),
    [
        (FREE_CAPTURE, "captures", 1),
        (ONLY_THREAT, "blocks_capture", 0),
        (DOUBLE_THREAT, "double_threat", 0),
        (
            # o's d3 would threaten both x marks at once: x takes the point first.
            """
            ........
            ..o.o...
            .ox.xo..
            ........
            ........
            """,
            "escapes",
            0,
        ),
    ],
)
def test_the_hint_says_why(picture: str, reason: str, marks: int) -> None:
    given = dots_ai.hint(
        from_picture(picture), random.Random(1), 1.0, clock=frozen_clock, nodes=1000
    )
    assert (given.reason, given.marks) == (reason, marks)
    assert from_picture(picture).is_legal(given.point)


def test_a_quiet_hint_has_no_reason() -> None:
    given = dots_ai.hint(
        dots.new_game(15, 15), random.Random(1), 1.0, clock=frozen_clock, nodes=1000
    )
    assert given == dots_ai.DotsHint(Point(7, 7), None, 0)


def test_hard_never_walks_into_a_capture_in_one() -> None:
    # Whatever hard plays, the opponent gets no new or bigger capture than it already had,
    # unless hard's move itself takes at least as much.
    for seed in range(20):
        state = middle_game(12, 12, 40, seed)
        board = state.to_board()
        player = board.player
        move = dots_ai.choose(
            state, "hard", random.Random(seed), 1.0, clock=frozen_clock, nodes=300
        )
        child = board.copy()
        child.place(board.geometry.index(move))
        taken = child.score[player] - board.score[player]
        before = all_closers(board, 1 - player)
        new = [
            gain
            for point, (gain, _) in all_closers(child, 1 - player).items()
            if gain > 0 and (point not in before or before[point][0] < gain)
        ]
        assert taken >= max(new, default=0), (seed, move)


def test_core_ai_gives_the_dots_hint_with_its_reason() -> None:
    state = dots.new_game(width=15, height=15)
    for name in ("h6", "h7", "g7", "a1", "i7", "a2"):
        state = state.play(Point.from_str(name))
    given = ai.hint_with_reason(state, "hard", seed=1, time_limit=0.5)
    assert (given.move, given.reason, given.boxes) == (Point.from_str("h8"), "captures", 1)
    quieter = ai.hint_with_reason(state, "easy", seed=1, time_limit=0.5)
    assert quieter.reason is None


def test_the_root_finds_the_other_sides_double_threats_anywhere() -> None:
    # o's mark on e3 or e4 leaves two closing points round the x square, far from the
    # latest marks (the forcing search alone tries threats only near those).
    state = from_picture(
        """
        ..............
        .oooo.........
        .oxx..........
        .oxx..........
        .oooo.........
        ..............
        ..............
        ..............
        ..........x.o.
        ..............
        ..........o.x.
        """
    )
    board = state.to_board()
    geo = board.geometry
    closers = (all_closers(board, 0), all_closers(board, 1))
    budget = Budget(10**6, 1.0, frozen_clock)
    found = double_threats(board, closers, sorted(board.playable), budget)
    named = {str(geo.point(index)): sorted(str(geo.point(p)) for p in new) for index, new in found}
    assert named == {"e3": ["e4", "f4"], "e4": ["e3", "f3"]}
    assert board.player == 0  # the look from the other side put the turn back
