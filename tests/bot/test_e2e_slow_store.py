"""A move is shown as accepted only once its snapshot is committed; when the database is
slow, the click is acknowledged (deferred) after `STORE_BUDGET` seconds of the bot's clock,
well inside Discord's 3 s, and the hand is redrawn once the move is stored."""

from __future__ import annotations

import asyncio

import pytest

from bot.client import PresidentBot
from bot.packages.game.views import STORE_BUDGET
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, InteractionRecord

from .conftest import LinkedClock
from .e2e import Player, host_against_bots, tick

DEFERRED_UPDATE = 6  # DEFERRED_UPDATE_MESSAGE (interactions/receiving-and-responding)


async def test_a_slow_commit_defers_the_click_then_redraws_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
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

    release = asyncio.Event()
    waited: list[Table] = []

    async def slow_commit(waiting: Table) -> None:
        waited.append(waiting)
        await release.wait()

    monkeypatch.setattr(president.service, "committed", slow_commit)
    before = alice.hand.text
    record = await _play(fake, alice)
    assert waited == [table] and record.response_type is None  # waiting for the database

    await tick(fake, clock, STORE_BUDGET)
    assert record.response_type == DEFERRED_UPDATE  # acknowledged in time, nothing shown
    assert alice.hand.text == before

    release.set()
    await fake.settle()
    assert alice.hand.text != before  # stored: the hand shows the move accepted
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def _play(fake: FakeDiscord, player: Player) -> InteractionRecord:
    """The first play the hand offers, as the interaction record of the click."""
    shown = player.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    record = await player.user.select(shown, [menu.options[0].value], select=menu.custom_id,
                                      settle=False)
    await fake.settle(require_answers=False)  # the bot waits for the database
    return record
