"""A zombied gateway connection (developers/events/gateway.mdx, « Sending Heartbeats »: no
Heartbeat ACK between two heartbeats, "the client should then immediately terminate the
connection with any close code besides 1000 or 1001, then reconnect and attempt to
Resume"): the fake keeps the socket open but lets nothing through (`Gateway.zombie`), and
the real discord.py client must notice, on its keep-alive thread, with its own 60-second
``heartbeat_timeout`` counted on the fake clock (tests/keepalive.py)."""

from __future__ import annotations

import pytest

from fakediscord import FakeDiscord, TestUser
from tests.keepalive import keep_alive_on_the_fake_clock

from .test_gateway_gaps import record
from .tinybot import TinyBot

# discord.py's default ``heartbeat_timeout`` (`discord.Client`), which TinyBot keeps.
HEARTBEAT_TIMEOUT = 60.0


async def test_a_zombied_connection_is_closed_resumed_and_replays_what_it_held(
    fake: FakeDiscord, alice: TestUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The socket stays open, heartbeats go unanswered, messages posted meanwhile are held.
    Nothing happens within the client's 60 s; past them discord.py closes with 4000,
    RESUMEs, and is sent the held messages in order, then RESUMED, each once."""
    keep_alive_on_the_fake_clock(monkeypatch, fake)
    bot = TinyBot()
    await fake.connect(bot)
    seen = record(bot)
    identified, resumes = len(fake.gateway.identifies), len(fake.gateway.resumes)

    fake.zombie_gateway()
    said = [str(alice.say(word).id) for word in ("one", "two", "three")]
    for step in (30, HEARTBEAT_TIMEOUT - 1 - 30):
        fake.clock.advance(step)
        await fake.heartbeats_sent()  # the client looked, and found it alive
        assert seen == [] and fake.gateway.zombies == 1
    fake.clock.advance(2)
    await fake.zombies_replaced()

    assert seen == [*said, "RESUMED"]
    assert fake.gateway.resumes[resumes:] == [3]
    assert len(fake.gateway.identifies) == identified
    after = str(alice.say("after").id)
    await fake.settle()
    assert seen[-1] == after


async def test_a_connection_that_only_stops_acking_is_kept_while_events_flow(
    fake: FakeDiscord, alice: TestUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's rule is the ACK: none between two heartbeats is a zombie. discord.py's is
    any frame: it resets its timer on every event too (`KeepAliveHandler.tick`), so a
    connection whose ACKs are lost but whose events arrive is kept past 60 s, the events
    delivered as they come. (What discord.py does; nothing is lost meanwhile.)"""
    keep_alive_on_the_fake_clock(monkeypatch, fake)
    bot = TinyBot()
    await fake.connect(bot)
    seen = record(bot)
    resumes = len(fake.gateway.resumes)

    fake.zombie_gateway(events_flow=True)
    said = []
    for _ in range(4):  # 120 s, a message every 30
        fake.clock.advance(30)
        said.append(str(alice.say("still here").id))
        await fake.heartbeats_sent()

    assert seen == said and fake.gateway.zombies == 1
    assert len(fake.gateway.resumes) == resumes
