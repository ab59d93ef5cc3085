"""house_rules.parent_id: the channel of a thread's house rows

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07

Stop 55 (docs/bot.md, « A deleted place's rows »): a deleted channel or thread forgets its
house rows, but Discord sends nothing for the threads of a deleted channel, and discord.py
reports only those its cache holds (not the archived ones). `house_rules.parent_id` keeps,
on a thread's rows, the channel it is in (NULL on a channel's, and on a thread's written
before: those stay until the server is erased, as before), so that a channel's deletion
takes all its threads' rows with its own; indexed, as that deletion looks them up by it.
The downgrade drops the column and keeps every row: the older code reads them as before.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.add_column(sa.Column("parent_id", sa.BigInteger(), nullable=True))
        batch.create_index(batch.f("ix_house_rules_parent_id"), ["parent_id"])


def downgrade() -> None:
    with op.batch_alter_table("house_rules") as batch:
        batch.drop_index(batch.f("ix_house_rules_parent_id"))
        batch.drop_column("parent_id")
