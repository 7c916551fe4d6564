"""The shared notation: squares like spreadsheet cells, moves that own their text, records."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import InvalidMove, InvalidOptions, boxes, dots
from core.boxes import Line
from core.dots import Point
from core.game import Ending
from core.notation import column_name, format_square, parse_square, read_record, write_record
from core.registry import parse_record


def test_columns_are_named_like_spreadsheet_columns() -> None:
    names = {0: "a", 1: "b", 25: "z", 26: "aa", 27: "ab", 51: "az", 52: "ba", 59: "bh"}
    for x, name in names.items():
        assert column_name(x) == name
        assert parse_square(f"{name}1") == (x, 0)
    assert format_square(2, 4) == "c5" and parse_square("C5") == (2, 4)
    for bad in ["", "5", "c", "c0", "c05", "5c", "c-5", "c 5", "ç5"]:
        with pytest.raises(InvalidMove):
            parse_square(bad)


@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=10_000))
def test_every_square_round_trips(x: int, y: int) -> None:
    assert parse_square(format_square(x, y)) == (x, y)


def test_overlong_square_names_are_refused_unread() -> None:
    assert parse_square("zzz99999") == (18_277, 99_998)
    for bad in ["aaaa1", "a123456", "b" * 65_000 + "1", "a" + "1" * 65_000]:
        with pytest.raises(InvalidMove, match="is not a square") as refused:
            parse_square(bad)
        assert len(str(refused.value)) < 100  # the name is not echoed whole


def test_a_boolean_is_no_board_size_even_after_a_one_by_one_board() -> None:
    assert boxes.new_game(rows=1, cols=1).rows == 1
    with pytest.raises(InvalidOptions, match="rows must be an integer"):
        boxes.new_game(rows=True, cols=True)


def test_a_record_splits_into_its_parts() -> None:
    record = read_record(
        "DOTS 39x32 start=cross margin=10 grounding; t16 u17 % a note\n s15; ground 0"
    )
    assert record.game == "dots" and (record.width, record.height) == (39, 32)
    assert record.options == (("start", "cross"), ("margin", "10"), ("grounding", None))
    assert record.moves == ("t16", "u17", "s15")
    assert record.ending == Ending("grounding", 0)
    assert read_record("boxes 5x5").moves == () and read_record("boxes 5x5").ending is None
    assert read_record("boxes 5x5;; agreement").ending == Ending("agreement")
    text = write_record("dots", 9, 9, ["grounding"], ["a1"], Ending("resignation", 1))
    assert text == "dots 9x9 grounding; a1; resign 1"
    for bad in ["", "dots", "dots 5", "dots fivexfive", "dots 5x5;;;", "dots 5x5;; resign",
                "dots 5x5;; resign 2", "dots 5x5;; surrender 1", 5]:  # fmt: skip
        with pytest.raises(InvalidOptions):
            read_record(bad)  # type: ignore[arg-type]


def test_the_registry_reads_a_record_of_either_game() -> None:
    assert parse_record("boxes 2x2; a1-b1") == boxes.new_game(2, 2).play(Line.from_str("a1-b1"))
    assert parse_record("dots 5x5; c3") == dots.new_game(5, 5).play(Point(2, 2))
    with pytest.raises(InvalidOptions):
        parse_record("chess 8x8; e2e4")


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=1, max_value=10),
    st.integers(min_value=1, max_value=10),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from([None, "resign 0", "resign 1", "agreement"]),
)
def test_every_dots_and_boxes_move_and_record_round_trips(
    rows: int, cols: int, seed: int, ending: str | None
) -> None:
    rng = random.Random(seed)
    geo = boxes.geometry(rows, cols)
    start = [line for line in geo.lines if rng.random() < 0.1]
    try:
        game = boxes.new_game(rows, cols, start)
    except InvalidOptions:  # the random start lines closed a box
        game = boxes.new_game(rows, cols)
    for _ in range(rng.randrange(geo.line_count + 1)):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_moves()))
    end = read_record(f"boxes 1x1;; {ending}").ending if ending else None
    if end is not None and not game.is_over:
        game = game.end(end)
    for line in (*game.start, *game.moves):
        assert Line.from_str(str(line)) == line
        assert eval(repr(line)) == line
    text = boxes.format_record(game)
    assert boxes.parse_record(text) == game
    assert boxes.format_record(boxes.parse_record(text)) == text
    assert parse_record(text) == game


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=5, max_value=60),
    st.integers(min_value=5, max_value=60),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from(["empty", "cross", "four_crosses"]),
)
def test_every_dots_move_and_record_round_trips(
    width: int, height: int, seed: int, start: dots.Start
) -> None:
    rng = random.Random(seed)
    game = dots.new_game(width, height, start, win_margin=rng.choice([None, 3]))
    for _ in range(rng.randrange(200)):
        if game.is_over:
            break
        game = game.play(rng.choice(game.legal_moves()))
    for point in game.moves:
        assert Point.from_str(str(point)) == point
        assert eval(repr(point)) == point
    text = dots.format_record(game)
    assert dots.parse_record(text) == game
    assert dots.format_record(dots.parse_record(text)) == text
