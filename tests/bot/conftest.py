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
from tests.storage.postgres import PostgresDatabases, find_server

from . import databases

BOT_PAUSE = 1.0


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{databases.MARK}: run on SQLite and PostgreSQL in every run "
        "(tests/bot/databases.py)")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.definition.get_closest_marker(databases.MARK) is None:
        return
    backends = databases.BACKENDS if databases.chosen() == "sqlite" else ("postgresql",)
    metafunc.fixturenames.append("database_backend")
    metafunc.parametrize("database_backend", backends)


@pytest.fixture(scope="session")
def postgres_server_url() -> str:
    """The test server; without one a `both_databases` test's PostgreSQL half skips, and a
    `TEST_DATABASE=postgresql` run fails rather than pass having tested nothing."""
    url, why = find_server()
    if url is None and databases.chosen() == "postgresql":
        pytest.fail(f"{databases.VARIABLE}=postgresql but {why}")
    if url is None:
        pytest.skip(why)
    return url


@pytest.fixture(autouse=True)
def stored_to(request: pytest.FixtureRequest) -> Iterator[databases.TestDatabases]:
    """The backend this test's bots store to (see tests/bot/databases.py): its databases,
    handed out by `e2e.database_url`, are dropped when the test ends."""
    callspec = getattr(request.node, "callspec", None)
    backend = callspec.params.get("database_backend") if callspec else None
    backend = backend or databases.chosen()
    server = None
    if backend == "postgresql":
        server = PostgresDatabases(request.getfixturevalue("postgres_server_url"))
    databases.current = databases.TestDatabases(backend, server)
    try:
        yield databases.current
    finally:
        databases.current.drop()
        databases.current = None


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
    # `caplog.records` holds only the running phase's records (here the teardown's): those
    # of the test itself are asked for by name.
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    errors = [r for r in records if r.levelno >= logging.ERROR and r.name.startswith("bot")]
    assert errors == [], [r.getMessage() for r in errors]
