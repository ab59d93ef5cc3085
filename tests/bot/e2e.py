"""Helpers for end-to-end tests: find the bot's messages and play like a person would."""

from __future__ import annotations

from bot.client import PresidentBot
from bot.tables.table import Table
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock


def table_of(bot: PresidentBot, user: TestUser) -> Table:
    table = bot.service.registry.in_channel(user.channel.id)
    assert table is not None
    return table


def cid(table: Table, action: str, version: int = 0, arg: str = "") -> str:
    return f"pz:{table.id}:{action}:{version}:{arg}"


def message(user: TestUser, message_id: int | None) -> Message:
    assert message_id is not None
    found = [m for m in user.visible() if m.id == message_id]
    assert found, f"{user.name} cannot see message {message_id}"
    return found[0]


def hand(user: TestUser) -> Message:
    """The user's newest ephemeral that shows a hand (their hand message)."""
    return user.last_ephemeral()


async def tick(fake: FakeDiscord, clock: LinkedClock, seconds: float = 1.0) -> None:
    clock.advance(seconds)
    await fake.settle()
