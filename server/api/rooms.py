"""Rooms: create, join, read, move, act, and events since a version."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Query, Request

from server.api.deps import BaseUrlDep, ClientAddressDep, RoomServiceDep, TokenDep
from server.api.schemas import (
    ActionResult,
    CreateRoom,
    ErrorBody,
    EventsPage,
    JoinRoom,
    MoveRequest,
    RoomStateResponse,
    SeatGrant,
    YourSeat,
)
from server.ws.hub import EventWaiter, Hub
from server.ws.protocol import MakeMove, RoomAction

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (400, 401, 403, 404, 409, 413, 429)
}
router = APIRouter(prefix="/api/rooms", tags=["rooms"], responses=ERRORS)
RoomId = Annotated[str, Path(max_length=32, description="room id")]


@router.post("", status_code=201, summary="Create a room")
async def create_room(
    rooms: RoomServiceDep,
    client: ClientAddressDep,
    base: BaseUrlDep,
    request: Annotated[CreateRoom, Body()],
) -> SeatGrant:
    return await rooms.create(request, client, base)


@router.post("/{room_id}/join", summary="Take the free seat with the invite code")
async def join_room(
    rooms: RoomServiceDep, token: TokenDep, base: BaseUrlDep, room_id: RoomId, body: JoinRoom
) -> SeatGrant:
    return await rooms.join(room_id, body.invite_code, token, base)


@router.get("/{room_id}", summary="The full state of a room")
async def read_room(
    rooms: RoomServiceDep, token: TokenDep, base: BaseUrlDep, room_id: RoomId
) -> RoomStateResponse:
    room, state = await rooms.state(room_id)
    seat = rooms.seat_of(room.doc, token)
    you = None
    if seat is not None:
        you = YourSeat(
            seat=seat,
            invite_code=room.doc.invite_code,
            invite_url=rooms.invite_url(room.doc, base),
        )
    return RoomStateResponse(state=state, you=you)


@router.post("/{room_id}/moves", summary="Make a move")
async def make_move(
    rooms: RoomServiceDep, token: TokenDep, room_id: RoomId, body: MoveRequest
) -> ActionResult:
    message = MakeMove(type="move", move=body.move, version=body.version, move_id=body.move_id)
    return await rooms.move(room_id, token, message)


@router.post("/{room_id}/actions", summary="Offer, accept, decline, resign, undo, hint…")
async def room_action(
    rooms: RoomServiceDep,
    token: TokenDep,
    room_id: RoomId,
    action: Annotated[RoomAction, Body()],
) -> ActionResult:
    return await rooms.act(room_id, token, action)


@router.get("/{room_id}/events", summary="Events after a version (optionally long-poll)")
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
            await rooms.load(room_id)
            await hub.join(waiter)
            subscribed = True
        events, complete, room = await rooms.events_since(room_id, since)
        if not events and complete and wait > 0:
            try:
                await asyncio.wait_for(waiter.arrived.wait(), timeout=wait)
            except TimeoutError:
                pass
            else:
                events, complete, room = await rooms.events_since(room_id, since)
    finally:
        if subscribed:
            await hub.leave(waiter)
    return EventsPage(
        version=room.version, events=events, complete=complete, state=rooms.room_view(room)
    )
