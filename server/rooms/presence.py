"""Publishing who is connected to a room and how many watch it."""

from __future__ import annotations

from server.protocol import encode
from server.rooms import views
from server.rooms.service import RoomService


async def publish_presence(service: RoomService, room_id: str) -> None:
    """Tell every socket of the room, on every process, who is connected now."""
    loaded, presence = await service.presence_of(room_id)
    message = views.presence_message(loaded.room, loaded.version, presence)
    await service.store.publish(room_id, "presence", loaded.version, encode(message))


async def publish_takeover(service: RoomService, room_id: str, seat: int, connection: str) -> None:
    """Ask whichever process holds ``seat`` on another connection to close it."""
    payload = f'{{"action":"takeover","seat":{seat},"connection":"{connection}"}}'
    await service.store.publish(room_id, "control", 0, payload)
