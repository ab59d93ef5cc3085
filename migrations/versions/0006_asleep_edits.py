"""edits an archived thread refused, owed once it wakes

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06

Discord refuses every edit in an archived thread: a table that went on in a fresh message
there, or closed there, owes its old messages the edit that leaves them without buttons
(`bot.tables.asleep`). Kept only in memory, a restart while the thread slept left them
with a turn long past and live buttons. A row goes once sent, or after a week.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "asleep_edits",
        sa.Column("message_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
        sa.Column("people", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("message_id", name=op.f("pk_asleep_edits")),
    )
    op.create_index(op.f("ix_asleep_edits_guild_id"), "asleep_edits", ["guild_id"])
    op.create_index(op.f("ix_asleep_edits_at"), "asleep_edits", ["at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_asleep_edits_at"), table_name="asleep_edits")
    op.drop_index(op.f("ix_asleep_edits_guild_id"), table_name="asleep_edits")
    op.drop_table("asleep_edits")
