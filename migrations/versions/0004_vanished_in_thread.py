"""whether a vanished table was in a thread

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05

A player owed the word that their table ended with its channel is told « the thread was
deleted » rather than « the channel » when the table was in a thread (play-test 13). Rows
owed before this revision were said of channels: they keep false.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("vanished_tables") as batch:
        batch.add_column(sa.Column("in_thread", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("vanished_tables") as batch:
        batch.drop_column("in_thread")
