"""Alembic environment: migrations run on the connection ``server.db.session.migrate`` gives."""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import server.db.models  # noqa: F401  (registers the tables on SQLModel.metadata)

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through server.db.session.migrate")
context.configure(connection=connection, target_metadata=SQLModel.metadata)
with context.begin_transaction():
    context.run_migrations()
