"""The Dots computer players: what each level must and must not play, legality, seeds, time."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import ai, dots
from core.ai import dots as dots_ai
from core.ai.dots.fight import Budget, double_threats, fight_value, net_points, net_value
from core.ai.dots.search import all_closers, closers_after
from core.dots import Point
from tests.core.dots_pictures import from_picture, placed, viewed

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


# Hard (x) against normal on 20×20, 240 marks in: x's long group from d5 to g12 leans on
# o's walls, and o's quiet mark at c5 would leave double threats that no one mark answers
# (o went on to take 28 marks that way).  The forcing search never plays a quiet mark.
NET_GAME = """
    k11 l12 k12 l11 j12 k13 l13 m12 j13 k14 m13 l14 m14 l15 j14 k15 j15 m15 n14 n13
    n12 o13 m11 l10 m10 n11 o12 o14 n15 p13 n10 o11 p12 o15 n16 m16 p11 o10 p10 o9
    n9 m9 n8 l9 o8 p9 p8 q9 q10 m8 q8 r9 k10 r8 n7 r10 q11 q12 r11 q13
    r12 s10 s11 r13 s12 m7 q7 k9 j10 s13 j9 k8 r7 s8 s7 j8 i9 i8 r14 q14
    s14 o16 n17 m17 r15 k16 q15 p14 p15 p16 o17 q16 p17 q17 r16 p18 o18 n18 o19 j16
    n19 m18 p19 q18 r17 r18 q19 i15 s17 i14 s18 r19 i13 i16 h15 h14 h13 h16 g15 g14
    g16 g13 f15 f14 h12 s19 g12 f13 e14 f12 e13 h17 e15 e12 d13 f11 g11 d12 g17 d14
    d15 c14 c13 c15 d16 b14 c16 b15 c12 b13 b12 d11 c11 b16 c17 b17 l7 k7 l6 m6
    l8 n6 o7 k6 l5 m5 o6 n5 k5 o5 l4 m4 p6 j6 p5 o4 j5 p4 q5 q4
    i7 j7 i6 h7 r6 h8 g10 h9 i10 h10 g9 f10 g8 f9 h6 g7 f8 i5 h5 i4
    j4 h11 h4 i3 h3 i11 j3 i2 i12 g6 f7 g5 f6 j11 g4 f5 e6 h2 e5 f4
    g3 e4 f3 g2 e8 e9 f2 e3 d5 d4 e2 d10 d3 j2 k3 d9 c10 d8 c9 c8
"""
NET_NODES = 10_000
"""Enough nodes for the look for nets at the root (the tactics suite runs on 1,000)."""


def net_game() -> dots.DotsState:
    state = dots.new_game(20, 20)
    for text in NET_GAME.split():
        state = state.play(Point.from_str(text))
    return state


def test_the_root_finds_the_other_sides_net() -> None:
    board = net_game().to_board()
    geo = board.geometry
    closers = (all_closers(board, 0), all_closers(board, 1))
    budget = Budget(10**6, 1.0, frozen_clock)
    c5 = geo.index(Point.from_str("c5"))
    assert double_threats(board, closers, sorted(board.playable), budget) == []
    board.player = 1  # type: ignore[assignment]
    assert net_value(board, closers, c5, budget) >= 20
    board.player = 0  # type: ignore[assignment]
    found = dict(net_points(board, closers, [c5, geo.index(Point.from_str("d7"))], budget))
    assert found.get(c5, 0) >= 20 and board.player == 0


def test_hard_spoils_a_net() -> None:
    state = net_game()
    move = dots_ai.choose(state, "hard", random.Random(1), 1.0, clock=frozen_clock, nodes=NET_NODES)
    after = state.play(move).to_board()
    closers = (all_closers(after, 0), all_closers(after, 1))
    c5 = after.geometry.index(Point.from_str("c5"))
    budget = Budget(10**6, 1.0, frozen_clock)
    assert move == Point.from_str("c5") or net_value(after, closers, c5, budget) == 0


# o's mark on c2 is chased along the edge line: x's c1 threatens d2, o's d2 is threatened
# from d1, and so on until x's g2 closes the ring round four marks (o does better to give
# up the one).  The first mark is on the edge line (hard's shape marks it down) and pays
# only six plies on, far from the latest marks (the fillers below the picture).
EDGE_LINE_LADDER = """
    ..........
    .xo...x...
    .xxxxx....
    ..........
"""

# c5 is quiet (no capture, no closing point), but after it o has no single mark that
# answers x's next threats: whatever o does, x takes a mark (two in some lines).
OWN_NET = """
    ........
    .ox.x...
    .x.o....
    .xo..xo.
    ...xxx..
    ........
"""


def test_hard_chases_a_ladder_along_the_edge_line() -> None:
    state = from_picture(EDGE_LINE_LADDER)
    move = dots_ai.choose(state, "hard", random.Random(1), 1.0, clock=frozen_clock, nodes=2000)
    assert move == Point.from_str("c1")


def test_the_root_finds_its_own_nets() -> None:
    board = from_picture(OWN_NET).to_board()
    geo = board.geometry
    closers = (all_closers(board, 0), all_closers(board, 1))
    budget = Budget(10**6, 1.0, frozen_clock)
    points = sorted(board.playable)
    own = dict(net_points(board, closers, points, budget, netter=board.player))
    assert [str(geo.point(index)) for index in own] == ["c5"] and own[geo.index(Point(2, 4))] > 0
    assert board.player == 0  # the look put the turn back
    # Seen from the other side, x's net is what o must spoil.
    assert net_points(board, closers, points, budget) == []


def test_hard_sets_a_net() -> None:
    state = from_picture(OWN_NET)
    move = dots_ai.choose(state, "hard", random.Random(1), 1.0, clock=frozen_clock, nodes=4000)
    assert move == Point.from_str("c5")


def test_nets_are_found_for_either_side() -> None:
    board = net_game().to_board()
    closers = (all_closers(board, 0), all_closers(board, 1))
    c5 = board.geometry.index(Point.from_str("c5"))
    budget = Budget(10**6, 1.0, frozen_clock)
    theirs = net_points(board, closers, [c5], budget)
    assert net_points(board, closers, [c5], budget, netter=1) == theirs
    assert theirs and theirs[0][0] == c5
    assert net_points(board, closers, [c5], budget, netter=0) == []


# A ladder of ten steps along the edge: x's c1 leaves c2 one closing point (d2); o can run
# along the second line, x chasing on the first, until the cap n2 closes the ring round
# every mark o ran with, or give c2 up at once. Either way x wins at least that mark.
LONG_EDGE_LADDER = """
    .....................
    .xo..........x.......
    .xxxxxxxxxxxx........
    .....................
"""


@pytest.mark.parametrize("depth", [3, 4])
def test_the_fight_search_reads_a_long_ladder_to_its_end(depth: int) -> None:
    board = placed(LONG_EDGE_LADDER, 39, 32).to_board()
    closers = (all_closers(board, 0), all_closers(board, 1))
    chase = board.geometry.index(Point.from_str("c1"))
    child = board.copy()
    child.place(chase)
    after = closers_after(board, child, closers, chase, True)
    budget = Budget(10**6, float("inf"), frozen_clock)
    inf = float("inf")
    # The runner's side to move: what it gains is what x loses.
    assert fight_value(child, after, depth, -inf, inf, (board.last, chase), budget) == -1


def test_hard_chases_a_long_ladder_along_the_edge_line() -> None:
    state = placed(LONG_EDGE_LADDER, 39, 32, view=5)
    move = dots_ai.choose(state, "hard", random.Random(1), 1.0, clock=frozen_clock, nodes=4000)
    assert move == viewed(Point.from_str("c1"), 39, 32, 5)
