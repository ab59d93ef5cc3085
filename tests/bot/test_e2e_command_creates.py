"""End-to-end: a start whose command sync Discord refuses for the day's 200 creates (30034)
still starts, with the commands Discord already holds (docs/bot.md, « Discord's limits in
the fake (stop 47) »)."""

from __future__ import annotations

import logging

import pytest

from bot.client import PresidentBot
from bot.config import Config
from fakediscord import FakeDiscord, errors

from .conftest import LinkedClock

COMMANDS = "/applications/{application_id}/commands"


async def test_a_start_past_the_days_command_creates_keeps_the_commands_it_had(
    fake: FakeDiscord, clock: LinkedClock, caplog: pytest.LogCaptureFixture,
) -> None:
    """A deploy that renames commands on a busy day: Discord answers the bulk overwrite
    30034 and keeps the commands it had (an overwrite refused changes nothing). The start
    went no further and the bot stayed down; it now says so in its log and goes on, and
    /president still answers."""
    first = PresidentBot(Config(token=fake.token), clock=clock, with_storage=False,
                         guild_ready_timeout=0)
    await fake.connect(first)
    await fake.disconnect(first)
    fake.inject_error(COMMANDS, errors.max_daily_command_creates(), method="PUT")
    again = PresidentBot(Config(token=fake.token), clock=clock, with_storage=False,
                         guild_ready_timeout=0)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await fake.connect(again)
    assert any("30034" in r.getMessage() for r in caplog.records if r.name == "bot.client")
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president create")
    assert again.service.registry.in_channel(marie.channel.id) is not None
    await fake.disconnect(again)
