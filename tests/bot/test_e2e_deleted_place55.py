"""End-to-end: a deleted channel or thread forgets the house rows it kept (stop 55,
docs/bot.md « A deleted place's rows »): its house rules and table settings, every
preset's, as Discord says it is gone (THREAD_DELETE, CHANNEL_DELETE); the other places'
rows, and the results played there, stay."""

from __future__ import annotations

from pathlib import Path

from bot.client import PresidentBot
from bot.storage.records import KeptHouse
from fakediscord import Channel, FakeDiscord

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, restart, tick
from .test_e2e_house52 import close, tune_table
from .test_e2e_playtest33 import table_in


async def kept(bot: PresidentBot, channel: Channel) -> KeptHouse | None:
    """What the place keeps of its own (a thread's channel's rows are read apart)."""
    assert bot.storage is not None
    return await bot.storage.house(channel.id)


async def test_a_deleted_thread_then_its_channel_forget_their_house_rows(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie sets hard bots at a table in the thread « presi » of #general (rows for the
    thread and the channel), in its threads « rapide » and « vieux » (the tables then
    closed, « vieux » archived) and « mardi » (the table still open, the thread archived
    since), and in #pause. A
    moderator deletes « presi » while its table is open: the thread's rows go, its
    channel's stay; the channel deleted, its rows go, with those of « rapide » (discord.py
    reports it deleted from its cache), « mardi » (not in discord.py's cache, but its
    table says its channel) and « vieux » (archived, its table closed: its rows say their
    channel, 0014); #pause keeps its own, and the games stored stay."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    assert bot.storage is not None
    marie = fake.add_user("marie", locale="fr")
    channel = marie.channel
    presi = fake.add_thread(channel, "presi", marie)
    quick = fake.add_thread(channel, "rapide", marie)
    tuesday = fake.add_thread(channel, "mardi", marie)
    old = fake.add_thread(channel, "vieux", marie)
    pause = fake.add_channel(fake.guild, "pause")
    await fake.settle()
    for place in (old, quick, tuesday, pause, presi):
        marie.channel = place
        await marie.slash("president create")
        await tune_table(fake, clock, marie, table_in(bot, place), "bot_level")
    for place in (quick, old):
        marie.channel = place
        await close(fake, clock, bot, marie)
    fake.archive_thread(tuesday)
    fake.archive_thread(old)
    await fake.settle()
    table = table_in(bot, presi)
    for place in (channel, presi, quick, tuesday, old, pause):
        assert await kept(bot, place) is not None, place.name
    held = await bot.storage.held_by_guild(fake.guild.id)

    fake.delete_channel(presi)
    await fake.settle()
    await tick(fake, clock, 1)
    assert table.closed
    assert await kept(bot, presi) is None
    assert await kept(bot, channel) is not None and await kept(bot, quick) is not None

    fake.delete_channel(channel)
    await fake.settle()
    await tick(fake, clock, 1)
    for place in (channel, quick, tuesday, old):
        assert await kept(bot, place) is None, place.name
    assert await kept(bot, pause) is not None
    after = await bot.storage.held_by_guild(fake.guild.id)
    assert (after.tables, after.games, after.ratings) == (held.tables, held.games,
                                                          held.ratings)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_thread_deleted_while_the_bot_was_down_forgets_its_rows_at_the_start(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The thread « presi » is deleted during a redeploy, its table open: the new process
    hears nothing of it, but its first post there meets 404 Unknown Channel, which ends
    the table as the deletion's event would (`BlockedTables.gone`), and forgets the
    thread's rows; its channel's stay."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="en-US")
    channel = marie.channel
    presi = fake.add_thread(channel, "presi", marie)
    await fake.settle()
    marie.channel = presi
    await marie.slash("president create")
    await tune_table(fake, clock, marie, table_in(bot, presi), "bot_level")
    assert await kept(bot, presi) is not None
    bot = await restart(fake, clock, bot, url, meanwhile=lambda: fake.delete_channel(presi))
    await fake.settle()
    await tick(fake, clock, 1)
    assert bot.service.registry.in_channel(presi.id) is None
    assert await kept(bot, presi) is None and await kept(bot, channel) is not None
    # The start's read of the thread, and its lobby's redraw: Unknown Channel.
    fake.expect_error(10003)
    fake.expect_error(10003)
    await fake.disconnect(bot)
    fake.assert_no_errors()
