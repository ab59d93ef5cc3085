"""Bots by level in the Discord bot (issue 12, « In the bot »): the host picks each bot's
level, the table has a default level, and bots that stand in for people play normal."""

from __future__ import annotations

from bot.client import PresidentBot
from bot.i18n.typography import french
from bot.tables.players import Player
from bot.tables.table import Table
from engine import Rules
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    alice_hosts_with_bob_around,
    cid,
    create_table,
    leave_game,
    marie_hosts_with_bob_around,
    message,
    tick,
)


async def test_host_seats_bots_of_each_level_and_everyone_sees_them(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    president.service.thinker.samples = 4  # decisions independent of the machine's speed
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))

    await alice.slash("president addbot", level="hard")  # the command's choice
    lobby = message(alice, table.lobby_message_id)
    await alice.select(lobby, ["easy"], select=cid(table, "addbot_level"))  # the lobby select
    assert [(p.name, p.level) for p in table.seats if p.is_bot] == [
        ("Bot 1", "hard"), ("Bot 2", "easy")]
    lobby = message(alice, table.lobby_message_id)
    assert "**Bot 1** (🤖 bot, hard)" in lobby.content
    assert "**Bot 2** (🤖 bot, easy)" in lobby.content

    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(bob, table.table_message_id)
    assert "niveau difficile" not in board.content  # public messages: the server's language
    assert "hard level" in board.content and "easy level" in board.content
    fake.assert_no_errors()


async def test_a_forged_level_is_refused_and_seats_nobody(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    with_select = message(marie, table.lobby_message_id)
    menu = with_select.select(cid(table, "addbot_level"))
    assert [o.label for o in menu.options] == ["facile", "normal", "difficile"]
    await president.service.add_bot(table, marie.id, "normal")
    try:
        await president.service.add_bot(table, marie.id, "grandmaster")
    except Exception as err:  # noqa: BLE001 - the refusal's key is what matters
        assert getattr(err, "key", None) == "err.bad_choice"
    else:
        raise AssertionError("an unknown level was accepted")
    assert [p.level for p in table.seats if p.is_bot] == ["normal"]


async def test_the_default_level_is_a_setting_of_the_host(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table = await marie_hosts_with_bob_around(fake, president)
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "addbot"))
    assert table.seats[-1].level == "normal"  # the default, before any setting

    await marie.click(lobby, cid(table, "settings"))
    panel = marie.last_ephemeral()
    assert french("🤖 Nouveaux bots : normal") in [b.label for b in panel.buttons]
    await marie.click(panel, cid(table, "bot_level"))
    panel = marie.last_ephemeral()
    assert "Les bots ajoutés désormais jouent au niveau difficile." in panel.content
    assert french("🤖 Nouveaux bots : difficile") in [b.label for b in panel.buttons]
    assert table.bot_level == "hard"

    await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    assert [p.level for p in table.seats if p.is_bot] == ["normal", "hard"]
    lobby = message(marie, table.lobby_message_id)
    assert "(🤖 bot, normal)" in lobby.content and "(🤖 bot, difficile)" in lobby.content

    await bob.slash("president join")
    await bob.click(message(bob, table.lobby_message_id), cid(table, "settings"))
    assert "Only the host" in bob.last_ephemeral().content
    assert table.bot_level == "hard"
    fake.assert_no_errors()


async def test_stand_ins_play_normal_whatever_the_default(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A bot replacing a leaver, bots filling a proletario table and the autopilot of an
    absent player all play at normal level, even at a table whose bots are hard."""
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    table = await create_table(president, alice, "proletario")
    await president.service.set_options(table, alice.id, bot_level="hard")
    await bob.slash("president join")
    await alice.click(message(alice, table.lobby_message_id), cid(table, "start"))
    game = table.game
    assert game is not None
    assert [p.level for p in table.seats if p.is_bot] == ["normal", "normal"]  # fill-ins
    service = president.service
    seat = table.seat_of(bob.id)
    assert seat is not None
    await leave_game(bob)
    assert table.seats[seat].is_bot and table.seats[seat].level == "normal"
    assert service.bot(table, game, seat).level == "normal"
    mine = table.seat_of(alice.id)
    assert mine is not None
    assert service.bot(table, game, mine).level == "normal"  # the autopilot's level
    await tick(fake, clock, 1)
    board = message(alice, table.table_message_id)
    assert "hard level" not in board.content and "normal level" in board.content
    fake.assert_no_errors()


def test_levels_are_kept_in_snapshots_and_old_snapshots_get_the_default() -> None:
    table = Table(id=1, channel_id=2, guild_id=3, host_id=4, locale="fr",
                  rules=Rules.preset("classic"))
    table.seats = [Player(4, "alice"), Player(None, "Bot 1", level="hard")]
    table.bot_level = "easy"
    table.hints = True
    table.reminders = False
    again = Table.from_dict(table.to_dict())
    assert [p.level for p in again.seats] == ["normal", "hard"]
    assert (again.bot_level, again.hints, again.reminders) == ("easy", True, False)
    old = table.to_dict()
    del old["bot_level"], old["hints"], old["reminders"]
    for seat in old["seats"]:
        del seat["level"]
    before = Table.from_dict(old)
    assert [p.level for p in before.seats] == ["normal", "normal"]
    assert (before.bot_level, before.hints, before.reminders) == ("normal", False, True)
