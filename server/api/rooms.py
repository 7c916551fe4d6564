"""Rooms: create, join, read, move, act, and events since a version."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request

from server.api.bots import BotServiceDep
from server.api.deps import BaseUrlDep, ClientAddressDep, RoomServiceDep, TokenDep
from server.api.refusals import refusals
from server.api.schemas import (
    ActionResult,
    ClockOption,
    CreateBoxesRoom,
    CreateRoom,
    EventsPage,
    JoinRoom,
    MoveRequest,
    RoomStateResponse,
    SeatGrant,
    YourSeat,
)
from server.bots.accounts import TOKEN_PREFIX
from server.protocol import (
    Hint,
    LineValues,
    MakeMove,
    RoomAction,
    event_message_adapter,
    play_command,
)
from server.refusals import ErrorCode, Refusal
from server.review.records import game_name, position_at, read_record
from server.rooms.clock import TimeControl
from server.rooms.model import Holder, RoomOptions
from server.rooms.service import Done, Granted, RoomService
from server.ws.hub import EventWaiter, Hub

router = APIRouter(prefix="/api/rooms", tags=["rooms"])
RoomId = Annotated[str, Path(max_length=32, description="room id")]


def _grant(rooms: RoomService, granted: Granted, base: str) -> SeatGrant:
    room = granted.room
    player = granted.seat is not None
    return SeatGrant(
        room_id=room.id,
        seat=granted.seat,
        role="player" if player else "spectator",
        token=granted.token,
        invite_code=room.invite_code if player else None,
        invite_url=rooms.invite_url(room, base) if player else None,
        state=granted.snapshot,
    )


def _result(done: Done) -> ActionResult:
    return ActionResult(
        version=done.version,
        duplicate=done.duplicate,
        hint=done.hint,
        line_values=done.line_values,
    )


@router.post(
    "",
    status_code=201,
    summary="Create a room",
    responses=refusals(
        "bad_request",
        "invalid_options",
        "bad_record",
        "message_too_large",
        "rate_limited",
        "server_full",
        "unavailable",
    ),
)
async def create_room(
    rooms: RoomServiceDep,
    bots: BotServiceDep,
    token: TokenDep,
    client: ClientAddressDep,
    base: BaseUrlDep,
    request: Annotated[CreateRoom, Body()],
) -> SeatGrant:
    if isinstance(request, CreateBoxesRoom):
        options: dict[str, Any] = {"rows": request.rows, "cols": request.cols}
        daily, daily_player = request.daily, request.daily_player
    else:
        options = {"width": request.width, "height": request.height, "start": request.start}
        daily, daily_player = False, None
    position = None
    if request.from_ is not None:
        # Counted, then replayed off the event loop: a long record takes a while.
        await rooms.record_read_allowed(client)
        start = request.from_
        position = await asyncio.to_thread(
            lambda: position_at(read_record(start.record), start.ply)
        )
        if game_name(position) != request.game:
            raise Refusal("bad_record", f"the record is not a {request.game} game")
    bot = None if token is None or not token.startswith(TOKEN_PREFIX) else await bots.bot(token)
    if bot is not None:
        if request.mode not in (None, "computer") or position is not None or daily:
            raise Refusal("invalid_options", "a bot's own rooms are against the computer")
        granted = await bots.play_computer(
            bot, request.game, options, request.level, request.rated, request.first, client=client
        )
        return _grant(rooms, granted, base)
    if request.rated:
        raise Refusal("invalid_options", "rated games are for bots (send the bot's token)")
    asked = RoomOptions(
        holder=Holder(request.name),
        time_control=_time_control(request.clock),
        game=request.game,
        mode=request.mode,
        level=request.level,
        first=request.first,
        options=options,
        daily=daily,
        daily_player=daily_player,
        position=position,
    )
    return _grant(rooms, await rooms.create(asked, client), base)


def _time_control(option: ClockOption | None) -> TimeControl | None:
    if option is None:
        return None
    if (option.minutes is None) == (option.days_per_move is None):
        raise Refusal("invalid_options", "a clock has either minutes or days_per_move")
    if option.days_per_move is not None:
        return TimeControl(option.days_per_move * 86400.0, per_move=True)
    assert option.minutes is not None
    return TimeControl(option.minutes * 60, float(option.increment))


@router.post(
    "/{room_id}/join",
    summary="Take the free seat with the invite code",
    responses=refusals(
        "bad_request",
        "bad_token",
        "bad_invite",
        "room_not_found",
        "message_too_large",
        "unavailable",
    ),
)
async def join_room(
    rooms: RoomServiceDep, token: TokenDep, base: BaseUrlDep, room_id: RoomId, body: JoinRoom
) -> SeatGrant:
    return _grant(rooms, await rooms.join(room_id, body.invite_code, token, body.name), base)


@router.get(
    "/{room_id}",
    summary="The room as it is now",
    responses=refusals("bad_request", "bad_token", "room_not_found", "unavailable"),
)
async def read_room(
    rooms: RoomServiceDep, token: TokenDep, base: BaseUrlDep, room_id: RoomId
) -> RoomStateResponse:
    loaded, snapshot = await rooms.snapshot(room_id)
    seat = rooms.seat_in(loaded.room, token)  # the snapshot is a fresh read
    you = None
    if seat is not None:
        you = YourSeat(
            seat=seat,
            invite_code=loaded.room.invite_code,
            invite_url=rooms.invite_url(loaded.room, base),
        )
    return RoomStateResponse(state=snapshot, you=you)


MOVE_REFUSALS: tuple[ErrorCode, ...] = (
    "bad_request",
    "invalid_move",
    "bad_token",
    "room_not_found",
    "illegal_move",
    "not_your_turn",
    "opponent_offline",
    "stale_version",
    "move_id_reused",
    "game_over",
    "message_too_large",
    "rate_limited",
    "unavailable",
)


@router.post("/{room_id}/moves", summary="Make a move", responses=refusals(*MOVE_REFUSALS))
async def make_move(
    rooms: RoomServiceDep, token: TokenDep, room_id: RoomId, body: MoveRequest
) -> ActionResult:
    await rooms.rest_move_allowed(room_id, token)
    message = MakeMove(type="move", move=body.move, version=body.version, move_id=body.move_id)
    return _result(await rooms.execute(room_id, token, play_command(message)))


@router.post(
    "/{room_id}/actions",
    summary="Offer, accept, decline, resign, undo, hint, line values…",
    responses=refusals(
        "bad_request",
        "rate_limited",
        "bad_token",
        "not_allowed",
        "room_not_found",
        "not_your_turn",
        "no_request",
        "game_over",
        "message_too_large",
        "unavailable",
    ),
)
async def room_action(
    rooms: RoomServiceDep,
    token: TokenDep,
    room_id: RoomId,
    action: Annotated[RoomAction, Body()],
) -> ActionResult:
    if isinstance(action, Hint):
        return _result(await rooms.hint(room_id, token))
    if isinstance(action, LineValues):
        return _result(await rooms.line_values(room_id, token))
    return _result(await rooms.execute(room_id, token, action))


@router.get(
    "/{room_id}/events",
    summary="Events after a version (optionally long-poll)",
    responses=refusals("bad_request", "room_not_found", "unavailable"),
)
async def room_events(
    rooms: RoomServiceDep,
    request: Request,
    room_id: RoomId,
    since: Annotated[int, Query(ge=0)] = 0,
    wait: Annotated[float, Query(ge=0, le=30, description="seconds to wait for news")] = 0,
) -> EventsPage:
    hub: Hub = request.app.state.hub
    waiter = EventWaiter(room_id)
    subscribed = False
    try:
        if wait > 0:
            loaded = await rooms.load(room_id)
            waiter.computer_room = loaded.room.mode == "computer"
            waiter.clocked_room = loaded.room.clock is not None
            await hub.join(waiter)
            subscribed = True
        caught = await rooms.catch_up(room_id, since)
        if wait > 0 and caught.snapshot is None and not caught.events:
            try:
                await asyncio.wait_for(waiter.arrived.wait(), timeout=wait)
            except TimeoutError:
                pass
            else:
                caught = await rooms.catch_up(room_id, since)
    finally:
        if subscribed:
            await hub.leave(waiter)
    events = [event_message_adapter.validate_json(text) for text in caught.events]
    return EventsPage(version=caught.version, events=events, snapshot=caught.snapshot)
