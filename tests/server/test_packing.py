"""hiredis packs every command to the same bytes as redis-py's own asyncio packer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import DataError

from server.store.packing import with_hiredis_packing

ARGUMENT = st.one_of(
    st.text(),
    st.binary(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(allow_nan=False),
)
COMMAND = st.one_of(
    st.sampled_from(["EVALSHA", "SCRIPT LOAD", "CONFIG GET", "PUBLISH"]),
    st.sampled_from([b"SET", b"CLIENT KILL"]),
)


def test_one_subclass_per_connection_class() -> None:
    packing = with_hiredis_packing(Connection)
    assert with_hiredis_packing(Connection) is packing
    assert issubclass(packing, Connection)
    assert issubclass(with_hiredis_packing(UnixDomainSocketConnection), UnixDomainSocketConnection)


@given(COMMAND, st.lists(ARGUMENT, max_size=24))
def test_same_bytes_as_redis_py(command: str | bytes, arguments: list[object]) -> None:
    ours = with_hiredis_packing(Connection)()
    theirs = Connection()
    assert b"".join(ours.pack_command(command, *arguments)) == b"".join(
        theirs.pack_command(command, *arguments)
    )


@pytest.mark.parametrize("value", [None, True, object()])
def test_refuses_what_redis_py_refuses(value: object) -> None:
    with pytest.raises(DataError):
        Connection().pack_command("SET", "key", value)
    with pytest.raises(DataError):
        with_hiredis_packing(Connection)().pack_command("SET", "key", value)
