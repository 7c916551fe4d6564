"""The database layer on SQLite and on PostgreSQL: migrations, finished games, daily results."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Engine, inspect
from sqlmodel import Session, select

from server.db.models import DailyResultRow
from server.db.records import FinishedGame, load_finished_game, store_finished_game
from server.db.session import database_url, make_engine, migrate

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        engine = make_engine(database_url(None, tmp_path))
        yield engine
        engine.dispose()
        return
    name = f"tetrad_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    engine = make_engine(database_url(POSTGRES.rsplit("/", 1)[0] + f"/{name}", tmp_path))
    try:
        yield engine
    finally:
        engine.dispose()
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def finished(
    room: str, number: int, daily: str | None = None, player: str | None = None
) -> FinishedGame:
    return FinishedGame(
        room_id=room,
        game="boxes",
        mode="computer" if daily else "live",
        game_number=number,
        daily=daily,
        record={"game": "boxes", "rows": 1, "cols": 1, "start": [], "moves": []},
        winner=1,
        reason="board_full",
        scores=(0, 1),
        human_seat=0 if daily else None,
        finished_at=1_700_000_000.0,
        daily_player=player,
    )


def test_migrations_create_the_tables_and_can_run_twice(engine: Engine) -> None:
    migrate(engine)
    migrate(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"finished_games", "daily_results", "alembic_version"} <= tables


def test_finished_games_are_stored_once(engine: Engine) -> None:
    migrate(engine)
    assert store_finished_game(engine, finished("roomA", 1)) is True
    assert store_finished_game(engine, finished("roomA", 1)) is False
    assert store_finished_game(engine, finished("roomA", 2, daily="2025-01-31")) is True
    row = load_finished_game(engine, "roomA-1")
    assert row is not None and (row.score0, row.score1, row.winner) == (0, 1, 1)
    with Session(engine) as session:
        results = session.exec(select(DailyResultRow)).all()
    assert [(r.game_id, r.score, r.opponent_score) for r in results] == [("roomA-2", 0, 1)]


def test_the_daily_board_counts_one_result_per_browser_a_day(engine: Engine) -> None:
    migrate(engine)
    assert store_finished_game(engine, finished("a", 1, "2025-01-31", player="browser-1"))
    assert store_finished_game(engine, finished("a", 2, "2025-01-31", player="browser-1"))
    assert store_finished_game(engine, finished("b", 1, "2025-01-31", player="browser-2"))
    assert store_finished_game(engine, finished("c", 1, "2025-02-01", player="browser-1"))
    assert store_finished_game(engine, finished("d", 1, "2025-01-31"))
    with Session(engine) as session:
        counted = sorted(r.game_id for r in session.exec(select(DailyResultRow)).all())
    # The replay (a-2) is kept as a finished game but is not another player of that day.
    assert counted == ["a-1", "b-1", "c-1", "d-1"]
    assert load_finished_game(engine, "a-2") is not None


def test_a_record_round_trips_through_its_outbox_text() -> None:
    record = finished("room", 3, "2025-01-31", player="p")
    assert FinishedGame.from_json(record.to_json()) == record
