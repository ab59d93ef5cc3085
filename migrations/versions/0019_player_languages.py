"""player_languages: the language a player chose for their own messages

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07

A player's wish, open for many stops (docs/bot.md « A language of one's own (stop 58) »):
their hands, refusals and private answers followed each interaction's Discord locale, so
a French phone and an English desktop showed both languages. `/president my-language`
keeps a choice per player, on every server; no row is Discord's locale, as before. The
downgrade drops the table: the older code follows Discord's locale, and the choices are
gone (a later upgrade starts with none).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_languages",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(length=2), nullable=False),
        sa.Column("chosen_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("language IN ('fr', 'en')",
                           name=op.f("ck_player_languages_language")),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_player_languages")),
    )


def downgrade() -> None:
    op.drop_table("player_languages")
