"""guilds lose default_preset, a column nothing ever wrote

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06

The first schema gave each server a default preset that no command ever set (its setter,
which only its own test called, went at stop 48); forget-server still counted it as one of a
server's choices. Every row holds NULL there, so dropping it loses nothing, and the
downgrade brings it back empty.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guilds") as batch:
        batch.drop_column("default_preset")


def downgrade() -> None:
    with op.batch_alter_table("guilds") as batch:
        batch.add_column(sa.Column("default_preset", sa.String(length=32), nullable=True))
