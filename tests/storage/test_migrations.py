"""Migrations go up, down and up again on both backends and match the models exactly."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bot.storage import ChannelBusy, SeatRef, Storage, Winner, downgrade_to, upgrade_to_head
from bot.storage.db import NewerDatabase, create_engine
from bot.storage.models import Base
from engine.rules import RulesDict

from .test_scores import ALICE, BOB, BOT, CAROL, DAVE, human, new_game, play_round

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = {table.name for table in Base.metadata.sorted_tables}
#: The tables 0019 added: the downgrades below it, which the older tests make, drop them.
LATER = {"player_languages"}
MAX_SNOWFLAKE = (1 << 63) - 1  # the largest id a signed 64-bit column (both backends) holds


async def _inspect(url: str) -> tuple[set[str], list[Any], str | None]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:

            def run(sync: Connection) -> tuple[set[str], list[Any], str | None]:
                context = MigrationContext.configure(sync, opts={"compare_type": True})
                return (
                    set(inspect(sync).get_table_names()),
                    compare_metadata(context, Base.metadata),
                    context.get_current_revision(),
                )

            return await connection.run_sync(run)
    finally:
        await engine.dispose()


async def _columns_after_downgrade(url: str, revision: str, table: str) -> set[str]:
    """Downgrade to ``revision`` (checked) and read ``table``'s column names."""
    await downgrade_to(url, revision)
    _, _, reached = await _inspect(url)
    assert reached == revision
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return await connection.run_sync(
                lambda sync: {c["name"] for c in inspect(sync).get_columns(table)})
    finally:
        await engine.dispose()


async def _back_at_head(url: str) -> None:
    """Upgrade to head again: the schema is the models' (nothing to autogenerate)."""
    await upgrade_to_head(url)
    _, diff, _ = await _inspect(url)
    assert diff == []


async def _column_goes_and_comes_back(url: str, revision: str, table: str, column: str,
                                      kept: str, counts: dict[str, int]) -> None:
    """Downgraded to ``revision``, ``table`` loses ``column`` but keeps ``kept``, and every
    table its rows (``counts``); upgraded again, the schema is the models'."""
    columns = await _columns_after_downgrade(url, revision, table)
    assert column not in columns and kept in columns
    assert await _row_counts(url) == counts
    await _back_at_head(url)


async def test_up_down_up(empty_db_url: str) -> None:
    # Two start-ups racing in one process (alembic's context is process-global).
    await asyncio.gather(upgrade_to_head(empty_db_url), upgrade_to_head(empty_db_url))
    tables, diff, revision = await _inspect(empty_db_url)
    assert tables >= SCHEMA
    assert diff == []
    assert revision is not None

    await downgrade_to(empty_db_url, "base")
    tables, _, revision = await _inspect(empty_db_url)
    assert tables <= {"alembic_version"}
    assert revision is None

    await upgrade_to_head(empty_db_url)
    tables, diff, _ = await _inspect(empty_db_url)
    assert tables >= SCHEMA
    assert diff == []
    storage = await Storage.open(empty_db_url)
    try:
        table_id = await storage.create_table(1, 2, 3, {"preset": "classic", "set": {}})
        assert (await storage.get_table(table_id)) is not None
    finally:
        await storage.close()


def test_release_command_from_several_processes(empty_db_url: str) -> None:
    """The Procfile release line, `alembic upgrade head` with DATABASE_URL, run by several
    processes at once (a deploy starting every shard); SQLite's directory is created."""
    env = {**os.environ, "DATABASE_URL": empty_db_url}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "alembic", "upgrade", "head"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    for process in processes:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, errors.decode()
    tables, diff, _ = asyncio.run(_inspect(empty_db_url))
    assert tables >= SCHEMA
    assert diff == []


def test_the_command_line_reads_database_url_from_dotenv_as_the_bot_does(
        tmp_path: Path) -> None:
    """An admin with DATABASE_URL in `.env` (as .env.example says) ran `alembic upgrade
    head`: it migrated the default SQLite file, not the database the bot runs on."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'from_dotenv.db'}"
    (tmp_path / ".env").write_text(f"DATABASE_URL={url}\n")
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "alembic", "-c", str(ROOT / "alembic.ini"),
                           "upgrade", "head"], cwd=tmp_path, env=env, capture_output=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert (tmp_path / "from_dotenv.db").is_file() and not (tmp_path / "data").exists()
    tables, diff, _ = asyncio.run(_inspect(url))
    assert tables >= SCHEMA and diff == []


async def _row_counts(url: str, tables: set[str] = SCHEMA - LATER) -> dict[str, int]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return {
                name: (await connection.execute(text(f"SELECT COUNT(*) FROM {name}"))).scalar_one()
                for name in sorted(tables)
            }
    finally:
        await engine.dispose()


async def test_stored_results_survive_a_downgrade_and_the_upgrade_after_it(
    empty_db_url: str,
) -> None:
    """A rollback to 0001 and the redeploy after it keep every row of the tables 0001 has:
    on SQLite the batch migration copies `games` into a new table, which with foreign keys
    enforced would cascade into its seats and rounds; on PostgreSQL the column is dropped in
    place. The notices owed to a deleted channel's players (0003), the edits owed to an
    archived thread's messages (0006) and the word owed to an unreadable table's channel
    (0007) go with their tables: courtesies, not results; so do the channels' house rules
    (0011) and the players' languages (0019), conveniences the older code cannot read."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    try:
        table_id, game_id = await new_game(storage, seats, guild=MAX_SNOWFLAKE)
        assert await play_round(storage, game_id, 1, seats, [3, 2, 1, 0])
        assert await storage.finish_game(game_id, winners=[3], stopped_early=False)
        assert await storage.save_snapshot(table_id, 1, {"table": table_id})
        await storage.owe_vanished(MAX_SNOWFLAKE, [DAVE], "cartes", datetime.now(UTC))
        await storage.owe_edit(MAX_SNOWFLAKE, MAX_SNOWFLAKE, MAX_SNOWFLAKE, "fin", [DAVE],
                               datetime.now(UTC))
        unreadable = await storage.create_table(MAX_SNOWFLAKE, MAX_SNOWFLAKE, DAVE,
                                                {"preset": "classic", "set": {}})
        await storage.close_unreadable(unreadable, MAX_SNOWFLAKE, MAX_SNOWFLAKE, "fr",
                                       [MAX_SNOWFLAKE])
        await storage.remember_house_rules(MAX_SNOWFLAKE, MAX_SNOWFLAKE,
                                           {"preset": "classic", "set": {}})
        await storage.choose_language(DAVE, "fr")
        stats = await storage.player_stats(MAX_SNOWFLAKE, DAVE)
    finally:
        await storage.close()
    assert all((await _row_counts(empty_db_url, SCHEMA)).values())

    courtesies = {"vanished_tables", "asleep_edits", "unreadable_tables", "house_rules",
                  "player_languages"}
    kept = SCHEMA - courtesies
    counts = await _row_counts(empty_db_url, kept)
    await downgrade_to(empty_db_url, "0001")
    assert await _row_counts(empty_db_url, kept) == counts
    await upgrade_to_head(empty_db_url)
    assert await _row_counts(empty_db_url, kept) == counts
    assert await _row_counts(empty_db_url, courtesies) == dict.fromkeys(courtesies, 0)
    _, diff, _ = await _inspect(empty_db_url)
    assert diff == []
    storage = await Storage.open(empty_db_url)
    try:
        assert await storage.player_stats(MAX_SNOWFLAKE, DAVE) == stats
        assert [game.winners for game in await storage.game_history(table_id=table_id)] == [
            (Winner(3, DAVE, False, "Dave"),)
        ]
    finally:
        await storage.close()


async def test_a_database_a_newer_version_migrated_is_refused_in_one_sentence(
    empty_db_url: str,
) -> None:
    """The code rolled back without the schema (play-test 15): alembic's « Can't locate
    revision » traceback came at every start. The bot says what happened and what to run,
    and changes nothing."""
    await upgrade_to_head(empty_db_url)
    _, _, head = await _inspect(empty_db_url)
    engine = create_engine(empty_db_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    finally:
        await engine.dispose()
    try:
        await upgrade_to_head(empty_db_url)
    except NewerDatabase as err:
        said = str(err)
    else:
        raise AssertionError("a newer database was migrated")
    assert "revision 0099" in said and f"alembic downgrade {head}`" in said
    engine = create_engine(empty_db_url)
    try:
        async with engine.connect() as connection:
            assert (await connection.execute(text("SELECT version_num FROM alembic_version"))
                    ).scalar_one() == "0099"
    finally:
        await engine.dispose()


async def _guild_columns(url: str) -> tuple[set[str], list[tuple[Any, ...]]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda sync: {c["name"] for c in inspect(sync).get_columns("guilds")})
            rows = (await connection.execute(text("SELECT * FROM guilds ORDER BY id"))).all()
            return columns, [tuple(row) for row in rows]
    finally:
        await engine.dispose()


async def test_the_unused_default_preset_goes_and_comes_back_empty(empty_db_url: str) -> None:
    """0008 drops `guilds.default_preset`, which nothing ever wrote: a server's language and
    its tables stay (on SQLite the batch copies `guilds`, which the tables point to); the
    downgrade brings the column back, empty."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    try:
        await storage.set_guild_language(MAX_SNOWFLAKE, "fr")
        table_id = await storage.create_table(MAX_SNOWFLAKE, 2, 3, {"preset": "classic",
                                                                    "set": {}})
    finally:
        await storage.close()
    columns, rows = await _guild_columns(empty_db_url)
    assert "default_preset" not in columns and "language" in columns

    await downgrade_to(empty_db_url, "0007")
    before, _ = await _guild_columns(empty_db_url)
    assert before == columns | {"default_preset"}
    engine = create_engine(empty_db_url)
    try:
        async with engine.connect() as connection:
            assert (await connection.execute(text(
                "SELECT id, language, default_preset FROM guilds"))).all() == [
                (MAX_SNOWFLAKE, "fr", None)]
    finally:
        await engine.dispose()

    await upgrade_to_head(empty_db_url)
    assert await _guild_columns(empty_db_url) == (columns, rows)
    _, diff, _ = await _inspect(empty_db_url)
    assert diff == []
    storage = await Storage.open(empty_db_url)
    try:
        assert (await storage.get_guild_settings(MAX_SNOWFLAKE)).language == "fr"
        assert (await storage.get_table(table_id)) is not None
    finally:
        await storage.close()


async def _set_status(url: str, table_id: int, status: str) -> bool:
    """Whether the schema lets a table's status be `status` (the row is left as it was)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            transaction = await connection.begin()
            try:
                await connection.execute(text("UPDATE tables SET status = :status WHERE id = :id"),
                                         {"status": status, "id": table_id})
            except IntegrityError:
                return False
            finally:
                await transaction.rollback()
            return True
    finally:
        await engine.dispose()


async def test_finished_goes_from_the_statuses_a_table_may_have(empty_db_url: str) -> None:
    """0009 narrows the statuses' check to those the bot writes (lobby, playing, closed):
    « finished » was never written. The downgrade allows it again; the open-table index
    and a table's rows survive the batch copy on SQLite."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    try:
        table_id = await storage.create_table(1, 2, 3, {"preset": "classic", "set": {}},
                                              status="playing")
    finally:
        await storage.close()
    assert await _set_status(empty_db_url, table_id, "closed")
    assert not await _set_status(empty_db_url, table_id, "finished")

    await downgrade_to(empty_db_url, "0008")
    assert await _set_status(empty_db_url, table_id, "finished")

    await upgrade_to_head(empty_db_url)
    assert not await _set_status(empty_db_url, table_id, "finished")
    _, diff, _ = await _inspect(empty_db_url)
    assert diff == []
    storage = await Storage.open(empty_db_url)
    try:
        stored = await storage.get_table_by_channel(2)
        assert stored is not None and (stored.table_id, stored.status) == (table_id, "playing")
        with pytest.raises(ChannelBusy):
            await storage.create_table(1, 2, 4, {"preset": "classic", "set": {}})
    finally:
        await storage.close()


async def _departures(url: str) -> list[tuple[Any, ...]]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in (await connection.execute(text(
                "SELECT seat, user_id, is_bot, departure FROM round_results ORDER BY seat")
            )).all()]
    finally:
        await engine.dispose()


async def test_why_a_seat_was_left_goes_and_comes_back_empty(empty_db_url: str) -> None:
    """0010 adds `round_results.departure`: a seat someone else removed (BOB's) is not
    rated for its holder. The downgrade drops it, the rows staying; upgraded again, the
    round reads as one stored before 0010 (BOB's seat as left: behind those who stayed),
    while the ratings stored stay as they were."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    seats = [human(ALICE), SeatRef(BOB, True, "Bob", "removed"), human(CAROL), human(DAVE)]
    try:
        _, game_id = await new_game(storage, seats, guild=MAX_SNOWFLAKE)
        assert await play_round(storage, game_id, 1, seats, [1, 0, 2, 3])
        assert (await storage.player_stats(MAX_SNOWFLAKE, BOB)).rounds == 0
        rated = (await storage.player_stats(MAX_SNOWFLAKE, ALICE)).ratings
    finally:
        await storage.close()
    assert await _departures(empty_db_url) == [
        (0, ALICE, False, None), (1, BOB, True, "removed"), (2, CAROL, False, None),
        (3, DAVE, False, None)]

    await downgrade_to(empty_db_url, "0009")
    engine = create_engine(empty_db_url)
    try:
        async with engine.connect() as connection:
            columns = await connection.run_sync(
                lambda sync: {c["name"] for c in inspect(sync).get_columns("round_results")})
            assert "departure" not in columns
            assert (await connection.execute(text("SELECT COUNT(*) FROM round_results"))
                    ).scalar_one() == 4
    finally:
        await engine.dispose()

    await _back_at_head(empty_db_url)
    assert [row[3] for row in await _departures(empty_db_url)] == [None] * 4
    storage = await Storage.open(empty_db_url)
    try:
        assert (await storage.player_stats(MAX_SNOWFLAKE, BOB)).rounds == 1
        assert (await storage.player_stats(MAX_SNOWFLAKE, ALICE)).ratings == rated
    finally:
        await storage.close()


async def test_the_house_rules_come_and_go_with_0011(empty_db_url: str) -> None:
    """0011 adds `house_rules`, the rules a channel's next table starts from. The downgrade
    drops it and nothing else (the older code opens tables at the preset's defaults);
    upgraded again, the channel has none and the schema matches the models."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    presi: RulesDict = {"preset": "presi", "set": {"revolution": False}}
    try:
        table_id = await storage.create_table(MAX_SNOWFLAKE, MAX_SNOWFLAKE, ALICE, presi)
        await storage.start_game(table_id, game_no=1, preset="presi", rules=presi,
                                 seats=[human(ALICE), human(BOB)], house=MAX_SNOWFLAKE)
        assert await storage.house_rules(MAX_SNOWFLAKE) == presi
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)
    assert counts["house_rules"] == 1

    await downgrade_to(empty_db_url, "0010")
    tables, _, revision = await _inspect(empty_db_url)
    assert "house_rules" not in tables and revision == "0010"
    counts.pop("house_rules")
    assert await _row_counts(empty_db_url, SCHEMA - LATER - {"house_rules"}) == counts

    await _back_at_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    try:
        assert await storage.house_rules(MAX_SNOWFLAKE) is None
        assert (await storage.get_table(table_id)) is not None
    finally:
        await storage.close()


async def test_the_house_settings_come_and_go_with_0012(empty_db_url: str) -> None:
    """0012 adds `house_rules.settings`, the table settings kept beside the rules. The
    downgrade drops the column and keeps every row (0011's code reads the rules as
    before); upgraded again, the rows read with no settings and the schema matches."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    presi: RulesDict = {"preset": "presi", "set": {"revolution": False}}
    try:
        await storage.remember_house_rules(MAX_SNOWFLAKE, MAX_SNOWFLAKE, presi,
                                           {"bot_level": "hard"}, thread_id=MAX_SNOWFLAKE - 1)
        kept = await storage.house(MAX_SNOWFLAKE)
        assert kept is not None and kept.settings == {"bot_level": "hard"}
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)
    assert counts["house_rules"] == 2

    await _column_goes_and_comes_back(empty_db_url, "0011", "house_rules", "settings", "rules",
                                      counts)
    storage = await Storage.open(empty_db_url)
    try:
        kept = await storage.house(MAX_SNOWFLAKE)
        assert kept is not None and (kept.rules, kept.settings) == (presi, None)
    finally:
        await storage.close()


async def test_what_is_shown_comes_and_goes_with_0013(empty_db_url: str) -> None:
    """0013 adds `table_snapshots.shown`, what a stop kept of its tables' messages. The
    downgrade drops the column and keeps every snapshot (0012's code draws everything
    again at its start); upgraded again, nothing is known shown."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    shown = {"seq": 3, "messages": {"1": "digest"}, "hands": {}}
    try:
        table_id = await storage.create_table(MAX_SNOWFLAKE, MAX_SNOWFLAKE, ALICE,
                                              {"preset": "classic", "set": {}})
        assert await storage.save_snapshot(table_id, 3, {"v": 3})
        await storage.keep_shown([(table_id, 3, shown)])
        kept = await storage.load_snapshot(table_id)
        assert kept is not None and kept.shown == shown
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)

    await _column_goes_and_comes_back(empty_db_url, "0012", "table_snapshots", "shown", "state",
                                      counts)
    storage = await Storage.open(empty_db_url)
    try:
        kept = await storage.load_snapshot(table_id)
        assert kept is not None and kept.shown is None and kept.state == {"v": 3}
    finally:
        await storage.close()


async def test_a_threads_channel_comes_and_goes_with_0014(empty_db_url: str) -> None:
    """0014 adds `house_rules.parent_id`, a thread's channel. The downgrade drops it and
    keeps every row; upgraded again, the thread's row no longer says its channel (a
    channel's deletion leaves it, as before 0014) and the schema matches."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    presi: RulesDict = {"preset": "presi", "set": {"revolution": False}}
    thread = MAX_SNOWFLAKE - 1
    try:
        await storage.remember_house_rules(MAX_SNOWFLAKE, MAX_SNOWFLAKE, presi,
                                           thread_id=thread)
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)
    assert counts["house_rules"] == 2

    await _column_goes_and_comes_back(empty_db_url, "0013", "house_rules", "parent_id",
                                      "settings", counts)
    storage = await Storage.open(empty_db_url)
    try:
        assert await storage.forget_house([MAX_SNOWFLAKE]) == 1
        assert await storage.house_rules(thread) == presi
    finally:
        await storage.close()


async def test_a_places_check_comes_and_goes_with_0015(empty_db_url: str) -> None:
    """0015 adds `house_rules.checked_at`, when the start-up sweep last found the place
    (stop 56). The downgrade drops it and keeps every row; upgraded again, the place reads
    as never checked and the schema matches."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    presi: RulesDict = {"preset": "presi", "set": {"revolution": False}}
    thread = MAX_SNOWFLAKE - 1
    try:
        await storage.remember_house_rules(MAX_SNOWFLAKE, MAX_SNOWFLAKE, presi,
                                           thread_id=thread)
        await storage.place_checked(thread, MAX_SNOWFLAKE)
        [checked, _] = await storage.house_places(MAX_SNOWFLAKE)
        assert checked.channel_id == thread and checked.checked_at is not None
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)
    assert counts["house_rules"] == 2

    await _column_goes_and_comes_back(empty_db_url, "0014", "house_rules", "checked_at",
                                      "parent_id", counts)
    storage = await Storage.open(empty_db_url)
    try:
        places = await storage.house_places(MAX_SNOWFLAKE)
        assert [(p.channel_id, p.parent_id, p.checked_at) for p in places] == [
            (thread, MAX_SNOWFLAKE, None), (MAX_SNOWFLAKE, None, None)]
    finally:
        await storage.close()


async def _games(url: str) -> dict[int, tuple[bool, bool, bool, bool]]:
    """Each game's (ended, stopped early, cancelled, ended as its last round did)."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            rows = await connection.execute(text(
                "SELECT id, ended_at IS NOT NULL, stopped_early, cancelled, ended_at = "
                "(SELECT MAX(finished_at) FROM rounds WHERE rounds.game_id = games.id) "
                "FROM games"))
            return {row[0]: (bool(row[1]), bool(row[2]), bool(row[3]), bool(row[4]))
                    for row in rows}
    finally:
        await engine.dispose()


async def test_cancelled_games_come_and_go_with_0016(empty_db_url: str) -> None:
    """0016 adds `games.cancelled` (play-test 39). The downgrade gives a cancelled game the
    row the older code wrote (no end, not stopped early); the upgrade marks the games the
    older code left so as cancelled, ended when their last round did: a presi game with a
    round whose table moved on (a later game there, or back in its lobby), or any game whose
    rules waited then cancelled. Left alone: a game under way, a game without a round,
    a game whose rules replace a leaver by a bot, a game that ended."""
    await upgrade_to_head(empty_db_url)
    clock = datetime(2026, 12, 7, 20, tzinfo=UTC)

    def now() -> datetime:
        nonlocal clock
        clock += timedelta(minutes=1)
        return clock

    storage = await Storage.open(empty_db_url, now=now)
    presi: RulesDict = {"preset": "presi", "set": {}}
    classic: RulesDict = {"preset": "classic", "set": {}}
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    games: dict[str, int] = {}

    async def game(name: str, table: int, game_no: int, rules: RulesDict, rounds: int) -> int:
        games[name] = await storage.start_game(table, game_no=game_no, preset=rules["preset"],
                                               rules=rules, seats=seats)
        for number in range(1, rounds + 1):
            assert await play_round(storage, games[name], number, seats, [0, 1, 2, 3])
        return games[name]

    try:
        moved_on = await storage.create_table(MAX_SNOWFLAKE, 100, ALICE, presi,
                                              status="playing")
        assert await storage.cancel_game(await game("cancelled", moved_on, 1, presi, 2))
        await game("under way", moved_on, 2, presi, 1)
        lobby = await storage.create_table(MAX_SNOWFLAKE, 101, ALICE, presi, status="lobby")
        await game("back in the lobby", lobby, 1, presi, 1)
        await game("no round", lobby, 2, presi, 0)
        assert await storage.finish_game(await game("ended", lobby, 3, presi, 1),
                                         winners=[0], stopped_early=False)
        closed = await storage.create_table(MAX_SNOWFLAKE, 102, ALICE, classic)
        await game("a bot replaces", closed, 1, classic, 1)
        await game("waits, then cancels", closed, 2, {
            "preset": "classic", "set": {"on_leave": "wait_then_cancel"}}, 1)
        await game("presi with bots", closed, 3, {"preset": "presi", "set": {"on_leave": "bot"}},
                   1)
        await storage.update_table(closed, status="closed")
    finally:
        await storage.close()
    named = {game_id: name for name, game_id in games.items()}
    assert {named[g] for g, (_, _, cancelled, _) in (await _games(empty_db_url)).items()
            if cancelled} == {"cancelled"}

    columns = await _columns_after_downgrade(empty_db_url, "0015", "games")
    assert "cancelled" not in columns and "stopped_early" in columns
    engine = create_engine(empty_db_url)
    try:
        async with engine.connect() as connection:
            ended = {row[0]: (row[1] is not None, bool(row[2])) for row in
                     await connection.execute(text(
                         "SELECT id, ended_at, stopped_early FROM games"))}
    finally:
        await engine.dispose()
    assert ended == {game_id: (name == "ended", False) for name, game_id in games.items()}

    await _back_at_head(empty_db_url)
    marked = {"cancelled", "back in the lobby", "waits, then cancels"}
    assert {named[g]: state for g, state in (await _games(empty_db_url)).items()} == {
        name: (True, True, True, True) if name in marked
        else (name == "ended", False, False, False) for name in games}
    storage = await Storage.open(empty_db_url)
    try:
        [listed] = await storage.game_history(channel_id=100)
        assert (listed.game_id, listed.cancelled, listed.rounds, listed.winners) == (
            games["cancelled"], True, 2, ())
        alice = await storage.player_stats(MAX_SNOWFLAKE, ALICE)
        assert (alice.games, alice.cancelled, alice.rounds) == (1, 3, 8)
    finally:
        await storage.close()


ROUNDS = {"rounds", "round_results"}


async def _has_bots(url: str) -> tuple[list[bool | None], bool]:
    """Each round's `has_bots`, by round number, and whether the column may be NULL."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            nullable = await connection.run_sync(lambda sync: next(
                c["nullable"] for c in inspect(sync).get_columns("rounds")
                if c["name"] == "has_bots"))
            values = [None if row[0] is None else bool(row[0]) for row in await connection.execute(
                text("SELECT has_bots FROM rounds ORDER BY round_no"))]
            return values, bool(nullable)
    finally:
        await engine.dispose()


async def test_has_bots_is_dropped_by_0018_and_comes_back_with_the_downgrades(
        empty_db_url: str) -> None:
    """`rounds.has_bots` (written since 0001, never read) goes in two steps: 0017 let it be
    NULL and its version stopped writing it, 0018 drops it. Downgraded to 0017 it is back
    as that version left it, NULL and nullable; to 0016, each round gets what the older
    code wrote, from its seats: a bot, or a bot finishing a leaver's round, true; humans
    only, false; required again. Upgraded again, it is gone and the schema is the models'."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    try:
        bots = [human(ALICE), human(BOB), BOT, BOT]
        _, game_id = await new_game(storage, bots, guild=MAX_SNOWFLAKE)
        assert await play_round(storage, game_id, 1, bots, [0, 1, 2, 3])
        humans = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
        assert await play_round(storage, game_id, 2, humans, [3, 2, 1, 0])
        stand_in = [human(ALICE), SeatRef(BOB, True, "Bob", "left"), human(CAROL), human(DAVE)]
        assert await play_round(storage, game_id, 3, stand_in, [0, 2, 3, 1])
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url, ROUNDS)

    assert "has_bots" in await _columns_after_downgrade(empty_db_url, "0017", "rounds")
    assert await _has_bots(empty_db_url) == ([None, None, None], True)
    await downgrade_to(empty_db_url, "0016")
    assert await _has_bots(empty_db_url) == ([True, False, True], False)
    assert await _row_counts(empty_db_url, ROUNDS) == counts

    await _back_at_head(empty_db_url)  # the models have no `has_bots`
    assert await _row_counts(empty_db_url, ROUNDS) == counts


async def test_the_players_languages_come_and_go_with_0019(empty_db_url: str) -> None:
    """0019 adds `player_languages`, the language each player chose for their own messages
    (stop 58). The downgrade drops the table, every other row kept: the older code follows
    each interaction's Discord locale. Upgraded again, nobody has chosen."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    try:
        _, game_id = await new_game(storage, seats, guild=MAX_SNOWFLAKE)
        assert await play_round(storage, game_id, 1, seats, [3, 2, 1, 0])
        await storage.choose_language(MAX_SNOWFLAKE, "fr")
        await storage.choose_language(ALICE, "en")
        assert await storage.player_languages() == {MAX_SNOWFLAKE: "fr", ALICE: "en"}
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)

    await downgrade_to(empty_db_url, "0018")
    tables, _, revision = await _inspect(empty_db_url)
    assert "player_languages" not in tables and revision == "0018"
    assert await _row_counts(empty_db_url) == counts

    await _back_at_head(empty_db_url)
    assert await _row_counts(empty_db_url) == counts
    storage = await Storage.open(empty_db_url)
    try:
        assert await storage.player_languages() == {}
    finally:
        await storage.close()


async def test_the_locale_sent_with_a_choice_comes_and_goes_with_0020(empty_db_url: str) -> None:
    """0020 keeps, with each choice, the locale Discord sent with it (stop 60): a process
    that never heard the player redraws their hands in it once they give the choice up
    elsewhere. The downgrade drops the column, the choices kept; upgraded again, they hold
    none, as choices stored before 0020 do."""
    await upgrade_to_head(empty_db_url)
    storage = await Storage.open(empty_db_url)
    try:
        await storage.choose_language(ALICE, "fr", "en-US")
        await storage.choose_language(BOB, "en")
        assert await storage.client_locales() == {ALICE: "en-US"}
    finally:
        await storage.close()
    counts = await _row_counts(empty_db_url)
    await _column_goes_and_comes_back(empty_db_url, "0019", "player_languages",
                                      "client_locale", "language", counts)
    storage = await Storage.open(empty_db_url)
    try:
        assert await storage.player_languages() == {ALICE: "fr", BOB: "en"}
        assert await storage.client_locales() == {}
    finally:
        await storage.close()
