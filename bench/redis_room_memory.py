"""Redis memory per finished 5×5 Dots and Boxes room (all 60 lines drawn), keys and events,
and what the same room costs once it left Redis for the database (a cold room).

    .venv/bin/python bench/redis_room_memory.py --rooms 200

Needs Redis at 127.0.0.1:6379. Uses the room service directly (no HTTP) and reports the
average MEMORY USAGE of one room's keys, and the used_memory growth per room; then moves
every room to a SQLite database of its own (as an idle correspondence room goes,
:mod:`server.store.cold_rooms`) and reports the snapshot's size and the file's growth per
room.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid
from pathlib import Path

from redis.asyncio import Redis
from sqlalchemy import text

from server.db.session import make_engine, migrate
from server.rooms.computer import ComputerPlayer
from server.rooms.model import PlayMove, RoomOptions
from server.rooms.service import RoomService
from server.settings import Settings
from server.store.cold_rooms import ColdRooms
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
    await cold_sizes(redis, prefix, rooms)
    keys = [k async for k in redis.scan_iter(match=f"{prefix}:*")]
    for start in range(0, len(keys), 500):
        await redis.delete(*keys[start : start + 500])
    await storage.aclose()
    await redis.aclose()


async def cold_sizes(redis: Redis, prefix: str, rooms: list[str]) -> None:
    directory = Path(tempfile.mkdtemp())
    engine = make_engine(f"sqlite:///{directory / 'cold.sqlite3'}")
    migrate(engine)
    size_before = (directory / "cold.sqlite3").stat().st_size
    cold = ColdRooms(redis, prefix, engine, idle_seconds=0)
    for room in rooms:
        keys = RoomKeys(prefix, room)
        # As a correspondence room that waited: no time to live, its finished game written.
        await redis.delete(keys.outbox)
        for key in (keys.room, keys.moves, keys.events, keys.move_ids, keys.move_id_moves):
            await redis.persist(key)
        assert await cold.freeze(room)
    with engine.connect() as connection:
        total = connection.execute(text("SELECT SUM(LENGTH(snapshot)) FROM cold_rooms")).scalar()
    size_after = (directory / "cold.sqlite3").stat().st_size
    print(
        f"  cold (in the database): snapshot {int(total or 0) / len(rooms) / 1024:.2f} KiB, "
        f"SQLite file growth {(size_after - size_before) / len(rooms) / 1024:.2f} KiB per room"
    )
    engine.dispose()


if __name__ == "__main__":
    asyncio.run(main())
