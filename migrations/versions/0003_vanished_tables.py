"""players owed the word that their table ended with its channel

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03

A deleted channel takes its table's messages and hands with it; each player who was at the
table is told at their next command or click on the server (`bot.tables.vanished`). What is
owed is kept here, so that a restart in between does not forget it; a row goes once told,
or after a week.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "vanished_tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("channel", sa.String(length=100), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_vanished_tables")),
    )
    op.create_index("ix_vanished_tables_guild_user", "vanished_tables", ["guild_id", "user_id"])
    op.create_index(op.f("ix_vanished_tables_at"), "vanished_tables", ["at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_vanished_tables_at"), table_name="vanished_tables")
    op.drop_index("ix_vanished_tables_guild_user", table_name="vanished_tables")
    op.drop_table("vanished_tables")
