"""Channel chatter reaches the bot (it asks for GUILD_MESSAGES, for the deletes) but is left
unread (`bot.chatter`): discord.py built a `discord.Message` of every member's message and
ran `process_commands` on it in a task, for a bot with no prefix command. Its own edits are
still parsed, as discord.py refreshes its stored views from them. Of a new message only the
channel and author are read, to count what buries a table (tests/bot/test_e2e_playtest28.py)."""

import asyncio

import pytest

from bot.client import PresidentBot
from fakediscord import FakeDiscord

from .e2e import cid, create_table, message


async def test_members_messages_and_edits_are_received_but_not_parsed(
    fake: FakeDiscord, president: PresidentBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    processed: list[object] = []

    async def process_commands(message: object) -> None:
        processed.append(message)

    monkeypatch.setattr(president, "process_commands", process_commands)
    created = asyncio.ensure_future(president.wait_for("message"))
    edited = asyncio.ensure_future(president.wait_for("raw_message_edit"))
    await asyncio.sleep(0)  # listening
    said = marie.say("qui veut jouer ?")
    marie.edit_said(said, "qui veut jouer ce soir ?")
    marie.say(f"{fake.world.bot.mention} tu es là ?")  # the content arrives: still unread
    await fake.settle()
    assert (fake.gateway.sent("MESSAGE_CREATE"), fake.gateway.sent("MESSAGE_UPDATE")) >= (3, 1)
    assert not created.done() and not edited.done() and processed == []
    created.cancel()
    edited.cancel()
    assert message(marie, table.lobby_message_id) is not None  # the table is untouched


async def test_the_bots_own_edits_are_still_parsed(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    lobby = table.lobby_message_id
    edited = asyncio.ensure_future(
        president.wait_for("raw_message_edit", check=lambda e: e.message_id == lobby))
    await asyncio.sleep(0)
    await marie.click(message(marie, lobby), cid(table, "addbot"))
    assert edited.done() and edited.result().data["author"]["id"] == str(fake.world.bot.id)
