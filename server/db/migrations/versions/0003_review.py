"""Game review: the computer's seat and level of finished games, and cached analyses.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("finished_games") as table:
        table.add_column(sa.Column("computer_seat", sa.Integer(), nullable=True))
        table.add_column(sa.Column("level", sa.String(length=16), nullable=True))
    op.create_table(
        "analyses",
        sa.Column("id", sa.String(length=64), primary_key=True),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("positions", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")
    with op.batch_alter_table("finished_games") as table:
        table.drop_column("level")
        table.drop_column("computer_seat")
