"""A move is shown as accepted only once its snapshot is committed; when the database is
slow, the click is acknowledged (deferred) after `STORE_BUDGET` seconds of the bot's clock,
well inside Discord's 3 s, and the hand is redrawn once the move is stored."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import PresidentBot
from bot.i18n.cards import short
from bot.packages.saving import STORE_BUDGET
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, InteractionRecord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, host_against_bots, message, tick, two_humans_against_a_bot

CHANNEL_MESSAGE = 4  # CHANNEL_MESSAGE_WITH_SOURCE (interactions/receiving-and-responding)
DEFERRED_CHANNEL_MESSAGE = 5  # DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (same page)
DEFERRED_UPDATE = 6  # DEFERRED_UPDATE_MESSAGE (same page)


async def test_a_slow_commit_defers_the_click_then_redraws_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    alice, table = await alice_to_play(fake, president, clock)

    release, waited = slow_commits(president, monkeypatch)
    before = alice.hand.text
    record = await _play(fake, alice)
    assert waited == [table] and record.response_type is None  # waiting for the database

    await tick(fake, clock, STORE_BUDGET)
    assert fresh(record).response_type == DEFERRED_UPDATE  # acknowledged in time, nothing shown
    assert alice.hand.text == before

    release.set()
    await fake.settle()
    assert alice.hand.text != before  # stored: the hand shows the move accepted
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def alice_to_play(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
                        ) -> tuple[Player, Table]:
    """alice hosts two bots at classic, her turn, her hand open (review of stop 60 too)."""
    alice = Player(fake.add_user("alice"))
    table: Table = await host_against_bots(president, alice.user, "classic", 2)
    game = table.game
    assert game is not None
    seat = table.seat_of(alice.user.id)
    for _ in range(30):
        if table.table_message_id is not None and game.phase is Phase.PLAY \
                and game.to_act == seat:
            break
        await tick(fake, clock, 1)
    assert game.to_act == seat
    await alice.open_hand(president)
    return alice, table


async def alice_s_table_shown(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot
                              ) -> tuple[Player, Table]:
    """alice hosts two bots at classic, the game started and its table message posted (a
    hand is asked for from there)."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(bot, alice.user, "classic", 2)
    for _ in range(30):
        if table.table_message_id is not None:
            break
        await tick(fake, clock, 1)
    return alice, table


def slow_commits(president: PresidentBot, monkeypatch: pytest.MonkeyPatch
                 ) -> tuple[asyncio.Event, list[Table]]:
    """A database that commits nothing until the event returned is set; the list returned
    holds the tables waited for."""
    release = asyncio.Event()
    waited: list[Table] = []

    async def slow_commit(waiting: Table) -> None:
        waited.append(waiting)
        await release.wait()

    monkeypatch.setattr(president.service, "committed", slow_commit)
    return release, waited


async def _play(fake: FakeDiscord, player: Player) -> InteractionRecord:
    """The first play the hand offers, as the interaction record of the click."""
    shown = player.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    record = await player.user.select(shown, [menu.options[0].value], select=menu.custom_id,
                                      settle=False)
    await fake.settle(require_answers=False)  # the bot waits for the database
    return record


async def test_my_hand_is_shown_once_its_link_is_saved_deferred_past_the_budget(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hand in a message of its own is answered once the link to it is committed: a
    crash after the answer then restores that link, and the restart redraws the hand its
    player looks at. Past STORE_BUDGET on a slow database it was shown all the same, the
    save going on after: a kill then lost the link, and the restart never redrew the hand
    its player looked at (stop 47). The answer is deferred there (« thinking », privately),
    and the hand replaces it once saved."""
    alice, table = await alice_s_table_shown(fake, clock, president)
    release, waited = slow_commits(president, monkeypatch)
    board = message(alice.user, table.table_message_id)
    record = await alice.user.click(board, cid(table, "hand"), settle=False)
    await fake.settle(require_answers=False)
    assert waited == [table] and record.response_type is None  # waiting for the database
    assert table.hands[alice.user.id].token == record.token  # followed from now on

    await tick(fake, clock, STORE_BUDGET)
    assert fresh(record).response_type == DEFERRED_CHANNEL_MESSAGE  # acknowledged, nothing shown
    thinking = alice.user.last_ephemeral()
    assert thinking.loading and not thinking.buttons
    release.set()
    await fake.settle()
    assert not fake.hub.unanswered()
    hand = alice.user.last_ephemeral()
    assert hand.id == thinking.id and not hand.loading and hand.buttons  # the hand, saved
    assert table.hands[alice.user.id].message_id == hand.id
    assert table.hands[alice.user.id].answered
    fake.assert_no_errors()


async def test_a_move_made_while_a_new_hand_waits_for_the_database_reaches_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The monkey on a loaded machine: bob pressed « My hand » while the database was slow,
    and alice played meanwhile. The refresh edited bob's hand through a response not yet
    sent (404 Unknown Message) and forgot it; the hand he then got never moved again. A
    hand not yet sent is left alone, and drawn as the table is once it is."""
    alice, bob = Player(fake.add_user("alice")), Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob)
    for _ in range(30):
        if game.phase is Phase.PLAY and game.to_act == table.seat_of(alice.user.id):
            break
        await tick(fake, clock, 1)
    seat = table.seat_of(alice.user.id)
    assert seat is not None and game.to_act == seat
    await tick(fake, clock, 2)  # bob's hand is open, nothing left to redraw
    release, waited = slow_commits(president, monkeypatch)
    board = message(bob.user, table.table_message_id)
    record = await bob.user.click(board, cid(table, "hand"), settle=False)  # again
    await fake.settle(require_answers=False)  # the hand waits for the database
    assert waited and record.response_type is None
    play = game.legal_plays(seat)[0]
    before = game.version
    await president.service.moves.play(table, alice.user.id, play.cards, None, game.version)
    assert game.version != before
    await fake.settle(require_answers=False)  # the hands' refresh runs, bob's still waits
    assert record.response_type is None
    release.set()
    await fake.settle()
    await tick(fake, clock, 1)  # the refreshes' coalescing
    bob.hand_id = bob.user.last_ephemeral().id
    assert f"alice {short('en', play.cards[0], False)}" in bob.hand.text  # her move shown
    assert table.hands[bob.user.id].answered
    fake.assert_no_errors()
