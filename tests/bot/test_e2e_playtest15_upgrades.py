"""End-to-end: play-test 15, an operator's upgrade night. Tables were under way on an older
version of the bot when it stopped for a redeploy; the current version starts on the same
database.

tests/bot/older/<commit>.json were written by those older commits themselves, each file
named for its commit (the last of play-tests 10, 11, 12 and 13, 0a343d6, the code stop
49 upgraded from, before round_results.departure and a host's pause, and 958f7ac, stop 50,
the code stop 51 upgrades from, before the house rules' migration 0011 and `holders`): a
bot of that version opened eleven tables in the states a redeploy may catch (a trick under
way, presi's exchange, a queue behind bots, a wild 7 announced, fast mode, a leaver's seat
played by a bot, presi waiting for a leaver, the autopilot, a round's and a game's results,
a lobby; 958f7ac a twelfth, a player's own break under way),
was stopped as a redeploy stops it, and the file keeps each table's snapshot with the
Discord messages and hand interactions it names, and every row of the database at that
version's revision (games, rounds, ratings). The test puts the database back as that
version left it (its schema, its rows), the fake Discord as its players left it, starts
the current bot a minute later, and checks what the players would: every table is as they
left it, nobody timed out while the bot was away, the same messages carry on, the stored
results are read, and every table plays on, its rounds stored as before.

How the files were made, and how a later play-test adds its own: tests/bot/older_capture.py,
run in a worktree of the commit with that commit's own code and helpers
(docs/deploy.md, « Play-test 15: upgrades »).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import JSON, Boolean, DateTime, MetaData, text
from sqlalchemy.engine import Connection

from bot.client import PresidentBot
from bot.i18n import t
from bot.storage import Storage, downgrade_to, upgrade_to_head
from bot.storage.db import create_engine
from bot.tables.logentry import LogEntry
from bot.tables.table import LOG_SIZE, Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.state import Channel, InteractionRecord, StoredMessage
from tests.fresh import fresh

from . import databases
from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    message,
    play_until,
    table_in_a_thread,
    tick,
)
from .stored import stored_game

DOWN = 60.0  # the redeploy's minute


def captured(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


# Oldest first, by their commits' dates.
CAPTURES = sorted((Path(__file__).parent / "older").glob("*.json"),
                  key=lambda path: captured(path)["date"])


def _stored(value: str) -> datetime:
    """A date as SQLite held it (naive UTC, or with its offset)."""
    when = datetime.fromisoformat(value)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _insert(connection: Connection, capture: dict[str, Any]) -> None:
    """Every row as the older version left it, in its revision's schema (this database
    is at it); PostgreSQL's id sequences then follow the ids, as they would have."""
    metadata = MetaData()
    metadata.reflect(connection)
    rows = {**capture["rows"], "table_snapshots": [
        {"table_id": entry["state"]["id"], "seq": entry["seq"], "state": entry["state"],
         "saved_at": entry["saved_at"]} for entry in capture["tables"].values()]}
    for table in metadata.sorted_tables:
        values = []
        for row in rows.get(table.name, []):
            value = {}
            for column in table.columns:
                item = row.get(column.name)
                if isinstance(column.type, DateTime) and isinstance(item, str):
                    item = _stored(item)
                elif isinstance(column.type, JSON) and isinstance(item, str):
                    item = json.loads(item)  # SQLite's text
                elif isinstance(column.type, Boolean) and item is not None:
                    item = bool(item)
                value[column.name] = item
            values.append(value)
        if not values:
            continue
        connection.execute(table.insert(), values)
        if connection.dialect.name == "postgresql" and "id" in table.columns \
                and table.columns["id"].autoincrement is True:
            connection.execute(text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                f"(SELECT max(id) FROM {table.name}))"))


async def seed(url: str, capture: dict[str, Any]) -> None:
    """The database as the older version left it: its revision's schema, its rows."""
    await upgrade_to_head(url)
    await downgrade_to(url, capture["revision"])
    engine = create_engine(url, enforce_foreign_keys=False)
    try:
        async with engine.begin() as connection:
            await connection.run_sync(lambda sync: _insert(sync, capture))
    finally:
        await engine.dispose()


def carry_over(fake: FakeDiscord, capture: dict[str, Any]) -> dict[str, list[TestUser]]:
    """The channels, members, messages and hand interactions the stored tables name, as
    Discord kept them while the bot was away; each table's players, by table."""
    assert fake.world.application_id == capture["application_id"]  # the same application
    players: dict[str, list[TestUser]] = {}
    for name, entry in capture["tables"].items():
        channel = fake.world.add_channel(fake.guild, entry["channel"]["name"],
                                         channel_id=entry["channel"]["id"])
        players[name] = []
        for person in entry["users"]:
            account = fake.world.add_user(person["name"], person["locale"],
                                          user_id=person["id"])
            fake.guild.members[account.id] = fake.clock.now()
            players[name].append(TestUser(fake, account, channel))
        for kept in entry["messages"]:
            fake.world.add_message(StoredMessage(**{**kept, **{
                key: _stored(kept[key]) for key in ("created_at", "edited_at", "dismissed_at")
                if kept[key] is not None}}))
        for interaction in entry["interactions"]:
            fake.world.carry_interaction(InteractionRecord(**interaction))
    return players


@dataclass
class Upgraded:
    """The current bot, started on what an older one left."""

    fake: FakeDiscord
    clock: LinkedClock
    bot: PresidentBot
    url: str
    capture: dict[str, Any]
    players: dict[str, list[TestUser]]
    back: float  # when it restored the tables, on its clock

    def table(self, name: str) -> Table:
        table = self.bot.service.registry.in_channel(self.entry(name)["channel"]["id"])
        assert table is not None, f"{name} was not restored"
        return table

    def entry(self, name: str) -> dict[str, Any]:
        entry: dict[str, Any] = self.capture["tables"][name]
        return entry

    def user(self, name: str, person: str) -> TestUser:
        return next(u for u in self.players[name] if u.name == person)

    def hand_of(self, name: str, user: TestUser) -> int | None:
        """The message of the user's hand the stored table follows."""
        entry = self.entry(name)
        link = entry["state"]["hands"].get(str(user.id))
        return None if link is None else next(
            i["original_message_id"] for i in entry["interactions"]
            if i["token"] == link["token"])


async def overwrite(url: str, table_id: int, state: str) -> None:
    """The table's stored state becomes the text `state`, whatever it says."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(
                text("UPDATE table_snapshots SET state = :state WHERE table_id = :id"),
                {"state": state, "id": table_id})
    finally:
        await engine.dispose()


# The newest migration, by its file's number (0011_house_rules.py: "0011").
HEAD_REVISION = max(path.name.split("_")[0] for path in
                    (Path(__file__).parents[2] / "migrations" / "versions").glob("0*.py"))


async def revision(url: str) -> str:
    """The database's alembic revision."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            found = (await connection.execute(
                text("SELECT version_num FROM alembic_version"))).scalar_one()
    finally:
        await engine.dispose()
    assert isinstance(found, str)
    return found


@asynccontextmanager
async def upgraded(capture: dict[str, Any], tmp_path: Path,
                   states: Mapping[str, str] | None = None) -> AsyncIterator[Upgraded]:
    """The current bot starts `DOWN` seconds after the older one stopped, on its database
    (with `states`, some tables' stored states replaced by these texts)."""
    url = database_url(tmp_path)
    await seed(url, capture)
    for name, state in (states or {}).items():
        await overwrite(url, capture["tables"][name]["state"]["id"], state)
    guild = capture["guild"]
    async with FakeDiscord.running(home=(guild["id"], guild["channel_id"])) as fake:
        players = carry_over(fake, capture)
        clock = LinkedClock(fake.clock)
        clock.advance(capture["elapsed"] + DOWN)
        bot = await connect_bot(fake, clock, url, bot_pause=1.0)
        back = clock.now()
        await fake.settle()
        up = Upgraded(fake, clock, bot, url, capture, players, back)
        yield up
        await up.bot.service.drain()  # (the test may have restarted it)
        await fake.disconnect(up.bot)
        fake.assert_no_errors()


def public(fake: FakeDiscord, channel_id: int) -> list[StoredMessage]:
    return [m for m in fake.world.in_channel(channel_id) if m.ephemeral_to is None]


def check_as_left(up: Upgraded, name: str) -> None:
    """The table `name` as the bot comes back: its game as its players left it, its clocks
    moved on by the minute nobody could play, and its history saying why."""
    entry, table = up.entry(name), up.table(name)
    stored = entry["state"]
    waited = up.back - _stored(entry["saved_at"]).timestamp()
    assert waited == pytest.approx(DOWN)
    game = table.game
    if stored["game"] is None:
        assert game is None
    else:
        assert game is not None
        now: dict[str, object] = dict(game.to_dict())
        assert {key: now[key] for key in stored["game"]} == stored["game"]
    # A break holds every clock (`paused_since`): they move on when it ends, and the
    # minute is added to what the break held, its limit not counting it.
    paused = stored.get("pause") is not None
    if paused:
        assert table.pause is not None
        assert (table.pause.by, table.pause.since, table.pause.own) == \
            (stored["pause"]["by"], stored["pause"]["since"], stored["pause"].get("own", False))
        assert table.pause.held == pytest.approx(stored["pause"].get("held", 0.0) + waited)
        assert table.paused_since == stored["paused_since"]
    moved_by = 0.0 if paused else waited
    if stored["timer_deadline"] is None:
        assert table.timer_deadline is None
    else:
        assert table.timer_deadline == pytest.approx(stored["timer_deadline"] + moved_by)
    assert table.away == {int(user): pytest.approx(deadline + moved_by)
                          for user, deadline in stored["away"].items()}
    restarted = [LogEntry("ev.restarted").to_dict()] if table.under_way and not paused else []
    # The line saying until when a leaver's seat waits says the moved time.
    moved = {int(deadline): int(table.away[int(user)])
             for user, deadline in stored["away"].items()}
    log = [{**e, "params": {**e["params"], "deadline": moved[e["params"]["deadline"]]}}
           if e["key"] == "ev.away" and e["params"]["deadline"] in moved else e
           for e in stored["log"]]
    assert [e.to_dict() for e in table.log] == [*log, *restarted][-LOG_SIZE:]


def check_redrawn(up: Upgraded, name: str) -> None:
    """What its players see once the first redraws are out: the same table message (or
    lobby) carrying on, the only one with controls, and their hands redrawn in place."""
    entry, table = up.entry(name), up.table(name)
    stored = entry["state"]
    game = table.game
    shown = stored["table_message_id"] if game is not None else stored["lobby_message_id"]
    live = [m.id for m in public(up.fake, table.channel_id) if m.components]
    assert live == [shown] and table.channel_id == entry["channel"]["id"]
    assert message(up.players[name][0], shown).content  # (kept without its text: redrawn)
    for user in up.players[name]:
        hand_id = up.hand_of(name, user)
        if hand_id is not None and table.plays(user.id):
            assert message(user, hand_id).content, f"{user.name}'s hand was not redrawn"


def waits_for_host(table: Table) -> bool:
    """Whether the table waits for its host to deal, replay or start."""
    return table.game is None or table.game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)


async def host_moves_on(up: Upgraded, name: str) -> None:
    """The host presses what their table waits for: the next round, Replay, Start."""
    table = up.table(name)
    host = next(u for u in up.players[name] if u.id == table.host_id)
    game = table.game
    if game is None:
        await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    elif game.phase is Phase.ROUND_OVER:
        await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
    else:
        await host.click(message(host, table.table_message_id),
                         cid(table, "replay", game.version))
    await tick(up.fake, up.clock, 1)


async def play_on(up: Upgraded) -> None:
    """Every table plays its round in play out (the next one where it waited for its host),
    its players on the hands they had open (a fresh one where they had none), and its
    results are stored as a result of that version would have been."""
    names = list(up.capture["tables"])
    for name in names:  # sam went home from presi, and his seat waits: he comes back
        table = up.table(name)
        if table.pause is not None:  # rémi's break: he is back and presses « Continuer »
            back = next(u for u in up.players[name] if u.id == table.pause.by)
            await back.click(message(back, table.table_message_id), cid(table, "play_on"))
            assert fresh(table).pause is None and table.paused_since is None
        for user in up.players[name]:
            if user.id in table.away:
                await user.click(message(user, table.table_message_id), cid(table, "hand"))
                assert user.id not in table.away
    rounds: dict[str, tuple[int, int]] = {}  # the game and round each table plays out
    for name in sorted(names, key=lambda name: waits_for_host(up.table(name))):
        table = up.table(name)
        if waits_for_host(table):
            await host_moves_on(up, name)
        assert table.game is not None and not waits_for_host(table), name
        rounds[name] = (table.game_no, table.game.round_no)
    players: list[Player] = []
    for name in names:
        table = up.table(name)
        for user in up.players[name]:
            if not table.plays(user.id):
                continue
            player = Player(user)
            player.hand_id = up.hand_of(name, user)
            if player.hand_id is None:
                await player.open_hand(up.bot)
            players.append(player)

    def done(name: str) -> bool:
        table, (game_no, round_no) = up.table(name), rounds[name]
        return table.game is not None and table.game_no == game_no and \
            table.game.rounds_scored >= round_no

    await play_until(up.fake, up.clock, players, lambda: all(done(name) for name in names))
    await tick(up.fake, up.clock, 1)
    await up.bot.service.drain()
    for name in names:
        table, game = up.table(name), up.table(name).game
        assert game is not None and table.game_row_id is not None
        stored = await stored_game(up.url, table.game_row_id)
        assert stored.round_nos == list(range(1, game.rounds_scored + 1)), name
        assert stored.points == dict(enumerate(game.points)), name
        assert stored.table_games == table.game_no, name  # a replay numbered past the older


async def stored_results_read(up: Upgraded) -> None:
    """The history, stats and leaderboard read what the older version stored."""
    tom = up.user("game_over", "tom")
    await tom.slash("president history")
    assert "2 rounds" in tom.last_ephemeral().text
    await tom.slash("president stats")
    assert "1 game ·" in tom.last_ephemeral().text
    ines = up.user("presi_exchange", "inès")
    await ines.slash("president leaderboard", preset="presi")
    await tick(up.fake, up.clock, 1)  # its rows asked of Discord behind the start's posts
    assert f"<@{ines.id}>" in ines.last_ephemeral().text


async def a_leaver_s_round_is_theirs(up: Upgraded) -> None:
    """The round a bot finished for paul, who left it before the redeploy, once played on.
    Where the older version's snapshot says who left the seat (its `left_by`, kept since
    1a42e41), the round is stored as his: his id on the bot's seat, rated behind chloé and
    lina, among his rounds (`persistence.seat_refs`, `ratings.rated_places`). 5378fe0's
    says only that the seat was left (`left_seats`), under his name: the round was a bot's
    seat, in nobody's rating or stats (« Leftovers, afterwards (stop 49) »). The restore
    now names him from the game's stored seat (classic's seats never change hands during a
    game: stop 52), so his round is his there too."""
    name = "left_player"
    table, seats = up.table(name), up.entry(name)["state"]["seats"]
    paul = up.user(name, "paul")
    (seat,) = [s for s, stored in enumerate(seats) if stored["name"] == "paul"]
    assert seats[seat].get("left_by") == paul.id or up.capture["commit"] == "5378fe0"
    assert table.game_row_id is not None
    stored = await stored_game(up.url, table.game_row_id)
    (result,) = [r for r in stored.results if r.round_no == 1 and r.seat == seat]
    assert (result.user_id, result.name) == (paul.id, "paul")
    storage, guild = up.bot.storage, up.capture["guild"]["id"]
    assert storage is not None
    stats = await storage.player_stats(guild, paul.id)
    his = await storage.rating_history(guild, paul.id)
    # chloé's and lina's ratings after round 1, which rates them in every case.
    others = [(await storage.rating_history(guild, up.user(name, other).id))["classic"][0]
              for other in ("chloé", "lina")]
    assert stats.rounds == 1 and stats.points == 0  # the bot's points are not his
    assert len(his["classic"]) == 1 and his["classic"][0] < min(others)


async def comes_back_and_plays_on(up: Upgraded) -> None:
    """Every table is as its players left it, the first redraws show it where it was, the
    stored results are read, and every table plays on."""
    assert sorted(table.id for table in up.bot.service.registry.tables()) == \
        sorted(e["state"]["id"] for e in up.capture["tables"].values())
    for name in up.capture["tables"]:
        check_as_left(up, name)
    await tick(up.fake, up.clock, 1)  # the first redraws, coalesced
    # A public redraw waits for its table's commit (« Public messages after the save (stop
    # 62) »): the restart's rewrites of eleven tables may land past its budget, in real time,
    # the redraw following once they have.
    await up.bot.service.drain()
    await tick(up.fake, up.clock, 1)
    for name in up.capture["tables"]:
        check_redrawn(up, name)
    await stored_results_read(up)
    await play_on(up)
    await a_leaver_s_round_is_theirs(up)


# The oldest and the newest run on both backends below; the others on the run's.
@pytest.mark.parametrize("path", CAPTURES[1:-1], ids=[path.stem for path in CAPTURES[1:-1]])
async def test_every_table_an_older_version_left_comes_back_and_plays_on(
    path: Path, tmp_path: Path
) -> None:
    """An older version stopped for a redeploy with eleven tables (twelve from 958f7ac on:
    a player's break); the current one starts a minute later."""
    async with upgraded(captured(path), tmp_path) as up:
        await comes_back_and_plays_on(up)


@pytest.mark.both_databases
@pytest.mark.parametrize("path", [CAPTURES[0], CAPTURES[-1]],
                         ids=[CAPTURES[0].stem, CAPTURES[-1].stem])
async def test_the_oldest_and_newest_versions_tables_and_databases_on_both_backends(
    path: Path, tmp_path: Path
) -> None:
    """The oldest version's database (revision 0003, its rows) and the newest's (958f7ac,
    stop 50, revision 0010) on SQLite and PostgreSQL: the bot migrates each as it starts
    (to 0011, the house rules, with the tables open), and its tables come back and play
    on."""
    async with upgraded(captured(path), tmp_path) as up:
        assert await revision(up.url) == HEAD_REVISION
        await comes_back_and_plays_on(up)


def newer(state: dict[str, Any], **changed: Any) -> str:
    """The state as a newer version might store it: some of its values changed."""
    return json.dumps({**state, **changed})


async def test_a_state_this_version_cannot_read_closes_its_table_alone(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The operator rolls back from a newer version, whose states this one cannot read (a
    rule it does not know, a phase it does not know), and a third state is corrupt on
    disk: it is unreadable text on SQLite, a string on PostgreSQL, whose JSON type takes
    no broken text. Each of those tables is closed alone, said once in the log, and its
    channel is told in the table's language on the messages it still names, which lose
    their buttons (a corrupt one names none: a post says it, in the server's language or
    English). The others come back as ever, the channel is free for a new table, and
    the next start says nothing more. Before, the corrupt one stopped every start (a crash
    loop, no table back), and the others were closed without a word."""
    capture = captured(CAPTURES[-1])
    tables = capture["tables"]
    corrupt = '{"id": 6, "lo'
    if databases.current is not None and databases.current.backend == "postgresql":
        corrupt = json.dumps(corrupt)
    states = {
        "presi_exchange": newer(tables["presi_exchange"]["state"],
                                game={**tables["presi_exchange"]["state"]["game"],
                                      "phase": "auction"}),
        "wild7_announce": newer(tables["wild7_announce"]["state"], rules={
            "preset": "wild7", "set": {"jokers_wild": True}}),
        "classic_mid_trick": corrupt,
    }
    async with upgraded(capture, tmp_path, states) as up:
        errors = [r for r in caplog.records if r.levelname == "ERROR"]
        assert sorted(r.name for r in errors) == ["bot.tables.restore"] * 3
        caplog.clear()
        lost = {name: tables[name]["state"]["id"] for name in states}
        assert {t.id for t in up.bot.service.registry.tables()} == \
            {e["state"]["id"] for e in tables.values()} - set(lost.values())
        assert up.bot.storage is not None
        for table_id in lost.values():
            record = await up.bot.storage.get_table(table_id)
            assert record is not None and record.status == "closed"
        for name, locale in (("presi_exchange", "fr"), ("wild7_announce", "en")):
            state, reader = tables[name]["state"], up.players[name][0]
            for message_id in (state["table_message_id"], state["lobby_message_id"]):
                told = message(reader, message_id)
                assert told.content == t(locale, "table.unreadable") and not told.buttons
        channel = tables["classic_mid_trick"]["channel"]["id"]
        assert public(up.fake, channel)[-1].content == t("en", "table.unreadable")
        marie = up.user("classic_mid_trick", "marie")
        await marie.slash("president create", preset="classic")
        assert up.bot.service.registry.in_channel(channel) is not None
        posts = len(up.fake.world.messages)
        await up.fake.disconnect(up.bot)
        up.bot = await connect_bot(up.fake, up.clock, up.url, bot_pause=1.0)
        await up.fake.settle()
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        assert len(up.fake.world.messages) == posts


async def test_a_stored_line_this_version_cannot_word_is_left_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A history line a newer version stored under a key this one does not know, or one
    whose words changed their placeholders since, failed every redraw of its table (its
    message never changed again, an error logged each time). It is left out, said once
    in the log, and the table is drawn."""
    capture = captured(CAPTURES[-1])
    tables = capture["tables"]
    fast = tables["classic_fast"]["state"]
    log = [*fast["log"][:-2], {"key": "ev.from_a_newer_version", "params": {}},
           {**fast["log"][-1], "params": {}}]
    async with upgraded(capture, tmp_path, {"classic_fast": newer(fast, log=log)}) as up:
        warned = [r.getMessage() for r in caplog.records if r.name == "bot.packages.publisher.messages"]
        assert len(warned) == 1 and "ev.from_a_newer_version" in warned[0]
        table = up.table("classic_fast")
        assert [e.to_dict() for e in table.log] == [*fast["log"][:-2],
                                                    LogEntry("ev.restarted").to_dict()]
        await tick(up.fake, up.clock, 1)
        check_redrawn(up, "classic_fast")


async def unreadable_in_a_closed_thread(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    *, locked: bool,
) -> tuple[PresidentBot, TestUser, Channel, int]:
    """marie's table in a thread is stored in a state the next version cannot read (a
    rollback), and while the bot is down the thread archives (or a moderator closes it:
    archived and locked). The restarted bot, its one error claimed; marie, the thread, and
    the table message."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, bot, marie)
    first = table.table_message_id
    assert first is not None
    await bot.service.drain()
    await fake.disconnect(bot)
    storage = await Storage.open(url)
    newer = {"locale": "fr", "table_message_id": first, "game": "a newer version's"}
    assert await storage.save_snapshot(table.id, table.seq + 1, newer)
    await storage.close()
    fake.archive_thread(thread, locked=locked)
    await fake.settle()

    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)
    assert [r.name for r in caplog.records if r.levelname == "ERROR"] == ["bot.tables.restore"]
    caplog.clear()
    return again, marie, thread, first


async def test_an_unreadable_table_in_a_thread_archived_meanwhile_is_told_there(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An archived thread refuses edits (50083), and the bot's word went only to edits
    there: its table message kept its buttons and nobody was told. A post wakes the thread
    and says it; the table message then says it too, without its buttons."""
    again, marie, thread, first = await unreadable_in_a_closed_thread(
        fake, clock, tmp_path, caplog, locked=False)
    fake.expect_error(50083)
    assert not thread.archived
    assert fake.messages(thread)[-1].content == t("fr", "table.unreadable")
    old = message(marie, first)
    assert old.content == t("fr", "table.unreadable") and not old.buttons
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_an_unreadable_table_in_a_thread_locked_meanwhile_is_told_once_reopened(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A thread a moderator closed (archived and locked) refuses the edits and the post
    that would wake it. The table message kept its buttons for good; its word is owed now,
    and sent once the thread reopens."""
    again, marie, thread, first = await unreadable_in_a_closed_thread(
        fake, clock, tmp_path, caplog, locked=True)
    refused = [fake.expect_error(50083) for _ in range(2)]  # the edit, then the post
    assert [r.method for r in refused] == ["PATCH", "POST"]
    assert thread.archived and message(marie, first).buttons
    assert again.service.asleep.owes(thread.id)

    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    await tick(fake, clock, 1)
    old = message(marie, first)
    assert old.content == t("fr", "table.unreadable") and not old.buttons
    assert not again.service.asleep.owes(thread.id)
    await fake.disconnect(again)
    fake.assert_no_errors()
