"""player_languages.client_locale: the locale Discord sent with the choice

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07

A player who chose a language and gives the choice up (« As Discord says ») on another
process's server has their seats and hands on this process redrawn in their Discord's
locale at its next reading, which only an interaction of theirs here told it: one who had
not acted here since this process started kept the language they left until they did
(docs/bot.md « Leftovers of stop 59 (stop 60) »). The process that stores a choice now
keeps the locale Discord sent with it, which every process reads with the choice. NULL
for choices stored before (and by an older process during a deploy): as before, left to
the player's next interaction. The downgrade drops the column, the choices kept.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("player_languages") as batch:
        batch.add_column(sa.Column("client_locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player_languages") as batch:
        batch.drop_column("client_locale")
