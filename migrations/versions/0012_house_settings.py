"""house_rules.settings: the table settings a channel keeps beside its house rules

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-06

Stop 52 (docs/bot.md, « House rules, leftovers »): a host who plays with hard bots and
« Conseil » on set them again at every table. `house_rules.settings` keeps the table's
settings beside the rules (the bots' level, « Conseil », reminders), as
`TableSettings.to_dict` writes them; rows written before stay NULL and read as the
defaults. The downgrade drops the column: the older code reads the rules as before and
opens tables at the default settings.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.add_column(sa.Column("settings", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.drop_column("settings")
