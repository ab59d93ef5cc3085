"""a table's stored status is lobby, playing or closed: never « finished »

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

The first schema allowed a fourth status, « finished », that no version ever wrote: a table
is « playing » from a game's start (its row in `games` is stored then) until it goes back
to its lobby, game over or not, and « closed » at the end. What reads the status only
tells closed tables from open ones. Since no row can hold it, narrowing the check loses
nothing; the downgrade allows it again.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint(batch.f("ck_tables_status"), type_="check")
        batch.create_check_constraint("status", "status IN ('lobby', 'playing', 'closed')")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint(batch.f("ck_tables_status"), type_="check")
        batch.create_check_constraint(
            "status", "status IN ('lobby', 'playing', 'finished', 'closed')")
