"""rounds.has_bots: dropped

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07

The second of two steps (0017's notes, docs/bot.md « Small leftovers (stop 57) »): the
column, never read, has not been written since 0017's version, which is the one deployed
before this revision, so no process still running during a deploy names it. An operator
jumping from a version before 0017's straight to this one would drop the column under an
older process that still writes it, and each round that process finishes meanwhile would
be lost (a PostgreSQL undefined column is no transient failure): deploy 0017's version
first, or stop every old process before migrating (docs/deploy.md).

The downgrade adds the column back as 0017 left it, NULL for every round: 0017's version
neither writes nor reads it, and 0017's own downgrade fills it from the seats.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("has_bots")


def downgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("has_bots", sa.Boolean(), nullable=True))
