"""Property tests for Dots, and a cross-check against a slow, independent reference engine.

The reference below recomputes everything by flood fills over the whole (small) board
after each move, with none of the engine's tricks (no outline walks, no house flags, no
border sentinel):

* an area of player *c* is a 4-connected set of points that are not *c*'s live marks;
  it is closed when none of its points lies on the board edge;
* everything inside an area is what a 4-connected flood from beyond the edge cannot
  reach without entering the area or one of *c*'s live marks beside it, less the marks
  beside a reached point (they form the outer chain): so own marks sticking into the
  area, and whatever they enclose, lie inside it;
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
from tests.core.views import view

XY = tuple[int, int]
ORTHOGONAL = ((1, 0), (0, 1), (-1, 0), (0, -1))
AROUND = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if (dx, dy) != (0, 0))
DIAMOND = ORTHOGONAL


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

    def outside(self, area: set[XY], player: int) -> set[XY]:
        """Points a 4-connected flood from beyond the edge reaches without entering ``area``
        or a live mark of ``player`` beside it (the frame beyond the edge included)."""
        beside = {q for p in area for q in self.orthogonal(p) if self.live(q, player)}
        frame = [(x, y) for x in range(-1, self.width + 1) for y in (-1, self.height)]
        frame += [(x, y) for x in (-1, self.width) for y in range(self.height)]
        reached, todo = set(frame), list(frame)
        while todo:
            p = todo.pop()
            for q in self.orthogonal(p):
                if self.on_board(q) and q not in reached and q not in area and q not in beside:
                    reached.add(q)
                    todo.append(q)
        return reached

    def inside(self, area: set[XY], player: int) -> set[XY]:
        """Everything strictly inside the outer chain of a closed area of ``player``."""
        reached = self.outside(area, player)
        chain = {
            q
            for p in area
            for q in self.orthogonal(p)
            if self.live(q, player) and any(r in reached for r in self.orthogonal(q))
        }
        board = {(x, y) for x in range(self.width) for y in range(self.height)}
        return board - reached - chain

    @staticmethod
    def orthogonal(p: XY) -> list[XY]:
        return [(p[0] + dx, p[1] + dy) for dx, dy in ORTHOGONAL]

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
                if is_open:
                    continue
                inside = self.inside(area, mover)
                if p in inside:  # the area was closed before: the mark only fills it
                    continue
                if any(self.live(r, other) for r in inside):
                    captures.append(inside)
        for inside in captures:
            self.take(mover, inside)
        if not captures:
            area, is_open = self.area(p, other)
            if not is_open:
                self.take(other, self.inside(area, other))
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


class Lockstep:
    """The engine and the reference playing the same moves; every move is compared."""

    def __init__(self, width: int, height: int) -> None:
        self.board = dots.DotsBoard(dots.geometry(width, height))
        self.reference = Reference(width, height)
        self.captures = 0
        self.moves: list[Point] = []

    def play(self, x: int, y: int) -> None:
        board, reference = self.board, self.reference
        geo = board.geometry
        before = board.score[:]
        board.place(geo.index(Point(x, y)))
        reference.play((x, y))
        self.moves.append(Point(x, y))
        self.captures += board.score != before
        where = (x, y, len(reference.mark))
        assert tuple(board.score) == reference.scores(), where
        engine_playable = {(geo.point(i).x, geo.point(i).y) for i in board.playable}
        assert engine_playable == reference.playable(), where
        for i in geo.indices:
            p = geo.point(i)
            held = board.owner[i] - 1
            assert reference.owner.get((p.x, p.y), -1) == held, (where, p)


def check_against_reference(width: int, height: int, seed: int) -> int:
    """Play a random game on the engine and the reference side by side; compare every move."""
    rng = random.Random(seed)
    game = Lockstep(width, height)
    geo = game.board.geometry
    while game.board.playable:
        point = geo.point(rng.choice(sorted(game.board.playable)))
        game.play(point.x, point.y)
    return game.captures


def play_enclosure(width: int, height: int, seed: int, mine: float, theirs: float) -> Lockstep:
    """Player 0 builds a ring round a random jumble of both players' marks, then closes it.

    The ring runs round the board but for its last three rows; the marks inside form spurs,
    own enclosures hanging on the ring or standing free, houses of either player and
    earlier captures, in shapes random games rarely make.  A player with nothing left to
    build puts a random mark anywhere but in the ring's gap.
    """
    rng = random.Random(seed)
    bottom = height - 4
    gap = (width - 1, bottom // 2)
    ring = [
        (x, y)
        for y in range(bottom + 1)
        for x in range(width)
        if (x in (0, width - 1) or y in (0, bottom)) and (x, y) != gap
    ]
    owner: dict[tuple[int, int], int] = {}
    for _ in range(rng.randint(1, 4)):  # small enclosures, free-standing or touching the ring
        cx, cy = rng.randint(1, width - 2), rng.randint(1, bottom - 1)
        player = 0 if rng.random() < 0.7 else 1
        shape = DIAMOND if rng.random() < 0.6 else AROUND
        for dx, dy in shape:
            x, y = cx + dx, cy + dy
            if 0 < x < width - 1 and 0 < y < bottom:
                owner[(x, y)] = player
    for y in range(1, bottom):
        for x in range(1, width - 1):
            roll = rng.random()
            if (x, y) not in owner and roll < mine + theirs:
                owner[(x, y)] = 0 if roll < mine else 1
    inside = {player: [p for p, who in owner.items() if who == player] for player in (0, 1)}
    planned = {0: inside[0] + ring, 1: inside[1]}
    for queue in planned.values():
        rng.shuffle(queue)
    outside = [(x, y) for y in range(bottom + 1, height) for x in range(width)]
    rng.shuffle(outside)
    taboo = {*planned[0], gap}
    game = Lockstep(width, height)
    board = game.board
    geo = board.geometry

    def next_point(player: int) -> tuple[int, int] | None:
        queue = planned[player]
        while queue:
            point = queue.pop()
            if board.is_playable(geo.index(Point(*point))):
                return point
        while outside and (player == 0 or rng.random() < 0.8):
            point = outside.pop()
            if board.is_playable(geo.index(Point(*point))):
                return point
        if player == 1:  # some spare marks of the second player go inside, off the plan
            free = [geo.point(i) for i in sorted(board.playable)]
            spare = [(p.x, p.y) for p in free if p.y < bottom and (p.x, p.y) not in taboo]
            if spare:
                return rng.choice(spare)
        return None

    while planned[0] or planned[1]:
        point = next_point(board.player)
        if point is None:
            break
        game.play(*point)
    if board.player == 1 and (point := next_point(1)) is not None:
        game.play(*point)
    if board.player == 0 and board.is_playable(geo.index(Point(*gap))):
        game.play(*gap)
    return game


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


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=7, max_value=11),
    st.integers(min_value=10, max_value=13),
    st.integers(min_value=0, max_value=2**32),
    st.floats(min_value=0.0, max_value=0.3),
    st.floats(min_value=0.0, max_value=0.2),
)
def test_engine_agrees_with_the_reference_on_enclosures_full_of_marks(
    width: int, height: int, seed: int, mine: float, theirs: float
) -> None:
    game = play_enclosure(width, height, seed, mine, theirs)
    state = dots.new_game(width, height)
    for move in game.moves:
        state = state.play(move)
    assert_nothing_inside_an_outline_is_playable(state)


def winding_number(polygon: list[XY], point: XY) -> int:
    """How many times the closed ``polygon`` winds round ``point`` (which is not on it)."""
    px, py = point
    winding = 0
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        side = (x2 - x1) * (py - y1) - (px - x1) * (y2 - y1)
        if y1 <= py < y2 and side > 0:
            winding += 1
        elif y2 <= py < y1 and side < 0:
            winding -= 1
    return winding


def assert_nothing_inside_an_outline_is_playable(state: dots.DotsState) -> None:
    """Every point strictly inside a captured area's drawn outline (a polygon through its
    chain) is that area's and is dead; and the area holds nothing else."""
    for area in view(state)["areas"]:
        chain = [(x, y) for x, y in area["chain"]]
        inside = {
            (x, y)
            for x in range(state.width)
            for y in range(state.height)
            if (x, y) not in chain and winding_number(chain, (x, y)) != 0
        }
        assert inside == {(x, y) for x, y in area["inside"]}
        for x, y in inside:
            assert not state.is_legal(Point(x, y)) and state.is_dead(Point(x, y))


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
def test_no_point_inside_a_capture_outline_is_playable(state: dots.DotsState) -> None:
    assert_nothing_inside_an_outline_is_playable(state)


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
    assert view(again) == view(state)
    text = dots.format_record(state)
    assert dots.parse_record(text) == state
    assert dots.format_record(dots.parse_record(text)) == text
    for move in state.moves:
        assert state.move_from_json(state.move_to_json(move)) == move
        assert Point.from_str(str(move)) == move
        assert eval(repr(move)) == move


@settings(max_examples=25, deadline=None)
@given(games)
def test_view_agrees_with_the_state(state: dots.DotsState) -> None:
    shown = view(state)
    assert shown["scores"] == list(state.scores)
    captured = {tuple(mark["point"]) for mark in shown["marks"] if mark["captured"]}
    inside = {tuple(p) for area in shown["areas"] for p in area["inside"]}
    assert captured <= inside
    for area in shown["areas"]:
        chain = [tuple(p) for p in area["chain"]]
        for a, b in zip(chain, chain[1:] + chain[:1], strict=True):
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1  # links are neighbours
        assert all(state.mark_at(Point(*p)) == area["captor"] for p in chain)
    for house in shown["houses"]:
        assert any(state.is_legal(Point(*p)) or state.is_over for p in house["inside"])


@settings(max_examples=40, deadline=None)
@given(games)
def test_linked_live_marks_share_a_chain(state: dots.DotsState) -> None:
    """The board skips its outline walks for a mark whose runs lie on different chains, so
    the chains must never split two live marks that are linked (they may over-join).
    """
    board = state.to_board()
    chains, cell, geo = board.chains, board.cell, board.geometry

    def root(index: int) -> int:
        while chains[index] != index:
            index = chains[index]
        return index

    for index in geo.indices:
        if cell[index] in (1, 2):
            for offset in geo.ring:
                if cell[index + offset] == cell[index]:
                    assert root(index) == root(index + offset), geo.point(index)


@settings(max_examples=40, deadline=None)
@given(games)
def test_the_rows_of_live_marks_agree_with_the_cells(state: dots.DotsState) -> None:
    board = state.to_board()
    cell = board.cell
    for player in (0, 1):
        wall, rows = player + 1, board.rows[player]
        for index in board.geometry.indices:
            expected = (
                (cell[index - 1] == wall) << 2
                | (cell[index] == wall) << 1
                | (cell[index + 1] == wall)
            )
            assert rows[index] == expected, (player, board.geometry.point(index))


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=5, max_value=12), st.integers(min_value=0, max_value=2**32))
def test_place_says_when_areas_or_houses_may_have_changed(size: int, seed: int) -> None:
    """``play`` skips the area and house updates when ``place`` says nothing changed."""
    rng = random.Random(seed)
    board = dots.DotsBoard(dots.geometry(size, size))
    while board.playable:
        index = rng.choice(board.playable)
        enclosed, cut_off, areas = board.enclosed[index], board.cut_off, board.areas
        changed = board.place(index)
        assert changed == bool(enclosed or board.cut_off != cut_off or board.areas is not areas)


def test_fast_board_copies_are_independent() -> None:
    state = random_game(9, 9, 7, limit=30)
    board = state.to_board()
    twin = board.copy()
    index = board.playable[0]
    board.place(index)
    assert twin.is_playable(index) and not board.is_playable(index)
    assert state.is_legal(board.geometry.point(index))


@settings(max_examples=40, deadline=None)
@given(games)
def test_last_move_by_is_the_last_move_movers_gives_each_player(state: dots.DotsState) -> None:
    who = state.movers()
    for player in (0, 1):
        mine = [number for number, mover in enumerate(who) if mover == player]
        assert state.last_move_by(player) == (mine[-1] if mine else None)
