"""Finished games and daily-board results.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "finished_games",
        sa.Column("id", sa.String(length=64), primary_key=True),
        sa.Column("room_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.Column("score0", sa.Integer(), nullable=False),
        sa.Column("score1", sa.Integer(), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("daily", sa.Date(), nullable=True),
    )
    op.create_index("ix_finished_games_room_id", "finished_games", ["room_id"])
    op.create_index("ix_finished_games_daily", "finished_games", ["daily"])
    op.create_table(
        "daily_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False, unique=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("opponent_score", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_daily_results_day", "daily_results", ["day"])


def downgrade() -> None:
    op.drop_table("daily_results")
    op.drop_table("finished_games")
