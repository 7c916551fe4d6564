"""Engine, migrations and the session dependency."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from fastapi import Depends, Request
from sqlalchemy import Engine, text
from sqlmodel import Session, create_engine

from server.store.outage import DATABASE_ERRORS

MIGRATIONS = Path(__file__).parent / "migrations"


def database_url(configured: str | None, data_dir: Path) -> str:
    if configured:
        if configured.startswith("postgresql://"):
            return "postgresql+psycopg://" + configured.removeprefix("postgresql://")
        if configured.startswith("postgres://"):
            return "postgresql+psycopg://" + configured.removeprefix("postgres://")
        return configured
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'tetrad.sqlite3').resolve()}"


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        return create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
    return create_engine(url, pool_pre_ping=True)


MIGRATION_LOCK_ID = 0x7E7AD


def database_ping(engine: Engine) -> None:
    """Raise if the database does not answer (``SELECT 1``)."""
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))


def _alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def migrate(engine: Engine, target: str = "head") -> None:
    """Bring the schema up to ``target`` (Alembic ``upgrade``; every server does it at start).
    Several processes starting at once take turns: an advisory lock on PostgreSQL, a file
    lock next to SQLite."""
    config = _alembic_config()
    with _file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": MIGRATION_LOCK_ID})
        config.attributes["connection"] = connection
        command.upgrade(config, target)


@dataclass(frozen=True)
class Migration:
    revision: str
    summary: str
    applied: bool


def migrations(engine: Engine) -> list[Migration]:
    """Every migration the code knows, oldest first, and whether the database has it."""
    script = ScriptDirectory.from_config(_alembic_config())
    with engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
    applied: set[str] = set()
    for revision in current:
        applied.update(r.revision for r in script.iterate_revisions(revision, "base"))
    return [
        Migration(r.revision, (r.doc or "").strip(), r.revision in applied)
        for r in reversed(list(script.walk_revisions()))
    ]


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    database = engine.url.database if engine.url.get_backend_name() == "sqlite" else None
    if not database or database == ":memory:":
        yield
        return
    with open(f"{database}.migrate-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def get_session(request: Request) -> Iterator[Session]:
    session = Session(request.app.state.engine)
    try:
        yield session
    finally:
        # Closing runs after the answer went out; a connection the database dropped
        # meanwhile cannot be rolled back, and must not break the client's keep-alive.
        with contextlib.suppress(*DATABASE_ERRORS):
            session.close()


SessionDep = Annotated[Session, Depends(get_session)]
