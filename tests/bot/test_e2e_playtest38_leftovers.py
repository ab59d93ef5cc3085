"""End-to-end: what play-test 38 (stop 55) saw and left (docs/bot.md « Play-test 38,
leftovers (stop 55) »): a leaver read « You left the table » twice, in the prompt they
confirmed and in their hand."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, leave_game, message, tick, two_humans_against_a_bot


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_leaver_reads_that_they_left_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob leaves mid-round by `/president leave` and « Leave the game »: the prompt and
    his open hand both turned into « You left the table. », two identical lines. The
    prompt he confirmed says it; the hand, stripped of its controls so as not to look
    live, says only that it closed."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    hand = bob.hand_id
    await leave_game(bob.user)
    prompt = bob.user.last_ephemeral()
    await tick(fake, clock, 1)
    assert table.left_seat(bob.user.id) is not None
    assert prompt.content == t(locale, "lobby.left")
    shown = message(bob.user, hand)
    assert shown.content == t(locale, "hand.folded") != prompt.content
    assert not shown.buttons and not shown.selects
    fake.assert_no_errors()
