"""End-to-end: what stop 47 left and stop 48 fixed (docs/bot.md, « Leftovers (stop 48) »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.packages.game import chart
from bot.packages.publisher.charts import RETRY_DELAYS
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import http_waits_on_the_fake_clock, message, record_charts, table_of, tick
from .test_e2e_chart_upload import EDIT, injected
from .test_e2e_leftovers47 import left_during_the_upload


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
