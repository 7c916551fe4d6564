"""A Python client of the tetrad game server (Dots and Boxes, Dots) and its bot runner.

    from tetrad_client import Tetrad

    async with Tetrad("http://127.0.0.1:8000") as tetrad:
        grant = await tetrad.create_room("boxes", mode="computer", rows=3, cols=3)
        async with tetrad.connect(grant.room_id, grant.token) as room:
            await room.until(lambda r: r.my_turn or r.over)
            await room.move(room.position().legal_moves()[0])

It speaks only the public API (docs/api.md): the models in :mod:`tetrad_client.models` are
generated from the server's /openapi.json. ``tetrad-bot`` (:mod:`tetrad_client.runner`)
plays whole games with an engine of yours (docs/bots.md).
"""

from tetrad_client.client import Tetrad, parse_invite
from tetrad_client.moves import Line, Move, Point, format_move, parse_move, wire_move
from tetrad_client.position import BoxesPosition, DotsPosition, Position, position_of
from tetrad_client.room import Pacer, Refused, Room, RoomClosed

__all__ = [
    "BoxesPosition",
    "DotsPosition",
    "Line",
    "Move",
    "Pacer",
    "Point",
    "Position",
    "Refused",
    "Room",
    "RoomClosed",
    "Tetrad",
    "format_move",
    "parse_invite",
    "parse_move",
    "position_of",
    "wire_move",
]
