"""End-to-end: what play-test 37 (a moderator and a hostile evening, docs/bot.md) left, from
the players' side: a table message posted once when Discord answers its post with a 5xx
after making it; a move answered past Discord's 3 seconds saying, in the hand, that it
went through."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.table_message import table_screen
from bot.packages.lobby.display import lobby_screen
from bot.packages.publisher.messages import PASSING_RETRY
from bot.tables.table import Table
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    host_against_three_bots,
    message,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest37 import LATE, cards_in, humans_turn

POST = "/channels/{channel_id}/messages"


def table_messages(fake: FakeDiscord, table: Table) -> list[Message]:
    """The channel's messages offering the table's « Ma main »: its live table messages."""
    hand = cid(table, "hand")
    return [m for m in fake.messages() if not m.ephemeral
            and any(b.custom_id == hand for b in m.buttons)]


async def _table_post_met_by_503(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> tuple[TestUser, Table, Message]:
    """Dave plays three bots; a moderator deletes the table message, and its fresh post
    meets a 503 that came after Discord made it: the message landed, the bot not told."""
    dave = fake.add_user("dave", locale="fr")
    table = await host_against_three_bots(president, dave, "rounds:3")
    await tick(fake, clock, 1)
    gone = table.table_message_id
    assert gone is not None
    fake.inject_error(POST, 503, method="POST", handled=True)
    fake.delete_message(gone)
    await tick(fake, clock, 1)
    [landed] = table_messages(fake, table)
    return dave, table, landed


async def test_a_table_post_carried_out_before_its_503_is_not_posted_twice(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The moderator deletes dave's table message; its fresh post meets a 503 that came
    after Discord made it (a gateway that gave up waiting). The table tried again
    `PASSING_RETRY` later and posted a second message with the same buttons: two tables
    in the channel, the first never edited again. The post now carries a nonce Discord
    enforces, the same at the retry, which gets the first message back; it is then
    brought up to date, and is the table's only message."""
    dave, table, landed = await _table_post_met_by_503(fake, president, clock)
    await tick(fake, clock, PASSING_RETRY)
    await tick(fake, clock, 1)
    assert [m.id for m in table_messages(fake, table)] == [landed.id] == [table.table_message_id]
    assert message(dave, landed.id).content == table_screen(table, clock.now()).content
    fake.assert_no_errors()


async def test_a_table_post_found_by_its_nonce_is_edited_when_only_its_buttons_differ(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """As above, but the message the failed try made shows other buttons than the table
    would now (here its first button's label, changed in the fake's copy: a try drawn
    before a change of its buttons alone). The retry's message was told from what is to
    be shown by its text alone, so it kept the old button; what it shows is now compared
    in full (`screen.shown_by`), and it is brought up to date."""
    dave, table, landed = await _table_post_met_by_503(fake, president, clock)
    labels = [b.label for b in landed.buttons]
    [row, *_] = fake.world.messages[landed.id].components
    row["components"][0] = {**row["components"][0], "label": "drawn before"}
    await tick(fake, clock, PASSING_RETRY)
    await tick(fake, clock, 1)
    assert [m.id for m in table_messages(fake, table)] == [landed.id] == [table.table_message_id]
    assert [b.label for b in message(dave, landed.id).buttons] == labels
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_move_answered_past_its_3_seconds_says_it_went_through(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A card played by a click Discord showed as failed stays played: the table and the
    other players saw it. Its player read « This interaction failed », then their hand
    without the card, and nothing said why; they might play again, or think the bot lost
    their card. Their hand, redrawn, now says the click went through, in their language,
    until it changes."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    player = await humans_turn(fake, clock, table, game, [marie, bob])
    before = cards_in(player.hand.content)
    fake.enable_latency(LATE)
    await player.act()
    fake.disable_latency()
    fake.expect_error(10062)
    await tick(fake, clock, 1)
    said = t(locale, "hand.went_through")
    assert player.hand.content.startswith(said) and cards_in(player.hand.content) < before
    for _ in range(30):  # the next move changes the hand: the notice goes
        if not player.hand.content.startswith(said):
            break
        await tick(fake, clock, 1)
    assert said not in player.hand.content
    fake.assert_no_errors()


async def test_a_lobby_click_answered_past_its_3_seconds_shows_its_seat(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob's « Rejoindre » is answered too late: the answer was the lobby redrawn with him
    seated (type 7), refused, so the lobby is not taken as showing it (`Publisher.answer`
    marks it shown only once answered). He is seated all the same, and the lobby says so
    at the table's next redraw: what he sees is the true state. (A check: it held already.)"""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    table = await create_table(president, marie)
    await tick(fake, clock, 1)
    fake.enable_latency(LATE)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    fake.disable_latency()
    fake.expect_error(10062)
    await tick(fake, clock, 1)
    assert table.player(bob.id) is not None
    assert message(bob, table.lobby_message_id).content == lobby_screen(table).content
    fake.assert_no_errors()
