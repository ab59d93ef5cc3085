"""rounds.has_bots: no longer written, on its way out

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07

`rounds.has_bots` (whether any seat of a stored round was a bot) has been written since
0001 and never read: ratings count the rounds of two humans or more (`rounds.rated`), the
stats count every round played, with bots or not, on purpose, and which seats were bots is
stored per seat (`round_results.is_bot`), which says more. It is to be dropped (docs/bot.md
« Small leftovers (stop 57) »), but not in one step: a deploy runs the older version on
the newer schema for a while (a release phase migrates before the old process stops, an
overlapping deploy waits for its shards' locks while the old one plays on), and the older
code names the column in every round it stores; a PostgreSQL « undefined column » is no
transient failure, so each round finished meanwhile would be dropped for good. This
revision lets the column be NULL, and the code stops writing it (rounds stored from now on
hold NULL); a later revision drops it once the version before it no longer writes it.

The downgrade gives each round stored meanwhile the value the older code wrote, from its
seats' `round_results.is_bot`, and makes the column required again.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_rounds = sa.table("rounds", sa.column("id", sa.Integer()),
                   sa.column("has_bots", sa.Boolean()))
_results = sa.table("round_results", sa.column("round_id", sa.Integer()),
                    sa.column("is_bot", sa.Boolean()))


def upgrade() -> None:
    with op.batch_alter_table("rounds") as batch:
        batch.alter_column("has_bots", existing_type=sa.Boolean(), nullable=True)


def downgrade() -> None:
    with_bots = sa.exists().where(_results.c.round_id == _rounds.c.id,
                                  _results.c.is_bot == sa.true())
    op.get_bind().execute(_rounds.update().where(_rounds.c.has_bots.is_(None))
                          .values(has_bots=with_bots))
    with op.batch_alter_table("rounds") as batch:
        batch.alter_column("has_bots", existing_type=sa.Boolean(), nullable=False)
