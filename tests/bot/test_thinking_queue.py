"""Hard bots' searches under load (issue 12): the table service hands each worker one
search at a time, and a search that starts while others wait shares its time with them
(bot/tables/thinking.py, `share`), so that the queue does not grow with the load. The
clock is injected and the pool held by the test: nothing here depends on the machine."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, Future
from functools import partial
from typing import Any

import pytest

from bot.tables import thinking
from bot.tables.thinking import BUSY, Thinker, share
from engine import Game, Rules
from engine.actions import Action
from engine.bots import Bot, make_bot
from engine.view import PlayerView, player_view

FULL = 0.08


def test_alone_and_on_time_a_search_takes_its_whole_budget() -> None:
    assert share(FULL, FULL, [], 1, 0.0) == FULL
    assert share(FULL, 0.05, [], 1, 0.0) == 0.05  # it waited 30 ms: what is left
    assert share(FULL, -0.01, [], 1, 0.0) == 0.0  # past its deadline: one sample


def test_the_decisions_waiting_behind_share_the_time() -> None:
    """Three asked at once on one worker: each a third, all three on time, rather than
    the first 80 ms and the other two one sample each, late."""
    assert share(FULL, FULL, [FULL, FULL], 1, 0.0) == pytest.approx(FULL / 3)
    # Two workers: the second behind starts after one search, ends after two.
    assert share(FULL, FULL, [FULL, FULL], 2, 0.0) == pytest.approx(FULL / 2)
    # One behind with little time left cuts this one to half of it...
    assert share(FULL, FULL, [0.02], 1, 0.0) == pytest.approx(0.01)
    # ...and one already late cannot be helped: it cuts no one.
    assert share(FULL, FULL, [-0.01], 1, 0.0) == FULL


def test_the_deeper_the_queue_the_shorter_each_search() -> None:
    budgets = [share(FULL, FULL, [FULL] * depth, 1, 0.0) for depth in range(6)]
    assert budgets == sorted(budgets, reverse=True) and len(set(budgets)) == 6
    assert budgets[5] == pytest.approx(FULL / 6)


def test_at_a_rate_the_workers_cannot_keep_up_with_each_search_shortens() -> None:
    """11.6 decisions a second (100 hard tables, docs/deploy.md) on one worker: 80 ms each
    would keep it busy 93 % of the time; each gets BUSY / 11.6 s. Two workers keep up."""
    assert share(FULL, FULL, [], 1, 11.6) == pytest.approx(BUSY / 11.6)
    assert share(FULL, FULL, [], 2, 11.6) == FULL
    assert share(FULL, FULL, [], 1, 5.0) == FULL


class Held(Executor):
    """A pool whose searches the test answers, in the order it likes."""

    def __init__(self) -> None:
        self.searches: list[tuple[partial[tuple[Action, int]], Future[tuple[Action, int]]]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        answer: Future[tuple[Action, int]] = Future()
        self.searches.append((fn, answer))
        return answer

    def until(self, i: int) -> float:
        """When the i-th search handed to the pool was told to end."""
        deadline = self.searches[i][0].args[2]
        assert isinstance(deadline, float)
        return deadline

    async def answer(self, i: int, sampled: int) -> None:
        self.searches[i][1].set_result((Action.pass_(), sampled))
        for _ in range(20):
            await asyncio.sleep(0)


def a_view() -> PlayerView:
    game = Game.new(Rules.preset("classic"), 4, seed=5)
    assert game.to_act is not None
    return player_view(game, game.to_act)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@pytest.fixture
def now() -> list[float]:
    return [100.0]


@pytest.fixture
def held() -> Held:
    return Held()


def one_worker(now: list[float], held: Held, monkeypatch: pytest.MonkeyPatch) -> Thinker:
    thinker = Thinker(workers=1, clock=lambda: now[0])
    monkeypatch.setattr(thinker.workers, "pool", lambda: held)
    return thinker


async def test_a_worker_takes_one_search_at_a_time_and_those_waiting_share_their_time(
    now: list[float], held: Held, monkeypatch: pytest.MonkeyPatch,
) -> None:
    thinker = one_worker(now, held, monkeypatch)
    waits: list[float] = []
    thinker.waited = waits.append
    thinker.sampled = []
    view = a_view()

    def hard() -> Bot:
        return make_bot("hard", 1, clock=lambda: now[0])

    first = asyncio.ensure_future(thinker.think(hard(), view))
    await settle()
    assert len(held.searches) == 1 and held.until(0) == pytest.approx(100.08)  # alone
    now[0] = 100.01
    behind = [asyncio.ensure_future(thinker.think(hard(), view)) for _ in range(2)]
    await settle()
    assert len(held.searches) == 1  # the worker is busy: they wait here, not in the pool
    assert (thinker.running, thinker.searching, thinker.waiting) == (3, 1, 2)

    now[0] = 100.08
    await held.answer(0, sampled=40)
    assert first.done() and thinker.sampled == [40]
    # The second has 10 ms left, and the third as much: each gets half of it.
    assert len(held.searches) == 2 and held.until(1) == pytest.approx(100.085)
    assert (thinker.searching, thinker.waiting) == (1, 1)
    now[0] = 100.085
    await held.answer(1, sampled=3)
    assert held.until(2) == pytest.approx(100.09)  # the last, alone: what is left
    now[0] = 100.09
    await held.answer(2, sampled=3)
    assert all(b.done() for b in behind)
    assert waits == [0.0, pytest.approx(0.07), pytest.approx(0.075)]
    assert (thinker.running, thinker.searching, thinker.waiting) == (0, 0, 0)
    assert (thinker.started, thinker.shortened) == (3, 2)  # the two that waited


async def test_a_freed_worker_goes_to_the_first_waiting_not_to_one_asked_meanwhile(
    now: list[float], held: Held, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Between a search's answer and the next one's start the loop may run a new asking:
    it queues behind, the worker being already handed over."""
    thinker = one_worker(now, held, monkeypatch)
    view = a_view()
    bot = make_bot("hard", 1, samples=2)  # not timed: no deadline, no share
    first = asyncio.ensure_future(thinker.think(bot, view))
    await settle()
    second = asyncio.ensure_future(thinker.think(bot, view))
    await settle()
    held.searches[0][1].set_result((Action.pass_(), 2))
    for _ in range(20):  # until the answer reaches the loop and the second's turn is set
        if thinker.waiting == 0:
            break
        await asyncio.sleep(0)
    # The worker is the second's, which has yet to run and send its search.
    assert (len(held.searches), thinker.searching, thinker.waiting) == (1, 1, 0)
    third = asyncio.ensure_future(thinker.think(bot, view))
    await settle()
    assert first.done() and len(held.searches) == 2  # the second's, not the third's
    assert thinker.waiting == 1
    await held.answer(1, sampled=2)
    await held.answer(2, sampled=2)
    assert second.done() and third.done() and thinker.running == 0


async def test_a_decision_cancelled_while_waiting_leaves_the_line(
    now: list[float], held: Held, monkeypatch: pytest.MonkeyPatch,
) -> None:
    thinker = one_worker(now, held, monkeypatch)
    view = a_view()
    bot = make_bot("hard", 1, samples=2)
    first = asyncio.ensure_future(thinker.think(bot, view))
    await settle()
    waiting = asyncio.ensure_future(thinker.think(bot, view))
    await settle()
    waiting.cancel()
    await settle()
    assert waiting.cancelled() and (thinker.waiting, thinker.running) == (0, 1)
    await held.answer(0, sampled=2)
    assert first.done() and len(held.searches) == 1  # the cancelled one never searched
    assert (thinker.running, thinker.searching) == (0, 0)


def test_the_pool_has_as_many_workers_as_set() -> None:
    assert Thinker(workers=3).workers.count == 3
    assert Thinker().workers.count == thinking.workers() >= 1
