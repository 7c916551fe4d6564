# Generated from tetrad's /openapi.json by datamodel-code-generator: do not edit.
# Regenerate with `make python-client-models` (clients/python/tools/generate_models.py).

from __future__ import annotations

from datetime import date as date_aliased
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field
from typing_extensions import TypeAliasType

Name = TypeAliasType(
    "Name",
    Annotated[
        str,
        Field(max_length=24, min_length=1, pattern="^[^\\x00-\\x1f\\x7f]+$", title="Name"),
    ],
)
"""
the name shown on your seat (a bot is named by its account)
"""


class AcceptBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    name: Annotated[Name | None, Field(title="Name")] = None


Ref = TypeAliasType("Ref", Annotated[str, Field(max_length=64, title="Ref")])
"""
echoed in the reply (ack, error, pong...)
"""


class AcceptMessage(BaseModel):
    """
    Accept the other player's pending request of this kind.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    kind: Annotated[Literal["restart", "end", "takeback"], Field(title="Kind")]
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["accept"], Field(title="Type")]


class Accepted(BaseModel):
    room_id: Annotated[str, Field(title="Room Id")]
    seat: Annotated[Literal[0, 1], Field(title="Seat")]
    token: Annotated[str | None, Field(title="Token")]
    """
    a person's seat token; null for a bot (its own token holds the seat)
    """


MoveId = TypeAliasType(
    "MoveId", Annotated[str, Field(max_length=64, min_length=1, title="Move Id")]
)


ChainItemItem = TypeAliasType("ChainItemItem", Annotated[int, Field(ge=-1000000, le=1000000)])


ChainItem = TypeAliasType(
    "ChainItem",
    Annotated[tuple[ChainItemItem, ChainItemItem], Field(max_length=2, min_length=2)],
)


InsideItemItem = TypeAliasType("InsideItemItem", Annotated[int, Field(ge=-1000000, le=1000000)])


InsideItem = TypeAliasType(
    "InsideItem",
    Annotated[tuple[InsideItemItem, InsideItemItem], Field(max_length=2, min_length=2)],
)


KeyItem = TypeAliasType("KeyItem", Annotated[int, Field(ge=-1000000, le=1000000)])


class Area(BaseModel):
    """
    A captured area: outlined by ``chain`` (the captor's marks, in order around it); every
    point of ``inside`` is dead, and a mark inside that is not the captor's is captured.
    """

    captor: Annotated[Literal[0, 1], Field(title="Captor")]
    chain: Annotated[list[ChainItem], Field(title="Chain")]
    inside: Annotated[list[InsideItem], Field(title="Inside")]
    key: Annotated[tuple[KeyItem, KeyItem], Field(title="Key")]
    """
    its first inside point in row-major order (unique)
    """


class BotView(BaseModel):
    connected: Annotated[bool, Field(title="Connected")]
    """
    its challenge stream is open now
    """
    ladder: Annotated[bool, Field(title="Ladder")]
    """
    opted in to the ladder's matchmaking
    """
    name: Annotated[str, Field(title="Name")]
    ratings: Annotated[dict[str, float], Field(title="Ratings")]
    """
    its ratings by `game/size_class` (`boxes/standard`); none before its first rated game
    """


To = TypeAliasType("To", Annotated[str, Field(max_length=24, title="To")])
"""
one bot's name; null: anyone may take it
"""


class BoxesChallenge(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    cols: Annotated[int | None, Field(ge=1, le=10, title="Cols")] = 5
    game: Annotated[Literal["boxes"], Field(title="Game")]
    mode: Annotated[Literal["live", "correspondence"] | None, Field(title="Mode")] = "live"
    name: Annotated[Name | None, Field(title="Name")] = None
    rated: Annotated[bool | None, Field(title="Rated")] = False
    """
    counts for the ladder: bots only, taken by a bot
    """
    rows: Annotated[int | None, Field(ge=1, le=10, title="Rows")] = 5
    to: Annotated[To | None, Field(title="To")] = None
    """
    one bot's name; null: anyone may take it
    """


class Challenger(BaseModel):
    bot: Annotated[bool, Field(title="Bot")]
    name: Annotated[str | None, Field(title="Name")]


DaysPerMove = TypeAliasType(
    "DaysPerMove", Annotated[int, Field(ge=1, le=30, title="Days Per Move")]
)


Minutes = TypeAliasType("Minutes", Annotated[float, Field(gt=0.0, le=180.0, title="Minutes")])


class ClockOption(BaseModel):
    """
    Clocks for a friend room: ``minutes`` for each player's whole game and ``increment``
    seconds added after each of their turns (live rooms), or ``days_per_move`` for every
    turn (correspondence rooms). A player whose time runs out loses.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    days_per_move: Annotated[DaysPerMove | None, Field(title="Days Per Move")] = None
    increment: Annotated[int | None, Field(ge=0, le=60, title="Increment")] = 0
    minutes: Annotated[Minutes | None, Field(title="Minutes")] = None


class ClockView(BaseModel):
    """
    The players' clocks when the message was written: the time each has left and whose
    clock runs (null: none runs — before the first move, and once the game is over). A
    client counts the running one down from the moment it received the message.
    """

    left_ms: Annotated[tuple[int, int], Field(title="Left Ms")]
    running: Annotated[Literal[0, 1] | None, Field(title="Running")]


class ContinueFrom(BaseModel):
    """
    Start a computer or local room from a position of a recorded game: the record's
    first ``ply`` moves are played (they are the room's history: undo takes them back;
    a new game starts from the record's own starting position).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ply: Annotated[int, Field(ge=0, title="Ply")]
    """
    moves of the record to play before the room starts
    """
    record: Annotated[str | dict[str, Any], Field(title="Record")]
    """
    a game record: the text notation (`boxes 3x2; a1-b1 a1-a2`) or the JSON record of `GET /api/games/{id}` (`record`)
    """


DailyPlayer = TypeAliasType(
    "DailyPlayer",
    Annotated[str, Field(max_length=64, min_length=16, title="Daily Player")],
)
"""
daily board: an anonymous id the browser keeps (≥ 128 random bits); only the first finished game of each id counts in the day's results
"""


class CreateBoxesRoom(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    clock: ClockOption | None = None
    """
    friend rooms: clocks (default: none)
    """
    cols: Annotated[int | None, Field(ge=1, le=10, title="Cols")] = 5
    """
    boxes across
    """
    daily: Annotated[bool | None, Field(title="Daily")] = False
    """
    play today's daily board (5×5 vs computer normal, you first); other options are ignored
    """
    daily_player: Annotated[DailyPlayer | None, Field(title="Daily Player")] = None
    """
    daily board: an anonymous id the browser keeps (≥ 128 random bits); only the first finished game of each id counts in the day's results
    """
    first: Annotated[Literal["me", "opponent", "random"] | None, Field(title="First")] = None
    """
    who moves first: me (the creator), opponent (computer or guest) or random; default: me, except correspondence rooms, drawn by lot
    """
    from_: Annotated[ContinueFrom | None, Field(alias="from")] = None
    """
    computer and local rooms: start from a position of a recorded game (the game and its size come from the record)
    """
    game: Annotated[Literal["boxes"], Field(title="Game")]
    level: Annotated[Literal["easy", "normal", "hard"] | None, Field(title="Level")] = "normal"
    """
    computer level (computer rooms)
    """
    mode: Annotated[
        Literal["computer", "local", "live", "correspondence"] | None,
        Field(title="Mode"),
    ] = None
    """
    default: live for Dots and Boxes, correspondence for Dots
    """
    name: Annotated[Name | None, Field(title="Name")] = None
    rated: Annotated[bool | None, Field(title="Rated")] = False
    """
    a bot's computer room whose game counts for the ladder (send the bot's token); a rated game allows only moves and resigning
    """
    rows: Annotated[int | None, Field(ge=1, le=10, title="Rows")] = 5
    """
    boxes down
    """


class CreateDotsRoom(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    clock: ClockOption | None = None
    """
    friend rooms: clocks (default: none)
    """
    first: Annotated[Literal["me", "opponent", "random"] | None, Field(title="First")] = None
    """
    who moves first: me (the creator), opponent (computer or guest) or random; default: me, except correspondence rooms, drawn by lot
    """
    from_: Annotated[ContinueFrom | None, Field(alias="from")] = None
    """
    computer and local rooms: start from a position of a recorded game (the game and its size come from the record)
    """
    game: Annotated[Literal["dots"], Field(title="Game")]
    height: Annotated[int | None, Field(ge=5, le=60, title="Height")] = 20
    level: Annotated[Literal["easy", "normal", "hard"] | None, Field(title="Level")] = "normal"
    """
    computer level (computer rooms)
    """
    mode: Annotated[
        Literal["computer", "local", "live", "correspondence"] | None,
        Field(title="Mode"),
    ] = None
    """
    default: live for Dots and Boxes, correspondence for Dots
    """
    name: Annotated[Name | None, Field(title="Name")] = None
    rated: Annotated[bool | None, Field(title="Rated")] = False
    """
    a bot's computer room whose game counts for the ladder (send the bot's token); a rated game allows only moves and resigning
    """
    start: Annotated[Literal["empty", "cross", "four_crosses"] | None, Field(title="Start")] = (
        "empty"
    )
    width: Annotated[int | None, Field(ge=5, le=60, title="Width")] = 20


class DailyScore(BaseModel):
    boxes: Annotated[int, Field(title="Boxes")]
    """
    boxes the player took
    """
    players: Annotated[int, Field(title="Players")]
    """
    players who finished the day's board with that many
    """


class DeclineBody(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    reason: Annotated[str | None, Field(max_length=200, min_length=1, title="Reason")] = "declined"


class DeclineMessage(BaseModel):
    """
    Decline the other player's pending request, or withdraw your own.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    kind: Annotated[Literal["restart", "end", "takeback"], Field(title="Kind")]
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["decline"], Field(title="Type")]


class DeclinedEvent(BaseModel):
    """
    A pending request was declined, withdrawn, or cancelled by a move (``seat`` null).
    """

    kind: Annotated[Literal["declined"], Field(title="Kind")] = "declined"
    request: Annotated[Literal["restart", "end", "takeback"], Field(title="Request")]
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")]


Mark = TypeAliasType(
    "Mark", Annotated[tuple[int, int, Literal[0, 1]], Field(max_length=3, min_length=3)]
)


UngroundedItemItem = TypeAliasType(
    "UngroundedItemItem", Annotated[int, Field(ge=-1000000, le=1000000)]
)


UngroundedItem = TypeAliasType(
    "UngroundedItem",
    Annotated[tuple[UngroundedItemItem, UngroundedItemItem], Field(max_length=2, min_length=2)],
)


class DotsChallenge(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    game: Annotated[Literal["dots"], Field(title="Game")]
    height: Annotated[int | None, Field(ge=5, le=60, title="Height")] = 20
    mode: Annotated[Literal["live", "correspondence"] | None, Field(title="Mode")] = "live"
    name: Annotated[Name | None, Field(title="Name")] = None
    rated: Annotated[bool | None, Field(title="Rated")] = False
    """
    counts for the ladder: bots only, taken by a bot
    """
    start: Annotated[Literal["empty", "cross", "four_crosses"] | None, Field(title="Start")] = (
        "empty"
    )
    to: Annotated[To | None, Field(title="To")] = None
    """
    one bot's name; null: anyone may take it
    """
    width: Annotated[int | None, Field(ge=5, le=60, title="Width")] = 20


LineItemItem = TypeAliasType("LineItemItem", Annotated[int, Field(ge=-1000000, le=1000000)])


LineItem = TypeAliasType(
    "LineItem",
    Annotated[tuple[LineItemItem, LineItemItem], Field(max_length=2, min_length=2)],
)


LineItem1Item = TypeAliasType("LineItem1Item", Annotated[int, Field(ge=-1000000, le=1000000)])


LineItem1 = TypeAliasType(
    "LineItem1",
    Annotated[tuple[LineItem1Item, LineItem1Item], Field(max_length=2, min_length=2)],
)


class DrawnLine(BaseModel):
    line: Annotated[tuple[LineItem, LineItem1], Field(title="Line")]
    player: Annotated[Literal[0, 1] | None, Field(title="Player")]
    """
    who drew it (null: drawn at the start)
    """


class EndedEvent(BaseModel):
    """
    The game ended early: by resignation, by agreement, or a player's time ran out.
    """

    kind: Annotated[Literal["ended"], Field(title="Kind")] = "ended"
    reason: Annotated[Literal["resignation", "agreement", "time"], Field(title="Reason")]
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")]
    """
    who resigned or ran out of time (null for agreement)
    """


class ErrorBody(BaseModel):
    """
    Every refusal: a stable ``code`` for programs and a ``message`` for people.
    """

    code: Annotated[str, Field(title="Code")]
    details: Annotated[dict[str, Any] | None, Field(title="Details")] = None
    """
    facts about the refusal
    """
    message: Annotated[str, Field(title="Message")]
    retry_after: Annotated[float | None, Field(title="Retry After")] = None
    """
    rate_limited, unavailable: seconds before a retry is taken (also the `Retry-After` header, rounded up)
    """


class ErrorMessage(BaseModel):
    """
    A refused message; the connection stays open. ``code`` is stable (see docs/api.md).
    """

    code: Annotated[str, Field(title="Code")]
    details: Annotated[dict[str, Any] | None, Field(title="Details")] = None
    message: Annotated[str, Field(title="Message")]
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    ref: Annotated[str | None, Field(title="Ref")] = None
    retry_after: Annotated[float | None, Field(title="Retry After")] = None
    """
    rate_limited: seconds before a retry is taken
    """
    room: Annotated[str, Field(title="Room")]
    type: Annotated[Literal["error"], Field(title="Type")] = "error"
    version: Annotated[int, Field(title="Version")]


class FinishedGameView(BaseModel):
    daily: Annotated[date_aliased | None, Field(title="Daily")]
    finished_at: Annotated[AwareDatetime, Field(title="Finished At")]
    game: Annotated[str, Field(title="Game")]
    game_number: Annotated[int, Field(title="Game Number")]
    id: Annotated[str, Field(title="Id")]
    mode: Annotated[str, Field(title="Mode")]
    reason: Annotated[str, Field(title="Reason")]
    record: Annotated[dict[str, Any], Field(title="Record")]
    room_id: Annotated[str, Field(title="Room Id")]
    scores: Annotated[tuple[int, int], Field(title="Scores")]
    winner: Annotated[Literal[0, 1] | None, Field(title="Winner")]


class Health(BaseModel):
    checks: Annotated[dict[str, str] | None, Field(title="Checks")] = None
    status: Annotated[Literal["ok", "unavailable"], Field(title="Status")]


Since = TypeAliasType("Since", Annotated[int, Field(ge=0, title="Since")])


Token = TypeAliasType("Token", Annotated[str, Field(max_length=128, title="Token")])


class Hello(BaseModel):
    """
    First message on a websocket: the seat token (null: watch as a spectator) and the
    last room version this client holds (null: send a snapshot).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    since: Annotated[Since | None, Field(title="Since")] = None
    token: Annotated[Token | None, Field(title="Token")] = None
    type: Annotated[Literal["hello"], Field(title="Type")]


class Hint(BaseModel):
    """
    Computer and local rooms: ask which move the computer would make (no state change);
    the ``ack`` carries it.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["hint"], Field(title="Type")]


ChainItem1Item = TypeAliasType("ChainItem1Item", Annotated[int, Field(ge=-1000000, le=1000000)])


ChainItem1 = TypeAliasType(
    "ChainItem1",
    Annotated[tuple[ChainItem1Item, ChainItem1Item], Field(max_length=2, min_length=2)],
)


InsideItem1Item = TypeAliasType("InsideItem1Item", Annotated[int, Field(ge=-1000000, le=1000000)])


InsideItem1 = TypeAliasType(
    "InsideItem1",
    Annotated[tuple[InsideItem1Item, InsideItem1Item], Field(max_length=2, min_length=2)],
)


class House(BaseModel):
    """
    An empty enclosure: both players may still play inside it.
    """

    chain: Annotated[list[ChainItem1], Field(title="Chain")]
    inside: Annotated[list[InsideItem1], Field(title="Inside")]
    key: Annotated[tuple[KeyItem, KeyItem], Field(title="Key")]
    """
    its first inside point in row-major order (unique with the owner)
    """
    owner: Annotated[Literal[0, 1], Field(title="Owner")]


class JoinRoom(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    invite_code: Annotated[str, Field(max_length=64, min_length=1, title="Invite Code")]
    name: Annotated[Name | None, Field(title="Name")] = None


class JoinedEvent(BaseModel):
    bot: Annotated[bool | None, Field(title="Bot")] = False
    """
    the guest is a bot account
    """
    kind: Annotated[Literal["joined"], Field(title="Kind")] = "joined"
    name: Annotated[str | None, Field(title="Name")] = None
    """
    the display name the guest gave
    """
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


class LadderEntry(BaseModel):
    computer: Annotated[bool, Field(title="Computer")]
    """
    a computer level: a fixed anchor
    """
    deviation: Annotated[int, Field(title="Deviation")]
    """
    the rating's uncertainty (OpenSkill's sigma)
    """
    draws: Annotated[int, Field(title="Draws")]
    games: Annotated[int, Field(title="Games")]
    games_url: Annotated[str, Field(title="Games Url")]
    """
    the player's recent games
    """
    losses: Annotated[int, Field(title="Losses")]
    player: Annotated[str, Field(title="Player")]
    """
    a bot's name, or `level:easy|normal|hard`
    """
    rank: Annotated[int, Field(title="Rank")]
    rating: Annotated[int, Field(title="Rating")]
    wins: Annotated[int, Field(title="Wins")]


class LadderGame(BaseModel):
    finished_at: Annotated[AwareDatetime | None, Field(title="Finished At")]
    game: Annotated[str, Field(title="Game")]
    game_id: Annotated[str | None, Field(title="Game Id")]
    """
    the finished game: GET /api/games/{game_id}
    """
    mode: Annotated[str, Field(title="Mode")]
    players: Annotated[tuple[str, str], Field(title="Players")]
    """
    by seat (gold first)
    """
    rated: Annotated[bool, Field(title="Rated")]
    room_id: Annotated[str, Field(title="Room Id")]
    size_class: Annotated[str, Field(title="Size Class")]
    started_at: Annotated[AwareDatetime, Field(title="Started At")]
    winner: Annotated[int | None, Field(title="Winner")]


class LevelEvent(BaseModel):
    kind: Annotated[Literal["level"], Field(title="Kind")] = "level"
    level: Annotated[Literal["easy", "normal", "hard"], Field(title="Level")]


LineItem2Item = TypeAliasType("LineItem2Item", Annotated[int, Field(ge=-1000000, le=1000000)])


LineItem2 = TypeAliasType(
    "LineItem2",
    Annotated[tuple[LineItem2Item, LineItem2Item], Field(max_length=2, min_length=2)],
)


LineItem3Item = TypeAliasType("LineItem3Item", Annotated[int, Field(ge=-1000000, le=1000000)])


LineItem3 = TypeAliasType(
    "LineItem3",
    Annotated[tuple[LineItem3Item, LineItem3Item], Field(max_length=2, min_length=2)],
)


class LineMove(BaseModel):
    """
    A Dots and Boxes move: the line between two adjacent dots ``[[x1, y1], [x2, y2]]``.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    line: Annotated[tuple[LineItem2, LineItem3], Field(title="Line")]


class LineValues(BaseModel):
    """
    Dots and Boxes against the computer (not the daily board, not rated): ask what every
    undrawn line of the current position is worth, for the practice overlay (no state
    change); the ``ack`` carries it in ``line_values``.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["line_values"], Field(title="Type")]


Version = TypeAliasType("Version", Annotated[int, Field(ge=0, title="Version")])


AreasRemovedItemItem = TypeAliasType(
    "AreasRemovedItemItem", Annotated[int, Field(ge=-1000000, le=1000000)]
)


AreasRemovedItem = TypeAliasType(
    "AreasRemovedItem",
    Annotated[
        tuple[AreasRemovedItemItem, AreasRemovedItemItem],
        Field(max_length=2, min_length=2),
    ],
)


ClosedItemItem = TypeAliasType("ClosedItemItem", Annotated[int, Field(ge=-1000000, le=1000000)])


ClosedItem = TypeAliasType(
    "ClosedItem",
    Annotated[tuple[ClosedItemItem, ClosedItemItem], Field(max_length=2, min_length=2)],
)


HousesRemovedItem = TypeAliasType(
    "HousesRemovedItem",
    Annotated[tuple[int, int, Literal[0, 1]], Field(max_length=3, min_length=3)],
)


MoveId3 = TypeAliasType(
    "MoveId3", Annotated[str, Field(max_length=64, min_length=1, title="Move Id")]
)
"""
unique per seat and game; makes retries idempotent
"""


Version1 = TypeAliasType("Version1", Annotated[int, Field(ge=0, title="Version")])
"""
room version the move was made against
"""


class NewGameMessage(BaseModel):
    """
    Computer and local rooms: start a new game now; the level stays. ``first`` (computer
    rooms): ``me`` or ``opponent`` moves first in the new game; default: as before.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    first: Annotated[Literal["me", "opponent"] | None, Field(title="First")] = None
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["new_game"], Field(title="Type")]


class OfferMessage(BaseModel):
    """
    Ask for a new game (``restart``) or to end the game by agreement (``end``). If the
    other player already asked for the same, this accepts it. In computer and local rooms,
    and while the guest seat is free, ``restart`` happens at once.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    kind: Annotated[Literal["restart", "end", "takeback"], Field(title="Kind")]
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["offer"], Field(title="Type")]


class OutcomeView(BaseModel):
    """
    How the game ended (the final scores are the status's ``scores``).
    """

    reason: Annotated[str, Field(title="Reason")]
    """
    board_full, resignation, agreement, time, grounding or margin
    """
    winner: Annotated[Literal[0, 1] | None, Field(title="Winner")]


BoxItem = TypeAliasType("BoxItem", Annotated[int, Field(ge=-1000000, le=1000000)])


class OwnedBox(BaseModel):
    box: Annotated[tuple[BoxItem, BoxItem], Field(title="Box")]
    """
    the box whose top-left dot this is
    """
    owner: Annotated[Literal[0, 1], Field(title="Owner")]


class PendingRequestView(BaseModel):
    kind: Annotated[Literal["restart", "end", "takeback"], Field(title="Kind")]
    seat: Annotated[Literal[0, 1], Field(title="Seat")]
    """
    who asked
    """


class Ping(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["ping"], Field(title="Type")]


class PlayerSummary(BaseModel):
    """
    How one seat played, over the moves the analysis judged.
    """

    accuracy: Annotated[float | None, Field(title="Accuracy")]
    """
    the share of judged moves that were best (gave nothing away), 0 to 100; null when none was judged
    """
    blunders: Annotated[int, Field(title="Blunders")]
    """
    judged moves that gave away 3 boxes or more
    """
    judged: Annotated[int, Field(title="Judged")]
    """
    this seat's moves judged exactly
    """
    lost: Annotated[int, Field(title="Lost")]
    """
    boxes given away in all by the judged moves
    """
    mistakes: Annotated[int, Field(title="Mistakes")]
    """
    judged moves that gave away 1 or 2 boxes
    """
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


PointItem = TypeAliasType("PointItem", Annotated[int, Field(ge=-1000000, le=1000000)])


class PointMove(BaseModel):
    """
    A Dots move: the point ``[x, y]`` to mark.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    point: Annotated[tuple[PointItem, PointItem], Field(title="Point")]


class PongMessage(BaseModel):
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    ref: Annotated[str | None, Field(title="Ref")] = None
    room: Annotated[str, Field(title="Room")]
    type: Annotated[Literal["pong"], Field(title="Type")] = "pong"
    version: Annotated[int, Field(title="Version")]


class RecordBody(BaseModel):
    """
    A record to review or analyse.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    record: Annotated[str | dict[str, Any], Field(title="Record")]
    """
    a game record: the text notation (`boxes 3x2; a1-b1 a1-a2`) or the JSON record of `GET /api/games/{id}` (`record`)
    """


class RequestedEvent(BaseModel):
    kind: Annotated[Literal["requested"], Field(title="Kind")] = "requested"
    request: Annotated[Literal["restart", "end", "takeback"], Field(title="Request")]
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


class ResignMessage(BaseModel):
    """
    Give up the current game; the other seat wins.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["resign"], Field(title="Type")]


class ReviewResult(BaseModel):
    reason: Annotated[str, Field(title="Reason")]
    """
    board_full, resignation, agreement, grounding or margin
    """
    scores: Annotated[tuple[int, int], Field(title="Scores")]
    winner: Annotated[Literal[0, 1] | None, Field(title="Winner")]


class ReviewSeat(BaseModel):
    bot: Annotated[bool | None, Field(title="Bot")] = False
    """
    a bot account played it
    """
    colour: Annotated[Literal["gold", "coral"], Field(title="Colour")]
    kind: Annotated[Literal["human", "computer"] | None, Field(title="Kind")]
    """
    null when the record does not say (imported records, older games)
    """
    name: Annotated[str | None, Field(title="Name")] = None
    """
    the bot's account name, or the name a person gave; absent: none
    """
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


class SeatView(BaseModel):
    """
    One of the two seats: who holds it and whether they are connected right now.
    """

    bot: Annotated[bool | None, Field(title="Bot")] = False
    """
    a bot account holds this seat (absent: no)
    """
    colour: Annotated[Literal["gold", "coral"], Field(title="Colour")]
    connected: Annotated[bool, Field(title="Connected")]
    """
    a websocket holds this seat now (the computer: true)
    """
    kind: Annotated[Literal["human", "computer"], Field(title="Kind")]
    name: Annotated[str | None, Field(title="Name")] = None
    """
    the holder's display name, or the bot's account name; absent: none
    """
    seat: Annotated[Literal[0, 1], Field(title="Seat")]
    taken: Annotated[bool, Field(title="Taken")]
    """
    someone holds this seat (the computer always)
    """


class SetLevelMessage(BaseModel):
    """
    Computer rooms: change the computer's level; the board stays.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    level: Annotated[Literal["easy", "normal", "hard"], Field(title="Level")]
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["set_level"], Field(title="Type")]


Allowed = TypeAliasType(
    "Allowed",
    Annotated[
        tuple[
            list[
                Literal[
                    "undo",
                    "hint",
                    "set_level",
                    "new_game",
                    "offer_restart",
                    "offer_end",
                    "accept_restart",
                    "accept_end",
                    "decline_restart",
                    "decline_end",
                    "offer_takeback",
                    "accept_takeback",
                    "decline_takeback",
                    "resign",
                ]
            ],
            list[
                Literal[
                    "undo",
                    "hint",
                    "set_level",
                    "new_game",
                    "offer_restart",
                    "offer_end",
                    "accept_restart",
                    "accept_end",
                    "decline_restart",
                    "decline_end",
                    "offer_takeback",
                    "accept_takeback",
                    "decline_takeback",
                    "resign",
                ]
            ],
        ],
        Field(max_length=2, min_length=2, title="Allowed"),
    ],
)
"""
what each seat may ask for besides moves; absent: unchanged
"""


class Status(BaseModel):
    """
    The parts of a room every event may change. An event carries all of them, so a
    client replaces the status it holds, except ``allowed``: sent when it changed, kept
    from before when absent.
    """

    allowed: Annotated[Allowed | None, Field(title="Allowed")] = None
    """
    what each seat may ask for besides moves; absent: unchanged
    """
    clock: ClockView | None = None
    """
    rooms with clocks: in every status
    """
    outcome: OutcomeView | None
    """
    set once the game is over
    """
    scores: Annotated[tuple[int, int], Field(title="Scores")]
    thinking: Annotated[bool, Field(title="Thinking")]
    """
    the computer is about to move
    """
    to_move: Annotated[Literal[0, 1], Field(title="To Move")]


class Sync(BaseModel):
    """
    Bring me up to date from ``since`` (the version I hold; null: I hold nothing):
    answered by one ``resync``.
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    since: Annotated[Since | None, Field(title="Since")] = None
    type: Annotated[Literal["sync"], Field(title="Type")]


class TimeControlView(BaseModel):
    """
    A room's clocks: ``initial_seconds`` for each player's game and ``increment_seconds``
    added after each of their turns (live); or, ``per_move``, ``initial_seconds`` for every
    turn (correspondence).
    """

    increment_seconds: Annotated[float, Field(title="Increment Seconds")]
    initial_seconds: Annotated[float, Field(title="Initial Seconds")]
    per_move: Annotated[bool, Field(title="Per Move")]


class UndoMessage(BaseModel):
    """
    Computer and local rooms: take back your last move and the computer's replies (right
    after a new game: bring the replaced game back).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["undo"], Field(title="Type")]


class YourSeat(BaseModel):
    invite_code: Annotated[str | None, Field(title="Invite Code")]
    invite_url: Annotated[str | None, Field(title="Invite Url")]
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


class BoxesBoard(BaseModel):
    """
    A Dots and Boxes position. Playable: every line between adjacent dots not in ``lines``.
    """

    boxes: Annotated[list[OwnedBox], Field(title="Boxes")]
    cols: Annotated[int, Field(title="Cols")]
    game: Annotated[Literal["boxes"], Field(title="Game")] = "boxes"
    last_move: LineMove | None
    lines: Annotated[list[DrawnLine], Field(title="Lines")]
    """
    drawn lines, start lines first, in order
    """
    rows: Annotated[int, Field(title="Rows")]


class ChallengeView(BaseModel):
    expires_at: Annotated[AwareDatetime, Field(title="Expires At")]
    from_: Annotated[Challenger, Field(alias="from")]
    game: Annotated[Literal["boxes", "dots"], Field(title="Game")]
    id: Annotated[str, Field(title="Id")]
    mode: Annotated[Literal["live", "correspondence"], Field(title="Mode")]
    options: Annotated[dict[str, Any], Field(title="Options")]
    """
    the board: rows and cols, or width, height, start
    """
    rated: Annotated[bool, Field(title="Rated")]
    reason: Annotated[str | None, Field(title="Reason")]
    """
    why it was declined
    """
    room_id: Annotated[str | None, Field(title="Room Id")]
    """
    once accepted: the room
    """
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")] = None
    """
    once accepted, to who posted it: their seat
    """
    status: Annotated[
        Literal["open", "taking", "accepted", "declined", "cancelled", "expired"],
        Field(title="Status"),
    ]
    to: Annotated[str | None, Field(title="To")]
    """
    the one bot that may take it; null: anyone
    """


class DailyBoard(BaseModel):
    cols: Annotated[int, Field(title="Cols")]
    date: Annotated[date_aliased, Field(title="Date")]
    first: Annotated[Literal["me"], Field(title="First")]
    """
    you move first on the daily board
    """
    level: Annotated[Literal["easy", "normal", "hard"], Field(title="Level")]
    lines: Annotated[list[LineMove], Field(title="Lines")]
    """
    the lines drawn at the start
    """
    rows: Annotated[int, Field(title="Rows")]


class DailyResults(BaseModel):
    """
    Everybody's results on one day's board, to compare yours with.
    """

    boxes_total: Annotated[int, Field(title="Boxes Total")]
    """
    boxes on the daily board
    """
    date: Annotated[date_aliased, Field(title="Date")]
    distribution: Annotated[list[DailyScore], Field(title="Distribution")]
    """
    players per number of boxes taken, fewest boxes first; absent counts are 0
    """
    draws: Annotated[int, Field(title="Draws")]
    losses: Annotated[int, Field(title="Losses")]
    players: Annotated[int, Field(title="Players")]
    """
    players who finished that day's board
    """
    wins: Annotated[int, Field(title="Wins")]
    """
    players who took more boxes than the computer
    """


class DotsBoard(BaseModel):
    """
    A Dots position. Playable: every point with no mark that lies in no area.
    """

    areas: Annotated[list[Area], Field(title="Areas")]
    game: Annotated[Literal["dots"], Field(title="Game")] = "dots"
    grounding: Annotated[bool, Field(title="Grounding")]
    height: Annotated[int, Field(title="Height")]
    houses: Annotated[list[House], Field(title="Houses")]
    last_move: PointMove | None
    marks: Annotated[list[Mark], Field(title="Marks")]
    """
    [x, y, owner] of every mark
    """
    start: Annotated[Literal["empty", "cross", "four_crosses"], Field(title="Start")]
    ungrounded: Annotated[list[UngroundedItem], Field(title="Ungrounded")]
    """
    marks lost by grounding, when it ended so
    """
    width: Annotated[int, Field(title="Width")]
    win_margin: Annotated[int | None, Field(title="Win Margin")]


class HintView(BaseModel):
    """
    The move the computer (hard) would make, and why where the theory gives a reason.
    """

    count: Annotated[int | None, Field(title="Count")] = 0
    """
    the boxes or marks the reason is about (taken, offered), else 0
    """
    move: Annotated[LineMove | PointMove, Field(title="Move")]
    reason: Annotated[str | None, Field(title="Reason")] = None
    """
    why, as a stable code (null for a quiet move). Dots and Boxes: takes_free_boxes, takes_all, declines_to_keep_control, sacrifice_to_keep_control, gives_fewest_boxes, keeps_control, safe_line; Dots: captures, double_threat, blocks_capture, escapes
    """


class Ladder(BaseModel):
    anchors: Annotated[dict[str, int], Field(title="Anchors")]
    """
    the computer levels' fixed ratings
    """
    entries: Annotated[list[LadderEntry], Field(title="Entries")]
    game: Annotated[Literal["boxes", "dots"], Field(title="Game")]
    size_class: Annotated[Literal["small", "standard", "large"], Field(title="Size Class")]


class LineValue(BaseModel):
    """
    The exact value of one undrawn line of an analysed Dots and Boxes position.
    """

    move: Annotated[LineMove | PointMove, Field(title="Move")]
    value: Annotated[int, Field(title="Value")]
    """
    the margin of the remaining boxes the player to move gets by drawing this line and playing on perfectly (exact); `value` minus it, halved, is what the line costs in boxes
    """


class LineValueView(BaseModel):
    """
    What one undrawn line is worth.
    """

    move: Annotated[LineMove | PointMove, Field(title="Move")]
    value: Annotated[int, Field(title="Value")]
    """
    the margin of the remaining boxes the player to move gets by drawing this line and playing on perfectly (exact); the position's `value` minus it, halved, is what the line gives away in boxes
    """


class LineValuesView(BaseModel):
    """
    The value of the current position and of each of its undrawn lines, as the game
    review gives them (``PositionAnalysis``): exact when the solver finished in time.
    """

    best: Annotated[
        list[LineMove | PointMove] | None, Field(title="Best", validate_default=True)
    ] = []
    """
    exact: the best lines found; otherwise the hard level's choice
    """
    complete: Annotated[bool | None, Field(title="Complete")] = False
    """
    every undrawn line was valued in time (exact only)
    """
    exact: Annotated[bool, Field(title="Exact")]
    """
    `value` and `values` are the solver's exact results
    """
    to_move: Annotated[Literal[0, 1], Field(title="To Move")]
    value: Annotated[int | None, Field(title="Value")]
    """
    the margin of the remaining boxes the player to move gets with best play (exact) or is estimated to get
    """
    values: Annotated[list[LineValueView] | None, Field(title="Values", validate_default=True)] = []
    """
    exact only: each undrawn line valued in time; empty otherwise
    """


class MakeMove(BaseModel):
    """
    Make a move. ``version``: the room version the move was made against (refused with
    ``stale_version`` if the room moved on; omit to play on whatever the room is at).
    ``move_id``: chosen by the client, unique per seat and game; a resend with the same id
    and the same move is applied at most once, the same id with another move is refused
    (``move_id_reused``).
    """

    model_config = ConfigDict(
        extra="forbid",
    )
    move: Annotated[LineMove | PointMove, Field(title="Move")]
    move_id: Annotated[MoveId | None, Field(title="Move Id")] = None
    ref: Annotated[Ref | None, Field(title="Ref")] = None
    """
    echoed in the reply (ack, error, pong...)
    """
    type: Annotated[Literal["move"], Field(title="Type")]
    version: Annotated[Version | None, Field(title="Version")] = None


class MoveEvent(BaseModel):
    """
    A move, and what it did. Dots and Boxes: the boxes the line ``closed``. Dots: the
    areas the mark ``captures`` (their marks inside that are not the captor's are captured
    now), the keys of older areas such a capture swallowed, and the houses it made or ended.
    Empty lists are left out.
    """

    areas_removed: Annotated[list[AreasRemovedItem] | None, Field(title="Areas Removed")] = []
    """
    keys of areas swallowed by a capture
    """
    captures: Annotated[list[Area] | None, Field(title="Captures", validate_default=True)] = []
    """
    areas this mark captured
    """
    closed: Annotated[list[ClosedItem] | None, Field(title="Closed")] = []
    """
    boxes this line closed
    """
    houses_added: Annotated[
        list[House] | None, Field(title="Houses Added", validate_default=True)
    ] = []
    houses_removed: Annotated[list[HousesRemovedItem] | None, Field(title="Houses Removed")] = []
    """
    houses gone, as [x, y, owner]: key and owner
    """
    kind: Annotated[Literal["move"], Field(title="Kind")] = "move"
    move: Annotated[LineMove | PointMove, Field(title="Move")]
    move_id: Annotated[MoveId | None, Field(title="Move Id")] = None
    seat: Annotated[Literal[0, 1], Field(title="Seat")]


class MoveRequest(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
    )
    move: Annotated[LineMove | PointMove, Field(title="Move")]
    move_id: Annotated[MoveId3 | None, Field(title="Move Id")] = None
    """
    unique per seat and game; makes retries idempotent
    """
    version: Annotated[Version1 | None, Field(title="Version")] = None
    """
    room version the move was made against
    """


class NewBoardEvent(BaseModel):
    """
    A new game started (``restarted``) or moves were taken back (``undone``): the whole
    board, and the computer's seat, which a new game against the computer may swap.
    """

    board: Annotated[BoxesBoard | DotsBoard, Field(discriminator="game", title="Board")]
    computer_seat: Annotated[Literal[0, 1] | None, Field(title="Computer Seat")]
    count: Annotated[int | None, Field(title="Count")] = 0
    """
    undone: moves taken back (0: game restored)
    """
    game_number: Annotated[int, Field(title="Game Number")]
    kind: Annotated[Literal["restarted", "undone"], Field(title="Kind")]
    move_count: Annotated[int, Field(title="Move Count")]
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")] = None
    """
    undone: who asked
    """


class PositionAnalysis(BaseModel):
    """
    The computer's view of the position before move ``ply + 1``.
    """

    best: Annotated[list[LineMove | PointMove], Field(title="Best")]
    """
    exact: the best moves found (every one when `complete`); otherwise the hard level's choice
    """
    complete: Annotated[bool | None, Field(title="Complete")] = False
    """
    whether `best` lists every best move (every line was valued in time); false for estimates and Dots, where `best` is the hard level's choice
    """
    cost: Annotated[int | None, Field(title="Cost")] = None
    """
    judged moves only: the boxes of the final score the played move gave away against best play; null when the move was not judged
    """
    exact: Annotated[bool, Field(title="Exact")]
    """
    Dots and Boxes: `value` and `margin` are the solver's exact results; false: estimates (and for Dots, where there is no value)
    """
    line: Annotated[list[LineMove | PointMove] | None, Field(title="Line")] = None
    """
    after a mistake: the best move and the best play that follows it (up to five moves); empty otherwise
    """
    loss: Annotated[int | None, Field(title="Loss")]
    """
    judged moves only: the margin the played move gave away against best play (twice `cost`); null when the move was not judged
    """
    margin: Annotated[int | None, Field(title="Margin")]
    """
    Dots and Boxes: the final score difference, seat 0 minus seat 1, with best play from here (exact) or as estimated; null for Dots
    """
    mistake: Annotated[bool | None, Field(title="Mistake")]
    """
    the played move gives boxes away (`cost` > 0); null when it was not judged (the position was only estimated, or valuing the move ran out of time)
    """
    played: Annotated[LineMove | PointMove | None, Field(title="Played")]
    """
    the move the game went on with
    """
    ply: Annotated[int, Field(title="Ply")]
    """
    moves played before this position (0: the start)
    """
    to_move: Annotated[Literal[0, 1], Field(title="To Move")]
    value: Annotated[int | None, Field(title="Value")]
    """
    Dots and Boxes: the margin of the remaining boxes the player to move gets with best play (exact) or is estimated to get; null for Dots
    """
    values: Annotated[list[LineValue] | None, Field(title="Values")] = None
    """
    exact positions: the exact value of each undrawn line valued in time (every one when `complete`); empty for estimates and Dots
    """


class PostedChallenge(BaseModel):
    challenge: ChallengeView
    token: Annotated[str | None, Field(title="Token")]
    """
    a person's seat token for the game (and the key to withdraw the challenge); null for a bot, whose own token holds its seat
    """


class PresenceMessage(BaseModel):
    """
    Who is connected, or how many watch, changed (``version`` is the current one).
    """

    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    room: Annotated[str, Field(title="Room")]
    seats: Annotated[list[SeatView], Field(title="Seats")]
    spectators: Annotated[int, Field(ge=0, title="Spectators")]
    type: Annotated[Literal["presence"], Field(title="Type")] = "presence"
    version: Annotated[int, Field(title="Version")]


class ReviewMove(BaseModel):
    """
    One move of the game and what it did.
    """

    change: MoveEvent
    """
    the move as a protocol-2 move event: apply it as the websocket's
    """
    notation: Annotated[str, Field(title="Notation")]
    """
    the move in the text notation, e.g. `a1-b1` or `c5`
    """
    ply: Annotated[int, Field(title="Ply")]
    """
    1 for the first move
    """
    scores: Annotated[tuple[int, int], Field(title="Scores")]
    """
    the scores after this move
    """
    seat: Annotated[Literal[0, 1], Field(title="Seat")]
    to_move: Annotated[Literal[0, 1], Field(title="To Move")]
    """
    whose turn it is after this move
    """


class RoomSnapshot(BaseModel):
    """
    Everything needed to draw a room.
    """

    board: Annotated[BoxesBoard | DotsBoard, Field(discriminator="game", title="Board")]
    computer_seat: Annotated[Literal[0, 1] | None, Field(title="Computer Seat")] = None
    daily: Annotated[str | None, Field(title="Daily")] = None
    """
    UTC date of the daily board, if any
    """
    expires_in_seconds: Annotated[int | None, Field(title="Expires In Seconds")]
    """
    seconds before the room is deleted unless something happens; null: never
    """
    game: Annotated[Literal["boxes", "dots"], Field(title="Game")]
    game_number: Annotated[int, Field(title="Game Number")]
    """
    1 for the first game in this room, +1 per new game
    """
    id: Annotated[str, Field(title="Id")]
    level: Annotated[Literal["easy", "normal", "hard"] | None, Field(title="Level")]
    """
    computer level (computer rooms), else null
    """
    mode: Annotated[Literal["computer", "local", "live", "correspondence"], Field(title="Mode")]
    move_count: Annotated[int, Field(title="Move Count")]
    """
    moves played in this game
    """
    rated: Annotated[bool | None, Field(title="Rated")] = False
    """
    its games count for the bots' ladder (absent: no)
    """
    requests: Annotated[list[PendingRequestView], Field(title="Requests")]
    seats: Annotated[list[SeatView], Field(title="Seats")]
    spectators: Annotated[int, Field(ge=0, title="Spectators")]
    """
    spectator websockets watching now
    """
    status: Status
    time_control: TimeControlView | None = None
    """
    the room's clocks; null: none
    """
    version: Annotated[int, Field(title="Version")]
    """
    increases by one with every change of the room
    """


class RoomStateResponse(BaseModel):
    """
    The room; ``you`` is filled when a valid seat token was sent.
    """

    state: RoomSnapshot
    you: YourSeat | None = None


class SeatGrant(BaseModel):
    """
    A seat you hold. Keep ``token`` secret: it is the only key to the seat.
    """

    invite_code: Annotated[str | None, Field(title="Invite Code")]
    """
    friend rooms: the code a guest joins with
    """
    invite_url: Annotated[str | None, Field(title="Invite Url")]
    """
    friend rooms: the link to send to a friend
    """
    role: Annotated[Literal["player", "spectator"], Field(title="Role")]
    room_id: Annotated[str, Field(title="Room Id")]
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")]
    """
    null: you watch as a spectator
    """
    state: RoomSnapshot
    token: Annotated[str | None, Field(title="Token")]
    """
    seat token; send as `Authorization: Bearer …`
    """


class AckMessage(BaseModel):
    """
    Your command was done (or had been: ``duplicate``). ``version``: the room's version
    after it; every event up to it was sent on this socket before the ack. A hint comes
    back in ``hint``, line values in ``line_values``.
    """

    duplicate: Annotated[bool | None, Field(title="Duplicate")] = False
    """
    this move_id had been applied; nothing was done now
    """
    hint: HintView | None = None
    line_values: LineValuesView | None = None
    move_id: Annotated[MoveId | None, Field(title="Move Id")] = None
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    ref: Annotated[str | None, Field(title="Ref")] = None
    room: Annotated[str, Field(title="Room")]
    type: Annotated[Literal["ack"], Field(title="Type")] = "ack"
    version: Annotated[int, Field(title="Version")]


class ActionResult(BaseModel):
    """
    Result of a move or action: the room version after it (read the changes from the
    events, or the room).
    """

    duplicate: Annotated[bool | None, Field(title="Duplicate")] = False
    """
    this move_id was already applied
    """
    hint: HintView | None = None
    """
    for the hint action
    """
    line_values: LineValuesView | None = None
    """
    for the line_values action (left out otherwise)
    """
    version: Annotated[int, Field(title="Version")]


class AnalysisView(BaseModel):
    """
    A game's analysis, as far as it has gone (poll until `status` is not `running`).
    """

    done: Annotated[int, Field(title="Done")]
    """
    positions analysed
    """
    game: Annotated[Literal["boxes", "dots"], Field(title="Game")]
    id: Annotated[str, Field(title="Id")]
    """
    the analysis id (the same record always gets the same id)
    """
    players: Annotated[list[PlayerSummary], Field(title="Players")]
    """
    Dots and Boxes: each seat's judged moves, mistakes, blunders and accuracy over the positions analysed so far
    """
    positions: Annotated[list[PositionAnalysis], Field(title="Positions")]
    """
    analysed positions, by ply: all of them, or with `since` above 0 only those analysed after the first `since` (what a poll asking `?since=` lacks)
    """
    since: Annotated[int | None, Field(title="Since")] = 0
    """
    how many analysed positions (in the order they were analysed) the reply leaves out: 0 (all), or the poll's `since` when the server still has them
    """
    status: Annotated[Literal["running", "done", "failed"], Field(title="Status")]
    total: Annotated[int, Field(title="Total")]
    """
    positions to analyse: one before each move
    """


ClientMessage = TypeAliasType(
    "ClientMessage",
    Annotated[
        Hello
        | MakeMove
        | OfferMessage
        | AcceptMessage
        | DeclineMessage
        | ResignMessage
        | UndoMessage
        | SetLevelMessage
        | NewGameMessage
        | Hint
        | LineValues
        | Ping
        | Sync,
        Field(discriminator="type"),
    ],
)


class EventMessage(BaseModel):
    """
    A room change; ``version`` is the version it leads to. Apply it if ``version`` is one
    more than yours, drop it if it is not more; if it is further ahead, send ``sync``.
    """

    event: Annotated[
        MoveEvent
        | JoinedEvent
        | RequestedEvent
        | DeclinedEvent
        | NewBoardEvent
        | EndedEvent
        | LevelEvent,
        Field(discriminator="kind", title="Event"),
    ]
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    room: Annotated[str, Field(title="Room")]
    status: Status
    type: Annotated[Literal["event"], Field(title="Type")] = "event"
    version: Annotated[int, Field(title="Version")]


class EventsPage(BaseModel):
    """
    The events after ``since``, oldest first, or (when some were no longer kept)
    ``snapshot``: the room as it is now.
    """

    events: Annotated[list[EventMessage], Field(title="Events")]
    snapshot: RoomSnapshot | None
    version: Annotated[int, Field(title="Version")]


class GameReview(BaseModel):
    """
    A whole game to step through: the starting board and every move's change.
    """

    daily: Annotated[date_aliased | None, Field(title="Daily")] = None
    final: Annotated[BoxesBoard | DotsBoard, Field(discriminator="game", title="Final")]
    """
    the board at the end: the last move's board, and for a Dots game ended by grounding the marks it lost (`ungrounded`)
    """
    finished_at: Annotated[AwareDatetime | None, Field(title="Finished At")]
    game: Annotated[Literal["boxes", "dots"], Field(title="Game")]
    id: Annotated[str | None, Field(title="Id")]
    """
    the finished game's id; null for an imported record
    """
    level: Annotated[Literal["easy", "normal", "hard"] | None, Field(title="Level")] = None
    """
    computer level, if known
    """
    mode: Annotated[
        Literal["computer", "local", "live", "correspondence"] | None,
        Field(title="Mode"),
    ]
    """
    null for an imported record
    """
    moves: Annotated[list[ReviewMove], Field(title="Moves")]
    notation: Annotated[str, Field(title="Notation")]
    """
    the record in the text notation
    """
    record: Annotated[dict[str, Any], Field(title="Record")]
    """
    the JSON record
    """
    result: ReviewResult | None
    """
    null while the recorded game goes on
    """
    seats: Annotated[list[ReviewSeat], Field(title="Seats")]
    size: Annotated[tuple[int, int], Field(title="Size")]
    """
    Dots and Boxes: [cols, rows] of boxes; Dots: [width, height] of points
    """
    start: Annotated[BoxesBoard | DotsBoard, Field(discriminator="game", title="Start")]
    """
    the board before the first move (as in `welcome`)
    """


class ResyncMessage(BaseModel):
    """
    Reply to ``sync`` (or sent unasked when this socket missed events): the events after
    the version you hold, or a ``snapshot`` when they are not all kept (or you hold none).
    """

    events: Annotated[list[EventMessage], Field(title="Events")]
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    ref: Annotated[str | None, Field(title="Ref")] = None
    room: Annotated[str, Field(title="Room")]
    snapshot: RoomSnapshot | None
    type: Annotated[Literal["resync"], Field(title="Type")] = "resync"
    version: Annotated[int, Field(title="Version")]


class WelcomeMessage(BaseModel):
    """
    Reply to ``hello``: your seat (null: spectator), who is connected, and either the
    events since the version you sent (``snapshot`` null) or a ``snapshot``.
    """

    clock: ClockView | None = None
    """
    rooms with clocks: the clocks as they are now (the statuses of missed events tell them as they were when each was written)
    """
    events: Annotated[list[EventMessage], Field(title="Events")]
    """
    missed events, oldest first
    """
    protocol: Annotated[Literal[3], Field(title="Protocol")] = 3
    role: Annotated[Literal["player", "spectator"], Field(title="Role")]
    room: Annotated[str, Field(title="Room")]
    seat: Annotated[Literal[0, 1] | None, Field(title="Seat")]
    seats: Annotated[list[SeatView], Field(title="Seats")]
    snapshot: RoomSnapshot | None
    spectators: Annotated[int, Field(title="Spectators")]
    type: Annotated[Literal["welcome"], Field(title="Type")] = "welcome"
    version: Annotated[int, Field(title="Version")]


ServerMessage = TypeAliasType(
    "ServerMessage",
    Annotated[
        WelcomeMessage
        | EventMessage
        | ResyncMessage
        | PresenceMessage
        | AckMessage
        | PongMessage
        | ErrorMessage,
        Field(discriminator="type"),
    ],
)
