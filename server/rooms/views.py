"""What clients see of a room: snapshots, event messages and presence, built from the domain
(:mod:`server.rooms.model`) into the wire protocol (:mod:`server.protocol`)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_json

from server.protocol import (
    PROTOCOL_VERSION,
    DeclinedEvent,
    EndedEvent,
    JoinedEvent,
    LevelEvent,
    NewBoardEvent,
    PendingRequestView,
    PresenceMessage,
    RequestedEvent,
    RoomEvent,
    RoomSnapshot,
    SeatView,
    Status,
)
from server.rooms import boards, rules
from server.rooms.model import (
    Action,
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


@dataclass(frozen=True, slots=True)
class Presence:
    """Who was connected (by seat) and how many watched when the room was read."""

    connected: tuple[bool, bool] = (False, False)
    spectators: int = 0


def seat_views(room: Room, presence: Presence) -> list[SeatView]:
    views = []
    for index, seat in enumerate(room.seats):
        if seat.kind == "computer":
            taken, online = True, True
        elif room.mode in ("local", "computer"):
            # One human: their presence is kept as seat 0 whichever seat they play.
            taken, online = True, presence.connected[0]
        else:
            taken, online = seat.token_hash is not None, presence.connected[index]
        views.append(
            SeatView(
                seat=0 if index == 0 else 1,
                kind=seat.kind,
                taken=taken,
                connected=online,
                colour="gold" if index == 0 else "coral",
            )
        )
    return views


def _json(data: dict[str, Any]) -> str:
    """Compact JSON, written by the serializer pydantic's models use."""
    return to_json(data).decode()


ALLOWED_KEPT = 4096
_allowed: OrderedDict[int, tuple[Room, tuple[list[Action], list[Action]]]] = OrderedDict()


def allowed_actions(room: Room) -> tuple[list[Action], list[Action]]:
    """What each seat may ask for, sorted so equal sets compare and print alike.

    Remembered per room value (by identity: a room is immutable), since a move asks for the
    room before it, which the previous move asked for as the room after it."""
    known = _allowed.get(id(room))
    if known is not None and known[0] is room:
        return known[1]
    allowed = (sorted(rules.allowed(room, 0)), sorted(rules.allowed(room, 1)))
    _allowed[id(room)] = (room, allowed)
    if len(_allowed) > ALLOWED_KEPT:
        _allowed.popitem(last=False)
    return allowed


def status(room: Room) -> Status:
    """The status of ``room``, with what each seat may do (for snapshots)."""
    return Status.model_validate(_status_json(room, allowed_actions(room)))


def _status_json(room: Room, allowed: tuple[list[Action], list[Action]] | None) -> dict[str, Any]:
    """The wire form of a :class:`~server.protocol.Status` as plain JSON data, in the
    model's field order and with its empty fields left out (see :func:`event_texts`)."""
    game = room.game
    found: dict[str, Any] = {"to_move": game.to_move, "scores": list(game.scores)}
    outcome = game.outcome()
    if outcome is not None:
        found["outcome"] = {"winner": outcome.winner, "reason": outcome.reason}
    if room.computer_to_move:
        found["thinking"] = True
    if allowed is not None:
        found["allowed"] = [list(allowed[0]), list(allowed[1])]
    return found


def snapshot(room: Room, version: int, presence: Presence, expires_in: int | None) -> RoomSnapshot:
    """Everything a client needs to draw ``room`` at ``version``."""
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
        requests=[PendingRequestView(kind=r.kind, seat=r.seat) for r in room.requests],
        move_count=len(room.game.moves),
        status=status(room),
        board=boards.board_view(room.game),
        expires_in_seconds=expires_in,
    )


def event_texts(
    before: Room, after: Room, events: tuple[Event, ...], first_version: int
) -> list[str]:
    """The JSON text of each of ``events`` (which took ``before`` to ``after``) as an
    :class:`~server.protocol.EventMessage`, one version each.

    Every message carries the status after the whole change; the last also carries what
    each seat may do, if that changed. The messages are written from plain data rather
    than through the models: one is made on every move, and the models cost more than the
    rest of the move's own work. The tests hold each text to the model's schema and field
    order (validating it and dumping it again gives the same text).
    """
    allowed = allowed_actions(after)
    changed = allowed != allowed_actions(before)
    last = len(events) - 1
    return [
        _json(
            {
                "protocol": PROTOCOL_VERSION,
                "room": after.id,
                "version": first_version + offset,
                "type": "event",
                "event": _event_json(before, after, event),
                "status": _status_json(after, allowed if offset == last and changed else None),
            }
        )
        for offset, event in enumerate(events)
    ]


def ack_text(
    room_id: str, version: int, ref: str | None, move_id: str | None, duplicate: bool
) -> str:
    """The JSON text of an :class:`~server.protocol.AckMessage` without a hint, written as
    event messages are (see :func:`event_texts`): every move is acknowledged."""
    ack: dict[str, Any] = {
        "protocol": PROTOCOL_VERSION,
        "room": room_id,
        "version": version,
        "type": "ack",
        "ref": ref,
    }
    if move_id is not None:
        ack["move_id"] = move_id
    ack["duplicate"] = duplicate
    return _json(ack)


def _event_json(before: Room, after: Room, event: Event) -> dict[str, Any]:
    if isinstance(event, MoveMade):
        return boards.move_event(after.game, event.seat, event.move, event.move_id)
    return _event_view(before, after, event).model_dump(mode="json")


def _event_view(before: Room, after: Room, event: Event) -> RoomEvent:
    if isinstance(event, Joined):
        return JoinedEvent(seat=event.seat)
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
