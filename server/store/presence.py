"""Who is connected to a room and how many watch it, in Redis
(:class:`server.rooms.stores.PresenceStore`).

A presence slot is a key naming the connection that holds it, expiring unless the process
holding the connection refreshes it; spectators are a sorted set of connection ids scored by
the time (ms since the epoch) each expires unless its process refreshes it. The room's
channel carries the presence and control messages beside its events.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Iterator
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError, ResponseError

from server.rooms.stores import PresenceAnswer, PresenceQuery, RoomPresence, SpectatorsCounted
from server.store.direct_calls import DirectCalls
from server.store.frames import frame
from server.store.keys import RoomKeys
from server.store.redis_client import is_cluster
from server.store.scripts import LuaScript
from server.store.texts import text

# KEYS: a key holding an owner id. ARGV: owner, ttl ms. Refresh only if still ours.
REFRESH_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: a key holding an owner id. ARGV: owner. Delete only if still ours.
RELEASE_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def now_ms() -> int:
    """Wall-clock milliseconds: spectator entries are scored by their expiry in this clock,
    shared by every process (hosts are expected to keep their clocks in sync)."""
    return int(time.time() * 1000)


class RedisPresenceStore:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.cluster = is_cluster(redis)
        # A round is one pipeline of many small commands: sent straight to the server, its
        # replies cost a fraction of what redis-py's pipeline spends on each.
        self._direct = DirectCalls.of(redis)
        self._refresh = LuaScript(redis, REFRESH_SCRIPT)
        self._release = LuaScript(redis, RELEASE_SCRIPT)

    def keys(self, room_id: str) -> RoomKeys:
        return RoomKeys(self.prefix, room_id)

    async def claim(self, room_id: str, slot: int, connection: str, ttl: float) -> None:
        await self.redis.set(self.keys(room_id).presence(slot), connection, px=int(ttl * 1000))

    async def release(self, room_id: str, slot: int, connection: str) -> bool:
        return bool(await self._release([self.keys(room_id).presence(slot)], [connection]))

    async def add_spectators(
        self, room_id: str, connections: list[str], ttl: float
    ) -> SpectatorsCounted:
        keys, ttl_ms = self.keys(room_id), int(ttl * 1000)
        now = now_ms()
        commands: list[tuple[Any, ...]] = [
            ("ZADD", keys.spectators, *[p for c in connections for p in (now + ttl_ms, c)]),
            ("PEXPIRE", keys.spectators, ttl_ms),
            ("GET", keys.presence(0)),  # not MGET: a cluster pipeline refuses it
            ("GET", keys.presence(1)),
            ("ZCOUNT", keys.spectators, f"({now}", "+inf"),
            ("HGET", keys.room, "version"),
            ("PTTL", keys.room),
        ]
        *_, first, second, watching, version, left = await self._read_together(commands)
        presence = RoomPresence((first is not None, second is not None), int(watching))
        expires_in = None if int(left) < 0 else int(left) / 1000
        return SpectatorsCounted(presence, int(version or 0), expires_in)

    async def remove_spectators(self, room_id: str, connections: list[str]) -> int:
        (removed,) = await self._read_together(
            [("ZREM", self.keys(room_id).spectators, *connections)]
        )
        return int(removed)

    async def _read_together(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """The replies of ``commands`` (all on one room's keys) sent in one write, on the
        connections of :class:`DirectCalls` when there is one server (a spectator's arrival
        and leaving cost less CPU there than through redis-py's pool)."""
        if self._direct is not None:
            replies = await self._direct.pipeline(commands)
            failed = next((r for r in replies if isinstance(r, ResponseError)), None)
            if failed is not None:
                raise failed
            return replies
        pipe = self.redis.pipeline(transaction=False)
        for command in commands:
            pipe.execute_command(*command)
        return list(await pipe.execute())

    async def read(self, room_id: str) -> RoomPresence:
        """Expired spectator entries are not counted (the presence round deletes them)."""
        keys = self.keys(room_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(keys.presence(0))  # not MGET: a cluster pipeline refuses it
        pipe.get(keys.presence(1))
        pipe.zcount(keys.spectators, f"({now_ms()}", "+inf")
        first, second, watching = await pipe.execute()
        return RoomPresence((first is not None, second is not None), int(watching))

    async def publish(self, room_id: str, kind: str, version: int, message: str) -> None:
        channel, framed = self.keys(room_id).channel, frame(kind, version, message)
        if self.cluster:
            await self.redis.execute_command("SPUBLISH", channel, framed)  # type: ignore[no-untyped-call]
        else:
            await self.redis.publish(channel, framed)

    async def round(self, queries: list[PresenceQuery]) -> list[PresenceAnswer]:
        if not queries:
            return []
        try:
            results, refreshes = await self._pipeline(queries)
        except NoScriptError:  # Redis restarted (or flushed its scripts) since we loaded it
            await self._refresh.load()
            results, refreshes = await self._pipeline(queries)
        answers = []
        for query in queries:
            refreshed = [bool(next(refreshes)) for _ in query.slots]
            first, second = next(results), next(results)
            if query.spectators:
                next(results)  # ZADD
                next(results)  # PEXPIRE
            next(results)  # ZREMRANGEBYSCORE
            watching = int(next(results))
            answers.append(PresenceAnswer(refreshed, (text(first), text(second)), watching))
        return answers

    async def aclose(self) -> None:
        if self._direct is not None:
            await self._direct.aclose()

    async def _pipeline(self, queries: list[PresenceQuery]) -> tuple[Iterator[Any], Iterator[Any]]:
        """The round's replies, and the slot refreshes' (the same iterator on one server: a
        pipeline of everything; on a cluster, whose pipelines take no scripts, the refreshes
        run beside the pipeline, each a script in its room's slot)."""
        if self._direct is not None:
            replies = await self._direct.pipeline(self._commands(queries))
            failed = next((r for r in replies if isinstance(r, ResponseError)), None)
            if failed is not None:
                raise failed
            results = iter(replies)
            return results, results
        pipe = self.redis.pipeline(transaction=False)
        separate: list[Awaitable[Any]] = []
        now = now_ms()
        for query in queries:
            keys = self.keys(query.room_id)
            for slot, connection in query.slots:
                refresh = ([keys.presence(slot)], [connection, int(query.ttl * 1000)])
                if self.cluster:
                    separate.append(self._refresh(*refresh))
                else:
                    self._refresh.queue(pipe, *refresh)
            pipe.get(keys.presence(0))
            pipe.get(keys.presence(1))
            ttl_ms = int(query.ttl * 1000)
            if query.spectators:
                pipe.zadd(keys.spectators, dict.fromkeys(query.spectators, now + ttl_ms))
                pipe.pexpire(keys.spectators, ttl_ms)
            pipe.zremrangebyscore(keys.spectators, "-inf", now)
            pipe.zcard(keys.spectators)
        if not self.cluster:
            results = iter(await pipe.execute())
            return results, results
        replies, *refreshed = await asyncio.gather(pipe.execute(), *separate)
        return iter(replies), iter(refreshed)

    def _commands(self, queries: list[PresenceQuery]) -> list[tuple[Any, ...]]:
        """The commands of a round on one server, in the order :meth:`round` reads them."""
        commands: list[tuple[Any, ...]] = []
        now = now_ms()
        sha = self._refresh.sha
        for query in queries:
            keys = self.keys(query.room_id)
            ttl_ms = int(query.ttl * 1000)
            for slot, connection in query.slots:
                commands.append(("EVALSHA", sha, 1, keys.presence(slot), connection, ttl_ms))
            commands.append(("GET", keys.presence(0)))
            commands.append(("GET", keys.presence(1)))
            if query.spectators:
                scored = [part for c in query.spectators for part in (now + ttl_ms, c)]
                commands.append(("ZADD", keys.spectators, *scored))
                commands.append(("PEXPIRE", keys.spectators, ttl_ms))
            commands.append(("ZREMRANGEBYSCORE", keys.spectators, "-inf", now))
            commands.append(("ZCARD", keys.spectators))
        return commands
