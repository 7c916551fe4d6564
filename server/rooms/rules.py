"""The rules of rooms as a pure reducer: ``decide(room, version, seat, command)`` says what a
command does to a room (a :class:`Change`), that it is refused (a :class:`Refusal`), or that
there is nothing to do (``None``); :func:`allowed` says what each seat may ask for now.

The rules of the games themselves belong to ``core``; this module only asks it. Nothing here
does I/O, knows about Redis or sockets, or sees a wire schema.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from core.errors import TetradError
from core.game import Player
from server.refusals import Refusal
from server.rooms import daily, games
from server.rooms.clock import Clock
from server.rooms.model import (
    FRIEND_MODES,
    ONE_HUMAN_MODES,
    Accept,
    Action,
    AnyGame,
    Change,
    Command,
    Decision,
    Decline,
    Declined,
    Ended,
    Event,
    Join,
    Joined,
    Level,
    LevelChanged,
    Mode,
    MoveMade,
    NewGame,
    Offer,
    Opening,
    PendingRequest,
    PlayMove,
    PreviousGame,
    Requested,
    RequestKind,
    Resign,
    Restarted,
    Room,
    RoomOptions,
    SeatRecord,
    SetLevel,
    Undo,
    Undone,
)


def new_room(asked: RoomOptions, opening: Opening) -> Room | Refusal:
    """A room as asked for: the creator takes a seat (the first one unless they asked to
    move second, or by the coin for "random"); against the computer it takes the other; on
    one device the creator holds both. The daily board is a computer room at a fixed level,
    the human first, on the day's start lines. A room continuing a recorded game starts from
    its position (its moves are the history; a new game starts from the record's start), and
    "first" there means who moves first from that position."""
    if asked.position is not None:
        refused = _refuse_position(asked)
        if refused is not None:
            return refused
    refused = _refuse_time_control(asked)
    if refused is not None:
        return refused
    try:
        if asked.position is not None:
            game = asked.position
        elif asked.daily:
            options: dict[str, Any] = {"rows": daily.DAILY_ROWS, "cols": daily.DAILY_COLS}
            empty = games.new_game("boxes", options)
            lines = [empty.move_from_json(line) for line in daily.daily_lines(opening.today)]
            game = games.new_game("boxes", {**options, "lines": lines})
        else:
            game = games.new_game(asked.game, asked.options)
    except Refusal as refusal:
        return refusal
    if asked.daily:
        mode: Mode = "computer"
        level: Level | None = daily.DAILY_LEVEL
        first = "me"
    else:
        mode = asked.mode or ("live" if asked.game == "boxes" else "correspondence")
        level = asked.level if mode == "computer" else None
        first = asked.first or ("random" if mode == "correspondence" else "me")
    creator: Player = opening.coin if first == "random" else 0 if first == "me" else 1
    if asked.position is not None and first != "random":
        to_move = game.to_move
        creator = to_move if first == "me" else other(to_move)
    holder = asked.holder
    seats = [SeatRecord("human"), SeatRecord("human")]
    seats[creator] = SeatRecord("human", opening.token_hash, holder.name, holder.bot)
    if mode == "computer":
        seats[other(creator)] = SeatRecord("computer")
    elif mode == "local":
        seats[other(creator)] = SeatRecord("human", opening.token_hash, holder.name)
    friend = mode in FRIEND_MODES
    guest = asked.guest
    if guest is not None:
        if not friend or opening.guest_token_hash is None:
            return Refusal("invalid_options", "only a room with a friend has a guest")
        seats[other(creator)] = SeatRecord("human", opening.guest_token_hash, guest.name, guest.bot)
    if asked.rated and not _may_be_rated(mode, seats[0], seats[1]):
        return Refusal("invalid_options", "rated games are a bot's, against a bot or the computer")
    return Room(
        id=opening.room_id,
        game_name="boxes" if asked.game == "boxes" or asked.daily else "dots",
        mode=mode,
        seats=(seats[0], seats[1]),
        setup=_setup(game),
        game=game,
        level=level,
        daily=opening.today.isoformat() if asked.daily else None,
        daily_player=asked.daily_player if asked.daily else None,
        invite_code=opening.invite_code if friend else None,
        ttl_seconds=opening.correspondence_ttl if mode == "correspondence" else opening.room_ttl,
        created_at=opening.now,
        clock=None if asked.time_control is None else Clock.start(asked.time_control),
        rated=asked.rated,
    )


def _may_be_rated(mode: Mode, first: SeatRecord, second: SeatRecord) -> bool:
    """The ladder rates bots: a bot against the computer, or two bots against each other."""
    if mode == "computer":
        return first.bot or second.bot
    return mode in FRIEND_MODES and first.bot and second.bot


RATED_COMMANDS = (PlayMove, Join, Resign)
"""A rated game is played out: moves and resigning, nothing taken back or started again."""


def _refuse_time_control(asked: RoomOptions) -> Refusal | None:
    """Clocks are for friend rooms: a time for the game in live rooms, a time for every move
    in correspondence rooms."""
    control = asked.time_control
    if control is None:
        return None
    mode = asked.mode or ("live" if asked.game == "boxes" else "correspondence")
    if asked.daily or mode not in FRIEND_MODES:
        return Refusal("invalid_options", "clocks exist only in rooms with a friend")
    if control.per_move != (mode == "correspondence"):
        wanted = "days per move" if mode == "correspondence" else "minutes and an increment"
        return Refusal("invalid_options", f"a {mode} room's clock takes {wanted}")
    return None


def _refuse_position(asked: RoomOptions) -> Refusal | None:
    """Why a room may not continue the game ``asked.position``, or None if it may."""
    assert asked.position is not None
    if asked.daily or asked.mode not in ONE_HUMAN_MODES:
        return Refusal("invalid_options", "only computer and local rooms continue a game")
    if asked.position.is_over:
        return Refusal("bad_record", "the game is over at this position")
    return None


def _setup(game: AnyGame) -> dict[str, Any]:
    """The record of the position ``game`` started from (its start, without its moves)."""
    record = game.to_json()
    record.pop("end", None)
    record["moves"] = []
    return record


def other(seat: Player) -> Player:
    """The seat across the board."""
    return 1 if seat == 0 else 0


def decide(
    room: Room, version: int, seat: Player, command: Command, *, now: float = 0.0
) -> Decision:
    """What ``command`` from ``seat`` does to ``room`` (at ``version``), at the time ``now``
    (seconds since the epoch; the clocks of a room with a time control follow it)."""
    if room.rated and not isinstance(command, RATED_COMMANDS):
        return Refusal("not_allowed", "a rated game allows only moves and resigning")
    if isinstance(command, PlayMove):
        return _play(room, version, seat, command, now)
    if isinstance(command, Join):
        return _join(room, command)
    if isinstance(command, Offer):
        return _offer(room, seat, command.kind, now)
    if isinstance(command, Accept):
        if (command.kind, other(seat)) not in _pending(room.requests):
            return Refusal("no_request", f"the other player has not asked to {command.kind}")
        return _offer(room, seat, command.kind, now)
    if isinstance(command, Decline):
        return _decline(room, seat, command.kind)
    if isinstance(command, Resign):
        return _resign(room, seat, now)
    if isinstance(command, Undo):
        return _undo(room, seat)
    if isinstance(command, SetLevel):
        return _set_level(room, command)
    if isinstance(command, NewGame):
        return _new_game(room, command)
    raise AssertionError(f"unknown command {command!r}")


def allowed(room: Room, seat: Player) -> frozenset[Action]:
    """What ``seat`` may ask for besides a move, as the rules below decide it."""
    if room.seats[seat].kind == "computer":
        return frozenset()
    if room.rated:
        return frozenset() if room.game.is_over else frozenset({"resign"})
    if room.mode in FRIEND_MODES:
        may_take_back = _refuse_take_back(room, seat) is None
        return _allowed_with_a_friend(
            seat, room.game.is_over, room.guest_joined, room.requests, may_take_back
        )
    game = room.game
    over = game.is_over
    actions: set[Action] = {"new_game"}
    if not over:
        actions.add("resign")
    if not room.daily:
        if _undo_point(room, seat) is not None:
            actions.add("undo")
        if refuse_hint(room, seat) is None:
            actions.add("hint")
        if room.mode == "computer":
            actions.add("set_level")
    if room.mode == "local" and not over:
        actions.add("offer_end")
    return frozenset(actions)


@functools.lru_cache(maxsize=256)
def _allowed_with_a_friend(
    seat: Player,
    over: bool,
    guest_joined: bool,
    requests: tuple[PendingRequest, ...],
    may_take_back: bool,
) -> frozenset[Action]:
    """What ``seat`` of a friend room may ask for: it follows from these alone (remembered,
    since every move of a friend room asks again)."""
    actions: set[Action] = set()
    if not over:
        actions.add("resign")
    pending = _pending(requests)
    kinds: tuple[RequestKind, ...] = ("restart", "end", "takeback")
    for kind in kinds:
        theirs = (kind, other(seat)) in pending
        mine = (kind, seat) in pending
        if theirs:
            actions.add(_ACCEPT[kind])
        if theirs or mine:
            actions.add(_DECLINE[kind])
    if may_take_back and not pending & {("takeback", 0), ("takeback", 1)}:
        actions.add("offer_takeback")
    if ("restart", seat) not in pending and ("restart", other(seat)) not in pending:
        actions.add("offer_restart")
    if not over and guest_joined and not pending & {("end", 0), ("end", 1)}:
        actions.add("offer_end")
    return frozenset(actions)


_ACCEPT: dict[RequestKind, Action] = {
    "restart": "accept_restart",
    "end": "accept_end",
    "takeback": "accept_takeback",
}
_DECLINE: dict[RequestKind, Action] = {
    "restart": "decline_restart",
    "end": "decline_end",
    "takeback": "decline_takeback",
}


def refuse_hint(room: Room, seat: Player) -> Refusal | None:
    """Why ``seat`` may not ask for a hint now, or None if it may."""
    if not room.has_one_human:
        return Refusal("not_allowed", "hints exist only against the computer and on one device")
    if room.daily:
        return Refusal("not_allowed", "the daily board has no hints")
    if room.game.is_over:
        return Refusal("game_over", "the game is over")
    if room.mode == "computer" and room.game.to_move != seat:
        return Refusal("not_your_turn", "the computer is to move")
    return None


def refuse_line_values(room: Room, seat: Player) -> Refusal | None:
    """Why ``seat`` may not ask what the lines of the position are worth now, or None if it
    may: a practice aid of Dots and Boxes games against the computer, never of a game that
    counts (the daily board, a rated game)."""
    if room.mode != "computer" or room.rated:
        return Refusal("not_allowed", "line values exist only in practice against the computer")
    if room.daily:
        return Refusal("not_allowed", "the daily board has no line values")
    if room.game_name != "boxes":
        return Refusal("not_allowed", "line values exist only in Dots and Boxes")
    if room.game.is_over:
        return Refusal("game_over", "the game is over")
    if room.game.to_move != seat:
        return Refusal("not_your_turn", "the computer is to move")
    return None


# -- moves ------------------------------------------------------------------------------


def time_out(room: Room, now: float) -> Change | None:
    """The game is lost by the player whose clock has run out at ``now``, if one has."""
    clock = room.clock
    loser = None if clock is None or room.game.is_over else clock.out_of_time(now)
    if clock is None or loser is None:
        return None
    return Change(
        replace(room, game=room.game.lose_on_time(loser), requests=(), clock=clock.stopped(now)),
        (Ended("time", loser),),
    )


def _play(room: Room, version: int, seat: Player, command: PlayMove, now: float) -> Decision:
    game = room.game
    if command.version is not None and command.version != version:
        return Refusal(
            "stale_version", f"the room is at version {version}, not {command.version}",
            version=version,
        )  # fmt: skip
    if game.is_over:
        return Refusal("game_over", "the game is over; offer a restart for a new one")
    actor = game.to_move if room.mode == "local" else seat
    if game.to_move != actor:
        return Refusal("not_your_turn", f"it is seat {game.to_move}'s turn")
    try:
        after = game.play(command.move)
    except TetradError as error:
        return Refusal.of(error)
    require_present: Player | None = None
    if room.mode == "live":
        require_present = other(seat)
        if not room.seats[require_present].taken:
            return Refusal(
                "opponent_offline", "nobody has joined yet; a live move needs both players",
                seat=require_present,
            )  # fmt: skip
    cancelled: tuple[Event, ...] = tuple(Declined(r.kind, None) for r in room.requests)
    event = MoveMade(actor, command.move, command.move_id)
    clock = room.clock
    if clock is not None:
        over = after.is_over
        clock = clock.stopped(now) if over else clock.after_move(actor, after.to_move, now)
    return Change(
        room.with_game(after, clock),
        (*cancelled, event),
        history="append",
        move_id=command.move_id,
        require_present=require_present,
    )


# -- seats and requests -------------------------------------------------------------------


def _join(room: Room, command: Join) -> Decision:
    for index, seat in enumerate(room.seats):
        if seat.kind == "human" and seat.token_hash is None:
            taker: Player = 0 if index == 0 else 1
            record = SeatRecord("human", command.token_hash, command.name)
            seats = _with_seat(room.seats, taker, record)
            return Change(replace(room, seats=seats), (Joined(taker),))
    return None


def _pending(requests: tuple[PendingRequest, ...]) -> set[tuple[RequestKind, Player]]:
    return {(request.kind, request.seat) for request in requests}


def _offer(room: Room, seat: Player, kind: RequestKind, now: float) -> Decision:
    """Ask for a restart (friend rooms), to take back your last move (friend rooms) or an end
    by agreement; asking for what the other player already asked for accepts it. While the
    guest seat is free, a restart happens at once."""
    game = room.game
    if kind == "takeback":
        if ("takeback", other(seat)) in _pending(room.requests):
            return _take_back(room, other(seat), now)
        refused = _refuse_take_back(room, seat)
        if refused is not None:
            return refused
    if kind == "restart" and not room.is_friend_room:
        return Refusal("not_allowed", "against the computer and on one device, start a new game")
    if kind == "end" and game.is_over:
        return Refusal("game_over", "the game is already over")
    if kind == "restart" and not room.guest_joined:
        return _restart(room)
    if kind == "end" and room.mode == "computer":
        return Refusal("not_allowed", "against the computer, resign or start a new game")
    if kind == "end" and not room.is_friend_room:
        return _end_by_agreement(room)
    if kind == "end" and not room.guest_joined:
        return Refusal("not_allowed", "nobody has joined yet")
    pending = _pending(room.requests)
    if (kind, other(seat)) in pending:
        return _restart(room) if kind == "restart" else _end_by_agreement(room, now)
    if (kind, seat) in pending:
        return None
    requests = (*room.requests, PendingRequest(kind, seat))
    return Change(replace(room, requests=requests), (Requested(kind, seat),))


def _decline(room: Room, seat: Player, kind: RequestKind) -> Decision:
    """Decline the other player's request of ``kind``, or withdraw your own."""
    if not any(request.kind == kind for request in room.requests):
        return Refusal("no_request", f"there is no pending {kind} request")
    requests = tuple(request for request in room.requests if request.kind != kind)
    return Change(replace(room, requests=requests), (Declined(kind, seat),))


def _resign(room: Room, seat: Player, now: float) -> Decision:
    """The resigning seat loses at once (on one device: the player to move)."""
    game = room.game
    if game.is_over:
        return Refusal("game_over", "the game is already over")
    loser = game.to_move if room.mode == "local" else seat
    clock = None if room.clock is None else room.clock.stopped(now)
    return Change(
        replace(room, game=game.resign(loser), requests=(), clock=clock),
        (Ended("resignation", loser),),
    )


def _end_by_agreement(room: Room, now: float = 0.0) -> Change:
    """Both players agreed: the game ends where it stands."""
    clock = None if room.clock is None else room.clock.stopped(now)
    return Change(
        replace(room, game=room.game.end_by_agreement(), requests=(), clock=clock),
        (Ended("agreement", None),),
    )


def _refuse_take_back(room: Room, seat: Player) -> Refusal | None:
    """Why ``seat`` may not ask to take its last move back, or None if it may: in a friend
    room whose guest has joined, while the game goes on, once the seat has moved."""
    if not room.is_friend_room:
        return Refusal("not_allowed", "against the computer and on one device, use undo")
    if room.game.is_over:
        return Refusal("game_over", "the game is over")
    if not room.guest_joined:
        return Refusal("not_allowed", "nobody has joined yet")
    if room.game.last_move_by(seat) is None:
        return Refusal("not_allowed", "you have no move to take back in this game")
    return None


def _take_back(room: Room, asker: Player, now: float) -> Change:
    """The other player agreed: ``asker``'s last move goes, with every move after it; the
    clocks run for whoever is to move then."""
    keep = room.game.last_move_by(asker)
    assert keep is not None
    moves = room.game.moves
    game = games.replay_moves(room.setup, moves[:keep])
    clock = None if room.clock is None else room.clock.switched(game.to_move, now)
    return Change(
        replace(room, game=game, requests=(), clock=clock),
        (Undone(asker, len(moves) - keep),),
        history="rewrite",
    )


def _restart(room: Room, seats: tuple[SeatRecord, SeatRecord] | None = None) -> Change:
    """A new game from the room's starting position; seats and colours stay unless given.
    Against the computer and on one device the replaced game is kept for undo."""
    previous = room.previous
    if room.has_one_human and room.game.moves:
        previous = PreviousGame(room.game_number, room.seats, room.game)
    number = room.game_number + 1
    restarted = replace(
        room,
        game=games.from_record(room.setup),
        game_number=number,
        seats=seats or room.seats,
        requests=(),
        previous=previous,
        clock=None if room.clock is None else Clock.start(room.clock.control),
    )
    return Change(restarted, (Restarted(number),), history="rewrite")


def _new_game(room: Room, command: NewGame) -> Decision:
    """Computer and local rooms: a new game now; ``first`` says who moves first in it."""
    if room.is_friend_room:
        return Refusal("not_allowed", "in friend rooms, offer a restart instead")
    seats = room.seats
    if command.first is not None and room.mode == "computer":
        human_seat = 0 if command.first == "me" else 1
        human = next(seat for seat in room.seats if seat.kind == "human")
        computer = SeatRecord("computer")
        seats = (human, computer) if human_seat == 0 else (computer, human)
    return _restart(room, seats)


def _set_level(room: Room, command: SetLevel) -> Decision:
    if room.mode != "computer":
        return Refusal("not_allowed", "only computer rooms have a level")
    if room.daily:
        return Refusal("not_allowed", "the daily board is always played at the same level")
    if room.level == command.level:
        return None
    return Change(replace(room, level=command.level), (LevelChanged(command.level),))


# -- undo -------------------------------------------------------------------------------


def _undo_point(room: Room, seat: Player) -> int | None:
    """How many moves of the current game an undo by ``seat`` keeps; -1 brings back the game
    a new game replaced; None: nothing to take back."""
    outcome = room.game.outcome()
    if outcome is not None and outcome.reason in ("resignation", "agreement"):
        return None
    if room.mode == "local":
        keep = len(room.game.moves) - 1
    else:
        mine = room.game.last_move_by(seat)
        keep = -1 if mine is None else mine
    if keep >= 0:
        return keep
    return -1 if room.previous is not None else None


def _undo(room: Room, seat: Player) -> Decision:
    """Against the computer: take back your last move and the computer's replies; on one
    device: the last move. Right after a new game, undo brings the replaced game back."""
    if not room.has_one_human:
        return Refusal("not_allowed", "undo exists only against the computer and on one device")
    if room.daily:
        return Refusal("not_allowed", "the daily board has no undo")
    outcome = room.game.outcome()
    if outcome is not None and outcome.reason in ("resignation", "agreement"):
        return Refusal("game_over", "a game ended by resignation or agreement stays ended")
    keep = _undo_point(room, seat)
    if keep is None:
        return Refusal("not_allowed", "there is no move of yours to take back")
    if keep < 0:
        previous = room.previous
        assert previous is not None
        restored = replace(
            room,
            game=previous.game,
            game_number=previous.game_number,
            seats=previous.seats,
            requests=(),
            previous=None,
        )
        return Change(restored, (Undone(seat, 0),), history="rewrite")
    moves = room.game.moves
    game = games.replay_moves(room.setup, moves[:keep])
    return Change(
        replace(room, game=game, requests=()),
        (Undone(seat, len(moves) - keep),),
        history="rewrite",
    )


def _with_seat(
    seats: tuple[SeatRecord, SeatRecord], index: Player, record: SeatRecord
) -> tuple[SeatRecord, SeatRecord]:
    return (record, seats[1]) if index == 0 else (seats[0], record)
