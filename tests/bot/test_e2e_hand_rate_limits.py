"""A 429 on one player's hand token holds no other hand. Discord counts interaction-token
routes per "webhook_id + webhook_token" (Rate Limits,
https://discord.com/developers/docs/topics/rate-limits), so one hand limited says nothing
of the others; discord.py sleeps the 429 out inside the awaited edit, and a table whose
hands were edited together waited for the slowest before any hand showed the next move.
So too a host's token held on the note that their table picks up again: the server's other
tables, checked after it, waited for it.

discord.py's wait follows the fake's clock here (`webhook_waits_on_the_fake_clock`)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.hand import hand_screen
from bot.packages.publisher.hands import lane
from bot.tables.table import Table
from engine import Game
from fakediscord import CallRecord, FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    host_against_three_bots,
    message,
    tick,
    two_humans_against_a_bot,
    waits,  # noqa: F401 (a fixture, used by name)
)
from .test_e2e_channel_events import only_through, send_messages, told

HAND_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
RETRY_AFTER = 30.0


def latest(table: Table, player: Player, clock: LinkedClock) -> str:
    """The hand as the table's state draws it now, in its player's language."""
    seated = table.player(player.user.id)
    assert seated is not None
    return hand_screen(table, player.user.id, seated.locale, now=clock.now()).content


async def until_the_turn_of(fake: FakeDiscord, clock: LinkedClock, table: Table, game: Game,
                            players: list[Player], whose: Player) -> None:
    """Play on (the humans through their hands, the bots in their time) until it is `whose`'s
    turn."""
    for _ in range(60):
        if game.to_act == table.seat_of(whose.user.id):
            return
        if not any([await p.act() for p in players if p is not whose]):
            await tick(fake, clock, 1)
    raise AssertionError(f"never {whose.user.name}'s turn")


async def bob_to_play(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot
                      ) -> tuple[Player, Player, Table, Game]:
    """marie (fr) and bob (en-US) against two bots, played on until bob's turn, then a
    quiet second: what bob plays next is shown at once."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob, bots=2)
    await until_the_turn_of(fake, clock, table, game, [marie, bob], bob)
    await tick(fake, clock, 1)
    return marie, bob, table, game


@pytest.mark.usefixtures("waits")
async def test_a_hand_held_by_a_429_holds_no_other_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's hand token is limited for 30 s when bob plays: bob's hand shows the two bots'
    answers as they come all the same, and marie's, once the 429 is over, shows the latest
    state, not the one its held edit carried."""
    marie, bob, table, game = await bob_to_play(fake, clock, president)
    before = marie.hand.content
    mark = fake.mark()
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=RETRY_AFTER, user=marie.user)
    assert await bob.act()
    held: list[CallRecord] = []
    for _ in range(4):  # the bots answer a second apart, and it is marie's turn
        await tick(fake, clock, 1)
        assert bob.hand.content == latest(table, bob, clock)
        held = [c for c in fake.calls_since(mark, HAND_EDIT) if c.user == "marie"]
        assert [c.status for c in held] == [429]
        if game.to_act == table.seat_of(marie.user.id):
            break
    assert game.to_act == table.seat_of(marie.user.id)
    assert marie.hand.content == before  # still held: discord.py waits out the 429
    assert fake.clock.monotonic() - held[0].time < RETRY_AFTER

    await tick(fake, clock, RETRY_AFTER)
    await tick(fake, clock, 1)
    assert marie.hand.content == latest(table, marie, clock)
    # discord.py's retry of the held edit, then the latest state, once
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if c.user == "marie"] \
        == [429, 200, 200]
    assert bob.hand.content == latest(table, bob, clock)
    fake.assert_no_errors()


@pytest.mark.usefixtures("waits")
async def test_a_held_edit_landing_after_a_click_on_the_hand_is_drawn_over(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """While marie's hand token is held, she presses « Actualiser » on that hand: its answer
    shows the latest state through the click's token, then discord.py's retry of the held
    edit lands on the same message with the older one. The hand is drawn again through
    the newer token, and shows the latest state."""
    marie, bob, table, game = await bob_to_play(fake, clock, president)
    # Shorter than marie's turn: no move of her timer redraws her hand meanwhile.
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=10.0, user=marie.user)
    assert await bob.act()
    for _ in range(4):
        if game.to_act == table.seat_of(marie.user.id):
            break
        await tick(fake, clock, 1)
    assert game.to_act == table.seat_of(marie.user.id)
    await marie.user.click(marie.hand, cid(table, "refresh"))
    clicked = table.hands[marie.user.id]
    assert marie.hand.content == latest(table, marie, clock)

    await tick(fake, clock, 10.0)  # the held edit lands, older than the click's answer
    await tick(fake, clock, 1)
    assert game.to_act == table.seat_of(marie.user.id)  # nothing moved meanwhile
    assert table.hands[marie.user.id] is clicked
    assert marie.hand.content == latest(table, marie, clock)
    fake.assert_no_errors()


@pytest.mark.usefixtures("waits")
async def test_a_table_closed_while_a_hand_is_held_tells_the_others_at_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie closes her table while her own hand's token is held: bob's hand says the
    table is closed at once, and hers says so too once the 429 is over, after the edit
    it held, never before it."""
    marie, bob, table, game = await bob_to_play(fake, clock, president)
    mark = fake.mark()
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=RETRY_AFTER, user=marie.user)
    assert await bob.act()
    await tick(fake, clock, 1)
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if c.user == "marie"] == [429]
    await marie.user.slash("president end")
    await marie.user.click(marie.user.last_ephemeral(), t("fr", "btn.stop_game"))
    await marie.user.slash("president end")  # the stopped game: back to the lobby
    await marie.user.slash("president end")  # the lobby: the table closes
    await tick(fake, clock, 1)
    assert table.closed
    assert bob.hand.content == t("en-US", "hand.closed")
    assert marie.hand.content != t("fr", "hand.closed")

    await tick(fake, clock, RETRY_AFTER)
    assert marie.hand.content == t("fr", "hand.closed")
    # Its hands' lanes go with it (`Hands.forget`): kept, they grew with every table.
    assert not [key for key in president.service.coalescer._states
                if key in (lane(table.id, marie.user.id), lane(table.id, bob.user.id))]
    fake.assert_no_errors()


@pytest.mark.usefixtures("waits")
async def test_a_host_told_through_a_held_token_holds_no_other_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The bot's role loses Send Messages and gets it back: the server's two tables stop,
    then pick up again, and each host, told it stopped, is told it picks up again through
    the interaction that told them. marie's token is held on that note for 30 s: léa's
    table, checked after hers, picks up at once all the same, and léa is told."""
    only_through(fake, "role")
    marie = fake.add_user("marie", locale="fr")
    lea = fake.add_user("léa", locale="en-US")
    lea.channel = fake.add_channel(fake.guild, "table-2")
    tables = [await host_against_three_bots(president, host, "rounds:3") for host in (marie, lea)]
    assert president.service.registry.in_guild(fake.guild.id) == tables  # marie's first
    await tick(fake, clock, 1)
    send_messages(fake, "role", False)
    await fake.settle()
    await tick(fake, clock, 1)
    boards = [message(host, table.table_message_id) for host, table in zip((marie, lea), tables,
                                                                            strict=True)]
    for host, table, board in zip((marie, lea), tables, boards, strict=True):
        await host.click(board, cid(table, "hand"))
    fake.inject_429(FOLLOWUP, method="POST", retry_after=RETRY_AFTER, user=marie)

    send_messages(fake, "role", True)
    await fake.settle()
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second
    assert told(lea, t("en-US", "table.resumed")) == 1
    assert message(lea, tables[1].table_message_id).content != boards[1].content
    assert told(marie, t("fr", "table.resumed")) == 0  # held

    await tick(fake, clock, RETRY_AFTER)
    assert told(marie, t("fr", "table.resumed")) == 1
    fake.assert_no_errors()
