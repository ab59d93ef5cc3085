"""End-to-end: play-test 33, « the house rules ». A server's regulars play the same variant
every evening; each `/president create` started from the preset's defaults, and the host
tuned the settings panel anew. A channel now keeps the rules of its last game (or the
settings its host last confirmed), and its next table starts from them, says so in its
lobby, and goes back to the preset's defaults in one click (« Revenir au préréglage »),
refused privately, in the clicker's language, to anyone but the host and to a late click.
Rules stored by another version are read back as far as they can be, and said so."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.president import cog
from bot.tables.table import Table
from engine import Rules
from fakediscord import Channel, FakeDiscord, Message, TestUser
from fakediscord.state import InteractionRecord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, connect_bot, database_url, message, restart, tick

LOCALES = ["fr", "en-US"]
EPHEMERAL = 64
TUNED = {"game_end": "rounds:5", "turn_seconds": 90}


def table_in(bot: PresidentBot, channel: Channel) -> Table:
    table = bot.service.registry.in_channel(channel.id)
    assert table is not None
    return table


def lobby(user: TestUser, table: Table, channel: Channel | None = None) -> str:
    """The lobby's text as ``user`` sees it in ``channel`` (theirs unless said)."""
    (shown,) = [m for m in user.visible(channel) if m.id == table.lobby_message_id]
    return shown.text


def house_line(locale: str) -> str:
    return t(locale, "lobby.house", reset=t(locale, "settings.reset"))


def reset_offered(user: TestUser, table: Table) -> bool:
    shown = message(user, table.lobby_message_id)
    return cid(table, "house_reset") in [b.custom_id for b in shown.buttons]


def refused(record: InteractionRecord, user: TestUser, text: str) -> None:
    """Answered privately with that one line (opening so: a seated guest's refusal goes on
    with when they may take the host's role over), in the user's language."""
    assert record.acknowledged and record.response_type == 4
    assert int((record.response or {}).get("flags", 0)) & EPHEMERAL
    answer = user.last_ephemeral().text
    assert answer.startswith(text) and "\n" not in answer


async def reset_twice_at_once(fake: FakeDiscord, clock: LinkedClock, host: TestUser,
                              read: Message, table: Table, locale: str) -> None:
    """``host`` presses « reset » twice at once on the lobby as ``read``: one call each,
    the lobby redrawn as the first's answer, and the second refused (the house gone)."""
    mark = fake.mark()
    first = await host.click(read, cid(table, "house_reset"), settle=False)
    second = await host.click_shown(read, cid(table, "house_reset"), settle=False)
    await fake.settle()
    await tick(fake, clock, 1)
    assert [c.route.split("/")[-1] for c in fake.calls_since(mark)] == ["callback"] * 2
    assert first.acknowledged and first.response_type == 7
    refused(second, host, "⚠️ " + t(locale, "err.house_gone"))


async def an_evening(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                     host: TestUser, preset: str, **rules: object) -> Table:
    """``host`` opens a ``preset`` table, tunes ``rules``, plays a game against two bots,
    stops it and closes the table."""
    await host.slash("president create", preset=preset)
    table = table_in(bot, host.channel)
    if rules:
        await bot.service.set_rules(table, host.id, table.rules.replace(**rules))
    await tick(fake, clock, 1)
    shown = message(host, table.lobby_message_id)
    for _ in range(2):
        await host.click(shown, cid(table, "addbot"))
    await host.click(shown, cid(table, "start"))
    await tick(fake, clock, 1)
    await host.slash("president end")
    await host.click(host.last_ephemeral(), t(host.user.locale, "btn.stop_game"))
    await host.slash("president end")  # the stopped game: to the lobby
    await host.slash("president end")  # the lobby: the table closes
    await tick(fake, clock, 1)
    assert table.closed
    return table


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_next_table_starts_from_the_last_games_rules(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """marie's regulars play presi to five rounds, on a 90-second clock. The next
    evening `/president create`, no preset given, opens presi with those rules, and the
    lobby says where they come from; bob's click on « Revenir au préréglage » is refused
    (he does not host), marie's brings presi's defaults back and the line and button go; a
    second click of hers sent at the same instant, and one on the lobby as she read it
    before, change nothing and say why. The create costs Discord the same calls as one
    without house rules."""
    other = "en-US" if locale == "fr" else "fr"
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    bob = fake.add_user("bob", locale=other)
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)

    mark = fake.mark()
    await marie.slash("president create")
    with_house = [c.route for c in fake.calls_since(mark)]
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", **TUNED)
    text = lobby(marie, table)
    assert house_line(table.locale) in text.split("\n")
    assert reset_offered(marie, table)
    # The same create in a channel that keeps no house rules: the same calls.
    fresh = fake.add_channel(fake.guild, "cartes")
    mark = fake.mark()
    await marie.slash("president create", channel=fresh)
    assert [c.route for c in fake.calls_since(mark)] == with_house
    print(f"\n/president create: {len(with_house)} Discord calls with house rules and "
          f"without ({', '.join(with_house)})")
    assert table_in(bot, fresh).house is None
    assert house_line(locale) not in lobby(marie, table_in(bot, fresh), fresh)

    await bob.slash("president join")
    before = lobby(bob, table)
    read = message(marie, table.lobby_message_id)
    refused(await bob.click(read, cid(table, "house_reset")), bob,
            "⚠️ " + t(other, "err.not_host", host=marie.id))
    assert table.rules == Rules.preset("presi", **TUNED) and lobby(bob, table) == before

    await reset_twice_at_once(fake, clock, marie, read, table, locale)
    assert table.rules == Rules.preset("presi") and table.house is None
    text = lobby(marie, table)
    assert house_line(table.locale) not in text.split("\n") and not reset_offered(marie, table)
    refused(await marie.click_shown(read, cid(table, "house_reset")), marie,
            "⚠️ " + t(locale, "err.stale_button"))
    assert table.rules == Rules.preset("presi") and lobby(marie, table) == text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_confirmed_settings_each_preset_its_own_and_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The settings a host confirms (« Terminé ») are the channel's too, before any game.
    A preset asked for opens that preset's house rules when the channel keeps some, else
    its defaults, with nothing said; a table opened on house rules keeps its lobby's line
    and button through a restart, and a game's start ends them."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    await marie.slash("president create", preset="classic")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("classic") and table.house is None
    await bot.service.set_rules(table, marie.id, table.rules.replace(game_end="rounds:3"))
    await marie.slash("president settings")
    await marie.click(marie.last_ephemeral(), cid(table, "done"))
    await marie.slash("president end")
    await tick(fake, clock, 1)
    assert table.closed

    await marie.slash("president create")  # the last kept: classic, as confirmed
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("classic", game_end="rounds:3")
    await marie.slash("president end")
    await marie.slash("president create", preset="presi")  # presi's, as played
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", **TUNED)
    assert house_line("fr") in lobby(marie, table).split("\n")

    bot = await restart(fake, clock, bot, url)
    table = table_in(bot, marie.channel)
    assert table.house is not None and reset_offered(marie, table)
    assert house_line("fr") in lobby(marie, table).split("\n")
    shown = message(marie, table.lobby_message_id)
    for _ in range(2):
        await marie.click(shown, cid(table, "addbot"))
    await marie.click(shown, cid(table, "start"))
    await tick(fake, clock, 1)
    assert fresh(table).house is None
    await marie.slash("president end")
    await marie.click(marie.last_ephemeral(), t("fr", "btn.stop_game"))
    await marie.slash("president end")
    await tick(fake, clock, 1)
    assert table.game is None and not reset_offered(marie, table)
    assert house_line("fr") not in lobby(marie, table).split("\n")
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_rules_another_version_stored_never_stop_a_table_opening(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """A knob this version does not know, or a value it no longer takes, is left at the
    preset's value and named in the lobby, the rest kept; a preset it does not know leaves
    the table at the defaults, said as plainly. A forged name shows as a plain word."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    storage = bot.storage
    assert storage is not None
    marie = fake.add_user("marie", locale=locale)
    guild, channel = fake.guild.id, marie.channel.id
    await storage.remember_house_rules(guild, channel, {"preset": "presi", "set": {
        "turn_seconds": 90, "jokers_high": True, "revolution": "soon",
        "<@everyone>`**x**": 1, "old_knob": 3}})
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", turn_seconds=90)
    text = lobby(marie, table).split("\n")
    knobs = t(locale, "lobby.queue_more.one", names="`jokers_high`, `revolution`, "
              "`everyonex`", n=1)
    assert t(locale, "lobby.house_dropped", knobs=knobs) in text
    assert house_line(locale) in text and reset_offered(marie, table)
    await marie.slash("president end")

    await tick(fake, clock, 60)  # a later evening: the last rules kept are these
    await storage.remember_house_rules(guild, channel, {"preset": "tute", "set": {}})
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("classic")
    text = lobby(marie, table).split("\n")
    assert t(locale, "lobby.house_unreadable") in text and house_line(locale) not in text
    assert not reset_offered(marie, table)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_thread_plays_its_channels_house_rules(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The regulars open a new thread of their channel each evening: its table starts from
    the channel's house rules, and the game played there keeps its rules as the channel's,
    not the thread's, which the next thread finds; its lobby says whose they are."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="en-US")
    channel = marie.channel
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    marie.channel = monday = fake.add_thread(channel, "monday", marie)
    await fake.settle()
    await tick(fake, clock, 60)
    played = await an_evening(fake, clock, bot, marie, "presi", turn_seconds=60)
    assert played.house is None and played.parent_id == channel.id
    # It opened on the channel's rules: the five rounds stayed, the clock was tuned.
    assert played.rules == Rules.preset("presi", game_end="rounds:5", turn_seconds=60)
    marie.channel = fake.add_thread(channel, "tuesday", marie)
    await fake.settle()
    await marie.slash("president create")
    table = table_in(bot, marie.channel)
    assert table.rules == Rules.preset("presi", game_end="rounds:5", turn_seconds=60)
    text = lobby(marie, table).split("\n")
    assert t("en-US", "lobby.house.thread", reset=t("en-US", "settings.reset")) in text
    assert house_line("en-US") not in text
    storage = bot.storage
    assert storage is not None
    # Kept under the channel, where a new thread reads them, and (stop 52) under the
    # thread that played, for its own next table; none under a thread that did not.
    for thread, own in ((monday, True), (marie.channel, False)):
        kept = await storage.house(channel.id, thread_id=thread.id)
        assert kept is not None and kept.own_thread is own
        assert kept.rules == played.rules.to_dict()
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_rules_before_the_table_are_the_house_rules(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """bob, new to the regulars' channel, reads `/president rules` before anyone opens
    the evening's table: the house rules the table will start from, said so (before, the
    « starting rules » shown were classic's, which the table no longer opened on). A preset
    asked for still shows the preset's own; a channel without house rules, classic's."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale=locale)
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    await bob.slash("president rules")
    shown = bob.last_ephemeral()
    assert [e.title for e in shown.embeds] == [
        t(locale, "rules.title.house", preset=t(locale, "preset.presi"))]
    page = shown.text.split("\n")
    assert t(locale, "rules.house") in page
    await bob.slash("president rules", preset="presi")
    assert [e.title for e in bob.last_ephemeral().embeds] == [
        t(locale, "rules.title.preset", preset=t(locale, "preset.presi"))]
    fresh = fake.add_channel(fake.guild, "cartes")
    await bob.slash("president rules", channel=fresh)
    shown = bob.last_ephemeral(fresh)
    assert [e.title for e in shown.embeds] == [
        t(locale, "rules.title.preset", preset=t(locale, "preset.classic"))]
    assert t(locale, "rules.no_table") in shown.text.split("\n")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_the_leaderboard_before_the_table_is_the_house_presets(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """`/president leaderboard` without a preset, typed in the regulars' channel before the
    evening's table is open: their preset's board (it was classic's), as it is at the
    table; a channel without house rules still gets classic's."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="en-US")
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    await marie.slash("president leaderboard")
    await tick(fake, clock, 1)
    shown = marie.last_ephemeral()
    assert [e.title for e in shown.embeds] == [
        t("en-US", "leaderboard.title", preset=t("en-US", "preset_pooled.presi"))]
    fresh = fake.add_channel(fake.guild, "cartes")
    await marie.slash("president leaderboard", channel=fresh)
    await tick(fake, clock, 1)
    assert [e.title for e in marie.last_ephemeral(fresh).embeds] == [
        t("en-US", "leaderboard.title", preset=t("en-US", "preset_pooled.classic"))]
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_rules_before_the_table_name_the_preset_the_channel_played_unchanged(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The regulars played presi as it comes, with nothing tuned: the next table opens at
    presi (its house rules are presi's own), so `/president rules` before it shows presi's
    rules as the starting ones, not classic's (review of stop 51: it showed classic's,
    house rules equal to a preset's defaults being read as no house rules)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await an_evening(fake, clock, bot, marie, "presi")
    await marie.slash("president rules")
    shown = marie.last_ephemeral()
    assert [e.title for e in shown.embeds] == [
        t("fr", "rules.title.preset", preset=t("fr", "preset.presi"))]
    assert t("fr", "rules.no_table") in shown.text.split("\n")
    await marie.slash("president create")
    assert table_in(bot, marie.channel).rules == Rules.preset("presi")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_rules_before_the_table_wait_for_the_house_rules_on_the_bots_clock(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/president rules` is answered without a deferral, so it waits for the channel's
    house rules `HOUSE_READ_SECONDS` at most, counted on the bot's clock (it was
    `asyncio.wait_for`'s real second, which a loaded machine could spend on a read and turn
    a test's answer to classic's): a read still pending once that clock has run on leaves
    the default preset's rules, and the late read is dropped, nothing logged as an error."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await an_evening(fake, clock, bot, marie, "presi", **TUNED)
    storage = bot.storage
    assert storage is not None
    never = asyncio.Event()
    reads: list[int] = []

    async def stuck(channel_id: int, **where: int | None) -> None:
        reads.append(channel_id)
        await never.wait()

    monkeypatch.setattr(storage, "house_rules", stuck)
    asked = asyncio.ensure_future(marie.slash("president rules"))
    while not reads:
        await asyncio.sleep(0)
    clock.advance(cog.HOUSE_READ_SECONDS)
    await asked
    assert [e.title for e in marie.last_ephemeral().embeds] == [
        t("fr", "rules.title.preset", preset=t("fr", "preset.classic"))]
    await fake.disconnect(bot)
    fake.assert_no_errors()
