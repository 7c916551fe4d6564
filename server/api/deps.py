"""``Annotated`` dependencies shared by the routers.

All are ``async def``: FastAPI runs a plain ``def`` dependency in a worker thread, and the
hop to the thread pool and back cost more than these few lines of work."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from server.refusals import Refusal
from server.rooms.service import RoomService


async def get_rooms(request: Request) -> RoomService:
    rooms: RoomService = request.app.state.rooms
    return rooms


async def get_token(
    authorization: Annotated[
        str | None, Header(description="`Bearer <seat token>`", max_length=200)
    ] = None,
) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Refusal("bad_token", "send the seat token as `Authorization: Bearer <token>`")
    return token.strip()


async def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


async def base_url(request: Request) -> str:
    return str(request.base_url)


RoomServiceDep = Annotated[RoomService, Depends(get_rooms)]
TokenDep = Annotated[str | None, Depends(get_token)]
ClientAddressDep = Annotated[str, Depends(client_address)]
BaseUrlDep = Annotated[str, Depends(base_url)]
