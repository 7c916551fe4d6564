"""Redis commands packed by hiredis, in C, instead of redis-py's asyncio packer in Python.

redis-py's synchronous client already packs with hiredis when it is installed; its asyncio
connections still encode every argument in Python. A room's commit has about twenty
arguments, and packing them cost a server more CPU than anything else a move asks of the
Redis client (``bench/ws_load.py``). hiredis writes the same bytes: strings as UTF-8,
integers and floats as redis-py writes them; other values are refused as redis-py refuses
them (``DataError``).
"""

from __future__ import annotations

from typing import Any, TypeVar

import hiredis
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import DataError

ConnectionT = TypeVar("ConnectionT", bound=type[AbstractConnection])

_packing: dict[type[AbstractConnection], type[AbstractConnection]] = {}


def _pack_command(self: AbstractConnection, *args: Any) -> list[bytes]:
    """Pack one command; a first argument holding spaces (``"SCRIPT LOAD"``) is split
    into words, as redis-py does."""
    head = args[0]
    if isinstance(head, str):
        args = (*head.encode().split(), *args[1:])
    elif b" " in head:
        args = (*head.split(), *args[1:])
    try:
        return [hiredis.pack_command(args)]
    except TypeError as error:
        raise DataError(str(error)) from error


def with_hiredis_packing(connection_class: ConnectionT) -> ConnectionT:
    """``connection_class`` with its commands packed by hiredis (one subclass per class)."""
    made = _packing.get(connection_class)
    if made is None:
        made = type(
            f"Hiredis{connection_class.__name__}",
            (connection_class,),
            {"pack_command": _pack_command, "__module__": __name__},
        )
        _packing[connection_class] = made
    return made  # type: ignore[return-value]


def pack_with_hiredis(pool: ConnectionPool) -> None:
    """Make the connections ``pool`` opens from now on pack with hiredis."""
    pool.connection_class = with_hiredis_packing(pool.connection_class)
