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

from server.rooms.computer import ComputerPlayer
from server.rooms.model import PlayMove, RoomOptions
from server.rooms.service import RoomService
from server.settings import Settings
from server.store.keys import RoomKeys
from server.store.redis_stores import RedisStores


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
    storage = RedisStores(redis, prefix, settings.events_kept)
    service = RoomService(storage.stores, settings, ComputerPlayer(1))
    before = int((await redis.info("memory"))["used_memory"])
    rooms = []
    asked = RoomOptions("boxes", "local", "normal", None, {"rows": 5, "cols": 5})
    for _ in range(args.rooms):
        granted = await service.create(asked, "bench")
        room_id = granted.room.id
        while True:
            game = (await service.load(room_id)).room.game
            if game.is_over:
                break
            await service.execute(room_id, granted.token, PlayMove(game.legal_moves()[0]))
        rooms.append(room_id)
    after = int((await redis.info("memory"))["used_memory"])
    usage = []
    for room in rooms:
        keys = RoomKeys(prefix, room)
        parts = (keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves)
        usage.append(sum([await redis.memory_usage(k) or 0 for k in parts]))
    print(f"{args.rooms} finished 5x5 rooms (61 versions each, {settings.events_kept} events kept)")
    print(f"  MEMORY USAGE per room: {sum(usage) / len(usage) / 1024:.2f} KiB")
    print(f"  used_memory growth per room: {(after - before) / args.rooms / 1024:.2f} KiB")
    keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
    for start in range(0, len(keys), 500):
        await redis.delete(*keys[start : start + 500])
    await storage.aclose()
    await redis.aclose()


if __name__ == "__main__":
    asyncio.run(main())
