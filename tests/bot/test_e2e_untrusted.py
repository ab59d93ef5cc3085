"""Untrusted text and unusual conditions (issue 11, parts 3 and 4): names shown escaped,
no message ever pings, numbers typed in plain digits only, and a table opened while the
database is locked still gets its answer."""

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from bot.client import PresidentBot
from bot.packages.settings.views import typed_value
from bot.packages.text import player_name
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, connect_bot, database_url, message, table_of, tick

EVIL = "\u202e[x](https://e.vil) **@everyone**"


def test_a_name_loses_its_markdown_mentions_and_direction_overrides() -> None:
    shown = player_name(EVIL)
    assert shown == "\\[x](https:\u200b//e.vil) \\*\\*@\u200beveryone\\*\\*"
    assert player_name("<@123> <#45> <t:1:R>") == "\\<@123> \\<#45> \\<t:1:R>"
    assert player_name("\u2067\u200f  a \n b ") == "a b"
    assert player_name("\u202e") == "?"


@pytest.mark.parametrize("text", ["٣", "５", "1_0", "+5", "²"])
def test_numbers_are_typed_in_ascii_digits(text: str) -> None:
    for knob in ("min_players", "autopilot_after_timeouts", "game_end", "points"):
        with pytest.raises(ValueError):
            typed_value(knob, text if knob != "points" else f"P{text}")
    assert typed_value("min_players", "3") == 3
    assert typed_value("points", "P3 VP1 N0 VL0 L0")["P"] == 3


async def test_names_are_shown_escaped_and_no_message_ever_pings(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    host = Player(fake.add_user("host"))
    evil = Player(fake.add_user(EVIL))
    await host.user.slash("president create", preset="classic")
    table = table_of(president, host.user)
    await evil.user.click(message(evil.user, table.lobby_message_id), cid(table, "join"))
    lobby = message(host.user, table.lobby_message_id).content
    assert player_name(EVIL) in lobby and "\u202e" not in lobby
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "addbot"))
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await host.open_hand(president)
    await evil.open_hand(president)
    for _ in range(20):  # a few moves: the table message and both hands are edited
        if not (await host.act() or await evil.act()):
            await tick(fake, clock, 1)
    board = message(host.user, table.table_message_id).content
    assert player_name(EVIL) in board and "\u202e" not in board
    written = [m for m in fake.world.messages.values() if m.author_id == fake.world.bot.id]
    assert any(m.edited_at is not None and m.ephemeral_to is None for m in written)
    assert [m.id for m in written if fake.writer.may_ping(m.id)] == []
    fake.assert_no_errors()


async def test_a_table_opened_while_the_database_is_locked_is_refused_privately(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path, "p.db"))
    storage = bot.storage
    assert storage is not None

    async def locked(*args: object, **kwargs: object) -> int:
        raise OperationalError("INSERT INTO tables", {}, sqlite3.OperationalError(
            "database is locked"))

    monkeypatch.setattr(storage, "create_table", locked)
    alice = fake.add_user("alice", locale="fr")
    record = await alice.slash("president create", preset="classic")
    assert record.response_type == 5
    assert alice.last_ephemeral().content.startswith("⚠️ La base de données du bot est occupée")
    assert [m for m in fake.messages() if not m.ephemeral] == []  # no « thinking… » left
    assert bot.service.registry.in_channel(fake.channel.id) is None

    monkeypatch.undo()
    await alice.slash("president create", preset="classic")
    assert table_of(bot, alice).lobby_message_id is not None
    await fake.disconnect(bot)
    fake.assert_no_errors()
