"""Hand-made positions for every Dots rule and the API of core.dots."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalMove, InvalidMove, InvalidOptions, Outcome, dots
from core.dots import Point
from tests.core.dots_pictures import from_picture, picture, render
from tests.core.views import view

OWN_DIAMOND_IN_A_RING = """
    xxxxxxxxx
    x.......x
    x...x...x
    x..x.x.o.
    x...x...x
    x.......x
    xxxxxxxxx
    """
"""An own house inside a ring round an opponent mark; (8, 3) closes the ring."""

RECAPTURES = """
    ...........
    .xxxxxxxxx.
    .x.......x.
    .x.ooooo.x.
    .x.o.x.o.x.
    .x.oxoxo.x.
    .x.o...o.x.
    .x.oo.oo.x.
    .x.......x.
    .xxxx.xxxx.
    ...........
    """
"""Captures nested three deep: (5, 6), then (5, 7), then (5, 9) each close the next."""


def play_all(state: dots.DotsState, *points: tuple[int, int]) -> dots.DotsState:
    for x, y in points:
        state = state.play(Point(x, y))
    return state


# -- captures -------------------------------------------------------------------------------


def test_four_mark_diamond_captures_the_mark_inside() -> None:
    game = from_picture(
        """
        .x..
        xox.
        ....
        """
    )
    game = game.play(Point(1, 2))
    assert game.scores == (1, 0)
    assert game.is_captured(Point(1, 1))
    assert game.mark_at(Point(1, 1)) == 1
    assert render(game, 4, 3) == picture(
        """
        .x..
        xOx.
        .x..
        """
    )
    [area] = view(game)["areas"]
    assert area["captor"] == 0
    assert area["inside"] == [[1, 1]]
    assert area["chain"] == [[1, 0], [2, 1], [1, 2], [0, 1]]


def test_ring_with_diagonal_links_captures_and_kills_the_empty_points_inside() -> None:
    game = from_picture(
        """
        ..x..
        .x.x.
        x.o.x
        .x.x.
        .....
        """
    )
    game = game.play(Point(2, 4))
    assert game.scores == (1, 0)
    assert render(game, 5, 5) == picture(
        """
        ..x..
        .x-x.
        x-O-x
        .x-x.
        ..x..
        """
    )
    for point in (Point(2, 1), Point(1, 2), Point(3, 2), Point(2, 3)):
        assert not game.is_legal(point)
        assert game.is_dead(point)
    with pytest.raises(IllegalMove, match="captured area"):
        game.play(Point(2, 1))
    assert len(view(game)["areas"][0]["chain"]) == 8


def test_a_ring_open_only_at_the_board_edge_captures_nothing() -> None:
    game = from_picture(
        """
        xox..
        xox..
        x....
        """
    )
    game = game.play(Point(1, 2))
    assert game.scores == (0, 0)
    assert not game.is_captured(Point(1, 0))
    assert not game.is_captured(Point(1, 1))
    assert view(game)["houses"] == []


def test_an_empty_ring_is_a_house_and_an_intruder_is_captured_in_the_same_move() -> None:
    game = from_picture(
        """
        .x...
        x.x..
        .....
        """
    )
    game = game.play(Point(1, 2))
    assert game.scores == (0, 0)
    [house] = view(game)["houses"]
    assert house["owner"] == 0
    assert house["inside"] == [[1, 1]]
    assert game.is_legal(Point(1, 1))  # both players may still play inside a house
    game = game.play(Point(1, 1))
    assert game.is_captured(Point(1, 1))
    assert game.scores == (1, 0)
    assert view(game)["houses"] == []
    assert len(view(game)["areas"]) == 1


def test_the_owner_may_fill_their_own_house() -> None:
    game = from_picture(
        """
        .xx..
        x..x.
        .xx..
        """,
        to_move=0,
    )
    game = game.play(Point(1, 1))
    assert game.mark_at(Point(1, 1)) == 0
    assert not game.is_captured(Point(1, 1))
    assert game.scores == (0, 0)
    assert game.is_legal(Point(2, 1))


HOUSE_WITH_A_THREAT = """
    .o...
    oxo..
    x.x..
    x.x..
    .x...
    """


def test_an_intruder_that_closes_its_own_capture_is_not_captured() -> None:
    game = from_picture(HOUSE_WITH_A_THREAT, to_move=1)
    assert [house["owner"] for house in view(game)["houses"]] == [0]
    game = game.play(Point(1, 2))  # inside the house, and it closes a diamond round (1, 1)
    assert game.scores == (0, 1)
    assert game.is_captured(Point(1, 1))
    assert not game.is_captured(Point(1, 2))
    assert [area["captor"] for area in view(game)["areas"]] == [1]


def test_a_house_whose_chain_loses_a_mark_dissolves() -> None:
    game = from_picture(HOUSE_WITH_A_THREAT, to_move=1)
    game = game.play(Point(1, 2))
    assert view(game)["houses"] == []
    game = play_all(game, (4, 0), (1, 3))  # player 1 plays where the house was
    assert not game.is_captured(Point(1, 3))
    assert game.scores == (0, 1)


def test_one_move_closing_two_captures_that_share_marks() -> None:
    game = from_picture(
        """
        .x.x.
        xo.ox
        .x.x.
        """
    )
    game = game.play(Point(2, 1))
    assert game.scores == (2, 0)
    areas = view(game)["areas"]
    assert sorted(area["inside"] for area in areas) == [[[1, 1]], [[3, 1]]]
    assert all([2, 1] in area["chain"] for area in areas)


def test_a_capture_takes_older_areas_and_houses_inside_its_chain_without_double_counting() -> None:
    game = from_picture(
        """
        xxxxxxxxxxxxx
        x...........x
        x..x...x....x
        x.xox.x.x.o..
        x..x...x....x
        x...........x
        xxxxxxxxxxxxx
        """
    )
    assert game.scores == (1, 0)  # the diamond round (3, 3) closed while setting up
    assert len(view(game)["houses"]) == 1  # the diamond round (7, 3)
    game = game.play(Point(12, 3))
    assert game.scores == (2, 0)  # (3, 3) is not counted twice
    assert game.is_dead(Point(7, 3))  # the house went with the capture
    assert not game.is_legal(Point(7, 3))
    [area] = view(game)["areas"]  # the older area is swallowed by the new one
    assert [3, 3] in area["inside"] and [7, 3] in area["inside"] and [10, 3] in area["inside"]
    assert [3, 2] in area["inside"]  # own marks inside are taken along, not scored
    assert view(game)["houses"] == []


# -- everything strictly inside a capture's outer chain is dead ------------------------------


def captured_after(picture_text: str, move: tuple[int, int], to_move: int = 0) -> dots.DotsState:
    game = from_picture(picture_text, to_move=to_move)
    return game.play(Point(*move))


def assert_dead_inside(game: dots.DotsState, points: list[tuple[int, int]]) -> None:
    for x, y in points:
        assert game.is_dead(Point(x, y)), (x, y)
        assert not game.is_legal(Point(x, y)), (x, y)
    [area] = view(game)["areas"]
    assert all([x, y] in area["inside"] for x, y in points)


def test_an_own_diamond_inside_a_capture_is_captured_with_it() -> None:
    game = captured_after(
        OWN_DIAMOND_IN_A_RING,
        (8, 3),
    )
    assert game.scores == (1, 0)
    assert_dead_inside(game, [(4, 3), (4, 2), (3, 3)])  # the house's point and its marks
    assert view(game)["houses"] == []


def test_an_own_ring_of_several_points_inside_a_capture_is_captured_with_it() -> None:
    game = captured_after(
        """
        xxxxxxxxx
        x.......x
        x..xxx..x
        x.x...xo.
        x..xxx..x
        x.......x
        xxxxxxxxx
        """,
        (8, 3),
    )
    assert game.scores == (1, 0)
    assert_dead_inside(game, [(3, 3), (4, 3), (5, 3)])
    assert view(game)["houses"] == []


@pytest.mark.parametrize(
    "picture_text",
    [
        # the diamond hangs on the outer chain by a one-mark stalk
        """
        xxxxxxxxx
        x.......x
        x..x....x
        xxx.x.o..
        x..x....x
        x.......x
        xxxxxxxxx
        """,
        # the diamond's own corner mark touches the outer chain
        """
        xxxxxxxxx
        x.......x
        x.x.....x
        xx.x..o..
        x.x.....x
        x.......x
        xxxxxxxxx
        """,
    ],
)
def test_an_own_enclosure_hanging_on_the_outer_chain_is_captured_with_it(
    picture_text: str,
) -> None:
    before = from_picture(picture_text)
    [house] = view(before)["houses"]
    [hole] = house["inside"]
    game = before.play(Point(8, 3))
    assert game.scores == (1, 0)
    assert_dead_inside(game, [(hole[0], hole[1])])
    [area] = view(game)["areas"]
    assert [hole[0] + 1, 3] in area["inside"]  # the enclosure's marks are inside too
    assert [8, 3] in area["chain"] and [0, 3] not in area["chain"]
    assert view(game)["houses"] == []


def test_an_opponent_house_inside_a_capture_is_captured_and_its_marks_count() -> None:
    game = captured_after(
        """
        xxxxxxxx
        x......x
        x..o...x
        x.o.o.o.
        x..o...x
        x......x
        xxxxxxxx
        """,
        (7, 3),
    )
    assert game.scores == (5, 0)
    assert_dead_inside(game, [(3, 3)])
    assert all(game.is_captured(Point(x, y)) for x, y in [(3, 2), (2, 3), (4, 3), (3, 4)])


def test_an_earlier_capture_hanging_on_the_outer_chain_is_swallowed_once() -> None:
    before = from_picture(
        """
        xxxxxxxxx
        x.......x
        x..x....x
        xxxox.o..
        x..x....x
        x.......x
        xxxxxxxxx
        """
    )
    assert before.scores == (1, 0)  # the diamond round (3, 3) hangs on a one-mark stalk
    game = before.play(Point(8, 3))
    assert game.scores == (2, 0)  # (3, 3) is not counted twice
    [area] = view(game)["areas"]
    assert [3, 3] in area["inside"] and [6, 3] in area["inside"]


def test_a_spur_of_own_marks_sticking_into_a_capture_lies_inside_it() -> None:
    game = captured_after(
        """
        xxxxxxxx
        x..xx..x
        x..xx..x
        x....o..
        x......x
        xxxxxxxx
        """,
        (7, 3),
    )
    [area] = view(game)["areas"]
    assert [3, 2] in area["inside"] and [4, 2] in area["inside"]  # the spur's tip
    assert [3, 1] in area["chain"] and [4, 1] in area["chain"]  # its root is chain


def test_the_house_rule_takes_an_enclosure_hanging_on_the_house_chain() -> None:
    game = from_picture(
        """
        xxxxxxxxx
        x.......x
        x..x....x
        xxx.x...x
        x..x....x
        x.......x
        xxxxxxxxx
        """,
        to_move=1,
    )
    assert len(view(game)["houses"]) == 2  # the big house and the diamond hanging in it
    game = game.play(Point(6, 3))
    assert game.scores == (1, 0)
    assert_dead_inside(game, [(3, 3), (6, 3), (1, 1)])
    assert view(game)["houses"] == []


def test_an_older_area_sharing_the_chain_stays_a_separate_area() -> None:
    game = from_picture(
        """
        xxxxxxx
        x.x...x
        xxox.o.
        x.x...x
        xxxxxxx
        """
    )
    assert game.scores == (1, 0)  # the diamond round (2, 2), hanging on the ring
    game = game.play(Point(6, 2))
    assert game.scores == (2, 0)
    # The diamond is part of the wall, so its area lies outside the new area's tightest chain.
    new, old = view(game)["areas"]  # by key: the new area's first point comes first
    assert old["inside"] == [[2, 2]]
    assert [2, 2] not in new["inside"] and [5, 2] in new["inside"]
    assert [3, 2] in new["chain"] and [2, 1] in new["chain"]


def test_recapture_two_levels_deep_frees_the_marks_held_inside() -> None:
    game = from_picture(RECAPTURES)
    game = game.play(Point(5, 6))  # level 1: x takes the o in the middle
    assert game.scores == (1, 0)
    game = game.play(Point(5, 7))  # level 2: o takes x's diamond, the middle o comes back
    assert game.scores == (0, 4)
    assert not game.is_captured(Point(5, 5))
    assert game.is_captured(Point(5, 4))
    game = game.play(Point(5, 9))  # level 3: x takes o's ring; x's diamond comes back
    assert game.scores == (17, 0)
    assert not game.is_captured(Point(5, 4))
    assert game.is_captured(Point(5, 5))
    assert game.is_captured(Point(3, 3))
    assert len(view(game)["areas"]) == 1


def test_the_tightest_chain_bounds_a_capture_when_a_wider_ring_closes_too() -> None:
    game = from_picture(
        """
        ..x..
        .xox.
        x....
        .x...
        """
    )
    game = game.play(Point(2, 2))
    assert game.scores == (1, 0)
    [area] = view(game)["areas"]
    assert area["inside"] == [[2, 1]]
    assert area["chain"] == [[2, 0], [3, 1], [2, 2], [1, 1]]
    [house] = view(game)["houses"]  # the wider ring round (1, 2) only made a house
    assert house["inside"] == [[1, 2]]
    assert game.is_legal(Point(1, 2))


# -- starts, endings and options -------------------------------------------------------------


def test_cross_start_on_the_traditional_sheet() -> None:
    game = dots.new_game(39, 32, start="cross")
    assert game.mark_at(Point(19, 15)) == 0 and game.mark_at(Point(20, 16)) == 0
    assert game.mark_at(Point(20, 15)) == 1 and game.mark_at(Point(19, 16)) == 1
    assert game.to_move == 0 and game.moves == () and game.scores == (0, 0)
    assert len(list(game.legal_moves())) == 39 * 32 - 4
    small = dots.new_game(5, 5, start="cross")
    assert [small.mark_at(Point(x, y)) for x, y in [(2, 1), (3, 2), (3, 1), (2, 2)]] == [0, 0, 1, 1]


def test_four_crosses_start() -> None:
    game = dots.new_game(39, 32, start="four_crosses")
    marks = [(x, y) for x in range(39) for y in range(32) if game.mark_at(Point(x, y)) is not None]
    assert len(marks) == 16
    assert sum(game.mark_at(Point(x, y)) == 0 for x, y in marks) == 8


def test_empty_start_and_defaults() -> None:
    game = dots.new_game()
    assert (game.width, game.height, game.start) == (39, 32, "empty")
    assert game.outcome() is None and not game.is_over and game.winner is None


def test_grounding_counts_unlinked_groups_for_the_opponent() -> None:
    game = from_picture(
        """
        x......
        x..x...
        ...x...
        .......
        """,
        grounding=True,
    )
    with pytest.raises(IllegalMove, match="not enabled"):
        from_picture("x.", grounding=False).ground(0)
    ended = game.ground(0)
    assert ended.is_over
    assert ended.outcome() == Outcome(1, "grounding", (0, 2))
    assert ended.scores == (0, 2)
    assert ended.ending == dots.Ending("grounding", 0)
    assert set(ended.ungrounded) == {Point(3, 1), Point(3, 2)}
    with pytest.raises(IllegalMove):
        ended.play(Point(4, 4))
    assert dots.from_json(ended.to_json()) == ended


def test_grounding_links_through_own_captured_area() -> None:
    game = from_picture(
        """
        .x...
        xox..
        .x...
        """,
        grounding=True,
    )
    assert game.scores == (1, 0)
    # (1, 0) touches the edge; the rest of the ring links to it through the captured area.
    assert game.ground(0).scores == (1, 0)


def test_immediate_win_margin_ends_the_game_at_once() -> None:
    game = from_picture(
        """
        .x..
        xox.
        ....
        """,
        win_margin=1,
    )
    assert not game.is_over
    game = game.play(Point(1, 2))
    assert game.is_over and game.winner == 0
    assert game.outcome() == Outcome(0, "margin", (1, 0))
    assert list(game.legal_moves()) == []
    with pytest.raises(IllegalMove, match="over"):
        game.play(Point(4, 4))


def test_resignation_and_agreement() -> None:
    game = play_all(dots.new_game(7, 7), (1, 1), (2, 2))
    resigned = game.resign(0)
    assert resigned.outcome() == Outcome(1, "resignation", (0, 0))
    assert resigned.winner == 1
    with pytest.raises(IllegalMove):
        resigned.resign(1)
    with pytest.raises(IllegalMove):
        resigned.end_by_agreement()
    agreed = from_picture(".x..\nxox.\n....").play(Point(1, 2)).end_by_agreement()
    assert agreed.outcome() == Outcome(0, "agreement", (1, 0))
    drawn = game.end_by_agreement()
    assert drawn.outcome() == Outcome(None, "agreement", (0, 0)) and drawn.winner is None


def test_the_game_ends_when_no_playable_point_is_left() -> None:
    game = dots.new_game(5, 5)
    while not game.is_over:
        game = game.play(game.legal_moves()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.reason == "board_full"
    assert outcome.scores == game.scores
    assert not any(game.is_legal(Point(x, y)) for x in range(5) for y in range(5))


# -- API details and every error -------------------------------------------------------------


def test_point_is_a_small_value_that_owns_its_notation() -> None:
    point = Point(19, 15)
    assert str(point) == "t16" and Point.from_str("t16") == point
    assert repr(point) == "Point.from_str('t16')" and eval(repr(point)) == point
    assert Point.from_str(" AB32 ") == Point(27, 31) and str(Point(27, 31)) == "ab32"
    assert str(Point(59, 59)) == "bh60" and Point.from_str("bh60") == Point(59, 59)
    assert repr(Point(-1, 0)) == "Point(-1, 0)"
    assert hash(point) == hash(Point(19, 15)) and Point(1, 2) < Point(2, 0)
    with pytest.raises(AttributeError):
        point.x = 3  # type: ignore[misc]
    for bad in [(1.5, 2), ("1", 2), (True, 1), (None, 0)]:
        with pytest.raises(InvalidMove):
            Point(*bad)  # type: ignore[arg-type]
    for text in ["", "a", "1", "a0", "1a", "a1b", "a-1", "19,15", "é1"]:
        with pytest.raises(InvalidMove):
            Point.from_str(text)


def test_states_are_immutable_and_play_returns_a_new_state() -> None:
    game = dots.new_game(5, 5)
    after = game.play(Point(0, 0))
    assert game.moves == () and game.mark_at(Point(0, 0)) is None
    assert after.moves == (Point(0, 0),) and after.to_move == 1 and after.last_move == Point(0, 0)
    with pytest.raises(AttributeError):
        game.foo = 1
    assert game.play((0, 0)) == after


def test_errors() -> None:
    game = play_all(dots.new_game(5, 5), (2, 2))
    with pytest.raises(IllegalMove, match="taken"):
        game.play(Point(2, 2))
    for off in [Point(5, 0), Point(0, 5), Point(-1, 0)]:
        with pytest.raises(InvalidMove):
            game.play(off)
        assert not game.is_legal(off)
        with pytest.raises(InvalidMove):
            game.mark_at(off)
    with pytest.raises(InvalidMove):
        game.play("2,2")  # type: ignore[arg-type]
    with pytest.raises(InvalidMove):
        game.is_legal((1, 1))  # type: ignore[arg-type]
    for data in [{}, {"point": [1]}, {"point": "1,1"}, {"line": [1, 1]}, {"point": [1.0, 1]},
                 {"point": [9, 9]}, {"point": [1, 1], "x": 1}, []]:  # fmt: skip
        with pytest.raises(InvalidMove):
            game.move_from_json(data)  # type: ignore[arg-type]
    with pytest.raises(InvalidMove):
        game.resign(2)  # type: ignore[arg-type]
    for options in [
        {"width": 4},
        {"height": 61},
        {"width": "9"},
        {"start": "x"},
        {"win_margin": 0},
        {"grounding": 1},
    ]:
        with pytest.raises(InvalidOptions):
            dots.new_game(**options)  # type: ignore[arg-type]
    records: list[dict[str, Any]] = [
        {"game": "boxes"},
        {"game": "dots", "colour": 1},
        {"end": {"type": "?"}},
    ]
    for record in records:
        with pytest.raises(InvalidOptions):
            dots.from_json(record)
    with pytest.raises(InvalidMove):
        dots.from_json({"game": "dots", "width": 5, "height": 5, "moves": [[1, 2, 3]]})
    with pytest.raises(IllegalMove):
        dots.from_json({"game": "dots", "width": 5, "height": 5, "moves": [[1, 2], [1, 2]]})
    for text in ["", "dots", "dots 5y5", "chess 5x5", "boxes 5x5", "dots 5x5 speed=1",
                 "dots 5x5; 1-2", "dots 5x5; ; resign 3", "dots 5x5;;;", "dots 5x5 margin=x",
                 "dots 5x5 start=diagonal", "dots 5x5 grounding=1", "dots 5x5; f1"]:  # fmt: skip
        with pytest.raises((InvalidOptions, InvalidMove)):
            dots.parse_record(text)


def test_json_forms() -> None:
    game = play_all(dots.new_game(7, 6, start="cross", win_margin=3), (0, 0), (6, 5))
    assert game.move_to_json(Point(3, 4)) == {"point": [3, 4]}
    assert game.move_from_json({"point": [3, 4]}) == Point(3, 4)
    record = game.to_json()
    assert record == {
        "game": "dots",
        "width": 7,
        "height": 6,
        "start": "cross",
        "win_margin": 3,
        "grounding": False,
        "moves": [[0, 0], [6, 5]],
    }
    assert dots.from_json(record) == game
    resigned = game.resign(1)
    assert resigned.to_json()["end"] == {"type": "resignation", "player": 1}
    assert dots.from_json(resigned.to_json()) == resigned
    assert dots.from_json(game.end_by_agreement().to_json()).outcome() == Outcome(
        None, "agreement", (0, 0)
    )


def test_text_record() -> None:
    game = play_all(dots.new_game(9, 9, start="cross", grounding=True), (0, 0), (8, 8), (1, 1))
    text = dots.format_record(game)
    assert text == "dots 9x9 start=cross grounding; a1 i9 b2"
    assert dots.parse_record(text) == game
    assert dots.parse_record("DOTS 9x9 start=cross grounding;\n A1 % a comment\ni9 b2") == game
    ended = game.ground(1)
    assert dots.format_record(ended).endswith("; ground 1")
    assert dots.parse_record(dots.format_record(ended)) == ended
    empty = dots.new_game(5, 5, win_margin=2).resign(0)
    assert dots.format_record(empty) == "dots 5x5 margin=2; ; resign 0"
    assert dots.parse_record(dots.format_record(empty)) == empty
    assert dots.format_record(dots.new_game(7, 6)) == "dots 7x6"


def test_print_shows_the_position() -> None:
    game = from_picture(".x..\nxox.\n....").play(Point(1, 2))
    assert str(game).splitlines()[:4] == [
        "  a b c d e",
        "1 . x . . .",
        "2 x O x . .",
        "3 . x . . .",
    ]
    wide = dots.new_game(30, 5).play(Point(29, 0))
    assert str(wide).splitlines()[0].endswith("z  aa ab ac ad")
    assert str(wide).splitlines()[1].endswith(".  .  x")


def test_view_is_plain_json() -> None:
    import json

    game = from_picture(".x..\nxox.\n....").play(Point(1, 2))
    shown = view(game)
    assert json.loads(json.dumps(shown)) == shown
    assert shown["last_move"] == [1, 2]
    assert shown["scores"] == [1, 0] and shown["to_move"] == 1
    assert {"point": [1, 1], "owner": 1, "captured": True} in shown["marks"]
    assert shown["outcome"] is None and shown["width"] == 5
