"""Hard bots' searches under load (issue 12): a search that a worker takes up while others
wait in the pool's queue shares its time with them (bot/tables/thinking.py, `share`), so
that the queue drains by their deadlines instead of growing with the load. Clocks are injected or held still: nothing
here depends on the machine's speed."""

from __future__ import annotations

import ctypes
import itertools
import multiprocessing
from types import SimpleNamespace

import pytest

from bot.tables import thinking
from bot.tables.thinking import Plan, Thinker, share
from engine import Game, Rules
from engine.bots import make_bot
from engine.bots.hard import HardBot
from engine.view import PlayerView, player_view

FULL = 0.08


def test_alone_and_on_time_a_search_takes_its_whole_budget() -> None:
    assert share(FULL, FULL, 0, 1) == FULL
    assert share(FULL, 0.05, 0, 1) == 0.05  # it waited 30 ms: what is left
    assert share(FULL, -0.01, 0, 1) == 0.0  # past its deadline: one sample


def test_the_decisions_waiting_behind_share_the_time() -> None:
    """Three asked at once on one worker: each a third, all three on time, rather than
    the first 80 ms and the other two one sample each, late."""
    assert share(FULL, FULL, 2, 1) == pytest.approx(FULL / 3)
    # Two workers: the second behind starts after one search, ends after two.
    assert share(FULL, FULL, 2, 2) == pytest.approx(FULL / 2)
    # What is left, shared: 30 ms left and one behind, 15 ms each.
    assert share(FULL, 0.03, 1, 1) == pytest.approx(0.015)


def test_the_deeper_the_queue_the_shorter_each_search() -> None:
    budgets = [share(FULL, FULL, depth, 1) for depth in range(6)]
    assert budgets == sorted(budgets, reverse=True) and len(set(budgets)) == 6
    assert budgets[5] == pytest.approx(FULL / 6)


def a_view() -> PlayerView:
    game = Game.new(Rules.preset("classic"), 4, seed=5)
    assert game.to_act is not None
    return player_view(game, game.to_act)


def test_a_worker_taking_a_search_up_reads_the_queue_behind_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two more searches queued behind, 50 ms left: a third of it. The count leaves the
    queue with the search taken up. The workers' clock is held still."""
    monkeypatch.setattr(thinking, "time", SimpleNamespace(monotonic=lambda: 100.0))
    queued = multiprocessing.get_context("spawn").Value(ctypes.c_int, 3)
    monkeypatch.setattr(thinking, "_queued", queued)
    ticks = itertools.count()  # the engine's clock: a second a reading, so one sample
    bot = make_bot("hard", 1, clock=lambda: float(next(ticks)))
    assert isinstance(bot, HardBot)
    thought = thinking.decide(bot, a_view(), Plan(100.05, FULL, 1))
    assert queued.value == 2 and thought.started == 100.0
    assert thought.budget == bot.budget == pytest.approx(0.05 / 3)
    alone = thinking.decide(bot, a_view(), Plan(100.05, FULL, 1))
    assert queued.value == 1 and alone.budget == pytest.approx(0.05 / 2)


def test_the_pool_s_workers_share_the_count_of_queued_searches() -> None:
    """The count lives in shared memory: the loop adds each search it submits, the worker
    that takes one up removes it (here one, by hand, and one the pool ran)."""
    workers = thinking.Workers(1)
    try:
        pool = workers.pool()
        assert workers.queued == 0
        assert workers.submit(pool, thinking.take_turn).result(timeout=60) == 0
        assert workers.queued == 0
        assert workers._queued is not None
        with workers._queued.get_lock():  # two more queued behind the next one
            workers._queued.value += 2
        assert workers.submit(pool, thinking.take_turn).result(timeout=60) == 2
        assert workers.queued == 2
    finally:
        workers.close()
    assert workers.queued == 0  # a new pool counts anew


def test_the_pool_has_as_many_workers_as_set() -> None:
    assert Thinker(workers=3).workers.count == 3
    assert Thinker().workers.count == thinking.workers() >= 1
