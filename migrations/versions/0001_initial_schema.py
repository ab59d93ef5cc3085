"""initial schema: guilds, users, tables, live snapshots, games, rounds, ratings

Revision ID: 0001
Revises:
Create Date: 2026-11-29

Types are spelled out here rather than imported from bot.storage.models so that this
revision keeps describing the same schema when the models move on.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_DATETIME = sa.DateTime(timezone=True)
OPEN_TABLES = sa.text("status != 'closed'")


def upgrade() -> None:
    op.create_table(
        "guilds",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("language", sa.String(length=16), nullable=True),
        sa.Column("default_preset", sa.String(length=32), nullable=True),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_guilds")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["guild_id"], ["guilds.id"], name=op.f("fk_ratings_guild_id_guilds")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users")),
        sa.PrimaryKeyConstraint("guild_id", "preset", "user_id", name=op.f("pk_ratings")),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", UTC_DATETIME, nullable=False),
        sa.Column("updated_at", UTC_DATETIME, nullable=False),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished', 'closed')",
            name=op.f("ck_tables_status"),
        ),
        sa.ForeignKeyConstraint(["guild_id"], ["guilds.id"], name=op.f("fk_tables_guild_id_guilds")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
    )
    with op.batch_alter_table("tables") as batch_op:
        batch_op.create_index(batch_op.f("ix_tables_channel_id"), ["channel_id"])
        batch_op.create_index("ix_tables_guild_status", ["guild_id", "status"])
        batch_op.create_index(
            "uq_tables_open_channel",
            ["channel_id"],
            unique=True,
            sqlite_where=OPEN_TABLES,
            postgresql_where=OPEN_TABLES,
        )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("preset", sa.String(length=32), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("started_at", UTC_DATETIME, nullable=False),
        sa.Column("ended_at", UTC_DATETIME, nullable=True),
        sa.Column("stopped_early", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["guild_id"], ["guilds.id"], name=op.f("fk_games_guild_id_guilds")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_games_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games") as batch_op:
        batch_op.create_index("ix_games_guild_preset", ["guild_id", "preset"])
        batch_op.create_index("ix_games_table_ended", ["table_id", "ended_at"])
    op.create_table(
        "table_snapshots",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("saved_at", UTC_DATETIME, nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["tables.id"],
            name=op.f("fk_table_snapshots_table_id_tables"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_table_snapshots")),
    )
    op.create_table(
        "game_seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("is_winner", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_game_seats_user_id_users")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seats")),
    )
    with op.batch_alter_table("game_seats") as batch_op:
        batch_op.create_index(batch_op.f("ix_game_seats_user_id"), ["user_id"])
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_no", sa.Integer(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("finished_at", UTC_DATETIME, nullable=False),
        sa.Column("has_bots", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_rounds_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rounds")),
        sa.UniqueConstraint("game_id", "round_no", name=op.f("uq_rounds_game_id_round_no")),
    )
    op.create_table(
        "round_results",
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["rounds.id"],
            name=op.f("fk_round_results_round_id_rounds"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_round_results_user_id_users")
        ),
        sa.PrimaryKeyConstraint("round_id", "seat", name=op.f("pk_round_results")),
    )
    with op.batch_alter_table("round_results") as batch_op:
        batch_op.create_index(batch_op.f("ix_round_results_user_id"), ["user_id"])


def downgrade() -> None:
    with op.batch_alter_table("round_results") as batch_op:
        batch_op.drop_index(batch_op.f("ix_round_results_user_id"))
    op.drop_table("round_results")
    op.drop_table("rounds")
    with op.batch_alter_table("game_seats") as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_seats_user_id"))
    op.drop_table("game_seats")
    op.drop_table("table_snapshots")
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_index("ix_games_table_ended")
        batch_op.drop_index("ix_games_guild_preset")
    op.drop_table("games")
    with op.batch_alter_table("tables") as batch_op:
        batch_op.drop_index(
            "uq_tables_open_channel", sqlite_where=OPEN_TABLES, postgresql_where=OPEN_TABLES
        )
        batch_op.drop_index("ix_tables_guild_status")
        batch_op.drop_index(batch_op.f("ix_tables_channel_id"))
    op.drop_table("tables")
    op.drop_table("ratings")
    op.drop_table("users")
    op.drop_table("guilds")
