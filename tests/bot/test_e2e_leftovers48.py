"""End-to-end: what stop 47 left and stop 48 fixed (docs/bot.md, « Leftovers (stop 48) »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.packages.game import chart
from bot.packages.game.views import STORE_BUDGET
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.tables.table import Table
from fakediscord import FakeDiscord, errors

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    host_against_bots,
    http_waits_on_the_fake_clock,
    message,
    record_charts,
    table_of,
    tick,
)
from .test_e2e_chart_upload import EDIT, injected
from .test_e2e_leftovers47 import left_during_the_upload
from .test_e2e_slow_store import DEFERRED_CHANNEL_MESSAGE, slow_commits

# An interaction's response (Create Interaction Response).
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


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
    first, _ = await left_during_the_upload(fake, clock, president, marie)
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
    alice = Player(fake.add_user("alice"))
    table: Table = await host_against_bots(president, alice.user, "classic", 2)
    for _ in range(30):
        if table.table_message_id is not None:
            break
        await tick(fake, clock, 1)
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
    assert table.hands.get(alice.user.id) is link and link.answered
    hand = alice.user.last_ephemeral()
    assert not hand.loading and hand.buttons  # the hand, drawn over « thinking »
    fake.expect_error(errors.ALREADY_ACKNOWLEDGED)  # the refusal's answer
    fake.assert_no_errors()
