"""The immutable Dots game state: the public API of the game on top of the fast board.

A state is a value: its record (options, moves, how it ended) determines it, and that is
what equality, ``to_json`` and the text notation carry.  ``play`` costs about what the
fast path costs, because a state does not copy the board for its child: it hands its
:class:`DotsBoard` over, and the child puts the mark on it.  A state that is used again
after its board went to a child (asked where a mark stands, played from a second time)
rebuilds the board by replaying its moves, and from then on gives each child a copy
instead.  What a state answers never changes; only the time an answer takes does.  A game's
states pass one board along, so use the states of one game from one thread at a time.

Each state keeps the houses from the first time it or an ancestor was asked for them, and
the visible captured areas with them (see :mod:`core.dots.regions`); while nobody keeps the
houses, a state works its areas out when first asked, from the last position whose areas
are known and the board's list of captures since, which states share.  A state knows what
its last move changed (:meth:`DotsState.change`) at no cost for a move that captured
nothing, closed nothing and went on no enclosed point.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast, overload

from core.dots.board import EMPTY, DotsBoard
from core.dots.board import Area as BoardArea
from core.dots.geometry import START_NAMES, Geometry, Start, geometry, start_marks
from core.dots.picture import picture
from core.dots.point import Point
from core.dots.regions import (
    Region,
    Regions,
    all_houses,
    chain_around,
    update_areas,
    update_houses,
)
from core.dots.snapshot import Area, DotsChange, DotsSnapshot, House, Mark
from core.errors import IllegalMove, InvalidMove, InvalidOptions
from core.game import (
    Ending,
    Outcome,
    PlayedGame,
    Player,
    as_player,
    ending_from_json,
    ending_to_json,
    leader,
    other,
)

if TYPE_CHECKING:
    from core.game import GameState


@dataclass(frozen=True, slots=True)
class Options:
    """How a game is set up: board size, start position and the optional rules."""

    width: int = 39
    height: int = 32
    start: Start = "empty"
    win_margin: int | None = None
    """Immediate win: the game ends as soon as one side leads by this many marks."""
    grounding: bool = False
    """Whether a player may end the game by grounding."""
    geometry: Geometry = field(init=False, repr=False, compare=False)
    """The geometry of the board these options describe."""

    def __post_init__(self) -> None:
        geo = geometry(self.width, self.height)  # raises InvalidOptions for a bad size
        if self.start not in START_NAMES:
            raise InvalidOptions(f"start must be one of {', '.join(START_NAMES)}")
        margin = self.win_margin
        if margin is not None and (type(margin) is not int or margin < 1):
            raise InvalidOptions("win_margin must be a positive integer or None")
        if type(self.grounding) is not bool:
            raise InvalidOptions("grounding must be true or false")
        # A frozen dataclass sets its own derived fields through object.__setattr__.
        object.__setattr__(self, "geometry", geo)

    def start_board(self) -> DotsBoard:
        """A board with the start marks on it and nothing played."""
        geo = self.geometry
        board = DotsBoard(geo, self.win_margin)
        for point, player in start_marks(geo, self.start):
            board.put(geo.index(point), player)
        return board


class LegalPoints(Sequence[Point]):
    """The points that may be played in a state, row by row: a view that costs nothing to
    make and shows that state's points whatever is played afterwards.
    """

    __slots__ = ("_points", "_size", "_state")

    def __init__(self, state: DotsState, points: tuple[Point | None, ...], size: int) -> None:
        self._state = state
        self._points = points
        self._size = size  # kept, so len() (twice per random.choice) is one look-up

    def _indices(self) -> list[int]:
        board = self._state._board
        if board is None:
            board = self._state._own_board()
        return board.playable

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, position: int) -> Point: ...

    @overload
    def __getitem__(self, position: slice) -> Sequence[Point]: ...

    def __getitem__(self, position: int | slice) -> Point | Sequence[Point]:
        board = self._state._board
        legal = board.playable if board is not None else self._indices()
        points = self._points
        if isinstance(position, slice):
            return tuple(_point(points, index) for index in legal[position])
        point = points[legal[position]]
        assert point is not None
        return point

    def __iter__(self) -> Iterator[Point]:
        points = self._points
        # Every playable index is a point of the board, never the border sentinel.
        return iter(cast("list[Point]", [points[index] for index in self._indices()]))

    def __contains__(self, value: object) -> bool:
        geo = self._state.geometry
        if not isinstance(value, Point) or not geo.contains(value):
            return False
        index = geo.index(value)
        indices = self._indices()
        at = bisect_left(indices, index)
        return at < len(indices) and indices[at] == index

    def __repr__(self) -> str:
        return f"LegalPoints({list(self)!r})"


class DotsState(PlayedGame[Point]):
    """An immutable Dots position with its history; ``play`` returns a new state."""

    __slots__ = (
        "_areas",
        "_areas_at",
        "_before",
        "_board",
        "_end",
        "_houses",
        "_options",
        "_over",
        "_scores",
    )

    _options: Options
    _board: DotsBoard | None
    """The board of this position, or None while a child has it (see the module docs)."""
    _scores: tuple[int, int]
    _over: bool
    _areas: Regions | None
    """The visible captured areas, or None until someone asks (see :meth:`_known_areas`)."""
    _areas_at: tuple[BoardArea | None, Regions, BoardArea | None]
    """The board's list of captures at this position, and the visible areas at an earlier
    position of the game with the list there: enough to work out ``_areas``."""
    _houses: Regions | None
    """The houses, kept from the first time anyone asks for them (None until then)."""
    _before: Before | None
    """What the last move changed from, when it changed areas or houses."""
    _end: tuple[Ending, tuple[Point, ...]] | None
    """How the game ended early, and after grounding the grounder's ungrounded marks."""

    def __init__(
        self,
        options: Options,
        board: DotsBoard,
        history: list[Point],
        length: int,
        scores: tuple[int, int],
        areas: Regions,
        houses: Regions | None,
        before: Before | None,
        end: tuple[Ending, tuple[Point, ...]] | None = None,
    ) -> None:
        """Internal: use ``new_game``, ``play`` or ``from_json``."""
        self._options = options
        self._board = board
        self._history = history
        self._length = length
        self._scores = scores
        self._over = end is not None or board.is_over
        self._areas = areas
        self._areas_at = (board.areas, areas, board.areas)
        self._houses = houses
        self._before = before
        self._end = end

    # -- the position -------------------------------------------------------------------

    @property
    def options(self) -> Options:
        """Board size, start position and optional rules of this game."""
        return self._options

    @property
    def geometry(self) -> Geometry:
        """The board geometry (size and index tables)."""
        return self._options.geometry

    @property
    def width(self) -> int:
        """Points per row."""
        return self._options.width

    @property
    def height(self) -> int:
        """Points per column."""
        return self._options.height

    @property
    def start(self) -> Start:
        """The start position: "empty", "cross" or "four_crosses"."""
        return self._options.start

    @property
    def to_move(self) -> Player:
        """Whose turn it is: players alternate, player 0 first, and may not pass."""
        return 1 if self._length & 1 else 0

    def movers(self) -> list[Player]:
        """Who made each move of :attr:`moves`, in order: the players take turns."""
        return [1 if number & 1 else 0 for number in range(self._length)]

    def last_move_by(self, player: Player) -> int | None:
        """The number of the last move ``player`` made (the players take turns), or None."""
        number = self._length - 1
        if number & 1 != player:
            number -= 1
        return number if number >= 0 else None

    @property
    def ending(self) -> Ending | None:
        """The resignation, loss on time, agreement or grounding that ended the game, if any."""
        return None if self._end is None else self._end[0]

    @property
    def ungrounded(self) -> tuple[Point, ...]:
        """After a grounding ending: the grounder's marks that were not linked to the edge."""
        return () if self._end is None else self._end[1]

    @property
    def scores(self) -> tuple[int, int]:
        """Opponent marks each player holds captured (after grounding, if it ended so)."""
        return self._scores

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, for whatever reason."""
        return self._over

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        The board is full when no playable point is left; with an immediate-win margin the
        game also ends as soon as one side leads by it.  More captured marks win.
        """
        if not self._over:
            return None
        ending = self.ending
        scores = self._scores
        if ending is not None:
            if ending.kind in ("resignation", "time"):
                assert ending.player is not None
                return Outcome(other(ending.player), ending.kind, scores)
            return Outcome(leader(scores), ending.kind, scores)
        margin = self._options.win_margin
        if margin is not None and abs(scores[0] - scores[1]) >= margin:
            return Outcome(leader(scores), "margin", scores)
        return Outcome(leader(scores), "board_full", scores)

    def is_legal(self, move: Point) -> bool:
        """Whether ``move`` may be played now: on the board, free, not dead, game not over."""
        if not isinstance(move, Point):
            raise InvalidMove(f"a Dots move is a Point, not {move!r}")
        if self._over or not self.geometry.contains(move):
            return False
        return self._own_board().cell[self.geometry.index(move)] == EMPTY

    def mark_at(self, point: Point) -> Player | None:
        """Whose mark stands on ``point`` (captured or not), or None."""
        who = self._own_board().mark[self.geometry.index(point)]
        return None if who == 0 else (0 if who == 1 else 1)

    def is_captured(self, point: Point) -> bool:
        """Whether a mark stands on ``point`` and lies in the opponent's captured area."""
        return self._own_board().is_captured(self.geometry.index(point))

    def is_dead(self, point: Point) -> bool:
        """Whether ``point`` lies inside a captured area (no one may play there)."""
        return self._own_board().owner[self.geometry.index(point)] != 0

    def legal_moves(self) -> Sequence[Point]:
        """Every playable point, row by row; nothing once the game is over.

        The sequence is a view made at no cost (``random.choice`` on it is cheap too); it
        keeps showing this state's points whatever is played afterwards.
        """
        if self._over:
            return ()
        board = self._board
        if board is None:
            board = self._own_board()
        return LegalPoints(self, self._options.geometry.points, len(board.playable))

    def to_board(self) -> DotsBoard:
        """A mutable copy of the position for search: the fast path (see core.dots.board)."""
        return self._own_board().copy()

    # -- what a client draws ----------------------------------------------------------------

    def areas(self) -> tuple[Area, ...]:
        """The captured areas no later capture swallowed, by key (they never overlap)."""
        return tuple(
            self._public(region, Area) for _, region in sorted(self._known_areas().items())
        )

    def houses(self) -> tuple[House, ...]:
        """The houses of both players, player 0's first, each by key."""
        regions = sorted(self._known_houses().values(), key=_order)
        return tuple(self._public(region, House) for region in regions)

    def marks(self) -> tuple[Mark, ...]:
        """Every mark on the board, row by row, and whether it is captured.

        Worked out from the moves and the visible areas (a mark is captured when it lies
        in a visible area of the other player), so it never needs the board back from a
        child.
        """
        geo = self.geometry
        index = geo.index
        owners = {index(point): player for point, player in start_marks(geo, self.start)}
        for number, point in enumerate(self._history[: self._length]):
            owners[index(point)] = 1 if number & 1 else 0
        held = {cell: area.owner for area in self._known_areas().values() for cell in area.cells}
        points = geo.points
        return tuple(
            Mark(_point(points, cell), owner, held.get(cell, owner) != owner)
            for cell, owner in sorted(owners.items())
        )

    def snapshot(self) -> DotsSnapshot:
        """The whole position as a client draws it (see :mod:`core.dots.snapshot`)."""
        options = self._options
        return DotsSnapshot(
            width=options.width,
            height=options.height,
            start=options.start,
            win_margin=options.win_margin,
            grounding=options.grounding,
            marks=self.marks(),
            areas=self.areas(),
            houses=self.houses(),
            ungrounded=self.ungrounded,
            move_count=self._length,
            last_move=self.last_move,
            to_move=self.to_move,
            scores=self._scores,
            outcome=self.outcome(),
        )

    def change(self) -> DotsChange:
        """What the move that made this state changed: the areas and houses that appeared
        and those that went.  Empty for a new game and for a state made by an ending.
        """
        if self._end is not None or not self._length:
            return DotsChange(None, None)
        move = self._history[self._length - 1]
        player: Player = 0 if self._length & 1 else 1
        before = self._before
        if before is None:
            return DotsChange(move, player)
        if isinstance(before, DotsState):
            return self._change(move, player, before._known_areas(), before._known_houses())
        areas, houses = before
        return self._change(move, player, areas, houses)

    def change_since(self, earlier: DotsState) -> DotsChange:
        """What changed from ``earlier``, a position of the same game, to this one; it names
        the move when ``earlier`` is the position just before this one.
        """
        houses = earlier._known_houses()
        areas = earlier._known_areas()
        if self._length == earlier._length + 1 and self._end is None:
            return self._change(self.last_move, earlier.to_move, areas, houses)
        return self._change(None, None, areas, houses)

    def _change(
        self, move: Point | None, player: Player | None, areas: Regions, houses: Regions
    ) -> DotsChange:
        now = self._known_houses()
        areas_now = self._known_areas()
        return DotsChange(
            move,
            player,
            areas_added=self._public_areas(_gone(areas_now, areas)),
            areas_removed=self._public_areas(_gone(areas, areas_now)),
            houses_added=self._public_houses(_gone(now, houses)),
            houses_removed=self._public_houses(_gone(houses, now)),
        )

    def _known_areas(self) -> Regions:
        """The visible areas, worked out the first time from an earlier position's (the
        board's list of captures says what was captured since).
        """
        areas = self._areas
        if areas is None:
            link, earlier, since = self._areas_at
            areas, _ = update_areas(link, earlier, since)
            self._areas = areas
            self._areas_at = (link, areas, link)
        return areas

    def _known_houses(self) -> Regions:
        """The houses, found from scratch the first time (from then on, every state played
        from this one keeps them up to date).
        """
        houses = self._houses
        if houses is None:
            houses = all_houses(self._own_board())
            self._houses = houses
        return houses

    def _public_areas(self, regions: list[Region]) -> tuple[Area, ...]:
        return tuple(self._public(region, Area) for region in sorted(regions, key=_order))

    def _public_houses(self, regions: list[Region]) -> tuple[House, ...]:
        return tuple(self._public(region, House) for region in sorted(regions, key=_order))

    def _public(self, region: Region, kind: type[EnclosureT]) -> EnclosureT:
        made = region.public
        if not isinstance(made, kind):
            geo = self.geometry
            points = geo.points
            made = kind(
                region.owner,
                tuple(_point(points, index) for index in chain_around(geo, region.points)),
                tuple(_point(points, index) for index in region.cells),
            )
            region.public = made
        return made

    # -- transitions --------------------------------------------------------------------

    def play(self, move: Point) -> DotsState:
        """Put the mover's mark on ``move``; captures it closes are taken at once.

        InvalidMove if ``move`` is not a point of this board; IllegalMove if the point is
        taken or dead or the game is over.
        """
        if self._over:
            raise IllegalMove("the game is over")
        point = move if type(move) is Point else _coerce(move)
        options = self._options
        geo = options.geometry
        # Geometry.index inlined: this is the hot path of every game played through the API.
        x, y = point.x, point.y
        if not (0 <= x < geo.width and 0 <= y < geo.height):
            geo.index(point)  # raises InvalidMove with the reason
        index = (y + 1) * geo.stride + x + 1
        board = self._board
        if board is None:
            board = self._own_board()
        if board.cell[index] != EMPTY:
            if board.owner[index] and not board.mark[index]:
                raise IllegalMove(f"{point} lies inside a captured area")
            raise IllegalMove(f"{point} is already taken")
        history = self._history
        length = self._length
        if len(history) == length:
            # The first child of this state takes the board and the list of moves over
            # (see the module docs).
            self._board = None
        else:
            # A child was played from this state before: it branches, so it keeps its
            # board and this child gets copies.
            board = board.copy()
            history = history[:length]
        history.append(point)
        areas_link = board.areas
        changed = board.place(index)
        areas = self._areas
        areas_at = self._areas_at
        houses = houses_before = self._houses
        scores = self._scores
        over = not board.playable
        before: Before | None = None
        if changed:
            link = board.areas
            if houses_before is None:
                # Nobody keeps the houses, so the areas are left for whoever asks, from
                # the last position whose areas are known.
                if link is not areas_link:
                    if areas is None:
                        areas_at = (link, areas_at[1], areas_at[2])
                    else:
                        areas_at = (link, areas, areas_link)
                    areas = None
                before = self
            else:
                areas_before = self._known_areas()
                areas, taken = update_areas(link, areas_before, areas_link)
                areas_at = (link, areas, link)
                taken.append(index)
                houses = update_houses(board, houses_before, taken)
                if areas is not areas_before or houses is not houses_before:
                    before = (areas_before, houses_before)
            if link is not areas_link:  # only a capture changes the score
                scores = (board.score[0], board.score[1])
            over = board.is_over
        # Made without __init__, field by field, because this is the hot path.
        child = _new_state(DotsState)
        child._options = options
        child._board = board
        child._history = history
        child._length = length + 1
        child._scores = scores
        child._over = over
        child._areas = areas
        child._areas_at = areas_at
        child._houses = houses
        child._before = before
        child._end = None
        return child

    def ground(self, player: Player) -> DotsState:
        """Grounding ends the game: each group of ``player`` not linked to the edge counts
        as captured by the opponent, then the score decides.
        """
        if self._over:
            raise IllegalMove("the game is over")
        grounder = as_player(player)
        if not self._options.grounding:
            raise IllegalMove("grounding is not enabled in this game")
        return self._ended(Ending("grounding", grounder))

    def end(self, ending: Ending) -> DotsState:
        """The state after ``ending``: :meth:`resign`, :meth:`lose_on_time`,
        :meth:`end_by_agreement` or :meth:`ground`, as the ending says.
        """
        if ending.kind == "agreement":
            return self.end_by_agreement()
        if ending.player is None:
            raise InvalidMove(f"a {ending.kind} ending names its player")
        if ending.kind == "resignation":
            return self.resign(ending.player)
        if ending.kind == "time":
            return self.lose_on_time(ending.player)
        return self.ground(ending.player)

    def _ended(self, ending: Ending) -> DotsState:
        board = self._own_board()
        scores = self._scores
        ungrounded: tuple[Point, ...] = ()
        if ending.kind == "grounding" and ending.player is not None:
            lost = board.ungrounded(ending.player)
            gained = [0, 0]
            gained[other(ending.player)] = len(lost)
            scores = (scores[0] + gained[0], scores[1] + gained[1])
            points = self.geometry.points
            ungrounded = tuple(_point(points, index) for index in lost)
        return DotsState(
            self._options,
            board.copy(),
            self._history,
            self._length,
            scores,
            self._known_areas(),
            self._houses,
            None,
            (ending, ungrounded),
        )

    def _own_board(self) -> DotsBoard:
        """This state's board, rebuilt by replaying the moves if a child has it."""
        board = self._board
        if board is None:
            board = self._options.start_board()
            index = self.geometry.index
            for point in self._history[: self._length]:
                board.place(index(point))
            self._board = board
        return board

    # -- wire forms ---------------------------------------------------------------------

    def move_to_json(self, move: Point) -> dict[str, Any]:
        """The wire form of ``move``: ``{"point": [x, y]}``."""
        return move.to_json()

    def move_from_json(self, data: Mapping[str, Any]) -> Point:
        """Read ``{"point": [x, y]}`` and check it lies on this board (else InvalidMove)."""
        point = Point.from_json(data)
        self.geometry.index(point)
        return point

    def to_json(self) -> dict[str, Any]:
        """A complete record that :func:`from_json` replays to an equal state."""
        options = self._options
        record: dict[str, Any] = {
            "game": "dots",
            "width": options.width,
            "height": options.height,
            "start": options.start,
            "win_margin": options.win_margin,
            "grounding": options.grounding,
            "moves": [[point.x, point.y] for point in self.moves],
        }
        if self._end is not None:
            record["end"] = ending_to_json(self._end[0])
        return record

    # -- value semantics ----------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (self._options, self.moves, self.ending)

    def __repr__(self) -> str:
        """The code that makes this state again (``from core import dots``): the game's
        record read back."""
        # The notation module builds on this one, so it is imported only when asked for.
        from core.dots.notation import format_record  # noqa: PLC0415

        return f"dots.parse_record({format_record(self)!r})"

    def __str__(self) -> str:
        return picture(self)


EnclosureT = TypeVar("EnclosureT", Area, House)


Before: TypeAlias = "tuple[Regions, Regions] | DotsState"
"""The areas and houses before a move that changed them; when the houses were not kept
then, the state before the move, which works them out on demand."""


_new_state = object.__new__


def _gone(before: Regions, after: Regions) -> list[Region]:
    """The regions of ``before`` that ``after`` does not hold as they were."""
    gone = []
    for key, region in before.items():
        now = after.get(key)
        if now is not region and now != region:
            gone.append(region)
    return gone


def _order(region: Region) -> tuple[int, int]:
    return (region.owner, region.cells[0])


def _point(points: tuple[Point | None, ...], index: int) -> Point:
    point = points[index]
    assert point is not None
    return point


def _coerce(move: object) -> Point:
    """Accept an ``(x, y)`` pair as a convenience; anything else is not a Dots move."""
    if isinstance(move, tuple):
        return Point.from_pair(move)
    raise InvalidMove(f"a Dots move is a Point, not {move!r}")


def new_game(
    width: int = 39,
    height: int = 32,
    start: Start = "empty",
    *,
    win_margin: int | None = None,
    grounding: bool = False,
) -> DotsState:
    """A new game on ``width`` × ``height`` points (5 to 60 a side); player 0 moves first.

    ``start`` is "empty", "cross" (two marks of each colour crossed in the centre) or
    "four_crosses"; ``win_margin`` ends the game as soon as one side leads by that many marks;
    ``grounding`` lets a player end the game by grounding.
    """
    return from_options(Options(width, height, start, win_margin, grounding))


def from_options(options: Options) -> DotsState:
    """A new game set up by ``options``."""
    board = options.start_board()
    return DotsState(options, board, [], 0, (0, 0), {}, None, None)


_RECORD_FIELDS = {"game", "width", "height", "start", "win_margin", "grounding", "moves", "end"}


def from_json(record: Mapping[str, Any]) -> DotsState:
    """Replay a record made by :meth:`DotsState.to_json` into an equal state.

    InvalidOptions for a record that is not a Dots record or has bad options; InvalidMove
    for a malformed move; IllegalMove if a move in it is not legal where it is played.
    """
    if not isinstance(record, Mapping) or record.get("game", "dots") != "dots":
        raise InvalidOptions("not a Dots record")
    unknown = set(record) - _RECORD_FIELDS
    if unknown:
        raise InvalidOptions(f"unknown fields in record: {sorted(unknown)}")
    state = new_game(
        record.get("width", 39),
        record.get("height", 32),
        record.get("start", "empty"),
        win_margin=record.get("win_margin"),
        grounding=record.get("grounding", False),
    )
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidMove("moves must be a list of [x, y] points")
    for pair in moves:
        state = state.play(Point.from_pair(pair))
    end = record.get("end")
    return state if end is None else state.end(ending_from_json(end, "grounding"))


if TYPE_CHECKING:

    def _satisfies_the_protocol(state: DotsState) -> GameState[Point]:
        return state
