"""why a seat's holder went during a round: left, or removed by someone else

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06

Play-test 26 rated whoever went during a round behind every human who stayed, but a stored
round did not say why a seat was left: a player the host removed, or a moderator kicked or
banned from the server, was rated as if they had fled (stop 49). `round_results.departure`
says it: « left », « removed », or NULL where the holder stayed. Rounds stored before this
revision keep NULL and are read as before (a left seat as left by its holder). The
downgrade drops the column: the older code reads a removed seat as left, the ratings stored
meanwhile staying as they are.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("round_results") as batch:
        batch.add_column(sa.Column("departure", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("round_results") as batch:
        batch.drop_column("departure")
