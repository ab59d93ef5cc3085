"""End-to-end: the house rules' leftovers (stop 52, docs/bot.md « House rules, leftovers »).
A channel keeps the host's table settings beside its rules (the bots' level, « Conseil »,
reminders), whatever the preset; « Terminé » keeps them only when something changed, and
says when it did; a thread that played keeps its own house rules, a new thread starting
from its channel's. Rows another version wrote are read as far as they can be, and said
so."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import join_names, t
from bot.tables.table import Table
from engine import Rules
from engine.rules import RulesDict
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import cid, connect_bot, database_url, message, restart, tick
from .test_e2e_playtest33 import (
    LOCALES,
    TUNED,
    an_evening,
    house_line,
    lobby,
    refused,
    reset_offered,
    reset_twice_at_once,
    table_in,
)


def settings_line(locale: str, *words: str) -> str:
    return t(locale, "lobby.house_settings", reset=t(locale, "settings.reset"),
             settings=join_names(locale, list(words)))


def hard_bots(locale: str) -> str:
    return t(locale, "lobby.house_setting.bot_level", level=t(locale, "level.hard"))


async def tune_table(fake: FakeDiscord, clock: LinkedClock, host: TestUser, table: Table,
                     *clicks: str) -> list[str]:
    """The host opens the settings panel, clicks each of its buttons named, then
    « Terminé »; the lobby is redrawn. The routes « Terminé » cost, to the second after."""
    await host.slash("president settings")
    for action in clicks:
        await host.click(host.last_ephemeral(), cid(table, action))
    await tick(fake, clock, 1)
    mark = fake.mark()
    await host.click(host.last_ephemeral(), cid(table, "done"))
    await tick(fake, clock, 1)
    return [c.route.split("/")[-1] for c in fake.calls_since(mark)]


async def close(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                host: TestUser) -> None:
    table = table_in(bot, host.channel)
    await host.slash("president end")
    await tick(fake, clock, 1)
    assert table.closed


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_house_keeps_the_table_settings_whatever_the_preset(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """marie plays presi with hard bots, « Conseil » on and no reminders, set in the
    panel. Her next table opens with them (the bots she adds are hard), and so does a
    classic table in the channel, whose rules are classic's own: its lobby says where they
    come from and offers « Revenir au préréglage », which puts them back to their defaults
    in one call; a second click at the same instant is refused privately, changing
    nothing. A setting she changes herself is no longer the house's. The creates cost
    Discord the calls one without house rules costs."""
    other = "en-US" if locale == "fr" else "fr"
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    bob = fake.add_user("bob", locale=other)
    await marie.slash("president create", preset="presi")
    table = table_in(bot, marie.channel)
    await bot.service.set_rules(table, marie.id, table.rules.replace(**TUNED))
    # normal → hard; « Conseil » on; reminders off.
    await tune_table(fake, clock, marie, table, "bot_level", "hints", "reminders")
    assert (table.bot_level, table.hints, table.reminders) == ("hard", True, False)
    await close(fake, clock, bot, marie)

    fresh = fake.add_channel(fake.guild, "cartes")
    mark = fake.mark()
    await marie.slash("president create", channel=fresh)
    without = [c.route for c in fake.calls_since(mark)]
    assert len(without) == 2
    assert table_in(bot, fresh).settings().differences() == ()
    mark = fake.mark()
    await marie.slash("president create")
    assert [c.route for c in fake.calls_since(mark)] == without
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", **TUNED)
    assert (table.bot_level, table.hints, table.reminders) == ("hard", True, False)
    words = [hard_bots(table.locale), t(table.locale, "lobby.house_setting.hints.on"),
             t(table.locale, "lobby.house_setting.reminders.off")]
    text = lobby(marie, table).split("\n")
    assert house_line(table.locale) in text and settings_line(table.locale, *words) in text
    await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    assert [p.level for p in table.seats if p.is_bot] == ["hard"]
    # Her own choice is hers: « Conseil » off is no longer named as the house's.
    await tune_table(fake, clock, marie, table, "hints")
    assert settings_line(table.locale, words[0], words[2]) in lobby(marie, table).split("\n")
    await close(fake, clock, bot, marie)

    # A classic evening in the presi channel: classic's rules, the channel's settings.
    await marie.slash("president create", preset="classic")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("classic")
    assert (table.bot_level, table.hints, table.reminders) == ("hard", False, False)
    text = lobby(marie, table).split("\n")
    assert house_line(table.locale) not in text
    assert settings_line(table.locale, words[0], words[2]) in text
    assert reset_offered(marie, table)
    await bob.slash("president join")
    read = message(marie, table.lobby_message_id)
    refused(await bob.click(read, cid(table, "house_reset")), bob,
            "⚠️ " + t(other, "err.not_host", host=marie.id))
    assert (table.bot_level, table.reminders) == ("hard", False)
    await reset_twice_at_once(fake, clock, marie, read, table, locale)
    assert (table.bot_level, table.hints, table.reminders) == ("normal", False, True)
    assert table.rules == Rules.preset("classic") and table.house is None
    assert not any(line.startswith("🏠") for line in lobby(marie, table).split("\n"))
    assert not reset_offered(marie, table)
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_done_keeps_the_settings_only_when_something_changed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """In the presi channel marie opens a classic table, looks at the settings and closes
    them: nothing is kept, so the next bare `/president create` is still presi (it was
    classic: review of stop 51). Changed, they are kept, and « Terminé »'s answer says so,
    at no call more; looked at again, after a restart too, they are not kept again (a later
    presi evening stays the last), and it says nothing more."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    storage = bot.storage
    assert storage is not None
    marie = fake.add_user("marie", locale=locale)
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    await tick(fake, clock, 60)
    await marie.slash("president create", preset="classic")
    table = table_in(bot, marie.channel)
    assert await tune_table(fake, clock, marie, table) == ["callback"]
    assert marie.last_ephemeral().text == t(locale, "settings.closed")  # nothing kept
    await tick(fake, clock, 1)
    assert await storage.house_rules(marie.channel.id, "classic") is None
    await close(fake, clock, bot, marie)
    await marie.slash("president create")
    assert table_in(bot, marie.channel).rules == Rules.preset("presi", **TUNED)
    await close(fake, clock, bot, marie)

    await tick(fake, clock, 60)
    await marie.slash("president create", preset="classic")
    table = table_in(bot, marie.channel)
    # normal → hard: kept, and said so in the same answer (« Small fixes (stop 52) »).
    assert await tune_table(fake, clock, marie, table, "bot_level") == ["callback"]
    assert marie.last_ephemeral().text == t(locale, "settings.closed.kept")
    await tick(fake, clock, 1)
    kept = await storage.house(marie.channel.id)
    assert kept is not None and kept.rules == Rules.preset("classic").to_dict()
    assert kept.settings == {"bot_level": "hard", "hints": False, "reminders": True}
    # A presi evening kept since (another table's game, say): looking again keeps nothing.
    await tick(fake, clock, 60)
    await storage.remember_house_rules(fake.guild.id, marie.channel.id,
                                       Rules.preset("presi", **TUNED).to_dict())
    bot = await restart(fake, clock, bot, url)
    storage = bot.storage
    assert storage is not None
    table = table_in(bot, marie.channel)
    await tick(fake, clock, 60)
    await tune_table(fake, clock, marie, table)
    assert marie.last_ephemeral().text == t(locale, "settings.closed")
    await tick(fake, clock, 1)
    kept = await storage.house(marie.channel.id)
    assert kept is not None and kept.rules == Rules.preset("presi", **TUNED).to_dict()
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_thread_that_played_keeps_its_own_house_rules(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Two threads of one channel play two variants (presi on a 60-second clock in
    « presi », classic to three rounds with hard bots in « rapide »): each one's next table
    starts from its own, its lobby saying they are the thread's (and `/president rules`
    before it shows them); a new thread starts from the channel's, which the last game of
    any of them kept."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    channel = marie.channel
    presi = fake.add_thread(channel, "presi", marie)
    quick = fake.add_thread(channel, "rapide", marie)
    await fake.settle()
    marie.channel = presi
    await an_evening(fake, clock, bot, marie, "presi", turn_seconds=60)
    await tick(fake, clock, 60)
    marie.channel = quick
    await marie.slash("president create", preset="classic")
    table = table_in(bot, quick)
    await bot.service.set_rules(table, marie.id, table.rules.replace(game_end="rounds:3"))
    await tune_table(fake, clock, marie, table, "bot_level")
    assert marie.last_ephemeral().text == t(locale, "settings.closed.kept.thread")
    await close(fake, clock, bot, marie)
    await tick(fake, clock, 60)

    marie.channel = presi
    # Before the table, `/president rules` reads the thread's own too.
    await marie.slash("president rules")
    assert [e.title for e in marie.last_ephemeral().embeds] == [
        t(locale, "rules.title.house", preset=t(locale, "preset.presi"))]
    await marie.slash("president create")
    table = table_in(bot, presi)
    assert table.rules == Rules.preset("presi", turn_seconds=60) and table.bot_level == "normal"
    assert t(locale, "lobby.house.own_thread", reset=t(locale, "settings.reset")) in \
        lobby(marie, table, presi).split("\n")
    await close(fake, clock, bot, marie)
    marie.channel = quick
    await marie.slash("president create")
    table = table_in(bot, quick)
    assert table.rules == Rules.preset("classic", game_end="rounds:3")
    assert table.bot_level == "hard"
    await close(fake, clock, bot, marie)

    marie.channel = fake.add_thread(channel, "mardi", marie)
    await fake.settle()
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("classic", game_end="rounds:3")
    assert table.bot_level == "hard"
    assert t(locale, "lobby.house.thread", reset=t(locale, "settings.reset")) in \
        lobby(marie, table).split("\n")
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_settings_another_version_stored_never_stop_a_table_opening(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """A row from before 0012 (no settings) opens at the default settings, saying nothing
    of them; a setting this version does not know, or a value it does not take, stays at
    its default and is named with the knobs, the others kept (`tests/bot/test_house.py`
    reads the other shapes)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    storage = bot.storage
    assert storage is not None
    marie = fake.add_user("marie", locale=locale)
    guild, channel = fake.guild.id, marie.channel.id
    presi: RulesDict = {"preset": "presi", "set": {"turn_seconds": 90}}
    await storage.remember_house_rules(guild, channel, presi)
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", turn_seconds=90)
    assert table.settings().differences() == ()
    text = lobby(marie, table).split("\n")
    assert house_line(locale) in text and not any("⚠️" in line for line in text)
    await close(fake, clock, bot, marie)

    await tick(fake, clock, 60)
    await storage.remember_house_rules(guild, channel, {**presi, "set": {"jokers_high": 1}}, {
        "bot_level": "expert", "hints": True, "reminders": "no", "music": "loud"})
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi")
    assert (table.bot_level, table.hints, table.reminders) == ("normal", True, True)
    text = lobby(marie, table).split("\n")
    knobs = t(locale, "lobby.queue_more.one", names="`jokers_high`, `bot_level`, "
              "`reminders`", n=1)
    assert t(locale, "lobby.house_dropped", knobs=knobs) in text
    assert settings_line(locale, t(locale, "lobby.house_setting.hints.on")) in text
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_done_keeps_what_the_lobby_said_it_could_not_read_back(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Stop 52's review: the channel's row holds a knob and a setting another version
    wrote; the lobby names them, at their defaults. marie opens the settings and presses
    « Terminé », changing nothing: what the table plays is kept as the house's, as before
    stop 52, and the next table opens on it without the warning. Keeping nothing (the
    table matching what it opened on) left the row as it was, and every later table in
    the channel said it again until a game started."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    storage = bot.storage
    assert storage is not None
    marie = fake.add_user("marie", locale=locale)
    guild, channel = fake.guild.id, marie.channel.id
    await storage.remember_house_rules(
        guild, channel, {"preset": "presi", "set": {"turn_seconds": 90, "jokers_high": 1}},
        {"bot_level": "hard", "music": "loud"})
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", turn_seconds=90)
    assert any("⚠️" in line for line in lobby(marie, table).split("\n"))
    await tick(fake, clock, 60)
    await tune_table(fake, clock, marie, table)
    await tick(fake, clock, 1)
    kept = await storage.house(channel)
    assert kept is not None and kept.rules == table.rules.to_dict()
    assert kept.settings == table.settings().to_dict()
    await close(fake, clock, bot, marie)
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", turn_seconds=90) and table.bot_level == "hard"
    assert not any("⚠️" in line for line in lobby(marie, table).split("\n"))
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_back_to_the_preset_refused_for_too_many_seated_changes_no_setting(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Stop 52's review: the channel plays classic at eight seats with hard bots and
    « Conseil » on. Seven sit in marie's lobby; « Revenir au préréglage » (six seats) is
    refused, « rien n’a changé »: the bots' level and « Conseil » had gone back to their
    defaults all the same, the lobby still saying they were the house's."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    storage = bot.storage
    assert storage is not None
    marie = fake.add_user("marie", locale=locale)
    await storage.remember_house_rules(
        fake.guild.id, marie.channel.id, Rules.preset("classic", max_players=8).to_dict(),
        {"bot_level": "hard", "hints": True, "reminders": True})
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules.max_players == 8 and (table.bot_level, table.hints) == ("hard", True)
    for name in ("bob", "carol", "dave", "erin", "fred", "gina"):
        guest = fake.add_user(name, locale=locale)
        await guest.click(message(guest, table.lobby_message_id), cid(table, "join"))
    assert len(table.seats) == 7
    await tick(fake, clock, 1)
    before = lobby(marie, table)
    refused(await marie.click(message(marie, table.lobby_message_id),
                              cid(table, "house_reset")),
            marie, "⚠️ " + t(locale, "err.too_many_seated", count=7, max=6))
    assert (table.bot_level, table.hints, table.reminders) == ("hard", True, True)
    assert table.rules.max_players == 8
    await tick(fake, clock, 1)
    assert lobby(marie, table) == before
    # One fewer seated, it is taken: rules and settings back to theirs, and stored so.
    await bot.service.leave(table, table.seats[-1].user_id or 0)
    await marie.click(message(marie, table.lobby_message_id), cid(table, "house_reset"))
    assert table.rules == Rules.preset("classic")
    assert (table.bot_level, table.hints, table.reminders) == ("normal", False, True)
    await bot.service.drain()
    await bot.service.committed(table)
    stored = await storage.load_snapshot(table.id)
    assert stored is not None
    assert (stored.state["bot_level"], stored.state["hints"]) == ("normal", False)
    await fake.disconnect(bot)
    fake.assert_no_errors()
