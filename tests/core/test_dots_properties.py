"""Property tests for Dots, and a cross-check against a slow, independent reference engine.

The reference below recomputes everything by flood fills over the whole (small) board
after each move, with none of the engine's tricks (no outline walks, no house flags, no
border sentinel):

* an area of player *c* is a 4-connected set of points that are not *c*'s live marks;
  it is closed when none of its points lies on the board edge;
* everything inside an area is what an 8-connected flood from beyond the edge, avoiding
  the area, cannot reach;
* a new mark cuts an area off when it joins two or more separate runs of its own marks
  in its 3×3 neighbourhood, the adjacent area is closed, and the mark is on that area's
  outside (the flood from beyond the edge reaches it); such an area is captured when a
  live opponent mark is inside it;
* a mark that captures nothing and lies in a closed area of the opponent is captured
  with everything inside that area.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import dots
from core.dots import Point

XY = tuple[int, int]
ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
AROUND = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))


class Reference:
    """A deliberately slow Dots engine: whole-board flood fills after every move."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.mark: dict[XY, int] = {}
        self.owner: dict[XY, int] = {}
        self.to_move = 0

    def on_board(self, p: XY) -> bool:
        return 0 <= p[0] < self.width and 0 <= p[1] < self.height

    def live(self, p: XY, player: int) -> bool:
        return self.mark.get(p) == player and self.owner.get(p, player) == player

    def playable(self) -> set[XY]:
        return {
            (x, y)
            for x in range(self.width)
            for y in range(self.height)
            if (x, y) not in self.mark and (x, y) not in self.owner
        }

    def scores(self) -> tuple[int, int]:
        counts = [0, 0]
        for p, who in self.mark.items():
            held = self.owner.get(p)
            if held is not None and held != who:
                counts[held] += 1
        return counts[0], counts[1]

    def area(self, start: XY, player: int) -> tuple[set[XY], bool]:
        """The 4-connected area of non-``player``-live points round ``start``; is it open?"""
        found, todo, is_open = {start}, [start], False
        while todo:
            x, y = todo.pop()
            if x in (0, self.width - 1) or y in (0, self.height - 1):
                is_open = True
            for dx, dy in ORTHOGONAL:
                q = (x + dx, y + dy)
                if self.on_board(q) and q not in found and not self.live(q, player):
                    found.add(q)
                    todo.append(q)
        return found, is_open

    def outside(self, area: set[XY]) -> set[XY]:
        """Points an 8-connected flood from beyond the edge reaches without entering ``area``."""
        frame = [(x, y) for x in range(-1, self.width + 1) for y in (-1, self.height)]
        frame += [(x, y) for x in (-1, self.width) for y in range(self.height)]
        reached, todo = set(frame), list(frame)
        while todo:
            x, y = todo.pop()
            for dx, dy in AROUND:
                q = (x + dx, y + dy)
                if self.on_board(q) and q not in reached and q not in area:
                    reached.add(q)
                    todo.append(q)
        return reached

    def inside(self, area: set[XY]) -> set[XY]:
        reached = self.outside(area)
        return {(x, y) for x in range(self.width) for y in range(self.height)} - reached

    def joins_runs(self, p: XY, player: int) -> bool:
        """Whether the free cells of the ring round ``p`` touching ``p`` fall apart in two."""
        ring = {
            (p[0] + dx, p[1] + dy)
            for dx, dy in AROUND
            if not self.live((p[0] + dx, p[1] + dy), player)
        }
        touching = [(p[0] + dx, p[1] + dy) for dx, dy in ORTHOGONAL]
        groups = 0
        seen: set[XY] = set()
        for start in touching:
            if start not in ring or start in seen:
                continue
            groups += 1
            todo = [start]
            seen.add(start)
            while todo:
                x, y = todo.pop()
                for dx, dy in ORTHOGONAL:
                    q = (x + dx, y + dy)
                    if q in ring and q not in seen:
                        seen.add(q)
                        todo.append(q)
        return groups >= 2

    def take(self, captor: int, points: set[XY]) -> None:
        for q in points:
            self.owner[q] = captor

    def play(self, p: XY) -> None:
        assert p in self.playable()
        mover, other = self.to_move, 1 - self.to_move
        self.mark[p] = mover
        captures: list[set[XY]] = []
        if self.joins_runs(p, mover):
            done: list[set[XY]] = []
            for dx, dy in ORTHOGONAL:
                q = (p[0] + dx, p[1] + dy)
                if not self.on_board(q) or self.live(q, mover) or any(q in a for a in done):
                    continue
                area, is_open = self.area(q, mover)
                done.append(area)
                if is_open or p not in self.outside(area):
                    continue
                inside = self.inside(area)
                if any(self.live(r, other) for r in inside):
                    captures.append(inside)
        for inside in captures:
            self.take(mover, inside)
        if not captures:
            area, is_open = self.area(p, other)
            if not is_open:
                self.take(other, self.inside(area))
        self.to_move = other


def snapshot(state: dots.DotsState) -> tuple[dict[XY, int], dict[XY, int]]:
    marks: dict[XY, int] = {}
    owners: dict[XY, int] = {}
    for x in range(state.width):
        for y in range(state.height):
            p = Point(x, y)
            who = state.mark_at(p)
            if who is not None:
                marks[(x, y)] = who
            if state.is_dead(p) or state.is_captured(p):
                owners[(x, y)] = 1 - who if state.is_captured(p) and who is not None else -1
    return marks, owners


def random_game(
    width: int, height: int, seed: int, limit: int | None = None, **options: object
) -> dots.DotsState:
    rng = random.Random(seed)
    state = dots.new_game(width, height, **options)  # type: ignore[arg-type]
    while not state.is_over and (limit is None or len(state.moves) < limit):
        state = state.play(rng.choice(list(state.legal_moves())))
    return state


def check_against_reference(width: int, height: int, seed: int) -> int:
    """Play a random game on the engine and the reference side by side; compare every move."""
    rng = random.Random(seed)
    board = dots.DotsBoard(dots.geometry(width, height))
    geo = board.geometry
    reference = Reference(width, height)
    captures = 0
    while board.playable:
        index = rng.choice(sorted(board.playable))
        point = geo.point(index)
        before = board.score[:]
        board.place(index)
        reference.play((point.x, point.y))
        captures += board.score != before
        assert tuple(board.score) == reference.scores(), (seed, len(reference.mark))
        engine_playable = {(geo.point(i).x, geo.point(i).y) for i in board.playable}
        assert engine_playable == reference.playable(), (seed, len(reference.mark))
        for i in geo.indices:
            p = geo.point(i)
            held = board.owner[i] - 1
            assert reference.owner.get((p.x, p.y), -1) == held, (seed, p)
    return captures


# -- the cross-check ------------------------------------------------------------------------


def test_engine_agrees_with_the_reference_on_many_random_small_games() -> None:
    captures = 0
    for seed in range(60):
        size = 5 + seed % 4
        captures += check_against_reference(size, size + seed % 3, seed)
    assert captures > 60  # the games really exercise captures


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=5, max_value=9),
    st.integers(min_value=5, max_value=9),
    st.integers(min_value=0, max_value=2**32),
)
def test_engine_agrees_with_the_reference(width: int, height: int, seed: int) -> None:
    check_against_reference(width, height, seed)


# -- properties -----------------------------------------------------------------------------

games = st.builds(
    random_game,
    st.integers(min_value=5, max_value=10),
    st.integers(min_value=5, max_value=10),
    st.integers(min_value=0, max_value=2**32),
    st.none() | st.integers(min_value=0, max_value=80),
    start=st.sampled_from(["empty", "cross", "four_crosses"]),
    win_margin=st.none() | st.integers(min_value=1, max_value=6),
    grounding=st.booleans(),
)


@settings(max_examples=40, deadline=None)
@given(games)
def test_scores_are_the_captured_opponent_marks(state: dots.DotsState) -> None:
    held = [0, 0]
    for x in range(state.width):
        for y in range(state.height):
            p = Point(x, y)
            who = state.mark_at(p)
            if who is not None and state.is_captured(p):
                held[1 - who] += 1
    assert state.scores == tuple(held)


@settings(max_examples=40, deadline=None)
@given(games)
def test_no_move_is_legal_on_a_taken_or_dead_point(state: dots.DotsState) -> None:
    legal = set(state.legal_moves())
    for x in range(state.width):
        for y in range(state.height):
            p = Point(x, y)
            taken = state.mark_at(p) is not None or state.is_dead(p)
            assert state.is_legal(p) == (p in legal)
            if taken:
                assert p not in legal
            elif not state.is_over:
                assert p in legal


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=5, max_value=12), st.integers(min_value=0, max_value=2**32))
def test_random_games_end_and_never_raise(size: int, seed: int) -> None:
    state = random_game(size, size, seed, start="cross")
    assert state.is_over
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "board_full"
    assert outcome.scores == state.scores
    assert outcome.winner == (None if state.scores[0] == state.scores[1] else
                              (0 if state.scores[0] > state.scores[1] else 1))  # fmt: skip
    assert len(state.moves) <= size * size


@settings(max_examples=30, deadline=None)
@given(
    st.integers(min_value=5, max_value=10),
    st.integers(min_value=5, max_value=10),
    st.integers(min_value=0, max_value=2**32),
)
def test_mirrored_games_give_mirrored_results(width: int, height: int, seed: int) -> None:
    state = random_game(width, height, seed)
    marks, owners = snapshot(state)
    for flip_x, flip_y in ((True, False), (False, True), (True, True)):

        def flip(x: int, y: int) -> XY:
            return (width - 1 - x if flip_x else x, height - 1 - y if flip_y else y)  # noqa: B023

        mirrored = dots.new_game(width, height)
        for p in state.moves:
            mirrored = mirrored.play(Point(*flip(p.x, p.y)))
        assert mirrored.scores == state.scores
        other_marks, other_owners = snapshot(mirrored)
        assert other_marks == {flip(*p): who for p, who in marks.items()}
        assert other_owners == {flip(*p): who for p, who in owners.items()}


@settings(max_examples=40, deadline=None)
@given(games, st.sampled_from([None, "resign0", "resign1", "agreement", "ground0", "ground1"]))
def test_json_and_text_records_round_trip(state: dots.DotsState, end: str | None) -> None:
    if not state.is_over and end is not None:
        if end.startswith("resign"):
            state = state.resign(int(end[-1]))  # type: ignore[arg-type]
        elif end == "agreement":
            state = state.end_by_agreement()
        elif state.options.grounding:
            state = state.ground(int(end[-1]))  # type: ignore[arg-type]
    again = dots.from_json(state.to_json())
    assert again == state and hash(again) == hash(state)
    assert again.scores == state.scores and again.outcome() == state.outcome()
    assert again.view() == state.view()
    text = dots.format_record(state)
    assert dots.parse_record(text) == state
    assert dots.format_record(dots.parse_record(text)) == text
    for move in state.moves:
        assert state.move_from_json(state.move_to_json(move)) == move
        assert dots.parse_point(dots.format_point(move)) == move


@settings(max_examples=25, deadline=None)
@given(games)
def test_view_agrees_with_the_state(state: dots.DotsState) -> None:
    view = state.view()
    assert view["scores"] == list(state.scores)
    captured = {tuple(mark["point"]) for mark in view["marks"] if mark["captured"]}
    inside = {tuple(p) for area in view["areas"] for p in area["inside"]}
    assert captured <= inside
    for area in view["areas"]:
        chain = [tuple(p) for p in area["chain"]]
        for a, b in zip(chain, chain[1:] + chain[:1], strict=True):
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1  # links are neighbours
        assert all(state.mark_at(Point(*p)) == area["captor"] for p in chain)
    for house in view["houses"]:
        assert any(state.is_legal(Point(*p)) or state.is_over for p in house["inside"])


def test_fast_board_copies_are_independent() -> None:
    state = random_game(9, 9, 7, limit=30)
    board = state.to_board()
    twin = board.copy()
    index = board.playable[0]
    board.place(index)
    assert twin.is_playable(index) and not board.is_playable(index)
    assert state.is_legal(board.geometry.point(index))
