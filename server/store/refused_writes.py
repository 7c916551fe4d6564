"""Redis refusing writes while it answers reads: which replies say so, as exception classes.

Redis answers a write it will not take with an error reply whose first word says why:
``OOM`` (``maxmemory`` reached under ``noeviction``), ``NOREPLICAS`` (fewer replicas than
``min-replicas-to-write``), ``MISCONF`` (snapshots failing while ``stop-writes-on-bgsave-error``
is on). A script meets them at its first write, so a commit either happens whole or not at
all. They are outages of the storage, not faults of the request: the edges answer
``unavailable`` and the outage is logged once (:mod:`server.store.outage`).

redis-py turns error replies into exceptions by that first word (its parsers'
``EXCEPTION_CLASSES``) and knows ``OOM`` (:class:`~redis.exceptions.OutOfMemoryError`) but
not the other two, which come out as a plain ``ResponseError`` like any programming error.
They are added to that table here, once per process, so every connection (one server,
Sentinel, cluster, :mod:`server.store.direct_calls`) raises :class:`WritesRefused` for them.
"""

from __future__ import annotations

from redis._parsers.base import BaseParser
from redis.exceptions import OutOfMemoryError, ResponseError


class WritesRefused(ResponseError):
    """Redis refuses writes for now (``NOREPLICAS``, ``MISCONF``); reads still work."""


REFUSING_CODES = ("NOREPLICAS", "MISCONF")
WRITE_REFUSALS: tuple[type[ResponseError], ...] = (OutOfMemoryError, WritesRefused)
"""The errors of a Redis that answers but takes no writes."""

for _code in REFUSING_CODES:
    BaseParser.EXCEPTION_CLASSES.setdefault(_code, WritesRefused)
