"""End-to-end: a table that closes while its messages' redraw is on its way to Discord
leaves no bookkeeping behind (docs/bot.md, « Small fixes (stop 45) »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import create_table, http_waits_on_the_fake_clock, tick

# A message's edits (`Publisher._edit`).
EDIT = "/channels/{channel_id}/messages/{message_id}"
UNKNOWN_CHANNEL = 10003


def kept_for(bot: PresidentBot, table_id: int) -> list[str]:
    """What the bot still keeps, in memory, for the table `table_id`."""
    publisher = bot.publisher
    kept = [f"shown {key}" for key in publisher._shown if key[0] == table_id]
    if publisher.blocked.blocks(table_id):
        kept.append("blocked")
    if table_id in publisher._flushing:
        kept.append("flushing")
    kept += [f"refresh {key}" for key in bot.service.coalescer._states
             if key == table_id or (isinstance(key, tuple) and table_id in key)]
    return kept


async def test_a_redraw_that_ends_after_its_table_closed_keeps_nothing_of_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The lobby's redraw is held by a 502 (discord.py retries it a second later, on the
    fake clock) when the channel is deleted: the table closes, with no edit there, and its
    bookkeeping goes (`Publisher.closed`). The redraw then ends: its retry finds the
    channel gone (10003), and since play-test 37 posts no fresh lobby there (it did, a
    second 10003). What it marked on its way out, the lobby as shown and the channel as
    gone, outlived the table, for good: one entry per such table, over weeks of
    evenings."""
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    await tick(fake, clock, 1)
    fake.inject_error(EDIT, 502, method="PATCH")
    await president.service.add_bot(table, marie.id)
    await tick(fake, clock, 1)  # the lobby's redraw: refused with a 502, retried in 1 s
    assert [c.status for c in fake.calls if c.injected] == [502] and not table.closed
    fake.delete_channel(fake.channel)
    await fake.settle()
    assert fresh(table).closed
    for _ in range(3):
        await tick(fake, clock, 1)
    fake.expect_error(UNKNOWN_CHANNEL)  # the edit's retry
    assert [c for c in fake.calls if c.method == "POST" and c.status == 404] == []
    assert kept_for(president, table.id) == []
    waits.end()
    fake.assert_no_errors()
