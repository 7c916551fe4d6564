"""Rooms kept in the database while they are idle (:mod:`server.store.cold_rooms` moves them
between Redis and here): a room's snapshot under its id, at the version it left Redis."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import Engine, delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col

from server.db.models import ColdRoomRow


def put_cold_room(engine: Engine, room_id: str, version: int, snapshot: str) -> None:
    """Keep ``snapshot`` as the room at ``version`` (replacing what was kept before)."""
    try:
        _put(engine, room_id, version, snapshot)
    except IntegrityError:  # another process inserted it meanwhile: replace theirs
        _put(engine, room_id, version, snapshot)


def _put(engine: Engine, room_id: str, version: int, snapshot: str) -> None:
    with Session(engine) as session:
        row = session.get(ColdRoomRow, room_id)
        if row is None:
            row = ColdRoomRow(room_id=room_id, version=version, snapshot=snapshot,
                              stored_at=datetime.now(UTC))  # fmt: skip
        else:
            row.version, row.snapshot, row.stored_at = version, snapshot, datetime.now(UTC)
        session.add(row)
        session.commit()


def cold_room(engine: Engine, room_id: str) -> tuple[int, str] | None:
    """The version and snapshot kept for the room, if any."""
    with Session(engine) as session:
        row = session.get(ColdRoomRow, room_id)
        return None if row is None else (row.version, row.snapshot)


def drop_cold_room(engine: Engine, room_id: str, version: int) -> None:
    """Forget the room's snapshot if it is still the one of ``version``."""
    with Session(engine) as session:
        session.execute(
            delete(ColdRoomRow).where(
                col(ColdRoomRow.room_id) == room_id, col(ColdRoomRow.version) == version
            )
        )
        session.commit()
