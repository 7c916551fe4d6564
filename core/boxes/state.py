"""The immutable Dots and Boxes position and the rules that move it forward."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from core.boxes.geometry import Geometry, geometry
from core.boxes.line import Line
from core.boxes.search import draw
from core.errors import IllegalMove, InvalidMove, InvalidOptions
from core.game import Outcome, Player, leader

Ending = Literal["resignation", "agreement"]


_GEOMETRY, _DRAWN, _OWNED, _TO_MOVE, _MOVES, _START, _END, _RESIGNED, _FREE = range(9)


class BoxesState(tuple):  # type: ignore[type-arg]
    """A Dots and Boxes position: drawn lines, box owners, whose turn, and how we got here.

    States are immutable (a state is a tuple underneath, which also keeps ``play`` cheap):
    ``play`` returns a new state. The drawn lines are an ``int`` bitmask over the line
    numbering of :class:`~core.boxes.geometry.Geometry`, which is what the AI searches on.
    """

    __slots__ = ()

    def __new__(
        cls,
        geometry: Geometry,
        drawn: int,
        owned: tuple[int, int],
        to_move: Player,
        moves: tuple[Line, ...],
        start: tuple[Line, ...],
        end: Ending | None = None,
        resigned: Player | None = None,
    ) -> BoxesState:
        free = tuple(geometry.lines_in(geometry.all_lines & ~drawn))
        fields = (geometry, drawn, owned, to_move, moves, start, end, resigned, free)
        return tuple.__new__(cls, fields)

    @property
    def geometry(self) -> Geometry:
        """The board: its size and numbering of lines and boxes."""
        return self[_GEOMETRY]  # type: ignore[no-any-return]

    @property
    def drawn(self) -> int:
        """Bitmask of the drawn lines, start lines included."""
        return self[_DRAWN]  # type: ignore[no-any-return]

    @property
    def owned(self) -> tuple[int, int]:
        """Bitmask of the boxes each player has claimed."""
        return self[_OWNED]  # type: ignore[no-any-return]

    @property
    def to_move(self) -> Player:
        """Who draws next (after the game ends: who would have)."""
        return self[_TO_MOVE]  # type: ignore[no-any-return]

    @property
    def moves(self) -> tuple[Line, ...]:
        """The lines played so far, in order (start lines not included)."""
        return self[_MOVES]  # type: ignore[no-any-return]

    @property
    def start(self) -> tuple[Line, ...]:
        """The lines drawn before the first move."""
        return self[_START]  # type: ignore[no-any-return]

    # -- reading the position -------------------------------------------------------

    @property
    def rows(self) -> int:
        """Number of box rows."""
        return self.geometry.rows

    @property
    def cols(self) -> int:
        """Number of box columns."""
        return self.geometry.cols

    @property
    def scores(self) -> tuple[int, int]:
        """Boxes claimed by player 0 and by player 1."""
        return (self.owned[0].bit_count(), self.owned[1].bit_count())

    @property
    def board_full(self) -> bool:
        """Whether every line has been drawn."""
        return self.drawn == self.geometry.all_lines

    @property
    def is_over(self) -> bool:
        """The game ends when all lines are drawn, or earlier by resignation or agreement."""
        return self[_END] is not None or self[_DRAWN] == self[_GEOMETRY].all_lines

    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        scores = self.scores
        end = self[_END]
        if end == "resignation":
            winner: Player = 1 if self[_RESIGNED] == 0 else 0
            return Outcome(winner, "resignation", scores)
        if end == "agreement":
            return Outcome(None, "agreement", scores)
        if not self.board_full:
            return None
        return Outcome(leader(scores), "board_full", scores)

    @property
    def winner(self) -> Player | None:
        """More boxes wins: the winner once over; ``None`` for a draw or while playing."""
        outcome = self.outcome()
        return None if outcome is None else outcome.winner

    def is_drawn(self, line: Line) -> bool:
        """Whether ``line`` is already on the board."""
        return bool(self.drawn >> self.geometry.line_index(line) & 1)

    def box_owner(self, box: Sequence[int]) -> Player | None:
        """Who claimed the box whose top-left dot is ``box``, or ``None`` if it is open."""
        bit = 1 << self.geometry.box_index(box)
        if self.owned[0] & bit:
            return 0
        if self.owned[1] & bit:
            return 1
        return None

    def legal_moves(self) -> Iterator[Line]:
        """Every undrawn line, in line-number order; nothing once the game is over."""
        if self[_END] is not None:
            return iter(())
        return iter(self[_FREE])

    def movers(self) -> list[Player]:
        """Who made each move of :attr:`moves`, in order."""
        geo = self.geometry
        drawn = 0
        for line in self.start:
            drawn |= 1 << geo.index_of[line]
        mover: Player = 0
        result: list[Player] = []
        for line in self.moves:
            result.append(mover)
            drawn, completed = draw(geo, drawn, geo.index_of[line])
            if not completed:
                mover = 1 if mover == 0 else 0
        return result

    # -- the rules ------------------------------------------------------------------

    def play(self, move: Line) -> BoxesState:
        """Draw ``move``; closing one or two boxes claims them and gives exactly one extra move."""
        geo: Geometry = self[_GEOMETRY]
        index = geo.index_of.get(move) if type(move) is Line else None
        if index is None:
            if not isinstance(move, Line):
                raise InvalidMove(f"a Dots and Boxes move is a Line, not {move!r}")
            index = geo.line_index(move)
        if self[_END] is not None or self[_DRAWN] == geo.all_lines:
            raise IllegalMove("the game is over")
        bit = 1 << index
        drawn: int = self[_DRAWN]
        if drawn & bit:
            raise IllegalMove(f"{move!r} is already drawn")
        drawn |= bit
        mover: Player = self[_TO_MOVE]
        claimed = 0
        sides = geo.box_sides
        for box in geo.line_boxes[index]:
            if drawn & sides[box] == sides[box]:
                claimed |= 1 << box
        owned: tuple[int, int] = self[_OWNED]
        if claimed:
            owned = (owned[0] | claimed, owned[1]) if mover == 0 else (owned[0], owned[1] | claimed)
            next_player = mover
        else:
            next_player = 1 if mover == 0 else 0
        # The undrawn lines are kept in line-number order, so the drawn one sits after as
        # many undrawn lines as have smaller numbers.
        free: tuple[Line, ...] = self[_FREE]
        at = (~drawn & (bit - 1)).bit_count()
        free = free[:at] + free[at + 1 :]
        moves = (*self[_MOVES], move)
        fields = (geo, drawn, owned, next_player, moves, self[_START], None, None, free)
        return tuple.__new__(BoxesState, fields)

    def resign(self, player: Player) -> BoxesState:
        """``player`` gives up: the game ends at once and the other player wins."""
        if self.is_over:
            raise IllegalMove("the game is over")
        if player not in (0, 1):
            raise InvalidMove(f"player is 0 or 1, not {player!r}")
        return self._ended("resignation", player)

    def end_by_agreement(self) -> BoxesState:
        """Both players agreed to stop: the game ends as a draw, whatever the score."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._ended("agreement", None)

    def _ended(self, end: Ending, resigned: Player | None) -> BoxesState:
        return BoxesState(
            self.geometry,
            self.drawn,
            self.owned,
            self.to_move,
            self.moves,
            self.start,
            end,
            resigned,
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
        if self[_END] == "resignation":
            record["end"] = {"type": "resignation", "player": self[_RESIGNED]}
        elif self[_END] == "agreement":
            record["end"] = {"type": "agreement"}
        return record

    def view(self) -> dict[str, Any]:
        """What a client needs to draw the position, as plain JSON data."""
        geo = self.geometry
        start_lines = [{"line": line.to_json()["line"], "player": None} for line in self.start]
        played = [
            {"line": line.to_json()["line"], "player": player}
            for line, player in zip(self.moves, self.movers(), strict=True)
        ]
        boxes = []
        for index in range(geo.box_count):
            bit = 1 << index
            owner = 0 if self.owned[0] & bit else 1 if self.owned[1] & bit else None
            if owner is not None:
                boxes.append({"box": list(geo.box_at(index)), "owner": owner})
        outcome = self.outcome()
        return {
            "game": "boxes",
            "rows": self.rows,
            "cols": self.cols,
            "lines": start_lines + played,
            "boxes": boxes,
            "last_move": self.moves[-1].to_json()["line"] if self.moves else None,
            "to_move": self.to_move,
            "scores": list(self.scores),
            "outcome": None if outcome is None else outcome.to_json(),
            "legal_moves": [line.to_json()["line"] for line in self.legal_moves()],
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoxesState):
            return NotImplemented
        return (
            self.rows == other.rows
            and self.cols == other.cols
            and self.start == other.start
            and self.moves == other.moves
            and self[_END] == other[_END]
            and self[_RESIGNED] == other[_RESIGNED]
        )

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, self.start, self.moves, self[_END], self[_RESIGNED]))

    def __repr__(self) -> str:
        return (
            f"<BoxesState {self.rows}x{self.cols} moves={len(self.moves)} "
            f"to_move={self.to_move} scores={self.scores}>"
        )


def new_game(rows: int = 5, cols: int = 5, lines: Iterable[Line] = ()) -> BoxesState:
    """A new game on ``rows`` × ``cols`` boxes, optionally with ``lines`` drawn from the start.

    Start lines belong to nobody and may not close a box; player 0 moves first.
    """
    geo = geometry(rows, cols)
    drawn = 0
    start: list[Line] = []
    for line in lines:
        if not isinstance(line, Line):
            raise InvalidOptions(f"start lines must be Line values, not {line!r}")
        bit = 1 << geo.line_index(line)
        if drawn & bit:
            raise InvalidOptions(f"start line {line!r} is given twice")
        drawn |= bit
        start.append(line)
    for sides in geo.box_sides:
        if drawn & sides == sides:
            raise InvalidOptions("start lines may not close a box")
    return BoxesState(geo, drawn, (0, 0), 0, (), tuple(start))


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
    if end is not None:
        kind = end.get("type") if isinstance(end, Mapping) else None
        if kind == "resignation":
            state = state.resign(end.get("player"))
        elif kind == "agreement":
            state = state.end_by_agreement()
        else:
            raise InvalidOptions(f"unknown game ending {end!r}")
    return state
