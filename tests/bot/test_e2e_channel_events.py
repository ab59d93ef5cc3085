"""End-to-end: what a moderator does to a table's channel reaches the bot from the gateway.
Locking its thread or taking a permission away (THREAD_UPDATE, CHANNEL_UPDATE) stops the
table before any call is refused; unlocking or giving it back resumes the table at once,
and a host who had been told it stopped is told it picks up again, in their language.
Changes made while the bot was down, or while Discord had lost the server (an outage), are
read from the gateway's description of the server before a table sends anything there; a
role's change counts as an overwrite's. Opening,
starting or replaying a table in a locked thread is refused up front."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.table import Table
from bot.tables.tokens import TOKEN_LIFETIME
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.state import Channel
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    host_against_three_bots,
    let_timers_play,
    marie_against_three_bots,
    message,
    table_of,
    tick,
)

LOCALES = ["fr", "en"]


def in_a_thread(fake: FakeDiscord, locale: str) -> tuple[TestUser, Channel]:
    """marie (in ``locale``) and her thread « partie » under the channel, where the bot may
    not manage threads (so a lock stops it)."""
    marie = fake.add_user("marie", locale=locale)
    thread = fake.add_thread(fake.channel, "partie", marie)
    marie.channel = thread
    fake.set_bot_permissions(fake.channel, manage_threads=False)
    return marie, thread


async def play_a_minute(fake: FakeDiscord, clock: LinkedClock) -> None:
    """Timers and bots keep playing for a minute."""
    for _ in range(60):
        await tick(fake, clock, 1)


async def resumed(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, marie: TestUser,
                  board: Message, locale: str) -> None:
    """What stopped marie's table was just undone: the gateway says so, the table is
    redrawn at once (``board`` was its message then), and marie, who had been told it
    stopped, is told it picks up again."""
    await fake.settle()
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second
    table = table_of(bot, marie)
    assert message(marie, table.table_message_id).content != board.content
    assert told(marie, t(locale, "table.resumed")) == 1


def told(user: TestUser, text: str) -> int:
    """How many private messages the user was shown with ``text``."""
    return sum(m.ephemeral and m.content == text for m in user.visible())


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_locked_thread_stops_the_table_with_no_refused_call_and_unlocking_resumes_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A moderator locks the thread of marie's game: the bot hears it and stops posting
    there before Discord refuses anything. marie is told at her next click, once. When the
    thread is unlocked the table is redrawn at once, with no click, and marie is told, in
    her language, that it picks up again."""
    marie, thread = in_a_thread(fake, locale)
    await fake.settle()
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    fake.lock_thread(thread)
    await fake.settle()
    await play_a_minute(fake, clock)
    assert fake.invalid_requests() == 0
    board = message(marie, table.table_message_id)

    stopped = "⚠️ " + t(locale, "err.thread_locked")
    for _ in range(2):
        await marie.click(board, cid(table, "hand"))
    assert told(marie, stopped) == 1

    fake.lock_thread(thread, locked=False)
    await fake.settle()
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second
    assert message(marie, table.table_message_id).content != board.content
    assert told(marie, t(locale, "table.resumed")) == 1
    fake.assert_no_errors()


#: How Send Messages reaches the bot: a channel's overwrite for it (CHANNEL_UPDATE); its
#: own role's permissions (GUILD_ROLE_UPDATE); a second role an admin gives it and takes
#: away (the bot's member, GUILD_MEMBER_UPDATE), or deletes (GUILD_ROLE_DELETE).
THROUGH = ["channel", "role", "member", "deleted"]


def only_through(fake: FakeDiscord, through: str) -> None:
    """A server where nothing but ``through`` lets the bot send messages in #general."""
    if through == "channel":
        return
    fake.set_everyone_permissions(fake.guild, send_messages=False)
    if through != "role":
        fake.set_bot_guild_permissions(fake.guild, send_messages=False)
        fake.give_bot_role(fake.guild, fake.add_role(fake.guild, "Croupier", send_messages=True))


def send_messages(fake: FakeDiscord, through: str, allowed: bool) -> None:
    """Give the bot Send Messages in #general, or take it away, ``through`` one way."""
    guild = fake.guild
    if through == "channel":
        fake.set_bot_permissions(fake.channel, send_messages=allowed)
    elif through == "role":
        fake.set_bot_guild_permissions(guild, send_messages=allowed)
    elif through == "member":
        fake.give_bot_role(guild, next(iter(guild.roles)), allowed)
    elif allowed:
        fake.give_bot_role(guild, fake.add_role(guild, "Croupière", send_messages=True))
    else:
        fake.delete_role(guild, next(iter(guild.roles)))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("through", THROUGH)
async def test_a_permission_taken_away_stops_the_table_and_given_back_resumes_it(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str, through: str
) -> None:
    """A moderator takes Send Messages from the bot in #general mid-game, one of the ways
    it has it (`THROUGH`): not one call is refused while the bots play on. marie is told at her next click which permission it
    takes. She is away when it comes back, 20 minutes later (the token that told her has
    expired): the table is redrawn at once, and she is told it picks up again at her next
    action."""
    only_through(fake, through)
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:3")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    send_messages(fake, through, False)
    await fake.settle()
    await play_a_minute(fake, clock)
    assert fake.invalid_requests() == 0
    await marie.click(board, cid(table, "hand"))
    permission = t(locale, "perm.send_messages")
    assert told(marie, "⚠️ " + t(locale, "err.cannot_post", permission=permission)) == 1

    await tick(fake, clock, 20 * 60)
    assert TOKEN_LIFETIME < 20 * 60
    send_messages(fake, through, True)
    await fake.settle()
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second
    assert message(marie, table.table_message_id).content != board.content
    resumed = t(locale, "table.resumed")
    assert told(marie, resumed) == 0
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    assert told(marie, resumed) == 1
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    assert told(marie, resumed) == 1
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_lock_made_while_the_bot_was_down_costs_no_refused_call(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The thread is locked while the bot is being redeployed: the restarted bot did not
    hear it, but its restored table sends nothing before the gateway has described the
    server, and the cache then says the thread is locked: not one call is refused. marie is
    told at her next click; the unlock, heard, resumes the table."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, thread = in_a_thread(fake, locale)
    await fake.settle()
    table = await host_against_bots(bot, marie, "classic", 2)
    await tick(fake, clock, 1)
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)  # as `restart`
    await fake.disconnect(bot)
    fake.lock_thread(thread)  # nobody hears it
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await play_a_minute(fake, clock)
    fake.assert_no_errors()  # no edit refused (160005), nor anything else
    restored = table_of(again, marie)
    board = message(marie, restored.table_message_id)
    await marie.click(board, cid(restored, "hand"))
    assert told(marie, "⚠️ " + t(locale, "err.thread_locked")) == 1

    fake.lock_thread(thread, locked=False)
    await resumed(fake, clock, again, marie, board, locale)
    assert table.id == table_of(again, marie).id
    await fake.disconnect(again)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_no_table_is_opened_or_started_in_a_locked_thread(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A moderator (who may still write in the thread they locked) types /president create
    there: the bot, which could post nothing, says why, privately in their language, and
    opens nothing. A lobby whose thread is locked is not started either."""
    marie, thread = in_a_thread(fake, locale)
    await fake.settle()
    lobby = await create_table(president, marie)
    fake.lock_thread(thread)
    await fake.settle()
    refused = "⚠️ " + t(locale, "err.thread_locked_here")
    await marie.click(message(marie, lobby.lobby_message_id), cid(lobby, "addbot"))
    await marie.click(message(marie, lobby.lobby_message_id), cid(lobby, "start"))
    assert marie.last_ephemeral().content == refused
    assert lobby.game is None

    other = fake.add_thread(fake.channel, "revanche", marie)
    fake.lock_thread(other)
    await fake.settle()
    await marie.slash("president create", preset="classic", channel=other)
    assert marie.last_ephemeral(other).content == refused
    assert president.service.registry.in_channel(other.id) is None
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_no_game_is_replayed_in_a_locked_thread(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The game is over and the thread locked: « Replay » and /president replay would deal
    a game nobody could see; both are refused, saying why, and the results stay."""
    marie, thread = in_a_thread(fake, locale)
    await fake.settle()
    table: Table = await host_against_three_bots(instant, marie, "rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    results = message(marie, table.table_message_id)
    fake.lock_thread(thread)
    await fake.settle()
    refused = "⚠️ " + t(locale, "err.thread_locked_here")
    await marie.click(results, cid(table, "replay", game.version))
    assert told(marie, refused) == 1  # (then, once, that the table can no longer be shown)
    await marie.slash("president replay")
    assert told(marie, refused) == 2
    assert table.game is game and game.phase is Phase.GAME_OVER
    fake.assert_no_errors()


def sent_to(fake: FakeDiscord, mark: int, channel: Channel) -> int:
    """How many REST calls since ``mark`` went to ``channel``."""
    return sum(f"/channels/{channel.id}/" in call.path for call in fake.calls_since(mark))


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_server_out_at_restart_is_waited_for_and_costs_no_refused_call(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Send Messages is taken from the bot in #general while it is being redeployed, and
    Discord has lost the server when it comes back: the restarted bot gets a GUILD_DELETE
    saying it is unavailable instead of its GUILD_CREATE, and the restored table sends
    nothing there until the server is back. The GUILD_CREATE that ends the outage says
    Send Messages is gone: not one call is refused. marie is told at her next click, and
    Send Messages given back resumes the table."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    await fake.settle()
    table = await host_against_bots(bot, marie, "classic", 2)
    await tick(fake, clock, 1)
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)  # as `restart`
    await fake.disconnect(bot)
    fake.set_bot_permissions(fake.channel, send_messages=False)  # nobody hears it
    fake.start_outage(fake.guild)
    mark = fake.mark()
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await play_a_minute(fake, clock)
    assert sent_to(fake, mark, fake.channel) == 0

    fake.end_outage(fake.guild)
    await fake.settle()
    await play_a_minute(fake, clock)
    fake.assert_no_errors()  # no post or edit refused (50013)
    assert fake.invalid_requests() == 0
    restored = table_of(again, marie)
    board = message(marie, restored.table_message_id)
    await marie.click(board, cid(restored, "hand"))
    permission = t(locale, "perm.send_messages")
    assert told(marie, "⚠️ " + t(locale, "err.cannot_post", permission=permission)) == 1

    fake.set_bot_permissions(fake.channel, send_messages=True)
    await resumed(fake, clock, again, marie, board, locale)
    assert table.id == table_of(again, marie).id
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_an_outage_holds_the_posts_and_its_end_redraws_the_table_as_it_then_is(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Discord loses the server mid-game: the bots play on, and nothing is sent there
    until it is back; then the table is redrawn at once, as it then is. A second outage
    hides Send Messages taken away meanwhile: its end tells it, and not one call is
    refused."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_three_bots(instant, marie, "rounds:3")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    fake.start_outage(fake.guild)
    await fake.settle()
    mark = fake.mark()
    await play_a_minute(fake, clock)
    assert sent_to(fake, mark, fake.channel) == 0
    fake.end_outage(fake.guild)
    await fake.settle()
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second
    assert sent_to(fake, mark, fake.channel) > 0
    assert message(marie, table.table_message_id).content != board.content

    fake.start_outage(fake.guild)
    await fake.settle()
    fake.set_bot_permissions(fake.channel, send_messages=False)  # not heard: the server is out
    await play_a_minute(fake, clock)
    fake.end_outage(fake.guild)
    await fake.settle()
    await play_a_minute(fake, clock)
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


async def test_an_outage_stops_the_clocks_and_its_end_runs_them_on(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Discord loses the server while marie has 20 s left to play: nobody there can act,
    so for ten minutes her clock waits (no timeout, no bot moving, nothing stored as
    played for her). Once the server is back she has her 20 s again, the table says how
    long it waited, and her clock then runs out as it would have."""
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:3")
    await fake.settle()
    now = instant.service.clock.now
    assert game.to_act == table.seat_of(marie.id) and table.timer_deadline is not None
    await tick(fake, clock, 10)
    left = table.timer_deadline - now()
    version = game.version
    fake.start_outage(fake.guild)
    await fake.settle()
    for _ in range(10):
        await tick(fake, clock, 60)
    assert game.version == version and table.paused_since is not None

    fake.end_outage(fake.guild)
    await fake.settle()
    assert fresh(table).paused_since is None
    assert table.timer_deadline - now() == pytest.approx(left)
    assert table.log[-1].key == "ev.paused" and table.log[-1].params == {"minutes": 10}
    await tick(fake, clock, left - 1)
    assert game.version == version
    await tick(fake, clock, 2)
    assert game.version > version  # her clock ran out: the server played for her
    fake.assert_no_errors()


async def test_a_hand_drawn_while_the_clocks_wait_for_a_server_shows_no_countdown(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """marie's turn, her hand open, when Discord loses the server for twenty minutes: her
    hand's token runs out meanwhile and its last edit says it no longer follows the game.
    Her clock waits for the server, so that edit gives no time it runs out at: it gave the
    one before the outage, long past once marie is back with her 20 s again."""
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:3")
    await fake.settle()
    assert game.to_act == table.seat_of(marie.id) and table.timer_deadline is not None
    before = f"<t:{int(table.timer_deadline)}:R>"
    await marie.slash("president hand")
    hand = marie.last_ephemeral()
    assert before in hand.content
    fake.start_outage(fake.guild)
    await fake.settle()
    for _ in range(20 * 6):
        await tick(fake, clock, 10)
    lapsed = message(marie, hand.id).content
    assert t("fr", "hand.lapsing", refresh="Actualiser", hand="Ma main") in lapsed
    assert t("fr", "hand.your_turn", countdown="").rstrip() in lapsed and "<t:" not in lapsed
    fake.end_outage(fake.guild)
    await fake.settle()
    fake.assert_no_errors()


async def test_the_clocks_still_wait_for_a_server_out_across_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The bot is redeployed during an outage: the restored table keeps waiting (its pause
    is stored with it) until the server is back, and marie then has the time she had."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await fake.settle()
    table = await host_against_bots(bot, marie, "classic", 2)
    game = table.game
    assert game is not None
    for _ in range(30):
        if game.to_act == table.seat_of(marie.id):
            break
        await tick(fake, clock, 1)
    assert game.to_act == table.seat_of(marie.id) and table.timer_deadline is not None
    left = table.timer_deadline - bot.service.clock.now()
    fake.start_outage(fake.guild)
    await fake.settle()
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)  # as `restart`
    await fake.disconnect(bot)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await play_a_minute(fake, clock)
    restored = table_of(again, marie)
    assert restored.game is not None and restored.game.version == game.version
    assert restored.paused_since is not None

    fake.end_outage(fake.guild)
    await fake.settle()
    assert fresh(restored).paused_since is None
    assert restored.timer_deadline is not None
    assert restored.timer_deadline - again.service.clock.now() == pytest.approx(left)
    await fake.disconnect(again)
    fake.assert_no_errors()
