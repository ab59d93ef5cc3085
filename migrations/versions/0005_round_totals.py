"""each seat's total after a round, as the table showed it

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05

The stored rounds kept what each seat gained, not the game's totals: a past game's chart
summed them, guessing who brought their points back from who took a seat after, and drew a
leaver who sat again after the queue took their seat from their old points where the table
had shown a fresh start (stop 42). Rounds stored before this revision keep a NULL total:
their games are still summed.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("round_results") as batch:
        batch.add_column(sa.Column("total", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round_results") as batch:
        batch.drop_column("total")
