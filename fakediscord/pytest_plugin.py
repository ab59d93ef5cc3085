"""Pytest fixtures for tests that run a bot against the fake.

Not auto-registered. Use them from a conftest with either
``pytest_plugins = ["fakediscord.pytest_plugin"]`` (root conftest only) or
``from fakediscord.pytest_plugin import fake  # noqa: F401``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .server import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A running fake with discord.py pointed at it.

    At teardown it fails the test if Discord refused a call the test did not claim with
    :meth:`FakeDiscord.expect_error`, so a bot whose replies are silently rejected
    cannot pass.
    """
    async with FakeDiscord.running() as running:
        yield running
        running.assert_no_errors()
