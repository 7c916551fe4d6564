"""Daily results remember which browser played (anonymously) so each counts once a day.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("daily_results") as table:
        table.add_column(sa.Column("player", sa.String(length=64), nullable=True))
        table.create_unique_constraint("uq_daily_results_day_player", ["day", "player"])


def downgrade() -> None:
    with op.batch_alter_table("daily_results") as table:
        table.drop_constraint("uq_daily_results_day_player", type_="unique")
        table.drop_column("player")
