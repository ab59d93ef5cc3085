"""End-to-end: what stop 47 left and stop 48 fixed (docs/bot.md, « Leftovers (stop 48) »)."""

from __future__ import annotations

import logging

import pytest

from bot.client import PresidentBot
from bot.packages.game import chart
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.packages.publisher.reminders import RETRY_DELAY as PING_RETRY_DELAY
from bot.packages.saving import STORE_BUDGET
from engine import Game, Phase
from fakediscord import FakeDiscord, Message, errors
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    dealt_against_two_bots,
    http_waits_on_the_fake_clock,
    message,
    record_charts,
    table_of,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_chart_upload import EDIT, injected
from .test_e2e_leftovers47 import left_during_the_upload
from .test_e2e_playtest24 import HANDS, until_half_time, until_the_timer_ends
from .test_e2e_slow_store import DEFERRED_CHANNEL_MESSAGE, alice_s_table_shown, slow_commits

# An interaction's response (Create Interaction Response).
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
# A post in a channel (Create Message).
POST = "/channels/{channel_id}/messages"


async def test_a_take_off_given_up_is_forgotten_with_its_closed_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The picture's take-off meets a 503 at each of its four tries: it is left to the next
    start, counted in memory so that this process does not try it at each redraw. The
    table then closes: that count stayed for good (`Charts._off_tries`), one entry per
    such table over weeks, as no start restores a closed table to try it again."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    first, _ = await left_during_the_upload(fake, clock, president, marie, monkeypatch)
    table = table_of(president, marie)
    fake.inject_error(EDIT, 503, method="PATCH")  # the next edit: the take-off
    for _ in range(16):
        await tick(fake, clock, 1)
    for delay in RETRY_DELAYS:  # and each of its retries
        fake.inject_error(EDIT, 503, method="PATCH")
        await tick(fake, clock, delay)
    assert injected(fake) == [502] * 4 + [0] + [503] * (len(RETRY_DELAYS) + 1)
    assert message(marie, first).attachments == (chart.FILENAME,)
    charts = president.publisher.charts
    assert (table.id, first) in charts._off_tries  # given up until the next start
    await marie.slash("president end")
    await tick(fake, clock, 1)
    assert table.closed
    assert not [key for key in charts._off_tries if key[0] == table.id]
    waits.end()
    fake.assert_no_errors()


async def test_my_hand_whose_deferral_failed_is_still_drawn(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    """« Ma main » on a slow database defers past the store budget, and the deferral fails:
    Discord carried it out (« thinking ») but its answer was lost (the connection dropped). The deferral sat outside the
    `try` whose `finally` marks the new hand's link answered: the link stayed unanswered
    for its token's 15 minutes, skipped by every refresh (`Hands.flush`), the player left
    with « thinking » and the table no longer asking them for « Ma main ». It is answered
    and the table refreshed, as after any other failed answer: the hand lands there."""
    alice, table = await alice_s_table_shown(fake, clock, president)
    release, _ = slow_commits(president, monkeypatch)
    fake.inject_disconnect(CALLBACK, handled=True)
    board = message(alice.user, table.table_message_id)
    record = await alice.user.click(board, cid(table, "hand"), settle=False)
    await fake.settle(require_answers=False)
    link = table.hands[alice.user.id]
    assert link.token == record.token and not link.answered
    clock.advance(STORE_BUDGET)
    await fake.settle(require_answers=False)
    assert record.response_type == DEFERRED_CHANNEL_MESSAGE  # carried out, answer lost
    release.set()
    await tick(fake, clock, 1)
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"
            and r.name.startswith("bot")] == [f"hand on table {table.id} failed"]
    caplog.clear()
    assert table.hands.get(alice.user.id) is link and fresh(link).answered
    hand = alice.user.last_ephemeral()
    assert not hand.loading and hand.buttons  # the hand, drawn over « thinking »
    fake.expect_error(errors.ALREADY_ACKNOWLEDGED)  # the refusal's answer
    fake.assert_no_errors()


def pings(fake: FakeDiscord) -> list[Message]:
    return [m for m in fake.messages() if not m.ephemeral and m.content.startswith("⏰")]


@pytest.mark.parametrize(("failures", "posted"), [(1, True), (2, False)])
async def test_a_ping_met_by_a_passing_failure_is_tried_once_more(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    caplog: pytest.LogCaptureFixture, failures: int, posted: bool,
) -> None:
    """marie's ping meets a 503: it was not tried again for that timer, and she learnt
    nothing of her turn. It is, once, `RETRY_DELAY` later, while her timer still runs; a
    second failure ends it (her timer is more than half gone)."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    fake.inject_error(POST, 503, method="POST", times=failures)
    await until_half_time(fake, clock, table)
    assert pings(fake) == []
    await tick(fake, clock, PING_RETRY_DELAY)
    assert game.to_act == 0 and len(pings(fake)) == int(posted)
    await until_the_timer_ends(fake, clock, game)
    assert len([c for c in fake.calls if c.method == "POST" and c.route == POST
                and c.injected]) == failures  # tried twice at most
    assert pings(fake) == []
    assert [r.levelname for r in caplog.records if r.name.startswith("bot")
            and r.levelno >= logging.ERROR] == []
    fake.assert_no_errors()


async def test_a_ping_carried_out_before_its_503_is_not_posted_twice(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """The 503 came after Discord posted marie's ping (a gateway that gave up waiting):
    the new try, with the same nonce, gets that ping back rather than a second one, and
    it is deleted with its timer."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    fake.inject_error(POST, 503, method="POST", times=1, handled=True)
    await until_half_time(fake, clock, table)
    [landed] = pings(fake)
    await tick(fake, clock, PING_RETRY_DELAY)
    assert game.to_act == 0 and [ping.id for ping in pings(fake)] == [landed.id]
    assert fake.writer.pinged(landed.id) == {marie.user.id}
    await until_the_timer_ends(fake, clock, game)
    assert pings(fake) == []
    fake.assert_no_errors()


async def test_a_high_role_waiting_for_its_gift_is_not_pinged(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """A table whose low role picks its own gift (`low_gives` « pick »), the exchange not
    blind: bob, last, owes marie his best cards and has not chosen; marie, President, may
    choose hers only once his are in her hand (`ExchangeDue.ready`). Half the time gone,
    bob alone is pinged: « à toi de choisir » would be a choice she cannot make."""
    marie, bob = Player(fake.add_user("marie", locale="fr")), Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                              low_gives="pick", exchange_blind=False)
    table.game = Game.new(table.rules, seats=3, seed=7, bots=[2], previous_ranking=[0, 2, 1])
    president.service._after(table, [])
    await tick(fake, clock, 1)
    game = table.game
    assert game.phase is Phase.EXCHANGE
    due = game.exchange_due(0)
    assert due is not None and not due.ready  # marie waits for bob's gift
    await until_half_time(fake, clock, table)
    [ping] = pings(fake)
    assert fake.writer.pinged(ping.id) == {bob.user.id}
    fake.assert_no_errors()
