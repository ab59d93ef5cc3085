"""End-to-end: what stops 48–51 left and stop 52 took up (docs/bot.md, « The fake's
gateway and leftovers (stop 52) »)."""

from __future__ import annotations

import logging

import pytest

from bot.client import PresidentBot
from bot.packages.publisher.reminders import RETRY_DELAY as PING_RETRY_DELAY
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots, tick
from .test_e2e_leftovers48 import POST, pings
from .test_e2e_playtest24 import HANDS, until_half_time, until_the_timer_ends

HISTORY = "/channels/{channel_id}/messages"


@pytest.mark.parametrize("handled", [True, False])
async def test_a_ping_whose_two_tries_met_a_5xx_is_looked_for_and_deleted_with_its_timer(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    caplog: pytest.LogCaptureFixture, handled: bool,
) -> None:
    """marie's ping meets a 503 at both tries. Carried out before the first (``handled``),
    it was in the channel, its id never learnt, and stayed there once her timer was over,
    « ⏰ … dans 15 secondes » turned « il y a 3 minutes ». The bot now looks for it
    `RETRY_DELAY` after the second try, among the channel's messages: found, it is deleted
    with its timer; never posted, nothing is found and nothing posted, with a log line."""
    caplog.set_level(logging.INFO, logger="bot")
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    fake.inject_error(POST, 503, method="POST", times=2, handled=handled)
    await until_half_time(fake, clock, table)
    await tick(fake, clock, PING_RETRY_DELAY)  # the second try
    landed = pings(fake)
    assert len(landed) == int(handled)  # one at most, its nonce the same
    await tick(fake, clock, PING_RETRY_DELAY)  # the look
    looks = [c for c in fake.calls if c.method == "GET" and c.route == HISTORY]
    assert len(looks) == 1 and game.to_act == 0

    await until_the_timer_ends(fake, clock, game)

    assert pings(fake) == []
    said = [r.getMessage() for r in caplog.records if r.name.startswith("bot")]
    assert any(("found after" if handled else "given up, not posted") in line for line in said)
    assert len([c for c in fake.calls if c.method == "POST" and c.route == POST
                and c.injected]) == 2  # no third post
    fake.assert_no_errors()
