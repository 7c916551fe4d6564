"""Hand-made positions for every Dots and Boxes rule and the API of core.boxes."""

from __future__ import annotations

import pytest

from core import IllegalMove, InvalidMove, InvalidOptions, boxes
from core.boxes import Line
from tests.core.views import view


def play_all(game: boxes.BoxesState, *moves: Line) -> boxes.BoxesState:
    for move in moves:
        game = game.play(move)
    return game


def H(x: int, y: int) -> Line:
    """The horizontal line from dot (x, y) to (x + 1, y)."""
    return Line((x, y), (x + 1, y))


def V(x: int, y: int) -> Line:
    """The vertical line from dot (x, y) to (x, y + 1)."""
    return Line((x, y), (x, y + 1))


@pytest.mark.parametrize(
    ("rows", "cols", "lines"),
    [(1, 1, 4), (2, 2, 12), (3, 3, 24), (4, 4, 40), (5, 5, 60), (7, 7, 112), (10, 10, 220)],
)
def test_line_counts_match_the_spec(rows: int, cols: int, lines: int) -> None:
    game = boxes.new_game(rows=rows, cols=cols)
    assert len(list(game.legal_moves())) == lines
    assert game.geometry.line_count == lines


def test_rectangles_are_allowed_and_sizes_are_checked() -> None:
    game = boxes.new_game(rows=2, cols=7)
    assert len(list(game.legal_moves())) == 3 * 7 + 2 * 8
    for rows, cols in [(0, 3), (3, 11), (-1, 2)]:
        with pytest.raises(InvalidOptions):
            boxes.new_game(rows=rows, cols=cols)


def test_line_normalises_the_order_of_its_dots() -> None:
    assert Line((1, 0), (0, 0)) == Line((0, 0), (1, 0))
    assert Line((1, 0), (0, 0)).a == (0, 0)
    assert Line((2, 3), (2, 2)) == V(2, 2)
    assert hash(Line((1, 0), (0, 0))) == hash(Line((0, 0), (1, 0)))
    assert eval(repr(Line((3, 1), (3, 2)))) == Line((3, 1), (3, 2))
    assert repr(Line((3, 1), (3, 2))) == "Line.from_str('d2-d3')"


@pytest.mark.parametrize(
    ("a", "b"),
    [((0, 0), (1, 1)), ((0, 0), (2, 0)), ((0, 0), (0, 0)), ((-1, 0), (0, 0)), ((0, 0), "ab")],
)
def test_line_rejects_non_adjacent_or_malformed_dots(a: object, b: object) -> None:
    with pytest.raises(InvalidMove):
        Line(a, b)  # type: ignore[arg-type]


def test_off_board_line_is_invalid_not_illegal() -> None:
    game = boxes.new_game(rows=2, cols=2)
    with pytest.raises(InvalidMove):
        game.play(Line((2, 0), (3, 0)))
    with pytest.raises(InvalidMove):
        game.play(Line((0, 2), (0, 3)))
    with pytest.raises(InvalidMove):
        game.play("a1b1")  # type: ignore[arg-type]


def test_redrawing_a_line_is_illegal_with_a_reason() -> None:
    game = boxes.new_game(rows=2, cols=2).play(H(0, 0))
    with pytest.raises(IllegalMove, match="already drawn") as error:
        game.play(Line((1, 0), (0, 0)))
    assert error.value.code == "illegal_move"
    assert isinstance(error.value, ValueError)


def test_a_line_that_closes_nothing_passes_the_turn() -> None:
    game = boxes.new_game(rows=2, cols=2)
    assert game.to_move == 0
    game = game.play(H(0, 0))
    assert game.to_move == 1
    game = game.play(H(1, 0))
    assert game.to_move == 0


def test_completing_a_box_claims_it_and_gives_one_extra_move() -> None:
    game = play_all(boxes.new_game(rows=2, cols=2), H(0, 0), V(0, 0), H(0, 1))
    assert game.to_move == 1
    game = game.play(V(1, 0))
    assert game.box_owner((0, 0)) == 1
    assert game.scores == (0, 1)
    assert game.to_move == 1


def test_double_box_claims_both_but_gives_exactly_one_extra_move() -> None:
    # Two boxes side by side with every side but the shared middle line drawn.
    game = boxes.new_game(rows=1, cols=2)
    game = play_all(game, H(0, 0), H(1, 0), H(0, 1), H(1, 1), V(0, 0), V(2, 0))
    mover = game.to_move
    after = game.play(V(1, 0))
    assert after.box_owner((0, 0)) == mover
    assert after.box_owner((1, 0)) == mover
    assert after.scores[mover] == 2
    assert after.is_over
    game = boxes.new_game(rows=2, cols=2)
    game = play_all(game, H(0, 0), H(1, 0), H(0, 1), H(1, 1), V(0, 0), V(2, 0), V(0, 1))
    mover = game.to_move
    after = game.play(V(1, 0))
    assert after.scores[mover] == 2
    assert after.to_move == mover  # one extra move, not two
    after = after.play(V(2, 1))
    assert after.to_move != mover


def test_taking_a_box_is_optional() -> None:
    game = play_all(boxes.new_game(rows=2, cols=2), H(0, 0), V(0, 0), H(0, 1))
    assert game.to_move == 1
    declined = game.play(H(1, 2))  # player 1 could close box (0, 0) but draws elsewhere
    assert declined.box_owner((0, 0)) is None
    assert declined.to_move == 0
    taken_by_other = declined.play(V(1, 0))
    assert taken_by_other.box_owner((0, 0)) == 0


def test_box_owner_ignores_who_drew_the_other_sides() -> None:
    game = play_all(boxes.new_game(rows=1, cols=1), H(0, 0), V(0, 0), H(0, 1))
    assert game.to_move == 1
    game = game.play(V(1, 0))
    assert game.box_owner((0, 0)) == 1
    assert game.winner == 1


def test_box_owner_checks_its_box() -> None:
    game = boxes.new_game(rows=2, cols=3)
    assert game.box_owner((2, 1)) is None
    with pytest.raises(InvalidMove):
        game.box_owner((3, 0))


def test_last_line_ends_the_game() -> None:
    game = play_all(boxes.new_game(rows=1, cols=1), H(0, 0), V(0, 0), H(0, 1))
    assert not game.is_over
    assert game.winner is None
    game = game.play(V(1, 0))
    assert game.is_over
    assert list(game.legal_moves()) == []
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.reason == "board_full"
    assert outcome.scores == (0, 1)
    with pytest.raises(IllegalMove, match="over"):
        game.play(V(0, 0))


def test_draw_on_two_by_two() -> None:
    # Nine lines close nothing: every box still lacks its middle vertical side.
    nine = (H(0, 0), H(1, 0), H(0, 1), H(1, 1), H(0, 2), H(1, 2), V(0, 0), V(2, 0), V(0, 1))
    game = play_all(boxes.new_game(rows=2, cols=2), *nine)
    assert game.scores == (0, 0)
    assert game.to_move == 1
    game = game.play(V(1, 0))  # closes both top boxes at once
    assert game.scores == (0, 2)
    assert game.to_move == 1
    game = game.play(V(2, 1))  # closes nothing, so the turn passes
    assert game.to_move == 0
    game = game.play(V(1, 1))  # the last line closes both bottom boxes
    assert game.is_over
    assert game.scores == (2, 2)
    assert game.winner is None
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None and outcome.reason == "board_full"


def test_the_player_with_more_boxes_wins() -> None:
    game = boxes.new_game(rows=1, cols=2)
    game = play_all(game, H(0, 0), H(1, 0), V(0, 0), V(2, 0), H(0, 1))  # box (0, 0): 3 sides
    assert game.to_move == 1
    game = game.play(V(1, 0))  # 1 closes (0, 0); box (1, 0) now has three sides
    assert (game.scores, game.to_move) == ((0, 1), 1)
    game = game.play(H(1, 1))  # and closes (1, 0) with its extra move
    assert game.is_over
    assert game.scores == (0, 2)
    assert game.winner == 1


def test_start_lines_are_drawn_but_belong_to_nobody() -> None:
    start = [H(0, 0), V(2, 1)]
    game = boxes.new_game(rows=2, cols=2, lines=start)
    assert game.is_drawn(H(0, 0)) and game.is_drawn(V(2, 1))
    assert len(list(game.legal_moves())) == 10
    assert game.to_move == 0
    assert game.moves == ()
    with pytest.raises(IllegalMove):
        game.play(H(0, 0))
    assert [entry["player"] for entry in view(game)["lines"]] == [None, None]


def test_start_lines_may_not_close_a_box_or_repeat() -> None:
    with pytest.raises(InvalidOptions):
        boxes.new_game(rows=1, cols=1, lines=[H(0, 0), H(0, 1), V(0, 0), V(1, 0)])
    with pytest.raises(InvalidOptions):
        boxes.new_game(rows=1, cols=1, lines=[H(0, 0), Line((1, 0), (0, 0))])
    with pytest.raises(InvalidMove):
        boxes.new_game(rows=1, cols=1, lines=[H(3, 3)])


def test_states_are_immutable() -> None:
    game = boxes.new_game(rows=2, cols=2)
    after = game.play(H(0, 0))
    assert game.moves == () and after.moves == (H(0, 0),)
    with pytest.raises(AttributeError):
        game.to_move = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        H(0, 0).a = (1, 1)  # type: ignore[misc]


def test_resignation_ends_the_game_for_the_other_player() -> None:
    game = boxes.new_game(rows=2, cols=2).play(H(0, 0))
    over = game.resign(0)
    assert over.is_over and over.winner == 1
    outcome = over.outcome()
    assert outcome is not None and outcome.reason == "resignation"
    with pytest.raises(IllegalMove):
        over.play(H(1, 0))
    with pytest.raises(IllegalMove):
        over.resign(1)
    with pytest.raises(InvalidMove):
        game.resign(2)  # type: ignore[arg-type]


def test_agreement_ends_as_a_draw() -> None:
    game = play_all(boxes.new_game(rows=1, cols=2), H(0, 0), V(0, 0), H(0, 1), V(1, 0))
    assert game.scores == (0, 1)
    over = game.end_by_agreement()
    assert over.is_over and over.winner is None
    outcome = over.outcome()
    assert outcome is not None and outcome.reason == "agreement" and outcome.scores == (0, 1)


def test_wire_form_of_moves() -> None:
    game = boxes.new_game(rows=3, cols=3)
    assert game.move_to_json(Line((1, 0), (0, 0))) == {"line": [[0, 0], [1, 0]]}
    assert game.move_from_json({"line": [[1, 2], [1, 1]]}) == V(1, 1)
    for bad in (
        {"line": [[0, 0]]},
        {"line": [[0, 0], [5, 0]]},
        {"line": [[0, 0], [1, 0]], "extra": 1},
        {"point": [0, 0]},
        {"line": [[0, 0], [4, 0]]},
        {"line": [[3, 0], [4, 0]]},
        {"line": "a1b1"},
        {"line": [[0.0, 0], [1, 0]]},
        {"line": [[True, 0], [1, 0]]},
        [],
    ):
        with pytest.raises(InvalidMove):
            game.move_from_json(bad)  # type: ignore[arg-type]


def test_record_and_notation_replay_the_same_game() -> None:
    game = boxes.new_game(rows=2, cols=3, lines=[V(3, 1)])
    game = play_all(game, H(0, 0), V(0, 0), H(0, 1), V(1, 0), H(2, 2))
    text = boxes.format_record(game)
    assert text == "boxes 3x2 start=d2-d3; a1-b1 a1-a2 a2-b2 b1-b2 c3-d3"
    assert boxes.parse_record(text) == game
    assert boxes.parse_record("BOXES 3x2 start=D3-D2 % comment\n; a1-b1 a2-a1\n a2-b2 b1-b2 c3-d3")\
        == game  # fmt: skip
    assert boxes.from_json(game.to_json()) == game
    resigned = game.resign(1)
    assert boxes.format_record(resigned).endswith("c3-d3; resign 1")
    assert boxes.parse_record(boxes.format_record(resigned)).winner == 0
    agreed = game.end_by_agreement()
    assert boxes.format_record(agreed).endswith("; agreement")
    assert boxes.from_json(agreed.to_json()).outcome() == agreed.outcome()
    assert boxes.format_record(boxes.new_game(3, 3)) == "boxes 3x3"
    assert boxes.parse_record("boxes 3x3") == boxes.new_game(3, 3)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "3x3",
        "boxes",
        "boxes 3y3",
        "dots 3x3",
        "boxes 3x3; a1-c1",
        "boxes 3x3; a1-b1 a1-b1",
        "boxes 11x3",
        "boxes 3x3; z1-z2",
        "boxes 3x3; a0-a1",
        "boxes 3x3; a1b1",
        "boxes 3x3; ; ground 0",
        "boxes 3x3; ; resign 2",
        "boxes 3x3 speed=1",
        "boxes 3x3 start=",
        "boxes 3x3;;;",
    ],
)
def test_bad_records_are_rejected(text: str) -> None:
    with pytest.raises(ValueError):
        boxes.parse_record(text)


def test_a_line_owns_its_notation() -> None:
    line = Line.from_str("b2-a2")
    assert line == H(0, 1)
    assert str(line) == "a2-b2"
    assert repr(line) == "Line.from_str('a2-b2')"
    assert eval(repr(line)) == line
    assert Line.from_str("K11-K10") == V(10, 9)
    for bad in ["a1", "a1-", "a1-c1", "a1b1", "1a-1b", "a1-a1", "", "a1--a2", "a-b"]:
        with pytest.raises(InvalidMove):
            Line.from_str(bad)
    with pytest.raises(InvalidMove):
        Line.from_str(3)  # type: ignore[arg-type]


def test_print_shows_the_position() -> None:
    game = play_all(boxes.new_game(rows=2, cols=2), H(0, 0), V(0, 0), H(0, 1), V(1, 0), V(2, 1))
    assert str(game) == "\n".join(
        [
            "   a   b   c",
            "1  +---+   +",
            "   | 1 |",
            "2  +---+   +",
            "           |",
            "3  +   +   +",
        ]
    )


def test_view_lists_lines_boxes_and_legal_moves() -> None:
    game = play_all(boxes.new_game(rows=1, cols=1), H(0, 0), V(0, 0), H(0, 1), V(1, 0))
    shown = view(game)
    assert shown["boxes"] == [{"box": [0, 0], "owner": 1}]
    assert shown["lines"][-1] == {"line": [[1, 0], [1, 1]], "player": 1}
    assert shown["last_move"] == [[1, 0], [1, 1]]
    assert shown["legal_moves"] == []
    assert shown["outcome"] == {"winner": 1, "reason": "board_full", "scores": [0, 1]}
