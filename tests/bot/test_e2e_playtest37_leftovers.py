"""End-to-end: what play-test 37 (a moderator and a hostile evening, docs/bot.md) left, from
the players' side: a table message posted once when Discord answers its post with a 5xx
after making it."""

from __future__ import annotations

from bot.client import PresidentBot
from bot.packages.game.table_message import table_screen
from bot.packages.publisher.messages import PASSING_RETRY
from bot.tables.table import Table
from fakediscord import FakeDiscord, Message

from .conftest import LinkedClock
from .e2e import cid, host_against_three_bots, message, tick

POST = "/channels/{channel_id}/messages"


def table_messages(fake: FakeDiscord, table: Table) -> list[Message]:
    """The channel's messages offering the table's « Ma main »: its live table messages."""
    hand = cid(table, "hand")
    return [m for m in fake.messages() if not m.ephemeral
            and any(b.custom_id == hand for b in m.buttons)]


async def test_a_table_post_carried_out_before_its_503_is_not_posted_twice(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The moderator deletes dave's table message; its fresh post meets a 503 that came
    after Discord made it (a gateway that gave up waiting). The table tried again
    `PASSING_RETRY` later and posted a second message with the same buttons: two tables
    in the channel, the first never edited again. The post now carries a nonce Discord
    enforces, the same at the retry, which gets the first message back; it is then
    brought up to date, and is the table's only message."""
    dave = fake.add_user("dave", locale="fr")
    table = await host_against_three_bots(president, dave, "rounds:3")
    await tick(fake, clock, 1)
    gone = table.table_message_id
    assert gone is not None
    fake.inject_error(POST, 503, method="POST", handled=True)
    fake.delete_message(gone)
    await tick(fake, clock, 1)
    [landed] = table_messages(fake, table)
    await tick(fake, clock, PASSING_RETRY)
    await tick(fake, clock, 1)
    assert [m.id for m in table_messages(fake, table)] == [landed.id] == [table.table_message_id]
    assert message(dave, landed.id).content == table_screen(table, clock.now()).content
    fake.assert_no_errors()
