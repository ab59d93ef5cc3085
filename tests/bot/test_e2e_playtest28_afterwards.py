"""End-to-end, play-test 28 afterwards: chatter deleted below the table message no longer
buries it (`Buried.deleted`), told apart by its id alone: a snowflake greater than the
table message's was posted below it. The bot's own pings there never counted, and their
deletion takes nothing off (docs/bot.md, « Play-test 28, afterwards »)."""

from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.buried import BURIED_AFTER, EVERY, QUIET
from bot.packages.screen import Screen
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Table
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    dealt_against_two_bots,
    message,
    snapshot_followed,
    started_on,
    tick,
)
from .test_e2e_playtest24 import HANDS, reminders, until_half_time
from .test_e2e_playtest28 import channel_calls, her_turn_with_bob, stored_at_her_turn


async def said(fake: FakeDiscord, friend: TestUser, lines: int) -> list[Message]:
    """``friend``'s ``lines`` messages, received by the bot before the clock moves."""
    posted = [friend.say(f"mdr {n}") for n in range(lines)]
    await fake.settle()
    return posted


async def test_a_moderator_purging_the_chat_leaves_the_table_where_it_is(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob floods the channel; a moderator bulk-deletes his messages before the quiet
    moment: nothing sits below the table any more, and it stays (one POST and one PATCH
    before the fix, for a table already at the bottom)."""
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    old = table.table_message_id
    assert old is not None
    flood = await said(fake, bob, BURIED_AFTER + 2)
    mark = fake.mark()
    channel = fake.world.channels[table.channel_id]
    fake.delete_messages(channel, flood)
    await fake.settle()
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == old
    assert channel_calls(fake, mark) == []
    assert president.publisher.buried.returns == 0
    # What is posted afterwards counts from what is left: nothing.
    await said(fake, bob, BURIED_AFTER - 1)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == old
    await said(fake, bob, 1)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != old
    fake.assert_no_errors()


async def test_messages_deleted_one_by_one_are_taken_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """MESSAGE_DELETE, one at a time: two of eight gone leave six, which bury nothing."""
    alice, bob, table = await her_turn_with_bob(fake, clock, president, "alice")
    old = table.table_message_id
    posted = await said(fake, bob, BURIED_AFTER)
    for line in posted[:2]:
        fake.delete_message(line)
    await fake.settle()
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id == old
    await said(fake, bob, 2)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != old  # eight below it again
    fake.assert_no_errors()


async def test_deleting_what_was_below_the_old_message_only_takes_nothing_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Brought back once, the table has bob's seven newer messages below it; a moderator
    then deletes the eight that buried the old message (above the new one): still seven
    below, and one more brings it back once the interval is over."""
    marie, bob, table = await her_turn_with_bob(fake, clock, president, "marie", "fr")
    first = await said(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    assert president.publisher.buried.returns == 1
    await said(fake, bob, BURIED_AFTER - 1)
    fake.delete_messages(fake.world.channels[table.channel_id], first)
    await fake.settle()
    await said(fake, bob, 1)
    for _ in range(int(EVERY)):
        await tick(fake, clock, 1)
    assert president.publisher.buried.returns == 2
    fake.assert_no_errors()


async def test_the_bots_own_ping_deleted_takes_nothing_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's turn is half gone: the bot pings her below the table message; bob talks
    (seven messages), she plays, and the bot deletes its ping. The ping never counted, so
    its deletion leaves bob's seven: one more buries the table (before `Buried.posted_own`,
    the ping's deletion took one of bob's off, and it stayed buried)."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = fake.add_user("bob", locale="fr")
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    old = table.table_message_id
    assert old is not None and ping.id > old
    await said(fake, bob, BURIED_AFTER - 1)
    assert await marie.act()
    await tick(fake, clock, 1)
    assert reminders(fake) == []  # deleted by the bot
    assert table.table_message_id == old
    await said(fake, bob, 1)
    await tick(fake, clock, QUIET + 1)
    assert table.table_message_id != old
    fake.assert_no_errors()


async def test_a_crash_before_the_pointers_edit_leaves_the_restart_to_make_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies once the bring-down's snapshot (the new message's id) is handed to
    storage and before the old message's edit went out. Rebuilt as a crash leaves things:
    the old message as it was on Discord (the edit is never sent), the database as that
    snapshot left it (the state `touch` handed over, written back after the stop, which
    stores a later one: the redraw's own `touch` once the edit is back). The restart
    edits the old message into the pointer (before `Table.pointers_owed`, it kept its text
    and its buttons, « Ma main » among them)."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    assert old is not None
    edit = bot.publisher._edit
    died: list[tuple[int, TableSnapshot]] = []

    async def dies_before_the_pointer(table: Table, message_id: int, screen: Screen | None,
                                      asleep: str | None, *args: Any) -> bool:
        if message_id == old and not died:
            died.append((table.seq, table.to_dict()))  # what `touch` just handed over
            return True  # never sent: the process is gone
        return await edit(table, message_id, screen, asleep, *args)

    monkeypatch.setattr(bot.publisher, "_edit", dies_before_the_pointer)
    await said(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    new = table.table_message_id
    [(seq, state)] = died
    assert new not in (None, old) and state["table_message_id"] == new
    assert message(marie, old).components  # its buttons, as the crash left them
    await bot.service.drain()
    await fake.disconnect(bot)
    assert await snapshot_followed(url, table.id, state) > seq  # the redraw's later one
    again = await started_on(fake, clock, url)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == new
    pointer = message(marie, old)
    assert pointer.content == t("fr", "table.brought_down", link=(
        f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{new}"))
    assert not pointer.components
    assert restored.pointers_owed == []
    assert marie.last_message().id == new
    await again.close()
    fake.assert_no_errors()
