"""End-to-end: the status a table's row keeps through a game (docs/bot.md, « Code health
(stop 48) », « Stored statuses »): what storage allows is what the bot writes."""

from __future__ import annotations

from pathlib import Path

from bot.client import PresidentBot
from bot.storage import TableStatus
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import alice_and_bob_stored, cid, message, play_every_round, tick


async def stored(bot: PresidentBot, table: Table) -> TableStatus:
    await bot.service.drain()
    assert bot.storage is not None
    record = await bot.storage.get_table(table.id)
    assert record is not None
    return record.status


async def test_a_table_is_playing_from_its_game_s_start_until_it_goes_back_to_its_lobby(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """The audit read the row as « lobby » all along: the game's start stores « playing »,
    which a game over keeps (its results and Replay show), and the host's « Terminer »
    stores « lobby » again. Nothing ever stored « finished »."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path,
                                                               "rounds:1")
    assert await stored(bot, table) == "playing"
    await play_every_round(fake, clock, table, [alice, bob])
    await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER and await stored(bot, table) == "playing"
    await alice.user.click(message(alice.user, table.table_message_id),
                           cid(table, "end", game.version))
    await tick(fake, clock, 1)
    assert table.game is None and await stored(bot, table) == "lobby"
    await fake.disconnect(bot)
    fake.assert_no_errors()
