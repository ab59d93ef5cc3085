"""End-to-end: a zombied gateway connection during a game (stop 52). Discord: a client that
gets no Heartbeat ACK between two heartbeats "should then immediately terminate the
connection with any close code besides 1000 or 1001, then reconnect and attempt to Resume"
(developers/events/gateway.mdx, « Sending Heartbeats »). The fake keeps the socket open and
lets nothing through (`FakeDiscord.zombie_gateway`); discord.py's keep-alive thread, on the
fake clock (tests/keepalive.py), notices once it has received nothing for its 60-second
``heartbeat_timeout``, closes with 4000 and RESUMEs, and the fake replays what it held."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.client import PresidentBot
from bot.config import Config
from fakediscord import FakeDiscord
from tests.fresh import fresh
from tests.keepalive import keep_alive_on_the_fake_clock

from .conftest import BOT_PAUSE, LinkedClock
from .e2e import Player, dealt_against_two_bots, tick
from .test_e2e_playtest27 import HANDS, cards_left, pick_first_card

HEARTBEAT_TIMEOUT = 60.0  # discord.py's default, which the bot keeps


@pytest.fixture
async def president(fake: FakeDiscord, clock: LinkedClock,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[PresidentBot]:
    """The bot of conftest's `president`, its keep-alive thread on the fake clock."""
    keep_alive_on_the_fake_clock(monkeypatch, fake)
    bot = PresidentBot(Config(token=fake.token, bot_pause=BOT_PAUSE), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    yield bot
    await fake.disconnect(bot)


async def test_a_zombied_connection_is_resumed_and_the_game_goes_on_with_nothing_lost_or_doubled(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's turn (two minutes on her clock) when the connection goes zombie. Her first
    pick, early, waits in Discord past its three seconds (she saw « This interaction
    failed »); her second, a second before discord.py gives up on the connection, is
    still answerable when the RESUME replays it. The first is left alone, the second
    played, once; the bots play on and her next turn plays as any other."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0,
                                               turn_seconds=120)
    resumes, identifies = len(fake.gateway.resumes), len(fake.gateway.identifies)

    fake.zombie_gateway()
    early = await pick_first_card(marie)
    for step in (30, HEARTBEAT_TIMEOUT - 1 - 30):
        clock.advance(step)
        await fake.heartbeats_sent()  # discord.py looked, and found it alive
    assert fake.gateway.zombies == 1 and not early.attempted and cards_left(game) == 6
    late = await pick_first_card(marie)
    clock.advance(2)
    await fake.zombies_replaced()

    assert len(fake.gateway.resumes) == resumes + 1  # resumed, once
    assert {early.id, late.id} <= fake.gateway.replayed  # her two picks among what it held
    assert len(fake.gateway.identifies) == identifies
    assert not fresh(early).attempted and late.attempted
    assert cards_left(game) == 5 and table.game is game
    for _ in range(10):  # the bots answer
        if game.to_act == 0:
            break
        await tick(fake, clock, BOT_PAUSE)
    assert game.to_act == 0 and cards_left(game) == 5
    hers = [e.params["cards"] for e in table.log
            if e.key == "ev.played" and e.params["name"] == "marie"]
    assert hers == [["3C"]]  # one line for her one card
    assert await marie.act() and game.to_act != 0  # her turn is hers to play, as ever
