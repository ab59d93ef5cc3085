"""the word owed to the channel of a table found unreadable at start

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06

A table whose stored state this version cannot read (a rollback to an older version) is
closed at start, and its channel is told once the gateway describes its server
(`bot.tables.restore`). Kept only in memory, a stop before then lost the word for good:
the next start found the table closed, and its messages kept their dead buttons. A row goes
once told, or after a week.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "unreadable_tables",
        sa.Column("table_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("message_ids", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_unreadable_tables")),
    )
    op.create_index(op.f("ix_unreadable_tables_guild_id"), "unreadable_tables", ["guild_id"])
    op.create_index(op.f("ix_unreadable_tables_at"), "unreadable_tables", ["at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_unreadable_tables_at"), table_name="unreadable_tables")
    op.drop_index(op.f("ix_unreadable_tables_guild_id"), table_name="unreadable_tables")
    op.drop_table("unreadable_tables")
