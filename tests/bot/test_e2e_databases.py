"""Whole games stored on SQLite and on PostgreSQL in every run (`both_databases`, see
tests/bot/databases.py): what players see of their results must not depend on the backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, connect_bot, database_url, play_until, two_humans_against_a_bot

pytestmark = pytest.mark.both_databases


async def test_names_of_accents_emoji_and_a_nul_have_their_results_stored(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Two members of names Discord lets through, ids past 2**53 as Discord's are: on
    PostgreSQL the U+0000 in one made the game's row and its round fail to store (« invalid
    byte sequence for encoding "UTF8": 0x00 »), and /president stats answered that Zoé had
    never played, the leaderboard and the history that nobody had."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    zoe = Player(fake.add_user("Zoé 🐉\x00"))
    family = Player(fake.add_user("Bjørn 👨‍👩‍👧‍👦", locale="fr"))
    assert min(zoe.user.id, family.user.id, fake.guild.id) > 1 << 53
    table, game = await two_humans_against_a_bot(fake, clock, bot, zoe, family,
                                                 game_end="rounds:1")
    await play_until(fake, clock, [zoe, family], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()

    await zoe.user.slash("president stats")
    stats = zoe.user.last_ephemeral().text
    assert "Zoé 🐉" in stats and "1 game ·" in stats
    await family.user.slash("president leaderboard", preset="classic")
    board = family.user.last_ephemeral().text
    assert f"<@{zoe.user.id}>" in board and f"<@{family.user.id}>" in board
    await zoe.user.slash("president history")
    assert "1 round ·" in zoe.user.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()
