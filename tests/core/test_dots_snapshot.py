"""Snapshots and changes of Dots positions: what a client holds and what each move sends.

The main property: a client that holds the first snapshot of a game and applies every
move's change, in order, holds exactly the snapshot of every later position.  Houses are
also checked against a slow, whole-board search that knows nothing of the engine.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import dots
from core.dots import Area, DotsChange, DotsSnapshot, House, Mark, Point
from tests.core.dots_pictures import from_picture
from tests.core.test_dots_properties import play_enclosure
from tests.core.test_dots_rules import OWN_DIAMOND_IN_A_RING, RECAPTURES

XY = tuple[int, int]


class Client:
    """What a client keeps: the marks, the visible areas and the houses, fed by changes."""

    def __init__(self, snapshot: DotsSnapshot) -> None:
        self.owners = {mark.point: mark.owner for mark in snapshot.marks}
        self.areas = {area.key: area for area in snapshot.areas}
        self.houses = {(house.owner, house.key): house for house in snapshot.houses}

    def apply(self, change: DotsChange) -> None:
        for area in change.areas_removed:
            del self.areas[area.key]
        for area in change.areas_added:
            assert area.key not in self.areas
            self.areas[area.key] = area
        for house in change.houses_removed:
            del self.houses[(house.owner, house.key)]
        for house in change.houses_added:
            assert (house.owner, house.key) not in self.houses
            self.houses[(house.owner, house.key)] = house
        if change.move is not None:
            assert change.player is not None and change.move not in self.owners
            self.owners[change.move] = change.player

    def marks(self) -> tuple[Mark, ...]:
        """Every mark, captured exactly when it lies in a visible area of the other player."""
        held = {point: area.owner for area in self.areas.values() for point in area.inside}
        return tuple(
            Mark(point, owner, held.get(point, owner) != owner)
            for point, owner in sorted(self.owners.items(), key=lambda item: row_major(item[0]))
        )

    def assert_holds(self, snapshot: DotsSnapshot) -> None:
        assert self.marks() == snapshot.marks
        assert tuple(area for _, area in sorted(self.areas.items(), key=by_key)) == snapshot.areas
        houses = sorted(self.houses.values(), key=lambda house: (house.owner, row_major(house.key)))
        assert tuple(houses) == snapshot.houses


def row_major(point: Point) -> XY:
    return (point.y, point.x)


def by_key(item: tuple[Point, Area]) -> XY:
    return row_major(item[0])


def slow_houses(state: dots.DotsState) -> set[tuple[int, tuple[XY, ...]]]:
    """Every house found the slow way: for each player, the regions of points joined
    horizontally and vertically that are not that player's live marks, do not touch the
    edge, and hold a free point.
    """
    width, height = state.width, state.height
    found = set()
    for player in (0, 1):

        def wall(x: int, y: int, player: int = player) -> bool:
            point = Point(x, y)
            return state.mark_at(point) == player and not state.is_captured(point)

        seen: set[XY] = set()
        for x in range(width):
            for y in range(height):
                if (x, y) in seen or wall(x, y):
                    continue
                region, todo, touches_edge = {(x, y)}, [(x, y)], False
                while todo:
                    px, py = todo.pop()
                    touches_edge |= px in (0, width - 1) or py in (0, height - 1)
                    for qx, qy in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                        inside = 0 <= qx < width and 0 <= qy < height
                        if inside and (qx, qy) not in region and not wall(qx, qy):
                            region.add((qx, qy))
                            todo.append((qx, qy))
                seen |= region
                free = any(state.is_legal(Point(*p)) or state.is_over for p in region) and any(
                    state.mark_at(Point(*p)) is None and not state.is_dead(Point(*p))
                    for p in region
                )
                if not touches_edge and free:
                    found.add((player, tuple(sorted(region, key=lambda p: (p[1], p[0])))))
    return found


def check_game(moves: list[Point], width: int, height: int, **options: object) -> int:
    """Replay ``moves``, checking snapshots, changes and houses after every move; returns
    how many moves changed areas or houses."""
    state = dots.new_game(width, height, **options)  # type: ignore[arg-type]
    client = Client(state.snapshot())
    busy = 0
    for move in moves:
        if state.is_over:
            break
        before = state
        state = state.play(move)
        change = state.change()
        assert change.move == move and change.player == before.to_move
        assert state.change_since(before) == change
        busy += not change.is_quiet
        client.apply(change)
        snapshot = state.snapshot()
        client.assert_holds(snapshot)
        on_board = [  # the board itself agrees with the marks the snapshot lists
            Mark(Point(x, y), owner, state.is_captured(Point(x, y)))
            for y in range(height)
            for x in range(width)
            if (owner := state.mark_at(Point(x, y))) is not None
        ]
        assert tuple(on_board) == snapshot.marks
        houses = {(h.owner, tuple((p.x, p.y) for p in h.inside)) for h in snapshot.houses}
        assert houses == slow_houses(state)
        for area in snapshot.areas:  # everything inside a visible area is dead
            assert all(state.is_dead(point) for point in area.inside)
    return busy


def random_moves(width: int, height: int, seed: int, cluster: float) -> list[Point]:
    """The moves of a random game in which a player often plays next to their own marks,
    which makes houses and captures common."""
    rng = random.Random(seed)
    state = dots.new_game(width, height)
    moves = []
    while not state.is_over:
        legal = state.legal_moves()
        point = rng.choice(legal)
        if rng.random() < cluster:
            mine = state.to_move
            near = [
                p
                for p in legal
                if any(
                    0 <= p.x + dx < width
                    and 0 <= p.y + dy < height
                    and state.mark_at(Point(p.x + dx, p.y + dy)) == mine
                    for dx in (-1, 0, 1)
                    for dy in (-1, 0, 1)
                )
            ]
            point = rng.choice(near) if near else point
        moves.append(point)
        state = state.play(point)
    return moves


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=5, max_value=12),
    st.integers(min_value=5, max_value=12),
    st.integers(min_value=0, max_value=2**32),
    st.sampled_from([0.0, 0.6, 0.9]),
)
def test_applying_every_change_to_the_first_snapshot_gives_every_snapshot(
    width: int, height: int, seed: int, cluster: float
) -> None:
    check_game(random_moves(width, height, seed, cluster), width, height)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=7, max_value=10),
    st.integers(min_value=10, max_value=12),
    st.integers(min_value=0, max_value=2**32),
)
def test_changes_hold_for_enclosures_full_of_marks(width: int, height: int, seed: int) -> None:
    game = play_enclosure(width, height, seed, 0.15, 0.1)
    check_game(game.moves, width, height)


def test_changes_on_many_games_really_carry_areas_and_houses() -> None:
    busy = 0
    for seed in range(12):
        busy += check_game(random_moves(9, 8, seed, 0.8), 9, 8)
    assert busy > 50


def test_a_quiet_move_changes_nothing_but_its_mark() -> None:
    game = dots.new_game(9, 9).play(Point(4, 4))
    change = game.change()
    assert change == DotsChange(Point(4, 4), 0) and change.is_quiet
    assert dots.new_game(9, 9).change() == DotsChange(None, None)
    assert game.resign(1).change() == DotsChange(None, None)


def test_a_capture_adds_its_area_and_takes_the_house_it_swallows() -> None:
    game = from_picture(OWN_DIAMOND_IN_A_RING)
    [house] = game.houses()
    assert house == House(0, tuple(map(Point.from_str, ["e3", "f4", "e5", "d4"])), (Point(4, 3),))
    assert house.key == Point(4, 3)
    game = game.play(Point(8, 3))
    change = game.change()
    assert change.houses_removed == (house,) and change.houses_added == ()
    [area] = change.areas_added
    assert area.owner == 0 and area.key == Point(1, 1) and Point(4, 3) in area.inside
    assert Point(8, 3) in area.chain and change.areas_removed == ()
    assert game.areas() == (area,)


def test_a_recapture_removes_the_area_it_swallows() -> None:
    game = from_picture(RECAPTURES)
    game = game.play(Point(5, 6))
    [first] = game.change().areas_added
    game = game.play(Point(5, 7))
    change = game.change()
    assert change.areas_removed == (first,)
    [second] = change.areas_added
    assert second.owner == 1 and set(first.inside) < set(second.inside)
    marks = {mark.point: mark for mark in game.snapshot().marks}
    assert not marks[Point(5, 5)].captured and marks[Point(5, 4)].captured


def test_filling_your_own_house_changes_it() -> None:
    game = from_picture(
        """
        .xxx.
        x...x
        .xxx.
        """
    )
    [house] = game.houses()
    assert house.inside == (Point(1, 1), Point(2, 1), Point(3, 1))
    game = game.play(Point(2, 1))  # splits the house in two
    change = game.change()
    assert change.houses_removed == (house,)
    assert [h.inside for h in change.houses_added] == [(Point(1, 1),), (Point(3, 1),)]
