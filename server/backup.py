"""``tetrad backup`` and ``tetrad restore``: one archive holding a consistent copy of the
embedded data (the valkey store of live rooms and the SQLite database of records).

The copy is taken while the server runs. The store's snapshot is taken first and the
database's second: a game finished before the snapshot is then either still in the
store's outbox (in the snapshot) or already written to the database (in the later copy),
never in neither. The database copy uses SQLite's online backup API, which copies a
consistent state even while the server writes.

External services are backed up with their own tools (``pg_dump``; a Redis server's RDB
or append-only files): the archive says what it left out.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from sqlalchemy.engine import make_url

from server.db.session import database_url
from server.settings import Settings
from server.store.embedded import EmbeddedValkey

MANIFEST = "manifest.json"
STORE_SNAPSHOT = "valkey.rdb"
DATABASE_COPY = "tetrad.sqlite3"
FORMAT = 1


class BackupError(Exception):
    """Something the operator must fix; the message says what."""


@dataclass
class Outcome:
    """What a backup or restore did, for the operator."""

    done: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)


def _sqlite_path(settings: Settings) -> Path | None:
    url = make_url(database_url(settings.database_url, settings.data_dir))
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


def _store(settings: Settings) -> EmbeddedValkey | None:
    return None if settings.redis_url else EmbeddedValkey(settings.data_dir / "valkey")


def _tetrad_version() -> str:
    try:
        return version("tetrad")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def _snapshot_store(store: EmbeddedValkey, destination: Path) -> None:
    if store.running():
        store.snapshot(destination)
        return
    # No server is running: start the store on its files just for the snapshot.
    store.start()
    try:
        store.snapshot(destination)
    finally:
        store.stop()


def _copy_sqlite(source: Path, destination: Path) -> None:
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as reader:
        writer = sqlite3.connect(destination)
        try:
            reader.backup(writer)
        finally:
            writer.close()


def backup(settings: Settings, archive: Path) -> Outcome:
    """Write ``archive`` (a .tar.gz) with the embedded data of ``settings``."""
    outcome = Outcome()
    store = _store(settings)
    sqlite = _sqlite_path(settings)
    if store is None:
        outcome.left_out.append(
            "live rooms: TETRAD_REDIS_URL points to an external Redis; back it up with its "
            "own persistence files (BGSAVE, then copy dump.rdb, or copy the AOF directory)"
        )
    if sqlite is None:
        outcome.left_out.append(
            "finished games: TETRAD_DATABASE_URL points to an external database; back it "
            "up with its own tools (pg_dump)"
        )
    elif not sqlite.exists():
        raise BackupError(f"no database at {sqlite}: is the data directory right?")
    if store is None and sqlite is None:
        raise BackupError("nothing to back up here: both stores are external")
    with tempfile.TemporaryDirectory(prefix="tetrad-backup-") as staging_name:
        staging = Path(staging_name)
        contents: list[str] = []
        if store is not None:
            _snapshot_store(store, staging / STORE_SNAPSHOT)
            contents.append(STORE_SNAPSHOT)
            outcome.done.append("live rooms: a snapshot of the embedded store")
        if sqlite is not None:
            _copy_sqlite(sqlite, staging / DATABASE_COPY)
            contents.append(DATABASE_COPY)
            outcome.done.append(f"finished games: a copy of {sqlite.name}")
        manifest = {
            "format": FORMAT,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "tetrad": _tetrad_version(),
            "key_prefix": settings.key_prefix,
            "contents": contents,
        }
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        archive.parent.mkdir(parents=True, exist_ok=True)
        partial = archive.with_name(archive.name + ".partial")
        with tarfile.open(partial, "w:gz") as tar:
            for name in [MANIFEST, *contents]:
                tar.add(staging / name, arcname=name)
        partial.replace(archive)  # a backup that stopped halfway never looks complete
    return outcome


def _read_archive(archive: Path, into: Path) -> list[str]:
    """Unpack ``archive`` into ``into`` and return the names of the copies it holds."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            tar.extractall(into, filter="data")
        manifest = json.loads((into / MANIFEST).read_text())
    except (OSError, tarfile.TarError, ValueError) as error:
        raise BackupError(f"{archive} is not a tetrad backup: {error}") from error
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(f"{archive} has a backup format this version cannot read")
    contents = manifest.get("contents")
    if not isinstance(contents, list) or not all(isinstance(c, str) for c in contents):
        raise BackupError(f"{archive} has a damaged manifest")
    return contents


def restore(settings: Settings, archive: Path) -> Outcome:
    """Replace the embedded data of ``settings`` with the contents of ``archive``; the data
    found there before is moved to ``before-restore-<time>`` in the data directory. The
    server must be stopped."""
    outcome = Outcome()
    store = _store(settings)
    sqlite = _sqlite_path(settings)
    if store is not None and store.running():
        raise BackupError("the server is running (its store answers): stop it first")
    with tempfile.TemporaryDirectory(prefix="tetrad-restore-") as staging_name:
        staging = Path(staging_name)
        contents = _read_archive(archive, staging)
        aside = settings.data_dir / time.strftime("before-restore-%Y%m%dT%H%M%SZ", time.gmtime())
        if STORE_SNAPSHOT in contents:
            if store is None:
                outcome.left_out.append("live rooms: TETRAD_REDIS_URL is set (external Redis)")
            else:
                if store.data_dir.exists():
                    aside.mkdir(parents=True, exist_ok=True)
                    shutil.move(store.data_dir, aside / store.data_dir.name)
                store.restore_snapshot(staging / STORE_SNAPSHOT)
                outcome.done.append("live rooms")
        if DATABASE_COPY in contents:
            if sqlite is None:
                outcome.left_out.append("finished games: TETRAD_DATABASE_URL is set (external)")
            else:
                sqlite.parent.mkdir(parents=True, exist_ok=True)
                for suffix in ("", "-wal", "-shm", "-journal"):
                    current = sqlite.with_name(sqlite.name + suffix)
                    if current.exists():
                        aside.mkdir(parents=True, exist_ok=True)
                        shutil.move(current, aside / current.name)
                shutil.copyfile(staging / DATABASE_COPY, sqlite)
                outcome.done.append("finished games")
        if aside.exists():
            outcome.done.append(f"the data found before is kept in {aside}")
    return outcome
