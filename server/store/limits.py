"""Rate limits in Redis (:class:`server.rooms.stores.LimitStore`): a counter per subject
and fixed window, shared by every process."""

from __future__ import annotations

from redis.asyncio import Redis

from server.rooms.stores import Hits
from server.store.keys import rate_key
from server.store.scripts import LuaScript

# KEYS: a counter. ARGV: window ms. Count a hit; the hits in this window and the ms left.
RATE_SCRIPT = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}
"""


class RedisLimitStore:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._rate = LuaScript(redis, RATE_SCRIPT)

    async def hit(self, bucket: str, subject: str, window_seconds: float) -> Hits:
        key = rate_key(self.prefix, bucket, subject)
        count, left_ms = await self._rate([key], [int(window_seconds * 1000)])
        return Hits(int(count), max(0, int(left_ms)) / 1000)
