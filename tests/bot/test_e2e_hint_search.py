"""« Conseil » where the normal bot searches (stop 53): at presi its last four cards are a
search of tens of ms (engine/bots/endsearch.py), which the button sends to the bot's worker
pool as a bot's decision goes there, instead of deciding it on the event loop. The pool here
is a fake that holds each submission until the test runs it: nothing depends on time."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future
from functools import partial
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.packages.game import hint
from bot.packages.game.hint import advice
from bot.packages.saving import STORE_BUDGET
from engine.bots import endsearch
from engine.view import PlayerView, player_view
from fakediscord import FakeDiscord, InteractionRecord

from .conftest import LinkedClock
from .e2e import Player, cid, deal, host_against_bots, message, tick

UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE = 7, 6


class HeldPool(Executor):
    """The worker pool, holding what is submitted until `run` does it (the « worker »)."""

    def __init__(self) -> None:
        self.held: list[tuple[Callable[[], Any], Future[Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.held.append((partial(fn, *args, **kwargs), future))
        return future

    def run(self, index: int) -> None:
        work, future = self.held[index]
        future.set_result(work())


async def turns(until: Callable[[], bool]) -> None:
    """Turn the event loop until `until` (at most 1,000 turns): `fake.settle` would wait for
    the held decision, which the bot reports as work in flight (`PresidentBot.busy`)."""
    for _ in range(1000):
        if until():
            return
        await asyncio.sleep(0)


def on_the_loop(view: PlayerView) -> Any:
    raise AssertionError("a searched « Conseil » was decided on the event loop")


async def asking_at_presi(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                          monkeypatch: pytest.MonkeyPatch, locale: str,
                          ) -> tuple[Player, HeldPool, InteractionRecord, int]:
    """A host against two normal bots at presi, their turn with three cards (normal
    searches there), clicks « Conseil »: the click, unanswered, and which submission to the
    pool is its decision."""
    pool = HeldPool()
    monkeypatch.setattr(president.service.thinker.workers, "pool", lambda: pool)
    monkeypatch.setattr(hint, "decided", on_the_loop)
    host = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(president, host.user, "presi", 2)
    await tick(fake, clock, 1)
    game = deal(president, table, [["3E", "8C", "KB"], ["4E", "AC"], ["6O", "9E"]], opener=0)
    table.hints = True
    await tick(fake, clock, 1)
    await host.open_hand(president)
    assert endsearch.searching(player_view(game, 0))
    asked = len(pool.held)
    click = await host.user.click(host.hand, cid(table, "hint", game.version), settle=False)
    await turns(lambda: len(pool.held) > asked)
    assert len(pool.held) == asked + 1, "the searched decision did not go to the workers"
    assert president.service.thinker.running == 1 and president.busy
    assert click.response_type is None
    return host, pool, click, asked


async def test_a_searched_hint_is_decided_in_the_workers_and_shown_in_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host, pool, click, index = await asking_at_presi(fake, president, clock, monkeypatch, "fr")
    table = president.service.registry.in_channel(host.user.channel.id)
    assert table is not None and table.game is not None
    game, version = table.game, table.game.version
    pool.run(index)
    await fake.settle()
    assert click.response_type == UPDATE_MESSAGE  # answered in time: the hand, updated
    monkeypatch.undo()
    told = advice(table, 0, "fr")  # the same words as decided in place
    assert told.startswith("💡 ") and "Le bot normal" in told
    assert message(host.user, host.hand_id).content.splitlines()[0] == told
    assert message(host.user, host.hand_id).ephemeral
    assert game.version == version and president.service.thinker.running == 0
    fake.assert_no_errors()


async def test_a_slow_worker_defers_the_click_and_the_hint_follows_in_english(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past `STORE_BUDGET` of the bot's clock the click is acknowledged (a deferred update,
    well within Discord's 3 s) and the hand shows the hint once the worker answers."""
    host, pool, click, index = await asking_at_presi(fake, president, clock, monkeypatch,
                                                     "en-US")
    clock.advance(STORE_BUDGET)
    await turns(lambda: click.response_type is not None)
    assert click.response_type == DEFERRED_UPDATE_MESSAGE
    assert president.service.thinker.running == 1  # still searching
    pool.run(index)
    await fake.settle()
    monkeypatch.undo()
    table = president.service.registry.in_channel(host.user.channel.id)
    assert table is not None
    told = advice(table, 0, "en-US")
    assert told.startswith("💡 The normal bot would")
    assert message(host.user, host.hand_id).content.splitlines()[0] == told
    fake.assert_no_errors()
