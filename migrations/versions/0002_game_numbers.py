"""games are numbered per table, so a game's row is found from the table's own snapshot

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30

A new game's first snapshot could be written before its row existed; after a crash the
restored game had no id (after Start) or the previous game's id (after Replay), and its
rounds were lost or misattributed. The snapshot now carries the table's game number, and the
row is created idempotently from it by (table_id, game_no). Games stored before this
revision keep a NULL number: they are never looked up by it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game_no", sa.Integer(), nullable=True))
    op.create_index("uq_games_table_game_no", "games", ["table_id", "game_no"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_games_table_game_no", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("game_no")
