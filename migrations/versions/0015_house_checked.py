"""house_rules.checked_at: when the sweep last found a place alive

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07

Stop 56 (docs/bot.md, « Deleted places, swept »): at start-up the bot asks Discord about a
few of each server's house rows whose place its GUILD_CREATE does not list (a deleted
place, or an archived thread), one Get Channel each. `house_rules.checked_at` keeps when a
place was last found there (or out of the bot's reach), so that the next starts ask about
the others first and leave it alone for a while: without it, each start would ask about
the same first few, and the rest would never be looked at. NULL: never checked. Nothing
reads it by itself, so no index. The downgrade drops the column and keeps every row.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.add_column(sa.Column("checked_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.drop_column("checked_at")
