"""house_rules: the rules a channel last played, which its next table starts from

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06

Play-test 33: a server's regulars play the same variant every evening, and every
`/president create` started from the preset's defaults. A row per channel and preset keeps
the rules of the last game played there (or the settings its host last confirmed), for the
next table to start from. The downgrade drops the table: the older code opens tables at the
preset's defaults, as before.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "house_rules",
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("channel_id", "preset", name=op.f("pk_house_rules")),
    )
    op.create_index(op.f("ix_house_rules_guild_id"), "house_rules", ["guild_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_house_rules_guild_id"), table_name="house_rules")
    op.drop_table("house_rules")
