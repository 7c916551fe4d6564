"""Lua scripts run by ``EVALSHA``, sent whole by ``EVAL`` whenever Redis says it does not
know them.

A Redis that restarted, flushed its scripts, or (on a Redis Cluster) a replica just promoted
to master after a failover has an empty script cache. ``SCRIPT LOAD`` would go wherever the
client thinks the nodes are, which right after a failover may be the old topology, so the
``EVALSHA`` that follows could meet ``NOSCRIPT`` again; ``EVAL`` is routed by the script's keys
exactly as ``EVALSHA`` was, runs the script on the node that answered ``NOSCRIPT`` and leaves
it cached there for the next ``EVALSHA``."""

from __future__ import annotations

import hashlib
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import NoScriptError

from server.store.direct_calls import DirectCalls


class LuaScript:
    """A Lua script run by EVALSHA, sent whole by EVAL on NOSCRIPT.

    redis-py's own ``Script`` object checks ``isinstance(client, Pipeline)`` on every call,
    which goes through ``typing.Protocol`` machinery and cost more CPU than the rest of a
    move's Redis work together; this is the same protocol without that."""

    def __init__(self, redis: Redis, text: str, direct: DirectCalls | None = None) -> None:
        self.redis = redis
        self.text = text
        self.sha = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()
        self.direct = direct
        """Where the calls go when given (see :mod:`server.store.direct_calls`)."""

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        try:
            return await self._evalsha(keys, args)
        except NoScriptError:
            return await self._eval(keys, args)

    async def _eval(self, keys: list[str], args: list[Any]) -> Any:
        if self.direct is not None:
            return await self.direct.execute("EVAL", self.text, len(keys), *keys, *args)
        return await self.redis.eval(self.text, len(keys), *keys, *args)  # type: ignore[misc]

    async def _evalsha(self, keys: list[str], args: list[Any]) -> Any:
        if self.direct is not None:
            return await self.direct.execute("EVALSHA", self.sha, len(keys), *keys, *args)
        return await self.redis.evalsha(self.sha, len(keys), *keys, *args)  # type: ignore[misc]

    def queue(self, pipe: Pipeline, keys: list[str], args: list[Any]) -> None:
        """Add a call to ``pipe`` (load the script first: see :meth:`load`)."""
        pipe.evalsha(self.sha, len(keys), *keys, *args)

    async def load(self) -> None:
        await self.redis.script_load(self.text)
