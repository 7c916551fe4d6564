"""Property tests of the Dots and Boxes rules over random games (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from core import boxes
from core.boxes import Line
from core.boxes.search import draw

sizes = st.tuples(st.integers(1, 5), st.integers(1, 5))


@st.composite
def games(draw_: st.DrawFn, finished: bool = False) -> boxes.BoxesState:
    """A random game on a random board, with some start lines, played part way or to the end."""
    rows, cols = draw_(sizes)
    geo = boxes.geometry(rows, cols)
    start: list[Line] = []
    drawn = 0
    for index in draw_(st.lists(st.integers(0, geo.line_count - 1), max_size=4, unique=True)):
        after = drawn | 1 << index
        if all(after & sides != sides for sides in geo.box_sides):
            drawn = after
            start.append(geo.lines[index])
    game = boxes.new_game(rows, cols, start)
    length = geo.line_count if finished else draw_(st.integers(0, geo.line_count))
    for _ in range(length):
        legal = list(game.legal_moves())
        if not legal:
            break
        game = game.play(legal[draw_(st.integers(0, len(legal) - 1))])
    return game


@settings(max_examples=150, deadline=None)
@given(games(finished=True))
def test_a_game_lasts_exactly_as_many_moves_as_free_lines(game: boxes.BoxesState) -> None:
    assert game.is_over
    assert len(game.moves) == game.geometry.line_count - len(game.start)


@settings(max_examples=150, deadline=None)
@given(games(finished=True))
def test_final_scores_sum_to_the_number_of_boxes(game: boxes.BoxesState) -> None:
    assert sum(game.scores) == game.rows * game.cols
    owners = [game.box_owner((x, y)) for y in range(game.rows) for x in range(game.cols)]
    assert owners.count(0) == game.scores[0] and owners.count(1) == game.scores[1]
    expected = None if game.scores[0] == game.scores[1] else int(game.scores[1] > game.scores[0])
    assert game.winner == expected


@settings(max_examples=150, deadline=None)
@given(games(finished=True))
def test_the_mover_keeps_the_turn_exactly_when_a_box_was_completed(game: boxes.BoxesState) -> None:
    replay = boxes.new_game(game.rows, game.cols, game.start)
    for move in game.moves:
        before = replay
        replay = replay.play(move)
        gained = sum(replay.scores) - sum(before.scores)
        assert gained in (0, 1, 2)
        assert replay.scores[before.to_move] - before.scores[before.to_move] == gained
        if replay.is_over:
            break
        assert (replay.to_move == before.to_move) == (gained > 0)


@settings(max_examples=150, deadline=None)
@given(games())
def test_notation_and_json_round_trip(game: boxes.BoxesState) -> None:
    assert boxes.parse_record(boxes.format_record(game)) == game
    assert boxes.from_json(game.to_json()) == game
    again = boxes.from_json(game.to_json())
    assert (again.scores, again.to_move, again.drawn) == (game.scores, game.to_move, game.drawn)


DotMap = Callable[[tuple[int, int]], tuple[int, int]]


def mirrors(rows: int, cols: int) -> list[tuple[DotMap, bool]]:
    """Symmetries of the dot grid: each maps a dot, and says whether rows and cols swap."""
    return [
        (lambda d: (cols - d[0], d[1]), False),
        (lambda d: (d[0], rows - d[1]), False),
        (lambda d: (d[1], d[0]), True),
    ]


@settings(max_examples=100, deadline=None)
@given(games(finished=True))
def test_mirroring_a_game_mirrors_its_result(game: boxes.BoxesState) -> None:
    for flip, swaps in mirrors(game.rows, game.cols):
        rows, cols = (game.cols, game.rows) if swaps else (game.rows, game.cols)
        image = boxes.new_game(rows, cols, [Line(flip(ln.a), flip(ln.b)) for ln in game.start])
        for move in game.moves:
            image = image.play(Line(flip(move.a), flip(move.b)))
        assert image.scores == game.scores
        assert image.winner == game.winner
        for y in range(game.rows):
            for x in range(game.cols):
                corners = [flip((x, y)), flip((x + 1, y + 1))]
                box = (min(c[0] for c in corners), min(c[1] for c in corners))
                assert image.box_owner(box) == game.box_owner((x, y))


@settings(max_examples=100, deadline=None)
@given(games(finished=True))
def test_the_search_path_agrees_with_the_public_api(game: boxes.BoxesState) -> None:
    geo = game.geometry
    replay = boxes.new_game(game.rows, game.cols, game.start)
    drawn = replay.drawn
    for move in game.moves:
        before = sum(replay.scores)
        replay = replay.play(move)
        drawn, completed = draw(geo, drawn, geo.line_index(move))
        assert drawn == replay.drawn
        assert completed == sum(replay.scores) - before


@settings(max_examples=100, deadline=None)
@given(games())
def test_adding_each_line_and_what_it_closed_to_the_first_snapshot_gives_every_snapshot(
    game: boxes.BoxesState,
) -> None:
    state = boxes.new_game(game.rows, game.cols, game.start)
    first = state.snapshot()
    lines = list(first.lines)
    owners = {box.box: box.owner for box in first.boxes}
    for move in game.moves:
        before = state
        state = state.play(move)
        player = before.to_move
        assert state.last_move == move
        lines.append(boxes.DrawnLine(move, player))
        for box in state.last_closed:
            assert box not in owners
            owners[box] = player
        snapshot = state.snapshot()
        assert tuple(lines) == snapshot.lines
        assert owners == {box.box: box.owner for box in snapshot.boxes}
        assert snapshot.scores == state.scores and snapshot.to_move == state.to_move


@settings(max_examples=150, deadline=None)
@given(games(), st.booleans())
def test_last_move_by_is_the_last_move_movers_gives_each_player(
    game: boxes.BoxesState, resign: bool
) -> None:
    if resign and not game.is_over:
        game = game.resign(game.to_move)  # an ending changes nobody's moves
    who = game.movers()
    for player in (0, 1):
        mine = [number for number, mover in enumerate(who) if mover == player]
        assert game.last_move_by(player) == (mine[-1] if mine else None)
