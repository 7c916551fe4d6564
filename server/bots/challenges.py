"""Open challenges, in the database: every server process sees the same ones.

A challenge is posted by a bot or a person, names the game, the board and the mode, and who
may take it (anyone, or one bot). It is ``open`` until it is taken (``accepted``: the room
exists, both seats taken), ``declined`` by the bot it names, ``cancelled`` by whoever posted
it, or ``expired``. Taking is one conditional update, so of two takers at once exactly one
gets the game. The challenger's seat token is chosen when the challenge is posted (a bot's
is its own token), and only its hash is kept.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import CursorResult, Engine, update
from sqlmodel import Session, col, select

from server.db.models import ChallengeRow

Status = Literal["open", "taking", "accepted", "declined", "cancelled", "expired"]
FINAL: tuple[Status, ...] = ("accepted", "declined", "cancelled", "expired")


def now_utc() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    game: str
    options: dict[str, Any]
    mode: str
    rated: bool
    from_name: str | None
    from_bot: bool
    target: str | None
    status: Status
    reason: str | None
    room_id: str | None
    seat: int | None
    """The challenger's seat in the room, once accepted."""
    taker_name: str | None
    taker_bot: bool
    created_at: datetime
    expires_at: datetime
    updated_at: datetime
    token_hash: str

    def for_bot(self, key: str) -> bool:
        """Whether the bot of name key ``key`` may see and take it (not its own)."""
        mine = self.from_bot and (self.from_name or "").lower() == key
        return not mine and (self.target is None or self.target == key)


def _challenge(row: ChallengeRow) -> Challenge:
    status: Status = row.status  # type: ignore[assignment]
    return Challenge(
        id=row.id,
        game=row.game,
        options=json.loads(row.options),
        mode=row.mode,
        rated=row.rated,
        from_name=row.from_name,
        from_bot=row.from_bot,
        target=row.target,
        status=status,
        reason=row.reason,
        room_id=row.room_id,
        seat=row.seat,
        taker_name=row.taker_name,
        taker_bot=row.taker_bot,
        created_at=row.created_at,
        expires_at=row.expires_at,
        updated_at=row.updated_at,
        token_hash=row.token_hash,
    )


def post(
    engine: Engine,
    *,
    game: str,
    options: dict[str, Any],
    mode: str,
    rated: bool,
    from_name: str | None,
    from_bot: bool,
    target: str | None,
    token_hash: str,
    lifetime: timedelta,
) -> Challenge:
    now = now_utc()
    row = ChallengeRow(
        id=secrets.token_urlsafe(9),
        game=game,
        options=json.dumps(options, separators=(",", ":")),
        mode=mode,
        rated=rated,
        from_name=from_name,
        from_bot=from_bot,
        token_hash=token_hash,
        target=target,
        status="open",
        created_at=now,
        expires_at=now + lifetime,
        updated_at=now,
    )
    with Session(engine) as session:
        session.add(row)
        session.commit()
        session.refresh(row)
        return _challenge(row)


def get(engine: Engine, challenge_id: str) -> Challenge | None:
    with Session(engine) as session:
        row = session.get(ChallengeRow, challenge_id)
        return None if row is None else _challenge(row)


def open_ones(engine: Engine, limit: int = 200) -> list[Challenge]:
    """Open challenges not yet expired, newest first."""
    query = (
        select(ChallengeRow)
        .where(ChallengeRow.status == "open", ChallengeRow.expires_at > now_utc())
        .order_by(col(ChallengeRow.created_at).desc())
        .limit(limit)
    )
    with Session(engine) as session:
        return [_challenge(row) for row in session.exec(query).all()]


def _move(engine: Engine, challenge_id: str, before: Status, after: Status, **values: Any) -> bool:
    """Change the status from ``before`` to ``after`` (with ``values``) if it still is
    ``before`` (and, for an open one, not expired); whether it did."""
    now = now_utc()
    where = [col(ChallengeRow.id) == challenge_id, col(ChallengeRow.status) == before]
    if before == "open":
        where.append(col(ChallengeRow.expires_at) > now)
    statement = update(ChallengeRow).where(*where).values(status=after, updated_at=now, **values)
    with Session(engine) as session:
        result: CursorResult[Any] = session.execute(statement)  # type: ignore[assignment]
        session.commit()
        return result.rowcount == 1


def take(engine: Engine, challenge_id: str, taker_name: str | None, taker_bot: bool) -> bool:
    """Claim an open challenge for its taker; False if someone else got it or it ended."""
    return _move(engine, challenge_id, "open", "taking", taker_name=taker_name, taker_bot=taker_bot)


def settle(engine: Engine, challenge_id: str, room_id: str, seat: int) -> None:
    """The room of a taken challenge exists: ``seat`` is the challenger's."""
    _move(engine, challenge_id, "taking", "accepted", room_id=room_id, seat=seat)


def release(engine: Engine, challenge_id: str) -> None:
    """The room of a taken challenge could not be made: the challenge is open again."""
    _move(engine, challenge_id, "taking", "open", taker_name=None, taker_bot=False)


def decline(engine: Engine, challenge_id: str, reason: str) -> bool:
    return _move(engine, challenge_id, "open", "declined", reason=reason)


def cancel(engine: Engine, challenge_id: str) -> bool:
    return _move(engine, challenge_id, "open", "cancelled")


def record_match(
    engine: Engine,
    *,
    game: str,
    options: dict[str, Any],
    mode: str,
    first: str,
    first_seat: int,
    second: str,
    room_id: str,
) -> None:
    """A game the ladder's matchmaking made, written as an accepted challenge of bot
    ``first`` (on ``first_seat``) taken by ``second`` (a bot, or a computer level): the
    bots' streams hear of it as of any accepted challenge."""
    now = now_utc()
    computer = second.startswith("level:")
    row = ChallengeRow(
        id=secrets.token_urlsafe(9),
        game=game,
        options=json.dumps(options, separators=(",", ":")),
        mode=mode,
        rated=True,
        from_name=first,
        from_bot=True,
        token_hash="",
        target=None if computer else second.lower(),
        status="accepted",
        room_id=room_id,
        seat=first_seat,
        taker_name=second,
        taker_bot=not computer,
        created_at=now,
        expires_at=now,
        updated_at=now,
    )
    with Session(engine) as session:
        session.add(row)
        session.commit()


def expire(engine: Engine) -> int:
    """Mark the open challenges whose time is up ``expired``; how many."""
    now = now_utc()
    statement = (
        update(ChallengeRow)
        .where(col(ChallengeRow.status) == "open", col(ChallengeRow.expires_at) <= now)
        .values(status="expired", updated_at=now)
    )
    with Session(engine) as session:
        result: CursorResult[Any] = session.execute(statement)  # type: ignore[assignment]
        session.commit()
        return result.rowcount


def changed_since(engine: Engine, since: datetime) -> list[Challenge]:
    """Challenges changed at or after ``since``, oldest change first."""
    query = (
        select(ChallengeRow)
        .where(col(ChallengeRow.updated_at) >= since)
        .order_by(col(ChallengeRow.updated_at))
    )
    with Session(engine) as session:
        return [_challenge(row) for row in session.exec(query).all()]
