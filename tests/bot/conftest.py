"""End-to-end fixtures: the real bot, through discord.py, against the fake Discord."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.tables.clock import FollowingClock
from bot.tables.service import TableService
from fakediscord import FakeDiscord
from fakediscord.pytest_plugin import fake  # noqa: F401

BOT_PAUSE = 1.0


class LinkedClock(FollowingClock):
    """The bot's clock is the fake Discord's clock: tests move both with one `advance`."""


@pytest.fixture
def clock(fake: FakeDiscord) -> LinkedClock:  # noqa: F811
    return LinkedClock(fake.clock)


@pytest.fixture
async def president(fake: FakeDiscord, clock: LinkedClock) -> AsyncIterator[PresidentBot]:  # noqa: F811
    bot = PresidentBot(Config(token=fake.token, bot_pause=BOT_PAUSE), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    yield bot
    await fake.disconnect(bot)  # while discord.py still points at the fake


@pytest.fixture
async def instant(fake: FakeDiscord, clock: LinkedClock) -> AsyncIterator[PresidentBot]:  # noqa: F811
    """A bot whose bots answer without pausing: bursts of moves at one instant."""
    bot = PresidentBot(Config(token=fake.token, bot_pause=0), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    yield bot
    await fake.disconnect(bot)


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot a test builds deals the same cards on every run: a test that depends on the
    deal must fail every time or never, not by luck (the bot itself seeds from the OS)."""
    defaults = TableService.__init__.__kwdefaults__
    assert defaults is not None and "seed" in defaults
    monkeypatch.setitem(defaults, "seed", 20261130)


@pytest.fixture(autouse=True)
def no_logged_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """A failed refresh or timer is only logged by the bot: make it fail the test."""
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("bot")]
    assert errors == [], [r.getMessage() for r in errors]
