"""Redis memory per finished 5×5 Dots and Boxes room (all 60 lines drawn), keys and events.

    .venv/bin/python bench/redis_room_memory.py --rooms 200

Needs Redis at 127.0.0.1:6379. Uses the room service directly (no HTTP) and reports the
average MEMORY USAGE of one room's keys, and the used_memory growth per room.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid

from redis.asyncio import Redis

from server.api.schemas import CreateBoxesRoom
from server.rooms.computer import ComputerPlayer
from server.rooms.service import RoomService
from server.settings import Settings
from server.store.room_store import RoomStore
from server.ws.protocol import LineMove, MakeMove


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=200)
    args = parser.parse_args()
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    redis = Redis.from_url("redis://127.0.0.1:6379/0")
    settings = Settings(
        redis_url="unused", key_prefix=prefix, data_dir=tempfile.mkdtemp(),
        room_creations_per_minute=1_000_000,
    )  # fmt: skip
    service = RoomService(RoomStore(redis, prefix), settings, ComputerPlayer(1))
    before = int((await redis.info("memory"))["used_memory"])
    rooms = []
    for _ in range(args.rooms):
        grant = await service.create(
            CreateBoxesRoom(game="boxes", mode="local"), "bench", "http://localhost"
        )
        state = grant.state
        while not state.is_over:
            move = MakeMove(type="move", move=LineMove(**state.legal_moves[0]))
            state = (await service.move(grant.room_id, grant.token, move)).state
        rooms.append(grant.room_id)
    after = int((await redis.info("memory"))["used_memory"])
    usage = []
    for room in rooms:
        keys = service.store.keys(room)
        usage.append(sum([await redis.memory_usage(k) or 0 for k in (keys.room, keys.events)]))
    print(f"{args.rooms} finished 5x5 rooms (61 versions each, {settings.events_kept} events kept)")
    print(f"  MEMORY USAGE per room: {sum(usage) / len(usage) / 1024:.2f} KiB")
    print(f"  used_memory growth per room: {(after - before) / args.rooms / 1024:.2f} KiB")
    keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
    for start in range(0, len(keys), 500):
        await redis.delete(*keys[start : start + 500])
    await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main())
