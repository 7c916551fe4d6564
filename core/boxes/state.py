"""The immutable Dots and Boxes position and the rules that move it forward.

A state is a value: its record (size, start lines, moves, how it ended) determines it,
and that is what equality, ``to_json`` and the text notation carry.  The drawn lines are
an ``int`` bitmask over the numbering of :class:`~core.boxes.geometry.Geometry`, which is
what the AI searches on (``state.drawn``; :meth:`BoxesState.to_board` for a mutable copy).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.boxes.geometry import Geometry, geometry
from core.boxes.line import Dot, Line
from core.boxes.picture import picture
from core.boxes.search import BoxesBoard, draw
from core.boxes.snapshot import BoxesSnapshot, DrawnLine, OwnedBox
from core.errors import IllegalMove, InvalidMove, InvalidOptions
from core.game import (
    Ending,
    Outcome,
    PlayedGame,
    Player,
    ending_from_json,
    ending_to_json,
    leader,
    other,
)

if TYPE_CHECKING:
    from core.game import GameState


@dataclass(frozen=True, slots=True)
class Options:
    """How a game is set up: ``rows`` × ``cols`` boxes and the lines drawn before the first
    move (they belong to nobody and may not close a box).
    """

    rows: int = 5
    cols: int = 5
    start: tuple[Line, ...] = ()
    geometry: Geometry = field(init=False, repr=False, compare=False)
    start_drawn: int = field(init=False, repr=False, compare=False)
    """The start lines as a bitmask."""

    def __post_init__(self) -> None:
        geo = geometry(self.rows, self.cols)  # raises InvalidOptions for a bad size
        drawn = 0
        for line in self.start:
            if not isinstance(line, Line):
                raise InvalidOptions(f"start lines must be Line values, not {line!r}")
            bit = 1 << geo.line_index(line)
            if drawn & bit:
                raise InvalidOptions(f"start line {line} is given twice")
            drawn |= bit
        for sides in geo.box_sides:
            if drawn & sides == sides:
                raise InvalidOptions("start lines may not close a box")
        # A frozen dataclass sets its own derived fields through object.__setattr__.
        object.__setattr__(self, "start", tuple(self.start))
        object.__setattr__(self, "geometry", geo)
        object.__setattr__(self, "start_drawn", drawn)


class BoxesState(PlayedGame[Line]):
    """A Dots and Boxes position: drawn lines, box owners, whose turn, and how we got here."""

    __slots__ = (
        "_closed",
        "_drawn",
        "_ending",
        "_free",
        "_options",
        "_owned",
        "_to_move",
    )

    _options: Options
    _drawn: int
    _owned: tuple[int, int]
    _to_move: Player
    _free: tuple[Line, ...]
    """The undrawn lines in line-number order."""
    _closed: int
    """The boxes the last move closed, as a bitmask."""
    _ending: Ending | None

    def __init__(
        self,
        options: Options,
        drawn: int,
        owned: tuple[int, int],
        to_move: Player,
        history: list[Line],
        length: int,
        free: tuple[Line, ...],
        closed: int,
        ending: Ending | None = None,
    ) -> None:
        """Internal: use ``new_game``, ``play`` or ``from_json``."""
        self._options = options
        self._drawn = drawn
        self._owned = owned
        self._to_move = to_move
        self._history = history
        self._length = length
        self._free = free
        self._closed = closed
        self._ending = ending

    # -- reading the position -------------------------------------------------------

    @property
    def options(self) -> Options:
        """The size and the start lines of this game."""
        return self._options

    @property
    def geometry(self) -> Geometry:
        """The board: its size and numbering of lines and boxes."""
        return self._options.geometry

    @property
    def rows(self) -> int:
        """Number of box rows."""
        return self._options.rows

    @property
    def cols(self) -> int:
        """Number of box columns."""
        return self._options.cols

    @property
    def start(self) -> tuple[Line, ...]:
        """The lines drawn before the first move."""
        return self._options.start

    @property
    def drawn(self) -> int:
        """Bitmask of the drawn lines, start lines included."""
        return self._drawn

    @property
    def owned(self) -> tuple[int, int]:
        """Bitmask of the boxes each player has claimed."""
        return self._owned

    @property
    def to_move(self) -> Player:
        """Who draws next (after the game ends: who would have)."""
        return self._to_move

    @property
    def last_closed(self) -> tuple[Dot, ...]:
        """The boxes the last move closed (none, one or two), by their top-left dots."""
        return self._boxes_in(self._closed)

    @property
    def ending(self) -> Ending | None:
        """The resignation, loss on time or agreement that ended the game, if any."""
        return self._ending

    @property
    def scores(self) -> tuple[int, int]:
        """Boxes claimed by player 0 and by player 1."""
        return (self._owned[0].bit_count(), self._owned[1].bit_count())

    @property
    def is_over(self) -> bool:
        """The game ends when all lines are drawn, or earlier by resignation, time or agreement."""
        return self._ending is not None or not self._free

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on: more boxes wins."""
        scores = self.scores
        ending = self._ending
        if ending is not None:
            if ending.kind in ("resignation", "time"):
                assert ending.player is not None
                return Outcome(other(ending.player), ending.kind, scores)
            return Outcome(None, "agreement", scores)
        if self._free:
            return None
        return Outcome(leader(scores), "board_full", scores)

    def is_drawn(self, line: Line) -> bool:
        """Whether ``line`` is already on the board."""
        return bool(self._drawn >> self.geometry.line_index(line) & 1)

    def is_legal(self, move: Line) -> bool:
        """Whether ``move`` may be drawn now: on the board, not drawn, game not over."""
        if not isinstance(move, Line):
            raise InvalidMove(f"a Dots and Boxes move is a Line, not {move!r}")
        index = self.geometry.index_of.get(move)
        return index is not None and not self.is_over and not self._drawn >> index & 1

    def box_owner(self, box: Sequence[int]) -> Player | None:
        """Who claimed the box whose top-left dot is ``box``, or ``None`` if it is open."""
        bit = 1 << self.geometry.box_index(box)
        if self._owned[0] & bit:
            return 0
        if self._owned[1] & bit:
            return 1
        return None

    def legal_moves(self) -> Sequence[Line]:
        """Every undrawn line, in line-number order; nothing once the game is over."""
        if self._ending is not None:
            return ()
        return self._free

    def movers(self) -> list[Player]:
        """Who made each move of :attr:`moves`, in order (a player who closes a box moves
        again)."""
        geo = self.geometry
        drawn = self._options.start_drawn
        mover: Player = 0
        result: list[Player] = []
        for line in self._history[: self._length]:
            result.append(mover)
            drawn, completed = draw(geo, drawn, geo.index_of[line])
            if not completed:
                mover = other(mover)
        return result

    def last_move_by(self, player: Player) -> int | None:
        """The number of the last move ``player`` made (counted as :meth:`movers` counts), or
        None if they made none; looks back from the end, taking each line off again."""
        geo = self.geometry
        sides = geo.box_sides
        drawn = self._drawn
        to_move = self._to_move
        for number in range(self._length - 1, -1, -1):
            index = geo.index_of[self._history[number]]
            closed = any(drawn & sides[box] == sides[box] for box in geo.line_boxes[index])
            mover = to_move if closed else other(to_move)  # a box closed: they move again
            if mover == player:
                return number
            to_move = mover
            drawn &= ~(1 << index)
        return None

    def to_board(self) -> BoxesBoard:
        """A mutable copy of the position for search (see :mod:`core.boxes.search`)."""
        return BoxesBoard(self.geometry, self._drawn, self._to_move, list(self.scores))

    # -- what a client draws --------------------------------------------------------

    def snapshot(self) -> BoxesSnapshot:
        """The whole position as a client draws it (see :mod:`core.boxes.snapshot`)."""
        lines = [DrawnLine(line, None) for line in self.start]
        lines += map(DrawnLine, self.moves, self.movers())
        geo = self.geometry
        boxes = []
        owned = self._owned
        for index in range(geo.box_count):
            bit = 1 << index
            if (owned[0] | owned[1]) & bit:
                boxes.append(OwnedBox(geo.box_at(index), 0 if owned[0] & bit else 1))
        return BoxesSnapshot(
            rows=self.rows,
            cols=self.cols,
            start=self.start,
            lines=tuple(lines),
            boxes=tuple(boxes),
            move_count=self._length,
            last_move=self.last_move,
            to_move=self._to_move,
            scores=self.scores,
            outcome=self.outcome(),
        )

    def _boxes_in(self, mask: int) -> tuple[Dot, ...]:
        geo = self.geometry
        found = []
        while mask:  # one step per set bit, not per box: a move closes at most two
            low = mask & -mask
            found.append(geo.box_at(low.bit_length() - 1))
            mask ^= low
        return tuple(found)

    # -- the rules ------------------------------------------------------------------

    def play(self, move: Line) -> BoxesState:
        """Draw ``move``; closing one or two boxes claims them and gives exactly one extra move."""
        geo = self._options.geometry
        index = geo.index_of.get(move) if type(move) is Line else None
        if index is None:
            if not isinstance(move, Line):
                raise InvalidMove(f"a Dots and Boxes move is a Line, not {move!r}")
            index = geo.line_index(move)
        if self._ending is not None or not self._free:
            raise IllegalMove("the game is over")
        bit = 1 << index
        drawn = self._drawn
        if drawn & bit:
            raise IllegalMove(f"{move} is already drawn")
        drawn |= bit
        mover = self._to_move
        closed = 0
        sides = geo.box_sides
        for box in geo.line_boxes[index]:
            if drawn & sides[box] == sides[box]:
                closed |= 1 << box
        owned = self._owned
        if closed:
            owned = (owned[0] | closed, owned[1]) if mover == 0 else (owned[0], owned[1] | closed)
            next_player = mover
        else:
            next_player = other(mover)
        # The undrawn lines are kept in line-number order, so the drawn one sits after as
        # many undrawn lines as have smaller numbers.
        free = self._free
        at = (~drawn & (bit - 1)).bit_count()
        length = self._length
        history = self._history_with(move)
        return BoxesState(
            self._options,
            drawn,
            owned,
            next_player,
            history,
            length + 1,
            free[:at] + free[at + 1 :],
            closed,
        )

    def end(self, ending: Ending) -> BoxesState:
        """The state after ``ending``: :meth:`resign`, :meth:`lose_on_time` or
        :meth:`end_by_agreement`."""
        if ending.kind == "agreement":
            return self.end_by_agreement()
        if ending.kind not in ("resignation", "time") or ending.player is None:
            raise InvalidMove(
                f"Dots and Boxes ends by resignation, time or agreement, not {ending}"
            )
        return (
            self.resign(ending.player)
            if ending.kind == "resignation"
            else (self.lose_on_time(ending.player))
        )

    def _ended(self, ending: Ending) -> BoxesState:
        return BoxesState(
            self._options,
            self._drawn,
            self._owned,
            self._to_move,
            self._history,
            self._length,
            self._free,
            self._closed,
            ending,
        )

    # -- wire forms -----------------------------------------------------------------

    def move_to_json(self, move: Line) -> dict[str, Any]:
        """The wire form of ``move``."""
        return move.to_json()

    def move_from_json(self, data: Mapping[str, Any]) -> Line:
        """Read a move in wire form and check it lies on this board."""
        line = Line.from_json(data)
        self.geometry.line_index(line)
        return line

    def to_json(self) -> dict[str, Any]:
        """A complete record of the game that :func:`from_json` replays."""
        record: dict[str, Any] = {
            "game": "boxes",
            "rows": self.rows,
            "cols": self.cols,
            "start": [line.to_json()["line"] for line in self.start],
            "moves": [line.to_json()["line"] for line in self.moves],
        }
        if self._ending is not None:
            record["end"] = ending_to_json(self._ending)
        return record

    # -- value semantics ------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        return (self._options, self.moves, self._ending)

    def __repr__(self) -> str:
        """The code that makes this state again (``from core import boxes``): the game's
        record read back."""
        # The notation module builds on this one, so it is imported only when asked for.
        from core.boxes.notation import format_record  # noqa: PLC0415

        return f"boxes.parse_record({format_record(self)!r})"

    def __str__(self) -> str:
        return picture(self)


def new_game(rows: int = 5, cols: int = 5, lines: Iterable[Line] = ()) -> BoxesState:
    """A new game on ``rows`` × ``cols`` boxes, optionally with ``lines`` drawn from the start.

    Start lines belong to nobody and may not close a box; player 0 moves first.
    """
    return from_options(Options(rows, cols, tuple(lines)))


def from_options(options: Options) -> BoxesState:
    """A new game set up by ``options``."""
    geo = options.geometry
    free = tuple(geo.lines_in(geo.all_lines & ~options.start_drawn))
    return BoxesState(options, options.start_drawn, (0, 0), 0, [], 0, free, 0)


def _lines(data: Any, what: str) -> list[Line]:
    if not isinstance(data, list):
        raise InvalidMove(f"{what} must be a list of lines")
    return [Line.from_json({"line": item}) for item in data]


def from_json(record: Mapping[str, Any]) -> BoxesState:
    """Replay a record made by :meth:`BoxesState.to_json`; errors if it is not a valid game."""
    if not isinstance(record, Mapping) or record.get("game", "boxes") != "boxes":
        raise InvalidOptions("not a Dots and Boxes record")
    unknown = set(record) - {"game", "rows", "cols", "start", "moves", "end"}
    if unknown:
        raise InvalidOptions(f"unknown fields in record: {sorted(unknown)}")
    start = _lines(record.get("start", []), "start")
    state = new_game(record.get("rows", 5), record.get("cols", 5), start)
    for line in _lines(record.get("moves", []), "moves"):
        state = state.play(line)
    end = record.get("end")
    return state if end is None else state.end(ending_from_json(end))


if TYPE_CHECKING:

    def _satisfies_the_protocol(state: BoxesState) -> GameState[Line]:
        return state
