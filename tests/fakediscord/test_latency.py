"""Latency per REST call, on the fake clock (issue 8, part 4): off, nothing changes; on, a
call is answered only once its delay has passed on the fake clock, calls in series add up
and concurrent calls overlap. No test sleeps: ``settle`` moves the fake clock past each
call once nothing else can run, and the delays are exact or drawn from a seeded generator."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeClock, FakeDiscord, LatencyConfig, Spread, TestUser
from fakediscord.latency import Latency

from .tinybot import TinyBot

CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
POST = "/channels/{channel_id}/messages"


async def post(fake: FakeDiscord) -> int:
    """A raw POST of a message, as the bot would make it."""
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_url}/channels/{fake.channel.id}/messages"
    async with aiohttp.ClientSession() as session, session.post(
        url, json={"content": "hi"}, headers=headers
    ) as response:
        return response.status


async def on_its_way(fake: FakeDiscord, count: int = 1) -> None:
    """Let the loop run (no real sleep) until ``count`` calls wait out their latency."""
    for _ in range(100_000):
        if fake.latency.waiting >= count:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{count} call(s) never reached the fake")


async def in_series(fake: FakeDiscord, count: int) -> list[int]:
    return [await post(fake) for _ in range(count)]


async def concurrently(fake: FakeDiscord, count: int) -> list[int]:
    return list(await asyncio.gather(*(post(fake) for _ in range(count))))


async def timed(fake: FakeDiscord, work: Any) -> float:
    """Run ``work`` while settling; the fake-clock time it took."""
    started = fake.clock.monotonic()
    task = asyncio.ensure_future(work)
    await fake.settle()
    assert task.done()
    assert set(task.result()) == {200}
    return fake.clock.monotonic() - started


async def test_latency_is_off_unless_enabled(fake: FakeDiscord) -> None:
    assert await in_series(fake, 3) == [200, 200, 200]
    assert fake.clock.monotonic() == 0.0 and fake.clock.next_wake() is None
    assert [(c.time, c.latency) for c in fake.calls] == [(0.0, 0.0)] * 3


async def test_a_call_is_answered_only_once_its_delay_has_passed_on_the_fake_clock(
    fake: FakeDiscord,
) -> None:
    fake.enable_latency(LatencyConfig(mean=0.125, jitter=0))
    call = asyncio.ensure_future(post(fake))
    await on_its_way(fake)
    assert fake.clock.next_wake() == 0.125

    fake.clock.advance(0.0625)
    for _ in range(100):
        await asyncio.sleep(0)
    assert not call.done() and fake.calls == []  # not arrived: nothing judged, nothing logged

    fake.clock.advance(0.0625)
    assert await call == 200
    [record] = fake.calls
    assert (record.time, record.latency, record.status) == (0.125, 0.125, 200)


async def test_calls_in_series_add_up_and_concurrent_calls_overlap(fake: FakeDiscord) -> None:
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0))
    assert await timed(fake, in_series(fake, 5)) == pytest.approx(5 * 0.08)
    assert await timed(fake, concurrently(fake, 5)) == pytest.approx(0.08)


async def test_with_jitter_series_cost_the_sum_and_concurrency_the_longest(
    fake: FakeDiscord,
) -> None:
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0.04, seed=7))
    mark = fake.mark()
    serial = await timed(fake, in_series(fake, 8))
    delays = [c.latency for c in fake.calls_since(mark)]
    assert serial == pytest.approx(sum(delays))
    assert all(0.04 <= d <= 0.12 for d in delays) and len(set(delays)) == 8

    mark = fake.mark()
    overlapped = await timed(fake, concurrently(fake, 8))
    delays = [c.latency for c in fake.calls_since(mark)]
    assert overlapped == pytest.approx(max(delays))
    assert serial >= 8 * 0.04 > 0.12 >= overlapped


def test_delays_come_from_the_seed_and_routes_can_have_their_own() -> None:
    config = LatencyConfig(mean=0.08, jitter=0.04, seed=3, routes={"/interactions/": Spread(0)})
    first, second = Latency(FakeClock(), config), Latency(FakeClock(), config)
    drawn = [first.draw(POST) for _ in range(20)]
    assert drawn == [second.draw(POST) for _ in range(20)]
    assert all(0.04 <= d <= 0.12 for d in drawn)
    other = Latency(FakeClock(), LatencyConfig(seed=4))
    assert drawn != [other.draw(POST) for _ in range(20)]
    assert first.draw(CALLBACK) == 0.0
    assert Latency(FakeClock()).draw(POST) == 0.0  # off
    with pytest.raises(ValueError):
        Spread(-0.01)


async def test_the_three_second_window_counts_the_calls_made_before_the_answer(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """``/post`` makes four channel calls in series, then answers: at 80 ms a call the
    answer arrives after 0.4 s; at 700 ms a call, after 3.5 s, and Discord refuses it."""
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0))
    quick = await alice.slash("post")
    assert quick.answered_at is not None
    assert quick.answered_at - quick.created_at == pytest.approx(5 * 0.08)
    assert quick.acknowledged

    fake.enable_latency(LatencyConfig(mean=0.7, jitter=0))
    late = await alice.slash("post")
    assert late.answered_at is not None
    assert late.answered_at - late.created_at == pytest.approx(5 * 0.7)
    refused = fake.expect_error(10062)
    assert refused.route == CALLBACK and not late.acknowledged
    assert bot.failures
