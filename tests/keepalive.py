"""discord.py's keep-alive thread on the fake clock, for tests of a zombied connection.

discord.py (2.7, `discord.gateway.KeepAliveHandler.run`) wakes once per heartbeat interval
(HELLO's, 41.25 s from Discord) on the wall clock, and closes the connection with 4000 to
RESUME when it has received nothing (a Heartbeat ACK or any event: every frame calls its
``tick``) for the client's ``heartbeat_timeout`` (60 s by default), read with
`time.perf_counter`. Here its `perf_counter` is the fake's clock, so the 60 s are crossed
with ``clock.advance``, and the fake's HELLO asks for a short interval, so the thread looks
every few real milliseconds: the test waits that long, never the 60 s. Its other path, a
websocket read that times out after ``heartbeat_timeout`` on the event loop's clock, stays
on the wall clock and never fires within a test.

A test on this clock must not jump it by ``heartbeat_timeout`` at once while the connection
is healthy: the ACK of the last heartbeat would not have had the real milliseconds to
arrive, and the thread would see a zombie where Discord's heartbeats would have gone on.
"""

from __future__ import annotations

import time
import types
from typing import Any

import discord.gateway
import pytest

from fakediscord import FakeDiscord

# The real seconds between two looks of discord.py's keep-alive thread in these tests.
SHORT_INTERVAL = 0.02


class TimeOnTheFakeClock(types.ModuleType):
    """`time` as discord.py's gateway module sees it: `perf_counter` reads the fake clock."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__("time")
        self._clock = fake.clock

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)

    def perf_counter(self) -> float:
        return self._clock.monotonic()


def keep_alive_on_the_fake_clock(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord) -> None:
    """From the next connection on, discord.py's keep-alive thread measures its timeout on
    the fake clock and looks every `SHORT_INTERVAL` real seconds (see the module)."""
    monkeypatch.setattr(discord.gateway, "time", TimeOnTheFakeClock(fake))
    fake.gateway.heartbeat_interval = SHORT_INTERVAL
