"""The call budget on its own, on a manual clock: places free as windows end, waiters park
on one shared wake-up rather than a sleep each, and closing drops the waiters at once."""

from __future__ import annotations

import asyncio

import pytest

from bot.tables.budget import BudgetClosed, CallBudget
from bot.tables.clock import ManualClock


async def full_budget() -> tuple[ManualClock, CallBudget]:
    """A budget of one call a second whose place was just taken."""
    clock = ManualClock()
    budget = CallBudget(clock, limit=1, window=1.0)
    async with budget.call():
        pass
    return clock, budget


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_waiters_go_as_places_come_free_and_never_over_the_limit() -> None:
    clock = ManualClock()
    budget = CallBudget(clock, limit=2, window=1.0)
    sent: list[tuple[int, float]] = []

    async def call(n: int) -> None:
        async with budget.call():
            sent.append((n, clock.now()))

    tasks = [asyncio.ensure_future(call(n)) for n in range(5)]
    await settle()
    assert [n for n, _ in sent] == [0, 1]  # a burst up to the limit goes at once
    assert budget.waited == 3
    for _ in range(3):
        clock.advance(1.0)
        await settle()
    assert sorted(n for n, _ in sent) == list(range(5))
    per_window: dict[float, int] = {}
    for _, at in sent:
        per_window[at] = per_window.get(at, 0) + 1
    assert max(per_window.values()) <= 2
    await asyncio.gather(*tasks)


async def test_waiters_share_one_timer() -> None:
    """However many wait, one timer watches the oldest place (a sleep per waiter and per
    wake-up cost a loaded bot its event loop: docs/deploy.md)."""
    clock, budget = await full_budget()
    waiters = [asyncio.ensure_future(budget.wait_free()) for _ in range(50)]
    await settle()
    assert len(clock._sleepers) == 1
    clock.advance(1.0)
    await settle()
    assert all(w.done() for w in waiters)  # wait_free takes no place: all may go


async def test_closing_drops_every_waiter_at_once_and_keeps_the_limit() -> None:
    clock, budget = await full_budget()
    waiting = asyncio.ensure_future(budget.wait_free())
    await settle()
    assert not waiting.done()
    budget.close()
    await settle()
    with pytest.raises(BudgetClosed):
        waiting.result()
    with pytest.raises(BudgetClosed):  # closed and full: dropped, not sent over the limit
        await budget.wait_free()
    clock.advance(1.0)
    async with budget.call():  # closed, a place free: the call goes
        pass


async def test_a_cancelled_waiter_does_not_cancel_the_others() -> None:
    clock, budget = await full_budget()
    first = asyncio.ensure_future(budget.wait_free())
    second = asyncio.ensure_future(budget.wait_free())
    await settle()
    first.cancel()
    await settle()
    clock.advance(1.0)
    await settle()
    assert first.cancelled() and second.done() and second.exception() is None
