"""Bots: accounts (hashed tokens), open challenges, the rooms bots play and ratings.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bots",
        sa.Column("name", sa.String(length=32), primary_key=True),
        sa.Column("name_key", sa.String(length=32), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(length=64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True, index=True),
        sa.Column("ladder", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("seen_at", sa.DateTime(), nullable=True),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(length=24), primary_key=True),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("from_name", sa.String(length=32), nullable=True),
        sa.Column("from_bot", sa.Boolean(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("target", sa.String(length=32), nullable=True, index=True),
        sa.Column("status", sa.String(length=16), nullable=False, index=True),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("room_id", sa.String(length=32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("taker_name", sa.String(length=32), nullable=True),
        sa.Column("taker_bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False, index=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False, index=True),
    )
    op.create_table(
        "bot_games",
        sa.Column("room_id", sa.String(length=32), primary_key=True),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("size_class", sa.String(length=16), nullable=False),
        sa.Column("mode", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("player0", sa.String(length=40), nullable=False, index=True),
        sa.Column("player1", sa.String(length=40), nullable=False, index=True),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True, index=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=64), nullable=True),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(length=40), primary_key=True),
        sa.Column("game", sa.String(length=16), primary_key=True),
        sa.Column("size_class", sa.String(length=16), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ratings")
    op.drop_table("bot_games")
    op.drop_table("challenges")
    op.drop_table("bots")
