"""Records in, reviews out: read a record a client sent (text or JSON) and lay a game out
move by move in the shapes the websocket uses."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from core import boxes, dots
from core.boxes import BoxesState
from core.errors import TetradError
from core.notation import read_record as split_record
from core.registry import parse_record, replay
from server.api.schemas import GameReview, ReviewMove, ReviewResult, ReviewSeat
from server.refusals import Refusal
from server.rooms.boards import board_view, move_event
from server.rooms.model import AnyGame, GameName, Level, Mode

BOXES_MAX = 10
"""Largest Dots and Boxes side (boxes) a record may have: the largest room."""
DOTS_MAX = 60
"""Largest Dots side (points) a record may have: the largest room."""


Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
"""A dot or a point as ``[x, y]``."""
LinePair = Annotated[list[Pair], Field(min_length=2, max_length=2)]
"""A line as its two dots, ``[[x1, y1], [x2, y2]]``."""


class _JsonRecord(BaseModel):
    """A JSON record, checked strictly before it is replayed: every field the record's
    ``to_json`` writes must be there with its exact type (``true`` is not a number, a
    missing size is not the default one), and no other field."""

    model_config = ConfigDict(extra="forbid", strict=True)


class _Ending(_JsonRecord):
    type: Literal["resignation", "time", "agreement", "grounding"]
    player: Annotated[int, Field(ge=0, le=1)] | None = None  # (a Literal would take True)


class _BoxesRecord(_JsonRecord):
    game: Literal["boxes"]
    rows: int
    cols: int
    start: list[LinePair]
    moves: list[LinePair]
    end: _Ending | None = None


class _DotsRecord(_JsonRecord):
    game: Literal["dots"]
    width: int
    height: int
    start: Literal["empty", "cross", "four_crosses"]
    win_margin: int | None
    grounding: bool
    moves: list[Pair]
    end: _Ending | None = None


_JSON_RECORD: TypeAdapter[_BoxesRecord | _DotsRecord] = TypeAdapter(
    Annotated[_BoxesRecord | _DotsRecord, Field(discriminator="game")]
)


def read_record(data: str | Mapping[str, Any]) -> AnyGame:
    """The game a record (text notation or JSON) describes; ``bad_record`` naming the
    problem when it is not a game this server plays.

    CPU-bound for long records: the async routes call it in a thread.
    """
    try:
        if isinstance(data, str):
            header = split_record(data)
            _check_size(header.game, header.width, header.height)
            return parse_record(data)
        checked = _JSON_RECORD.validate_python(data)
        if isinstance(checked, _BoxesRecord):
            _check_size("boxes", checked.cols, checked.rows)
        else:
            _check_size("dots", checked.width, checked.height)
        return replay(data)
    except ValidationError as error:
        raise Refusal("bad_record", _first_problem(error)) from error
    except TetradError as error:
        raise Refusal("bad_record", error.reason) from error
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as error:
        raise Refusal("bad_record", f"this is not a game record: {error}") from error


def _first_problem(error: ValidationError) -> str:
    """The first thing wrong with a JSON record, said as its field and the problem."""
    problem = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in problem["loc"][1:])  # [0]: the game's tag
    if problem["type"] == "union_tag_invalid" or not where:
        return 'a JSON record names its game: "game": "boxes" or "dots"'
    if problem["type"] == "missing":
        return f"the record has no {where!r}"
    return f"{where}: {problem['msg']}"


def _check_size(game: str, width: object, height: object) -> None:
    limit = BOXES_MAX if game == "boxes" else DOTS_MAX if game == "dots" else None
    if limit is None:
        return  # the registry names the unknown game
    if not isinstance(width, int) or not isinstance(height, int):
        raise Refusal("bad_record", "the board size must be whole numbers")
    if not (1 <= width <= limit and 1 <= height <= limit):
        raise Refusal("bad_record", f"a {game} board here is at most {limit}x{limit}")


def start_of(game: AnyGame) -> AnyGame:
    """The position ``game`` started from, before its first move."""
    record = game.to_json()
    record.pop("end", None)
    record["moves"] = []
    return replay(record)


def position_at(game: AnyGame, ply: int) -> AnyGame:
    """The position after the first ``ply`` moves of ``game`` (``bad_record`` past its end)."""
    moves = game.moves
    if ply > len(moves):
        raise Refusal("bad_record", f"the record has {len(moves)} moves, not {ply}")
    state = start_of(game)
    for move in moves[:ply]:
        state = state.play(move)
    return state


def notation(game: AnyGame) -> str:
    """The record of ``game`` in the text notation."""
    if isinstance(game, BoxesState):
        return boxes.format_record(game)
    assert isinstance(game, dots.DotsState)
    return dots.format_record(game)


def game_name(game: AnyGame) -> GameName:
    return "boxes" if isinstance(game, BoxesState) else "dots"


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What the database knows about a finished game besides its record."""

    id: str | None = None
    mode: Mode | None = None
    level: Level | None = None
    computer_seat: int | None = None
    finished_at: datetime | None = None
    daily: date | None = None
    names: tuple[str | None, str | None] = (None, None)
    """Who held each seat, when known: a bot's name or the name a person gave."""
    bots: tuple[bool, bool] = (False, False)


def review(game: AnyGame, facts: GameFacts) -> GameReview:
    """The whole game laid out for stepping through: the start board and each move's change."""
    state = start_of(game)
    start = board_view(state)
    movers = game.movers()
    moves = []
    for ply, (move, seat) in enumerate(zip(game.moves, movers, strict=True), start=1):
        state = state.play(move)
        moves.append(
            ReviewMove(
                ply=ply,
                notation=str(move),
                seat=0 if seat == 0 else 1,
                change=move_event(state, seat, move, None),
                scores=state.scores,
                to_move=state.to_move,
            )
        )
    outcome = game.outcome()
    record = game.to_json()
    size = (
        (record["cols"], record["rows"])
        if "cols" in record
        else (record["width"], record["height"])
    )
    known = facts.id is not None
    return GameReview(
        id=facts.id,
        game=game_name(game),
        mode=facts.mode,
        level=facts.level,
        size=size,
        seats=[
            ReviewSeat(
                seat=seat,
                kind=None if not known else "computer" if facts.computer_seat == seat else "human",
                colour="gold" if seat == 0 else "coral",
                name=facts.names[seat],
                bot=facts.bots[seat],
            )
            for seat in (0, 1)
        ],
        result=None
        if outcome is None
        else ReviewResult(winner=outcome.winner, reason=outcome.reason, scores=outcome.scores),
        finished_at=facts.finished_at,
        daily=facts.daily,
        notation=notation(game),
        record=record,
        start=start,
        moves=moves,
        final=board_view(game),
    )
