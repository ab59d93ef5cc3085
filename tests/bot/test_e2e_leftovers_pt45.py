"""End-to-end: what play-test 45 left, fixed at stop 61 (docs/bot.md « Who played each card
of a trick (stop 61) »): the trick names each play by who made it, the player or the bot
standing in for them, not by who holds the seat now; across a restart too. Fails before
its fix, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import shorts
from bot.tables.table import Table
from engine import Card, Game
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, connect_bot, database_url, humans_only, message, restart, table_of, tick
from .reading import well_written
from .test_e2e_playtest17 import play

LOCALES = ["fr", "en-US"]


async def dealt(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, locale: str,
                hands: list[str]) -> tuple[Table, Game, list[Player]]:
    """marie (hosting), bob, claire and paul, all in ``locale``, at classic with no bot, dealt
    ``hands`` (cards split by spaces), marie opening; every hand open."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "claire", "paul")]
    table, players = await humans_only(fake, clock, bot, users, "classic")
    assert table.game is not None
    cards = [[Card.parse(c) for c in hand.split()] for hand in hands]
    table.game = game = Game.new(table.rules, seats=len(hands), seed=1, hands=cards, opener=0,
                                 first_version=table.game.version + 1)
    bot.service._after(table, list(game.first_events))
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(bot)
    return table, game, players


def trick_of(table: Table, content: str) -> str:
    """The trick's line of a table message or a hand."""
    start = t(table.locale, "table.trick", plays="")
    return next(line for line in content.split("\n") if line.startswith(start))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_trick_names_who_made_each_play_as_the_seat_changes_hands(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str) -> None:
    """From the play-test: marie played 5♦, then left; the bot finishing her round played
    for her in the same trick. The trick read « 🤖 marie 5♦ … 🤖 marie 9♦ », as if her
    bot had played both; once she was back, « marie 5♦ … marie 9♦ ». Each play is now
    named by who made it, in the table message and the hands, before and after a restart
    and once she has her seat back, as the history names it (« 🤖 marie joue … »)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    table, game, (marie, bob, claire, paul) = await dealt(
        fake, clock, bot, locale, ["5D 9D KH 3S", "6C JH 3C QS", "7C QH 4S 4H", "8C JS 5S 3H"])
    await play(fake, clock, marie, "5D")
    await play(fake, clock, bob, "6C")
    await play(fake, clock, claire, "7C")
    await play(fake, clock, paul, "8C")
    await marie.user.slash("president leave")
    await marie.user.click(marie.user.last_ephemeral(), t(locale, "btn.quit_game"))
    for _ in range(10):
        if len(game.trick) == 5:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)  # its redraw
    assert [p.seat for p in game.trick] == [0, 1, 2, 3, 0] and table.seats[0].is_bot
    spanish = False
    bots_card = shorts(locale, list(game.trick[-1].cards), spanish)
    plays = [f"marie {shorts(locale, [Card.parse('5D')], spanish)}",
             f"bob {shorts(locale, [Card.parse('6C')], spanish)}",
             f"claire {shorts(locale, [Card.parse('7C')], spanish)}",
             f"paul {shorts(locale, [Card.parse('8C')], spanish)}",
             f"🤖 marie {bots_card}"]
    wanted = t(table.locale, "table.trick", plays=" · ".join(plays))
    board = message(bob.user, table.table_message_id)
    assert trick_of(table, board.content) == wanted, board.content
    assert trick_of(table, bob.hand.content) == wanted, bob.hand.content
    # -- a redeploy: the trick still names them ------------------------------------------
    bot = await restart(fake, clock, bot, url, down=5)
    table = table_of(bot, bob.user)
    board = message(bob.user, table.table_message_id)
    assert trick_of(table, board.content) == wanted, board.content
    await bob.open_hand(bot)
    assert trick_of(table, bob.hand.content) == wanted, bob.hand.content
    # -- marie takes her seat back: her bot's card stays her bot's -----------------------
    await marie.user.slash("president join")
    await tick(fake, clock, 1)
    assert not fresh(table).seats[0].is_bot and len(table.game.trick if table.game else []) == 5
    board = message(bob.user, table.table_message_id)
    assert trick_of(table, board.content) == wanted, board.content
    await marie.open_hand(bot)
    assert trick_of(table, marie.hand.content) == wanted, marie.hand.content
    well_written(board, locale[:2])
    fake.assert_no_errors()
    await fake.disconnect(bot)
