from __future__ import annotations

import pytest

from fakediscord import FakeDiscord, TestUser
from fakediscord.pytest_plugin import fake  # noqa: F401

from .tinybot import TinyBot


@pytest.fixture
async def bot(fake: FakeDiscord) -> TinyBot:  # noqa: F811
    bot = TinyBot()
    await fake.connect(bot)
    return bot


@pytest.fixture
def alice(fake: FakeDiscord) -> TestUser:  # noqa: F811
    return fake.add_user("alice", locale="fr")


@pytest.fixture
def bob(fake: FakeDiscord) -> TestUser:  # noqa: F811
    return fake.add_user("bob")
