import asyncio

import pytest

from bot.tables.clock import ManualClock
from bot.tables.refresh import Coalescer
from bot.tables.timers import Scheduler


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


class SlowTableMessage:
    """A table message whose flush reads ``value`` at once but shows it only when ``gate``
    opens: an edit still on its way to Discord."""

    def __init__(self, value: int) -> None:
        self.value = value
        self.gate = asyncio.Event()
        self.shown: list[int] = []

    async def flush(self) -> None:
        value = self.value
        await self.gate.wait()
        self.shown.append(value)


async def test_timer_fires_only_when_the_clock_reaches_its_deadline() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    fired: list[float] = []

    async def fire() -> None:
        fired.append(clock.now())

    scheduler.after("turn", 30, fire)
    await settle()
    clock.advance(29.9)
    await settle()
    assert fired == []
    clock.advance(0.1)
    await settle()
    assert fired == [clock.now()]
    assert scheduler.pending() == []


async def test_rearming_a_key_replaces_the_previous_deadline() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    fired: list[str] = []

    async def first() -> None:
        fired.append("first")

    async def second() -> None:
        fired.append("second")

    scheduler.after("turn", 10, first)
    await settle()
    scheduler.after("turn", 20, second)
    assert scheduler.deadline("turn") == clock.now() + 20
    clock.advance(15)
    await settle()
    assert fired == []
    clock.advance(5)
    await settle()
    assert fired == ["second"]


async def test_a_deadline_already_past_fires_at_once() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    fired: list[int] = []

    async def fire() -> None:
        fired.append(1)

    scheduler.at("restored", clock.now() - 100, fire)
    await settle()
    assert fired == [1]


async def test_a_running_callback_may_rearm_its_own_key() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    fired: list[float] = []

    async def tick() -> None:
        fired.append(clock.now())
        if len(fired) < 3:
            scheduler.after("tick", 5, tick)

    scheduler.after("tick", 5, tick)
    for _ in range(4):
        await settle()
        clock.advance(5)
    await settle()
    assert len(fired) == 3


async def test_a_failing_callback_does_not_stop_the_scheduler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)
    fired: list[int] = []

    async def boom() -> None:
        raise RuntimeError("boom")

    async def fine() -> None:
        fired.append(1)

    scheduler.after("a", 1, boom)
    scheduler.after("b", 2, fine)
    await settle()
    clock.advance(2)
    await settle()
    assert fired == [1]
    assert [r.getMessage() for r in caplog.records] == ["timer 'a' failed"]
    caplog.clear()  # the error this test provokes, and asserts (conftest's no_logged_errors)


async def test_cancel_where_drops_every_timer_of_a_table() -> None:
    clock = ManualClock()
    scheduler = Scheduler(clock)

    async def never() -> None:
        raise AssertionError("cancelled timer fired")

    scheduler.after((1, "turn"), 5, never)
    scheduler.after((1, "bot"), 5, never)
    scheduler.after((2, "turn"), 5, never)
    scheduler.cancel_where(lambda key: isinstance(key, tuple) and key[0] == 1)
    assert scheduler.pending() == [(2, "turn")]
    await scheduler.close()


async def test_coalescer_shows_the_first_change_at_once_and_folds_a_burst() -> None:
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    state = {"value": 0}
    shown: list[int] = []

    async def flush() -> None:
        shown.append(state["value"])

    state["value"] = 1
    coalescer.request("table", flush)
    await settle()
    assert shown == [1]
    for value in range(2, 12):
        state["value"] = value
        coalescer.request("table", flush)
        await settle()
        clock.advance(0.05)
    assert shown == [1]
    clock.advance(0.6)
    await settle()
    assert shown == [1, 11]


async def test_coalescer_rerenders_a_change_made_while_flushing() -> None:
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    table = SlowTableMessage(1)
    coalescer.request("table", table.flush)
    await settle()
    table.value = 2
    coalescer.request("table", table.flush)
    table.gate.set()
    await settle()
    assert table.shown == [1]
    clock.advance(1.0)
    await settle()
    assert table.shown == [1, 2]


async def test_an_urgent_request_runs_at_once_once_per_mark() -> None:
    """The turn passes to someone a quarter second after their hand's last edit: their hand
    goes at once, not at the end of the interval; asked again with the same mark (the same
    turn), the interval holds as for any change."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    state = {"value": 1}
    shown: list[int] = []

    async def flush() -> None:
        shown.append(state["value"])

    coalescer.request("hand", flush)
    await settle()
    clock.advance(0.25)
    state["value"] = 2
    coalescer.request("hand", flush, urgent=("marie", 7))
    await settle()
    assert shown == [1, 2]
    state["value"] = 3
    coalescer.request("hand", flush, urgent=("marie", 7))
    await settle()
    clock.advance(0.5)
    await settle()
    assert shown == [1, 2]
    clock.advance(0.5)
    await settle()
    assert shown == [1, 2, 3]


async def test_an_urgent_request_during_a_flush_runs_right_after_it() -> None:
    """Asked while the hand's edit is on its way: the next edit goes as soon as that one
    ends, not a second after it began."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    hand = SlowTableMessage(1)
    coalescer.request("hand", hand.flush)
    await settle()
    hand.value = 2
    coalescer.request("hand", hand.flush, urgent=("bob", 3))
    clock.advance(0.1)
    hand.gate.set()
    await settle()
    assert hand.shown == [1, 2]


async def test_coalescer_forgets_a_key_whose_flush_was_running_and_asked_again() -> None:
    """A table closed while its refresh is on its way, with a change asked meanwhile: the
    forgotten key is not scheduled again (it ran once more and failed on its missing state)."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    table = SlowTableMessage(1)
    coalescer.request("table", table.flush)
    await settle()
    coalescer.request("table", table.flush)
    coalescer.forget("table")
    table.gate.set()
    await settle()
    assert table.shown == [1]
    assert coalescer.scheduler.pending() == []


async def test_coalescer_drain_runs_pending_flushes_now() -> None:
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    shown: list[str] = []

    async def flush() -> None:
        shown.append("x")

    coalescer.request("t", flush)
    await settle()
    coalescer.request("t", flush)
    await coalescer.drain()
    assert shown == ["x", "x"]


async def test_coalescer_drain_waits_for_a_flush_already_running() -> None:
    """Shutdown must not close the HTTP session under an edit still on its way."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    table = SlowTableMessage(1)
    coalescer.request("table", table.flush)
    await settle()  # the first flush is now running, waiting on the gate
    table.value = 2
    coalescer.request("table", table.flush)  # changed while running: must be shown too
    drain = asyncio.ensure_future(coalescer.drain())
    await settle()
    assert not drain.done() and table.shown == []
    table.gate.set()
    await drain
    assert table.shown == [1, 2]


async def test_coalescer_drain_runs_waiting_flushes_side_by_side() -> None:
    """At shutdown, one hand whose edit discord.py holds on a 429 must not keep the other
    hands' last edits waiting behind it."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    held = SlowTableMessage(1)
    shown: list[str] = []

    async def flush() -> None:
        shown.append("other")

    for key, flushing in (("held", held.flush), ("other", flush)):
        coalescer.request(key, flushing)
        await settle()
    held.gate.set()
    await settle()
    held.gate.clear()
    coalescer.request("held", held.flush)  # within the interval: both wait for the drain
    coalescer.request("other", flush)
    drain = asyncio.ensure_future(coalescer.drain())
    await settle()
    assert shown == ["other", "other"] and held.shown == [1]
    held.gate.set()
    await drain
    assert held.shown == [1, 1]


async def test_coalescer_drain_skips_a_flush_forgotten_meanwhile() -> None:
    """A table closing during the stop's drain forgets its hands' lanes (`forget_where`)
    while the drain runs the others side by side: the stop must go on, not fail on the
    forgotten key (and skip storing the tables' last states)."""
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)
    shown: list[str] = []

    async def closing() -> None:
        shown.append("closing")
        if len(shown) > 2:
            coalescer.forget("lane")

    async def lane() -> None:
        shown.append("lane")

    for key, flush in (("closing", closing), ("lane", lane)):
        coalescer.request(key, flush)
    await settle()
    for key, flush in (("closing", closing), ("lane", lane)):
        coalescer.request(key, flush)  # within the interval: both wait for the drain
    await coalescer.drain()
    assert shown == ["closing", "lane", "closing"]


async def test_coalescer_forget_where_drops_every_key_it_accepts() -> None:
    clock = ManualClock()
    coalescer = Coalescer(Scheduler(clock), interval=1.0)

    async def flush() -> None:
        return None

    for key in (("hand", 1, 10), ("hand", 1, 11), ("hand", 2, 10), 1):
        coalescer.request(key, flush)
    coalescer.forget_where(lambda key: isinstance(key, tuple) and key[:2] == ("hand", 1))
    assert sorted(map(str, coalescer.scheduler.pending())) \
        == ["('refresh', ('hand', 2, 10))", "('refresh', 1)"]
    await coalescer.drain()


async def test_closing_the_scheduler_waits_for_running_callbacks_and_refuses_new_ones() -> None:
    """A stop must not return while a refresh or a bot's move is still calling Discord."""
    clock = ManualClock()
    scheduler = Scheduler(clock)
    gate = asyncio.Event()
    ran: list[str] = []

    async def slow() -> None:
        await gate.wait()
        ran.append("slow")

    async def later() -> None:
        ran.append("later")

    scheduler.after("refresh", 0, slow)
    scheduler.after("turn", 30, later)
    await settle()  # "refresh" is running, held by the gate
    closing = asyncio.ensure_future(scheduler.close())
    await settle()
    assert not closing.done()
    gate.set()
    await closing
    assert ran == ["slow"]  # the waiting timer was cancelled, the running one finished
    scheduler.after("again", 0, later)
    clock.advance(60)
    await settle()
    assert ran == ["slow"] and scheduler.pending() == []


async def test_a_timer_re_armed_all_evening_leaves_no_sleeper_behind() -> None:
    """Play-test 31: every move re-arms a table's turn and idle timers; the manual clock
    kept each cancelled sleeper until its deadline (an idle close an hour away), so a long
    evening's heap, and the load bench's memory, grew by hundreds of entries a round."""
    clock = ManualClock()
    scheduler = Scheduler(clock)

    async def fire() -> None:
        pass

    for move in range(1_000):
        scheduler.after("idle", 3_600, fire)
        scheduler.after("turn", 60, fire)
        await settle()
        if move % 10 == 0:
            clock.advance(1)
    assert len(clock._sleepers) <= 8
    clock.advance(3_600)
    await settle()
    assert clock._sleepers == [] and clock._cancelled == 0
