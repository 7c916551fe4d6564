"""What clients see of a room: snapshots, event messages and presence, built from the domain
(:mod:`server.rooms.model`) into the wire protocol (:mod:`server.protocol`)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from core.game import Player
from server.protocol import (
    Allowed,
    ClockView,
    DeclinedEvent,
    EndedEvent,
    EventMessage,
    JoinedEvent,
    LevelEvent,
    NewBoardEvent,
    OutcomeView,
    PendingRequestView,
    PresenceMessage,
    RequestedEvent,
    RoomEvent,
    RoomSnapshot,
    SeatView,
    Status,
    TimeControlView,
    encode,
)
from server.rooms import boards, rules
from server.rooms.clock import Clock
from server.rooms.model import (
    Declined,
    Ended,
    Event,
    Joined,
    LevelChanged,
    MoveMade,
    Requested,
    Restarted,
    Room,
    Undone,
)

SEATS: tuple[Player, Player] = (0, 1)


@dataclass(frozen=True, slots=True)
class Presence:
    """Who was connected (by seat) and how many watched when the room was read."""

    connected: tuple[bool, bool] = (False, False)
    spectators: int = 0


def seat_views(room: Room, presence: Presence) -> tuple[SeatView, ...]:
    views = []
    for index, seat in zip(SEATS, room.seats, strict=True):
        if seat.kind == "computer":
            taken, online = True, True
        else:
            taken = room.has_one_human or seat.token_hash is not None
            online = presence.connected[room.presence_slot(index)]
        views.append(
            SeatView(
                seat=index,
                kind=seat.kind,
                taken=taken,
                connected=online,
                colour="gold" if index == 0 else "coral",
                name=seat.name,
                bot=seat.bot,
            )
        )
    return tuple(views)


ALLOWED_KEPT = 4096
_allowed: OrderedDict[int, tuple[Room, Allowed]] = OrderedDict()


def allowed_actions(room: Room) -> Allowed:
    """What each seat may ask for, sorted so equal sets compare and print alike.

    Remembered per room value (by identity: a room is immutable), since a move asks for the
    room before it, which the previous move asked for as the room after it."""
    known = _allowed.get(id(room))
    if known is not None and known[0] is room:
        return known[1]
    allowed = (tuple(sorted(rules.allowed(room, 0))), tuple(sorted(rules.allowed(room, 1))))
    _allowed[id(room)] = (room, allowed)
    if len(_allowed) > ALLOWED_KEPT:
        _allowed.popitem(last=False)
    return allowed


def status(room: Room, allowed: Allowed | None, now: float) -> Status:
    """The status of ``room`` at the time ``now``; ``allowed`` is left out when None (it did
    not change)."""
    game = room.game
    outcome = game.outcome()
    clock = room.clock
    return Status(
        to_move=game.to_move,
        scores=game.scores,
        outcome=None
        if outcome is None
        else OutcomeView(
            winner=outcome.winner,
            reason=outcome.reason,
        ),
        thinking=room.computer_to_move,
        allowed=allowed,
        clock=None if clock is None else clock_view(clock, now),
    )


def clock_view(clock: Clock, now: float) -> ClockView:
    left = clock.left_at(now)
    return ClockView(left_ms=(round(left[0] * 1000), round(left[1] * 1000)), running=clock.running)


def snapshot(
    room: Room, version: int, presence: Presence, expires_in: int | None, now: float
) -> RoomSnapshot:
    """Everything a client needs to draw ``room`` at ``version``, at the time ``now``."""
    control = None if room.clock is None else room.clock.control
    return RoomSnapshot(
        id=room.id,
        game=room.game_name,
        mode=room.mode,
        version=version,
        game_number=room.game_number,
        level=room.level,
        daily=room.daily,
        computer_seat=room.computer_seat,
        seats=seat_views(room, presence),
        spectators=presence.spectators,
        requests=tuple(PendingRequestView(kind=r.kind, seat=r.seat) for r in room.requests),
        move_count=len(room.game.moves),
        status=status(room, allowed_actions(room), now),
        board=boards.board_view(room.game),
        expires_in_seconds=expires_in,
        rated=room.rated,
        time_control=None
        if control is None
        else TimeControlView(
            initial_seconds=control.initial,
            increment_seconds=control.increment,
            per_move=control.per_move,
        ),
    )


def event_texts(
    before: Room, after: Room, events: tuple[Event, ...], first_version: int, now: float
) -> list[str]:
    """The text of each of ``events`` (which took ``before`` to ``after`` at the time
    ``now``) as an :class:`~server.protocol.EventMessage`, one version each. Every message
    carries the status after the whole change; the last also carries what each seat may do,
    if that changed."""
    allowed = allowed_actions(after)
    changed = allowed != allowed_actions(before)
    last = len(events) - 1
    return [
        encode(
            EventMessage(
                room=after.id,
                version=first_version + offset,
                event=_event_view(after, event),
                status=status(after, allowed if offset == last and changed else None, now),
            )
        )
        for offset, event in enumerate(events)
    ]


def _event_view(after: Room, event: Event) -> RoomEvent:
    if isinstance(event, MoveMade):
        return boards.move_event(after.game, event.seat, event.move, event.move_id)
    if isinstance(event, Joined):
        holder = after.seats[event.seat]
        return JoinedEvent(seat=event.seat, name=holder.name, bot=holder.bot)
    if isinstance(event, Requested):
        return RequestedEvent(request=event.kind, seat=event.seat)
    if isinstance(event, Declined):
        return DeclinedEvent(request=event.kind, seat=event.seat)
    if isinstance(event, Ended):
        return EndedEvent(reason=event.reason, seat=event.seat)
    if isinstance(event, LevelChanged):
        return LevelEvent(level=event.level)
    if isinstance(event, Restarted | Undone):
        return NewBoardEvent(
            kind="restarted" if isinstance(event, Restarted) else "undone",
            game_number=after.game_number,
            seat=event.seat if isinstance(event, Undone) else None,
            count=event.count if isinstance(event, Undone) else 0,
            computer_seat=after.computer_seat,
            move_count=len(after.game.moves),
            board=boards.board_view(after.game),
        )
    raise AssertionError(f"unknown event {event!r}")


def presence_message(room: Room, version: int, presence: Presence) -> PresenceMessage:
    return PresenceMessage(
        room=room.id,
        version=version,
        seats=seat_views(room, presence),
        spectators=presence.spectators,
    )
