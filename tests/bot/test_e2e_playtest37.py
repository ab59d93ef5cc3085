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

import asyncio
import re
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game import chart
from bot.packages.game.table_message import table_screen
from bot.packages.publisher.messages import PASSING_RETRY
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import Channel, FakeDiscord, LatencyConfig, Message, Spread, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    dealt_against_two_bots,
    host_against_three_bots,
    http_waits_on_the_fake_clock,
    humans_only,
    message,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
    webhook_waits_on_the_fake_clock,
)
from .stored import stored_game
from .test_e2e_channel_events import told
from .test_e2e_playtest24 import HANDS, until_half_time

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




HAND_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


def hint_button(hand: Message) -> str | None:
    """The « Conseil » button of a hand, if it offers one (a seat to act)."""
    return next((b.custom_id for b in hand.buttons
                 if b.custom_id is not None and ":hint:" in b.custom_id), None)


async def evening(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot
                  ) -> tuple[Table, Table, list[Player], Player, Channel, Channel]:
    """marie (French) hosts a classic game in the thread « partie » under #general, with bob
    (English) and a bot; dave (French) hosts wild7 to one round in #salon against two bots,
    the « Conseil » button on. Every hand open."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    thread = fake.add_thread(fake.channel, "partie", marie.user)
    salon = fake.add_channel(fake.guild, "salon")
    await fake.settle()
    marie.user.channel = bob.user.channel = thread
    classic, _ = await two_humans_against_a_bot(fake, clock, bot, marie, bob)
    dave = Player(fake.add_user("dave", locale="fr"))
    dave.user.channel = salon
    wild = await create_table(bot, dave.user, "wild7")
    await bot.service.set_options(wild, dave.user.id, hints=True)
    await bot.service.set_rules(wild, dave.user.id, wild.rules.replace(game_end="rounds:1"))
    lobby = message(dave.user, wild.lobby_message_id)
    for _ in range(2):
        await dave.user.click(lobby, cid(wild, "addbot"))
    await dave.user.click(lobby, cid(wild, "start"))
    await tick(fake, clock, 1)
    await dave.open_hand(bot)
    return classic, wild, [marie, bob], dave, thread, salon


def shown_as_now(user: TestUser, table: Table, clock: LinkedClock) -> bool:
    """Whether the table message the user sees is the table as it is now."""
    return message(user, table.table_message_id).content == \
        table_screen(table, clock.now()).content


async def test_a_moderator_and_a_hostile_evening(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record_charts(monkeypatch)
    # discord.py sleeps out 429s (and retries 5xx) on the fake's clock, never the wall's.
    http = http_waits_on_the_fake_clock(monkeypatch, fake)
    hooks = webhook_waits_on_the_fake_clock(monkeypatch, fake)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    modo = fake.add_user("modo")
    classic, wild, (marie, bob), dave, thread, salon = await evening(fake, clock, bot)
    wild_game = wild.game
    assert wild_game is not None and classic.game is not None

    # The moderator pins #salon's table so that people find it: its notice lands below
    # it (a line of chatter), nothing else changes; dave asks for advice, in French.
    pinned = wild.table_message_id
    assert pinned is not None
    fake.pin(pinned, modo)
    await tick(fake, clock, 1)
    advice = await until_advice(fake, clock, dave)
    assert advice.startswith("💡 Le bot normal") and "Ta main" in dave.hand.content

    # Mid-round, the moderator tidies #salon and deletes the table message: posted afresh
    # at once, with its buttons; « Ma main » there opens dave's hand.
    fake.pin(pinned, modo, pinned=False)
    fake.delete_message(pinned)
    await tick(fake, clock, 1)
    assert wild.table_message_id not in (None, pinned)
    await dave.open_hand(bot)
    assert "Ta main" in dave.hand.content

    # The channel is renamed: nothing to do, nothing refused.
    fake.rename_channel(salon, "salon-du-soir")
    await tick(fake, clock, 1)

    # Send Messages taken in #salon: the bots play on with no refused call, dave is told at
    # his next click (in French); he switches Discord to English, and his next answers are
    # English; given back, the table is redrawn and he is told, in English.
    fake.set_bot_permissions(salon, send_messages=False)
    await fake.settle()
    for _ in range(5):
        await tick(fake, clock, 1)
    assert fake.invalid_requests() == 0
    await dave.user.click(message(dave.user, wild.table_message_id), cid(wild, "hand"))
    dave.hand_id = dave.user.last_ephemeral().id
    cannot = t("fr", "err.cannot_post", permission=t("fr", "perm.send_messages"))
    assert told(dave.user, "⚠️ " + cannot) == 1
    dave.user.user.locale = "en-US"
    await dave.open_hand(bot)
    assert "Your hand" in dave.hand.content
    fake.set_bot_permissions(salon, send_messages=True)
    await fake.settle()
    await tick(fake, clock, 1)
    assert told(dave.user, t("en", "table.resumed")) == 1 and shown_as_now(dave.user, wild,
                                                                          clock)

    # Discord at its worst while both tables play: a route's 429 and a global one on the
    # table messages' edits, a 503 there, a 429 on bob's hand token, and marie's click
    # answered past its 3 seconds.
    fake.inject_429(EDIT, retry_after=2.0)
    fake.inject_429(EDIT, retry_after=1.0, is_global=True)
    fake.inject_error(EDIT, 503, method="PATCH")
    fake.inject_429(HAND_EDIT, retry_after=3.0, user=bob.user)
    for _ in range(8):
        for player in (marie, bob, dave):
            await player.act()
        await tick(fake, clock, 1)
    classic_game = classic.game
    for _ in range(60):  # marie's turn comes round (bob and the bot play, or time passes)
        if classic_game.to_act == classic.seat_of(marie.user.id):
            await tick(fake, clock, 1)  # her hand is redrawn to play
            break
        if not await bob.act():
            await tick(fake, clock, 1)
    fake.enable_latency(LATE)
    assert await marie.act()
    fake.disable_latency()
    fake.expect_error(10062)
    for _ in range(int(PASSING_RETRY) + 4):
        await tick(fake, clock, 1)
    # Nothing lost: the table messages show the tables as they are, each hand its cards.
    assert shown_as_now(marie.user, classic, clock) and shown_as_now(dave.user, wild, clock)
    for table, player in ((classic, marie), (classic, bob), (wild, dave)):
        game, seat = table.game, table.seat_of(player.user.id)
        assert game is not None and seat is not None
        assert cards_in(player.hand.content) == len(game.hands[seat]), player.user.name

    # Attach Files taken in #salon before its game ends: the results give the chart as
    # text, with no upload refused; dave is told at his next click, in English; given
    # back, the chart is uploaded with nobody acting.
    fake.set_bot_permissions(salon, attach_files=False)
    await fake.settle()
    await play_until(fake, clock, [dave], lambda: wild_game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    results = message(dave.user, wild.table_message_id)
    assert results.attachments == () and drawn == []
    await dave.user.click(results, cid(wild, "join"))
    attach = t("en", "err.cannot_attach", permission=t("en", "perm.attach_files"))
    assert told(dave.user, "⚠️ " + attach) == 1
    fake.set_bot_permissions(salon, attach_files=True)
    await fake.settle()
    await tick(fake, clock, 1)
    assert message(dave.user, wild.table_message_id).attachments == (chart.FILENAME,)

    # The wild7 game is stored once: one round, one result a seat.
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    game_id = wild.game_row_id
    assert game_id is not None
    stored = await stored_game(url, game_id)
    assert stored.round_nos == [1] and stored.ended == 1 and stored.table_games == 1
    assert len(stored.results) == 3  # one result a seat, once

    # The moderator deletes the thread of marie's game: the table ends; marie and bob are
    # told at their next command, each in their language.
    fake.delete_channel(thread)
    await tick(fake, clock, 1)
    assert classic.closed
    # The bot's edit on its way as the thread went met it deleted: that one refused call
    # (a 404, which Cloudflare does not count), then nothing more there (no second try, no
    # fresh post, no hand edited, no ping deleted).
    assert [c.code for c in fake.errors] == [10003]
    fake.expect_error(10003)
    for player, locale in ((marie, "fr"), (bob, "en")):
        player.user.channel = fake.channel
        await player.user.slash("president rules")
        assert player.user.last_ephemeral(fake.channel).content == t(
            locale, "vanished.named.thread", channel="partie")

    assert fake.invalid_requests() == 3  # the three 429s injected, no refusal
    fake.assert_no_errors()
    http.end()
    hooks.end()
    await fake.disconnect(bot)


async def until_advice(fake: FakeDiscord, clock: LinkedClock, player: Player) -> str:
    """Time passes until the player's hand offers « Conseil » (their turn), then they press
    it: the advice line their hand then shows."""
    for _ in range(60):
        button = hint_button(player.hand)
        if button is not None:
            await player.user.click(player.hand, button)
            return next(line for line in player.hand.content.split("\n")
                        if line.startswith("💡"))
        await tick(fake, clock, 1)
    raise AssertionError("no « Conseil » offered")


async def test_a_table_whose_channel_goes_with_its_ping_up_deletes_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's turn ping is up (« ⏰ ») when the moderator deletes the channel: the table
    ends as it should, but its closing then deleted the ping, a refused call (404 in a
    deleted channel; the 403 of a server that removed the bot counts toward Cloudflare's
    ban). Now nothing is sent there."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, _ = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    assert table.reminder is not None and table.reminder.message_id is not None
    mark = fake.mark()
    fake.delete_channel(fake.channel)
    await tick(fake, clock, 1)
    assert table.closed
    assert [c for c in fake.calls_since(mark) if c.route.startswith("/channels/")] == []
    fake.assert_no_errors()
