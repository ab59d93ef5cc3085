"""A stop under load keeps to Discord's global limit (issue 8): the refreshes waiting for the
call budget when the bot stops are dropped, not sent all at once over the limit (which
earned a 250-table load benchmark 650-670 global 429s per stop, and 64-65 table messages
never posted). The restart posts every restored table afresh.

Per-route buckets are set wide, as in test_e2e_rate_limits.py: this is about the global
limit, and discord.py waits out an exhausted bucket on the wall clock."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.tables.budget import BudgetClosed, CallBudget
from bot.tables.clock import ManualClock
from fakediscord import FakeDiscord, RateLimitConfig, Window

from .conftest import BOT_PAUSE, LinkedClock
from .e2e import cid, message, table_of, tick

WIDE = Window(1000, 1.0)
# Each Start wants two channel calls (post the table, edit the lobby): 45 of the 120 go at
# once and 75 wait, more than the 50 Discord takes in a second.
TABLES = 60


async def test_a_stop_with_refreshes_waiting_for_the_budget_earns_no_429(
    fake: FakeDiscord, clock: LinkedClock
) -> None:
    bot = PresidentBot(Config(token=fake.token, bot_pause=BOT_PAUSE), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    service = bot.service
    started = []
    for index in range(TABLES):
        host = fake.add_user(f"host{index}")
        host.channel = fake.add_channel(fake.guild, f"table-{index}")
        await host.slash("president create", preset="classic")
        table = table_of(bot, host)
        for _ in range(3):
            await service.add_bot(table, host.id)
        started.append((host, table))
    await fake.settle()
    fake.enable_rate_limits(RateLimitConfig(channel_messages=WIDE, webhooks=WIDE))
    for _ in range(5):  # the lobbies' redraws (two or three seconds of the budget), then quiet
        await tick(fake, clock)
    mark = fake.mark()
    for host, table in started:
        lobby = message(host, table.lobby_message_id)
        await host.click(lobby, cid(table, "start"), settle=False)
    await fake.settle()
    # 45 channel calls went in this second; the other 75 wait for the budget...
    assert len([c for c in fake.calls_since(mark) if c.route.startswith("/channels/")]) == 45
    assert bot.budget.waited > 0

    # ...when the bot stops, and time goes on while it does: the places come free.
    stop = asyncio.ensure_future(fake.disconnect(bot))
    for _ in range(10):
        await asyncio.sleep(0)
    clock.advance(1.0)
    await stop

    calls = fake.calls_since(mark)
    assert [str(c) for c in calls if c.status == 429] == []
    per_second = Counter(int(c.time) for c in calls if c.route.startswith("/channels/"))
    assert max(per_second.values()) <= 45
    fake.assert_no_errors()


async def test_once_closed_a_call_goes_if_a_place_is_free_and_is_dropped_otherwise() -> None:
    clock = ManualClock()
    budget = CallBudget(clock, limit=2, window=1.0)
    async with budget.call():
        pass
    waiting = asyncio.ensure_future(budget.wait_free())  # two held: waits for a second
    async with budget.call():
        await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert not waiting.done()
    budget.close()
    with pytest.raises(BudgetClosed):  # woken by the stop, on a clock that did not move
        await waiting
    with pytest.raises(BudgetClosed):
        async with budget.call():
            pytest.fail("a call over the limit went after the stop")
    clock.advance(1.0)  # the places come free: a call within the limit still goes
    async with budget.call():
        pass
    assert budget.taken == 3
