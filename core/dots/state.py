"""The immutable Dots game state: the public API of SPEC §6 on top of the fast board.

Every state owns a private :class:`DotsBoard` it never changes; ``play`` copies it and puts
the mark on the copy.  A state is fully determined by its record (size, start, options,
moves and how it ended), which is also what equality, ``to_json`` and the text notation
carry.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Self

from core.dots.board import EMPTY, DotsBoard
from core.dots.geometry import START_NAMES, Geometry, Point, Start, geometry, start_marks
from core.dots.outline import chain_around, houses, visible_areas
from core.errors import IllegalMove, InvalidMove, InvalidOptions
from core.game import Outcome, Player, leader

if TYPE_CHECKING:
    from core.game import GameState

EndingKind = Literal["resignation", "agreement", "grounding"]


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

    def __post_init__(self) -> None:
        geometry(self.width, self.height)  # raises InvalidOptions for a bad size
        if self.start not in START_NAMES:
            raise InvalidOptions(f"start must be one of {', '.join(START_NAMES)}")
        margin = self.win_margin
        if margin is not None and (type(margin) is not int or margin < 1):
            raise InvalidOptions("win_margin must be a positive integer or None")
        if type(self.grounding) is not bool:
            raise InvalidOptions("grounding must be true or false")

    @property
    def geometry(self) -> Geometry:
        """The geometry of the board these options describe."""
        return geometry(self.width, self.height)


@dataclass(frozen=True, slots=True)
class Ending:
    """A transition that ended the game before the board was full."""

    kind: EndingKind
    player: Player | None = None
    """Who resigned or grounded; None for an agreement."""
    scores: tuple[int, int] | None = None
    """Final scores after grounding counted the grounder's unlinked marks."""
    ungrounded: tuple[Point, ...] = ()
    """The grounder's marks that were not linked to the edge."""


def _player(value: object) -> Player:
    if type(value) is not int or value not in (0, 1):
        raise InvalidMove(f"player is 0 or 1, not {value!r}")
    return value  # type: ignore[return-value]


class DotsState:
    """An immutable Dots position with its history; ``play`` returns a new state."""

    __slots__ = ("_board", "_ending", "_moves", "_options")

    _board: DotsBoard
    _ending: Ending | None
    _moves: tuple[Point, ...]
    _options: Options

    def __init__(
        self,
        options: Options,
        board: DotsBoard,
        moves: tuple[Point, ...] = (),
        ending: Ending | None = None,
    ) -> None:
        """Internal: use :func:`new_game`, :meth:`play` or :func:`from_json`."""
        object.__setattr__(self, "_options", options)
        object.__setattr__(self, "_board", board)
        object.__setattr__(self, "_moves", moves)
        object.__setattr__(self, "_ending", ending)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a DotsState is immutable; play() returns a new one")

    # -- the position -------------------------------------------------------------------

    @property
    def options(self) -> Options:
        """Board size, start position and optional rules of this game."""
        return self._options

    @property
    def geometry(self) -> Geometry:
        """The board geometry (size and index tables)."""
        return self._board.geometry

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
        """Whose turn it is: players alternate and may not pass."""
        return self._board.player

    @property
    def moves(self) -> tuple[Point, ...]:
        """The points played so far, in order (start marks are not moves)."""
        return self._moves

    @property
    def ending(self) -> Ending | None:
        """The resignation, agreement or grounding that ended the game, if any."""
        return self._ending

    @property
    def scores(self) -> tuple[int, int]:
        """Opponent marks each player holds captured (after grounding, if it ended so)."""
        ending = self._ending
        if ending is not None and ending.scores is not None:
            return ending.scores
        score = self._board.score
        return (score[0], score[1])

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, for whatever reason."""
        return self._ending is not None or self._board.is_over

    @property
    def winner(self) -> Player | None:
        """The winner of a finished game; None while playing or for a draw."""
        outcome = self.outcome()
        return None if outcome is None else outcome.winner

    @property
    def last_move(self) -> Point | None:
        """The last point played, if any."""
        return self._moves[-1] if self._moves else None

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        The board is full when no playable point is left; with an immediate-win margin the
        game also ends as soon as one side leads by it.  More captured marks win.
        """
        ending = self._ending
        scores = self.scores
        if ending is not None:
            if ending.kind == "resignation":
                assert ending.player is not None
                return Outcome(1 - ending.player, "resignation", scores)  # type: ignore[arg-type]
            return Outcome(leader(scores), ending.kind, scores)
        board = self._board
        margin = board.win_margin
        if margin is not None and abs(scores[0] - scores[1]) >= margin:
            return Outcome(leader(scores), "margin", scores)
        if not board.playable:
            return Outcome(leader(scores), "board_full", scores)
        return None

    def is_legal(self, point: Point) -> bool:
        """Whether ``point`` may be played now: on the board, free, not dead, game not over."""
        if not isinstance(point, Point):
            raise InvalidMove(f"a Dots move is a Point, not {point!r}")
        if self.is_over or not self.geometry.contains(point):
            return False
        return self._board.cell[self.geometry.index(point)] == EMPTY

    def mark_at(self, point: Point) -> Player | None:
        """Whose mark stands on ``point`` (captured or not), or None."""
        who = self._board.mark[self.geometry.index(point)]
        return None if who == 0 else who - 1  # type: ignore[return-value]

    def is_captured(self, point: Point) -> bool:
        """Whether a mark stands on ``point`` and lies in the opponent's captured area."""
        return self._board.is_captured(self.geometry.index(point))

    def is_dead(self, point: Point) -> bool:
        """Whether ``point`` lies inside a captured area (no one may play there)."""
        return self._board.owner[self.geometry.index(point)] != 0

    def legal_moves(self) -> Iterator[Point]:
        """Every playable point, row by row; nothing once the game is over."""
        if self.is_over:
            return iter(())
        points = self.geometry.points
        return (points[index] for index in sorted(self._board.playable))  # type: ignore[misc]

    def to_board(self) -> DotsBoard:
        """A mutable copy of the position for search: the fast path (see core.dots.board)."""
        return self._board.copy()

    # -- transitions --------------------------------------------------------------------

    def play(self, move: Point | tuple[int, int]) -> Self:
        """Put the mover's mark on ``move``; captures it closes are taken at once.

        InvalidMove if ``move`` is not a point of this board; IllegalMove if the point is
        taken or dead or the game is over.
        """
        if self.is_over:
            raise IllegalMove("the game is over")
        point = move if isinstance(move, Point) else _coerce(move)
        index = self.geometry.index(point)
        board = self._board
        if board.cell[index] != EMPTY:
            if board.owner[index] and not board.mark[index]:
                raise IllegalMove(f"{point!r} lies inside a captured area")
            raise IllegalMove(f"{point!r} is already taken")
        board = board.copy()
        board.place(index)
        return type(self)(self._options, board, (*self._moves, point))

    def resign(self, player: Player) -> Self:
        """``player`` gives up: the game ends at once and the other player wins."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._end(Ending("resignation", _player(player)))

    def end_by_agreement(self) -> Self:
        """Both players agreed to stop: the game ends and the score decides."""
        if self.is_over:
            raise IllegalMove("the game is over")
        return self._end(Ending("agreement"))

    def ground(self, player: Player) -> Self:
        """Grounding ends the game: each group of ``player`` not linked to the edge counts
        as captured by the opponent, then the score decides.
        """
        if self.is_over:
            raise IllegalMove("the game is over")
        grounder = _player(player)
        if not self._options.grounding:
            raise IllegalMove("grounding is not enabled in this game")
        lost = self._board.ungrounded(grounder)
        scores = list(self._board.score)
        scores[1 - grounder] += len(lost)
        points = self.geometry.points
        ungrounded = tuple(points[index] for index in lost)
        ending = Ending("grounding", grounder, (scores[0], scores[1]), ungrounded)  # type: ignore[arg-type]
        return self._end(ending)

    def _end(self, ending: Ending) -> Self:
        return type(self)(self._options, self._board, self._moves, ending)

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
            "moves": [[point.x, point.y] for point in self._moves],
        }
        ending = self._ending
        if ending is not None:
            record["end"] = (
                {"type": ending.kind}
                if ending.player is None
                else {"type": ending.kind, "player": ending.player}
            )
        return record

    def view(self) -> dict[str, Any]:
        """Everything a client needs to draw the position, as plain JSON data."""
        board = self._board
        points = self.geometry.points

        def xy(index: int) -> list[int]:
            point = points[index]
            assert point is not None
            return [point.x, point.y]

        marks = [
            {
                "point": xy(index),
                "owner": board.mark[index] - 1,
                "captured": board.is_captured(index),
            }
            for index in self.geometry.indices
            if board.mark[index]
        ]
        areas = [
            {
                "captor": captor,
                "chain": [xy(index) for index in chain_around(board, inside)],
                "inside": [xy(index) for index in sorted(inside)],
            }
            for captor, inside in visible_areas(board)
        ]
        closed = [
            {
                "owner": owner,
                "chain": [xy(index) for index in chain],
                "inside": [xy(index) for index in inside],
            }
            for owner, chain, inside in houses(board)
        ]
        outcome = self.outcome()
        ending = self._ending
        last = self.last_move
        return {
            "game": "dots",
            "width": self.width,
            "height": self.height,
            "start": self.start,
            "win_margin": self._options.win_margin,
            "grounding": self._options.grounding,
            "marks": marks,
            "areas": areas,
            "houses": closed,
            "last_move": None if last is None else [last.x, last.y],
            "move_count": len(self._moves),
            "scores": list(self.scores),
            "to_move": self.to_move,
            "is_over": self.is_over,
            "outcome": None if outcome is None else outcome.to_json(),
            "ungrounded": []
            if ending is None
            else [[point.x, point.y] for point in ending.ungrounded],
        }

    # -- value semantics ----------------------------------------------------------------

    def _key(self) -> tuple[object, ...]:
        ending = self._ending
        end = None if ending is None else (ending.kind, ending.player)
        return (self._options, self._moves, end)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DotsState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"<DotsState {self.width}x{self.height} {self.start} moves={len(self._moves)} "
            f"to_move={self.to_move} scores={self.scores}>"
        )


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

    ``start`` is "empty", "cross" (the centre cross of SPEC §3) or "four_crosses";
    ``win_margin`` ends the game as soon as one side leads by that many marks;
    ``grounding`` lets a player end the game by grounding.
    """
    options = Options(width, height, start, win_margin, grounding)
    board = DotsBoard(options.geometry, win_margin)
    for point, player in start_marks(options.geometry, start):
        board.put(options.geometry.index(point), player)
    return DotsState(options, board)


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
    if end is not None:
        kind = end.get("type") if isinstance(end, Mapping) else None
        if kind == "resignation":
            state = state.resign(end.get("player"))
        elif kind == "agreement":
            state = state.end_by_agreement()
        elif kind == "grounding":
            state = state.ground(end.get("player"))
        else:
            raise InvalidOptions(f"unknown game ending {end!r}")
    return state


if TYPE_CHECKING:

    def _satisfies_the_protocol(state: DotsState) -> GameState[Point]:
        return state
