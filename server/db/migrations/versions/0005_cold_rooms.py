"""Cold rooms: correspondence rooms idle long enough to leave Redis for the database.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cold_rooms",
        sa.Column("room_id", sa.String(length=32), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=False),
        sa.Column("stored_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cold_rooms")
