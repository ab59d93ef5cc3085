"""End-to-end, play-test 28 afterwards: chatter deleted below the table message no longer
buries it (`Buried.deleted`), told apart by its id alone: a snowflake greater than the
table message's was posted below it. The bot's own pings there never counted, and their
deletion takes nothing off (docs/bot.md, « Play-test 28, afterwards »)."""

from bot.client import PresidentBot
from bot.packages.publisher.buried import BURIED_AFTER, EVERY, QUIET
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots, tick
from .test_e2e_playtest24 import HANDS, reminders, until_half_time
from .test_e2e_playtest28 import at_her_turn, channel_calls


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
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale="fr")
    table = await at_her_turn(fake, clock, president, marie)
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
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    table = await at_her_turn(fake, clock, president, alice)
    old = table.table_message_id
    posted = await said(fake, bob, BURIED_AFTER)
    for message in posted[:2]:
        fake.delete_message(message)
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
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale="fr")
    table = await at_her_turn(fake, clock, president, marie)
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
