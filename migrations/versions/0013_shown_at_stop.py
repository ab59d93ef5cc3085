"""table_snapshots.shown: what a table's messages showed when the bot stopped

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06

Stop 53 (docs/bot.md, « Restarts, fewer calls »): a restart edited every lobby and hand
again, and uploaded each finished game's chart again, to show what they already showed
(play-test 36: 17 of the restart's 32 calls and 2 uploads). `table_snapshots.shown` keeps,
beside the state a stop stored last, the digest of what each of the table's messages
showed as Discord had acknowledged it once nothing more could be sent
(`bot.tables.landed.Landed`). Written by the stop only; any later snapshot of the table
clears it, and the next start clears it once read. NULL: nothing is known shown, every
message is drawn again, as before. The downgrade drops the column: the older code redraws
everything at its start.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_snapshots") as batch:
        batch.add_column(sa.Column("shown", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_snapshots") as batch:
        batch.drop_column("shown")
