"""games.cancelled: a game cancelled after a round counted is listed in the history

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07

Play-test 39 (docs/bot.md « Cancelled games in the history (stop 56) »): presi's game
cancelled for a seat left for good (RULES §10, « no result ») stored no end, so
/president history said no game had been played here while everyone's stats counted its
rounds. The bot now stores its end, when it was cancelled, with `cancelled` true and no
winner: the history lists it as cancelled, with its rounds and its chart, and the stats
still count its rounds and not the game (play-test 14's decision).

The games cancelled before this revision are recognised and marked the same way: no end,
at least one round stored, a table that has moved on since (a later game at it, or its
status no longer « playing »), and rules whose `on_leave` waits then cancels (presi's
default, the only preset's as of this revision; a knob set otherwise counts). Their end is
their last round's end, the nearest time stored. A game of such rules left unended some
other way (a table closed at start for a snapshot it could not read) ended with no result
too, and reads as cancelled. The downgrade gives every cancelled game back the row the
older code wrote (no end, not stopped early) and drops the column.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Ids per UPDATE: under SQLite's 999 bound parameters before 3.32.
CHUNK = 500

_games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("table_id", sa.Integer()),
    sa.column("preset", sa.String()),
    sa.column("rules", sa.JSON()),
    sa.column("ended_at", sa.DateTime(timezone=True)),
    sa.column("stopped_early", sa.Boolean()),
    sa.column("cancelled", sa.Boolean()),
)
_rounds = sa.table("rounds", sa.column("game_id", sa.Integer()),
                   sa.column("finished_at", sa.DateTime(timezone=True)))
_tables = sa.table("tables", sa.column("id", sa.Integer()), sa.column("status", sa.String()))


def _waits_then_cancels(preset: str, rules: Any) -> bool:
    """Whether a game's stored rules (`Rules.to_dict`: its preset and the knobs set
    otherwise) cancel the game for a seat left for good. The presets' defaults as of this
    revision, frozen here: a migration must not read the engine of a later version."""
    knobs = rules.get("set") if isinstance(rules, dict) else None
    chosen = knobs.get("on_leave") if isinstance(knobs, dict) else None
    if chosen is None:
        return preset == "presi"
    return bool(chosen == "wait_then_cancel")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("cancelled", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    later = _games.alias("later")
    unended = (
        sa.select(_games.c.id, _games.c.preset, _games.c.rules)
        .join(_tables, _tables.c.id == _games.c.table_id)
        .where(
            _games.c.ended_at.is_(None),
            sa.exists().where(_rounds.c.game_id == _games.c.id),
            sa.or_(_tables.c.status != "playing", sa.exists().where(
                later.c.table_id == _games.c.table_id, later.c.id > _games.c.id)),
        )
    )
    connection = op.get_bind()
    cancelled = [row.id for row in connection.execute(unended)
                 if _waits_then_cancels(row.preset, row.rules)]
    last_round = (sa.select(sa.func.max(_rounds.c.finished_at))
                  .where(_rounds.c.game_id == _games.c.id).scalar_subquery())
    for start in range(0, len(cancelled), CHUNK):
        connection.execute(
            _games.update().where(_games.c.id.in_(cancelled[start:start + CHUNK]))
            .values(ended_at=last_round, stopped_early=True, cancelled=True))


def downgrade() -> None:
    op.get_bind().execute(_games.update().where(_games.c.cancelled.is_(True))
                          .values(ended_at=None, stopped_early=False))
    with op.batch_alter_table("games") as batch:
        batch.drop_column("cancelled")
