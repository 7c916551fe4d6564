"""Bot accounts: the operator issues them (``tetrad bots add``), a bot presents its token.

A token is shown once, when the account is made; the database keeps its SHA-256 only, so a
copy of the database lets nobody play as a bot. Names are the bots' public identity (on
their seats, in the ladder), so they are checked: a few letters, digits, ``-`` and ``_``,
unique whatever their case, and never one a computer level could be taken for.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from server.db.models import BotRow

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,23}")
"""3 to 24 characters: a letter, then letters, digits, ``-`` or ``_``."""
RESERVED_WORDS = ("easy", "normal", "hard", "computer", "tetrad", "server", "admin")
"""A bot's name may not be one of these, whatever its case, digits and separators: the
computer levels' names (and the server's own) must not be worn by an account."""
TOKEN_PREFIX = "tb_"
"""Bot tokens start so: told apart from seat tokens at a glance (and by secret scanners)."""


class BotNameError(ValueError):
    """A name the rules above refuse; the message says which rule."""


@dataclass(frozen=True, slots=True)
class BotAccount:
    name: str
    created_at: datetime
    revoked_at: datetime | None
    ladder: bool
    seen_at: datetime | None
    token_hash: str
    """The hash of its token: the seats it takes hold it, so its own token plays."""

    @property
    def active(self) -> bool:
        return self.revoked_at is None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def name_key(name: str) -> str:
    """Names compare without their case: ``Greedy`` and ``greedy`` are one name."""
    return name.lower()


def check_name(name: str) -> str:
    """``name`` if a bot may bear it, else :class:`BotNameError` saying why."""
    if not NAME_PATTERN.fullmatch(name):
        raise BotNameError(
            "a bot name has 3 to 24 characters: a letter first, then letters, digits, - or _"
        )
    bare = re.sub(r"[^a-z]", "", name.lower())
    if bare in RESERVED_WORDS:
        raise BotNameError(f"{name!r} could be taken for the server's own player")
    return name


def _account(row: BotRow) -> BotAccount:
    return BotAccount(
        row.name, row.created_at, row.revoked_at, row.ladder, row.seen_at, row.token_hash
    )


def add_bot(engine: Engine, name: str, *, ladder: bool = False) -> str:
    """Make the account ``name`` and return its token (the only time it is seen)."""
    check_name(name)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = BotRow(
        name=name,
        name_key=name_key(name),
        token_hash=token_hash(token),
        created_at=datetime.now(UTC),
        ladder=ladder,
    )
    with Session(engine) as session:
        taken = session.exec(select(BotRow).where(BotRow.name_key == name_key(name))).first()
        if taken is not None:
            raise BotNameError(f"there is a bot named {taken.name} already")
        session.add(row)
        try:
            session.commit()
        except IntegrityError as error:  # made meanwhile by another command
            raise BotNameError(f"there is a bot named {name} already") from error
    return token


def list_bots(engine: Engine) -> list[BotAccount]:
    with Session(engine) as session:
        rows = session.exec(select(BotRow).order_by(col(BotRow.name_key))).all()
        return [_account(row) for row in rows]


def revoke_bot(engine: Engine, name: str) -> bool:
    """Revoke the token of ``name`` (its sockets end within a second); False: no such
    active bot. The account stays, so its games and rating keep their name."""
    with Session(engine) as session:
        row = session.exec(select(BotRow).where(BotRow.name_key == name_key(name))).first()
        if row is None or row.revoked_at is not None:
            return False
        row.revoked_at = datetime.now(UTC)
        session.add(row)
        session.commit()
    return True


def set_ladder(engine: Engine, name: str, ladder: bool) -> None:
    """Opt the bot in to the ladder's matchmaking (or out)."""
    with Session(engine) as session:
        row = session.exec(select(BotRow).where(BotRow.name_key == name_key(name))).first()
        if row is not None:
            row.ladder = ladder
            session.add(row)
            session.commit()


def bot_by_token(engine: Engine, token: str) -> BotAccount | None:
    """The active account ``token`` belongs to, or None."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    with Session(engine) as session:
        query = select(BotRow).where(BotRow.token_hash == token_hash(token))
        row = session.exec(query).first()
        if row is None or row.revoked_at is not None:
            return None
        return _account(row)


def bot_named(engine: Engine, name: str) -> BotAccount | None:
    with Session(engine) as session:
        row = session.exec(select(BotRow).where(BotRow.name_key == name_key(name))).first()
        return None if row is None else _account(row)


def revoked_since(engine: Engine, since: datetime) -> list[str]:
    """The bots revoked at or after ``since`` (UTC, naive)."""
    with Session(engine) as session:
        query = select(BotRow.name).where(col(BotRow.revoked_at) >= since)
        return list(session.exec(query).all())


def mark_gone(engine: Engine, names: list[str]) -> None:
    """The challenge streams of ``names`` closed: they are not connected any more."""
    _set_seen(engine, names, None)


def mark_seen(engine: Engine, names: list[str]) -> None:
    """The challenge streams of ``names`` are open now (see :mod:`server.bots.streams`)."""
    _set_seen(engine, names, datetime.now(UTC))


def _set_seen(engine: Engine, names: list[str], seen_at: datetime | None) -> None:
    if not names:
        return
    keys = [name_key(name) for name in names]
    with Session(engine) as session:
        for row in session.exec(select(BotRow).where(col(BotRow.name_key).in_(keys))).all():
            row.seen_at = seen_at
            session.add(row)
        session.commit()
