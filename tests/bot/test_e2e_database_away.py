"""End-to-end: slash commands while the database is out of reach (play-test 14). A
refused connection, a host name that does not resolve or no route to the host reach the
bot as bare OSErrors: each player is told privately, in their language, that the database
cannot be reached and to try again, and the operator's log gets one warning line per
command, without a traceback. A real bug still answers « something went wrong » and logs
its traceback as an error, once."""

from __future__ import annotations

import errno
import gc
import logging
import socket
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, table_of, tick


def outage(*errors: Exception) -> Any:
    """A storage method failing as a PostgreSQL outage makes it fail, each call."""

    async def away(*args: Any, **kwargs: Any) -> Any:
        raise errors[0]

    return away


def logged(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """The bot's records, and asyncio's (« Task exception was never retrieved »)."""
    gc.collect()  # a task whose exception nobody read reports it when collected
    return [r for r in caplog.get_records("call")
            if r.name.startswith("bot") or r.name == "asyncio"]


async def bot_on(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> PresidentBot:
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    return bot


@pytest.mark.parametrize("error", [
    ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed ('10.0.0.5', 5432)"),
    socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"),
], ids=["refused", "dns"])
async def test_create_during_a_restart_is_refused_privately(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    bot = await bot_on(fake, clock, tmp_path)
    assert bot.storage is not None
    monkeypatch.setattr(bot.storage, "get_guild_settings", outage(error))
    monkeypatch.setattr(bot.storage, "create_table", outage(error))
    carol = fake.add_user("carol", locale="fr")
    await carol.slash("president create", preset="classic")
    seen = carol.visible()
    assert [m.ephemeral for m in seen] == [True]  # nothing public: the deferral is withdrawn
    assert seen[0].content.endswith(t("fr", "err.storage_busy"))
    assert bot.service.registry.in_channel(fake.channel.id) is None
    records = logged(caplog)
    assert [r.levelname for r in records] == ["WARNING", "WARNING"]  # language, then table
    assert not any(r.exc_info for r in records)
    assert type(error).__name__ in records[1].getMessage()

    monkeypatch.undo()  # the database is back
    await carol.slash("president create", preset="classic")
    assert table_of(bot, carol).host_id == carol.id


@pytest.mark.parametrize(("command", "options", "method"), [
    ("president stats", {}, "player_stats"),
    ("president history", {}, "game_history"),
    ("president leaderboard", {"preset": "classic"}, "leaderboard"),
])
@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_statistics_command_says_the_database_is_away(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch, command: str, options: dict[str, str], method: str,
        locale: str) -> None:
    bot = await bot_on(fake, clock, tmp_path)
    monkeypatch.setattr(bot.storage, method,
                        outage(OSError(errno.EHOSTUNREACH, "No route to host")))
    carol = fake.add_user("carol", locale=locale)
    await carol.slash(command, options=options)
    assert carol.last_ephemeral().content.endswith(t(locale, "err.storage_down"))
    records = logged(caplog)
    assert [(r.levelname, r.exc_info) for r in records] == [("WARNING", None)]
    assert records[0].getMessage() == (f"/{command}: the database is out of reach "
                                       "(OSError: [Errno 113] No route to host)")


async def test_a_host_choosing_the_servers_language_during_an_outage_is_told(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    bot = await bot_on(fake, clock, tmp_path)
    john = fake.add_user("john")
    await john.slash("president create", preset="classic")
    await tick(fake, clock, 1)
    assert bot.storage is not None
    monkeypatch.setattr(bot.storage, "get_guild_settings", outage(
        ConnectionResetError(errno.ECONNRESET, "Connection reset by peer")))
    await john.slash("president language", language="auto")
    assert john.last_ephemeral().content.endswith(t("en", "err.storage_down"))
    assert [(r.levelname, r.exc_info) for r in logged(caplog)] == [("WARNING", None)]


async def test_a_bug_in_a_command_keeps_its_traceback_logged_once(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cog used to raise it again: discord.py then ran its handler twice and left the
    error in its task, a second traceback (« Task exception was never retrieved »)."""
    bot = await bot_on(fake, clock, tmp_path)
    monkeypatch.setattr(bot.storage, "player_stats", outage(KeyError("seat")))
    carol = fake.add_user("carol")
    await carol.slash("president stats")
    assert carol.last_ephemeral().content.endswith(t("en", "err.internal"))
    records = logged(caplog)
    assert [(r.levelname, r.getMessage()) for r in records] == [
        ("ERROR", "/president stats failed")]
    assert records[0].exc_info is not None
    caplog.clear()  # the error above is the one this test expects
