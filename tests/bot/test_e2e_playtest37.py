"""End-to-end: play-test 37, a moderator and a hostile evening. Two tables play at once (a
classic game in a thread, wild7 against bots with the « Conseil » button) while a moderator
tidies (deletes the table message, pins and unpins it, renames the channel, takes the
bot's permissions away and gives them back, deletes the thread) and Discord is at its worst
(429s per route and global, 5xx, answers reaching it past an interaction's 3 seconds), a
player switching their Discord from French to English between clicks. From the players'
side: every click answered in their current language, nothing lost, results counted once,
the host told what the table cannot do and the table picking up when it can, no error
logged."""

from __future__ import annotations

import re

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.table_message import table_screen
from bot.packages.publisher.messages import PASSING_RETRY
from bot.tables.table import Table
from engine import Game
from fakediscord import FakeDiscord, LatencyConfig, Spread

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    host_against_three_bots,
    humans_only,
    message,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_channel_events import told

EDIT = "/channels/{channel_id}/messages/{message_id}"
# Discord's answer reaches the bot, but the bot's first response reaches Discord 3.5 s
# later: past the interaction's deadline (« you must send an initial response within 3
# seconds », Receiving and Responding, developers/interactions/receiving-and-responding.mdx).
LATE = LatencyConfig(mean=0.0, jitter=0.0, routes={"/interactions/": Spread(3.5)})


def cards_in(hand: str) -> int:
    """How many cards a hand's title counts, in French or English."""
    found = re.search(r"\*\*(?:Ta main|Your hand)\*\* \((\d+)\)", hand)
    assert found is not None, hand
    return int(found.group(1))


def to_act(table: Table, game: Game, players: list[Player]) -> Player:
    """The human whose turn it is."""
    return next(p for p in players if table.seat_of(p.user.id) == game.to_act)


async def humans_turn(fake: FakeDiscord, clock: LinkedClock, table: Table, game: Game,
                      players: list[Player]) -> Player:
    """Time passes (the bot plays) until a human is to act."""
    humans = {table.seat_of(p.user.id) for p in players}
    for _ in range(30):
        if game.to_act in humans:
            return to_act(table, game, players)
        await tick(fake, clock, 1)
    raise AssertionError("no human's turn came")


async def test_a_move_answered_past_its_3_seconds_still_shows_in_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A slow moment between the bot and Discord: bob's card reaches the bot, which plays it,
    but its answer (the hand redrawn) reaches Discord 3.5 s after his click. Discord refuses
    it (10062) and shows bob « This interaction failed ». The bot then logged two errors
    with tracebacks and tried a second answer (« something went wrong »), refused too; bob's
    hand kept the played card and « Your turn » while the table showed the card down and
    another player to act, since its link had taken the dead token. Now one warning line,
    no second answer, and the hand follows the game through the token it had: the card is
    gone from it, and it says whose turn it is, in bob's language."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    player = await humans_turn(fake, clock, table, game, [marie, bob])
    before = player.hand.content
    version = game.version
    mark = fake.mark()
    fake.enable_latency(LATE)
    await player.act()
    fake.disable_latency()
    fake.expect_error(10062)
    await tick(fake, clock, 1)

    assert game.version > version  # played: the table shows it
    callbacks = fake.calls_since(mark, "/interactions/{webhook_id}/{webhook_token}/callback")
    assert len(callbacks) == 1  # no second answer through the dead token
    shown = player.hand.content
    seat = table.seat_of(player.user.id)
    assert seat is not None and cards_in(shown) < cards_in(before)  # the card left the hand
    assert shown.startswith("➡️") is (game.to_act == seat)  # « Your turn » only if it is
    fake.assert_no_errors()


async def test_a_first_hand_opened_past_its_3_seconds_leaves_the_table_asking_for_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's « Ma main » is answered too late: Discord showed her nothing but « This
    interaction failed ». The table then took her hand as open (through a dead token) and
    stopped offering her « Ma main »'s reminder; now it still asks, and her next click
    opens it."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_three_bots(president, marie, "rounds:1")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    fake.enable_latency(LATE)
    await marie.click(board, cid(table, "hand"))
    fake.disable_latency()
    fake.expect_error(10062)
    assert marie.id not in table.hands
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    assert "Ta main" in marie.last_ephemeral().content
    fake.assert_no_errors()


async def test_a_table_edit_met_by_a_503_is_drawn_again(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Three friends, no bot: after a move, the table message's edit meets a 503 (Discord
    « these are rare », discord.py raises it at once). The bot logged an error with its
    traceback and counted the edit as shown: with the next player thinking, nothing else
    changed, and the table message showed the move before for good (whose turn, the
    trick). It is now drawn again `PASSING_RETRY` seconds later, one warning line."""
    users = [fake.add_user("marie", locale="fr"), fake.add_user("bob"),
             fake.add_user("chloe", locale="fr")]
    table, players = await humans_only(fake, clock, president, users, "classic")
    game = table.game
    assert game is not None
    await tick(fake, clock, 1)
    fake.inject_error(EDIT, 503, method="PATCH")
    await to_act(table, game, players).act()
    await tick(fake, clock, 1)
    stale = message(users[0], table.table_message_id).content
    assert stale != table_screen(table, clock.now()).content  # the 503
    await tick(fake, clock, PASSING_RETRY)
    assert message(users[0], table.table_message_id).content == \
        table_screen(table, clock.now()).content
    fake.assert_no_errors()


async def test_the_resume_note_speaks_the_host_s_language_of_now(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """dave, French, is told his table stopped (Send Messages taken); he switches Discord to
    English and clicks again; the moderator gives it back within the token's 15 minutes:
    « The table picks up again » is said through the token that told him, and was in French,
    the language of that click, where every other answer now was English."""
    dave = fake.add_user("dave", locale="fr")
    table = await host_against_three_bots(president, dave, "rounds:3")
    await tick(fake, clock, 1)
    fake.set_bot_permissions(fake.channel, send_messages=False)
    await fake.settle()
    await dave.click(message(dave, table.table_message_id), cid(table, "hand"))
    permission = t("fr", "perm.send_messages")
    assert told(dave, "⚠️ " + t("fr", "err.cannot_post", permission=permission)) == 1
    dave.user.locale = "en-US"
    await dave.click(message(dave, table.table_message_id), cid(table, "hand"))
    assert "Your hand" in dave.last_ephemeral().content
    await tick(fake, clock, 60)
    fake.set_bot_permissions(fake.channel, send_messages=True)
    await fake.settle()
    await tick(fake, clock, 1)
    assert told(dave, t("en", "table.resumed")) == 1
    assert told(dave, t("fr", "table.resumed")) == 0
    fake.assert_no_errors()


