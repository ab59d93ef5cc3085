"""End-to-end: play-test 15, game nights where communities gather: a voice channel's text
chat, an announcement channel and its threads, a forum post, a private thread, threads a
moderator archives or that archive themselves, slowmode; a French group and an English
one. What the fake models of each place: tests/fakediscord/test_places.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.controls import refusal_text
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.tables.deadlines import IDLE_CLOSE_SECONDS
from bot.tables.refusals import TableError
from bot.tables.table import Table
from engine import Phase
from fakediscord import (
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_VOICE,
    Channel,
    FakeDiscord,
    TestUser,
)
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    archived_mid_game,
    cid,
    connect_bot,
    database_url,
    host_against_bots,
    message,
    play_every_round,
    play_until,
    restart,
    table_in_a_thread,
    table_of,
    tick,
    two_humans_against_a_bot,
)


def refused(locale: str, key: str, **params: object) -> str:
    """A refusal as the player reads it."""
    return refusal_text(locale, TableError(key, **params))


async def place(fake: FakeDiscord, name: str, kind: int, *users: TestUser) -> Channel:
    """A new channel of type ``kind`` where ``users`` are."""
    channel = fake.add_channel(fake.guild, name, kind=kind)
    await fake.settle()
    for user in users:
        user.channel = channel
    return channel


async def a_whole_game(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       host: TestUser, guest: TestUser) -> Table:
    """``host`` and ``guest`` play a one-round classic game with a bot, to its end."""
    hosting, joining = Player(host), Player(guest)
    table, game = await two_humans_against_a_bot(fake, clock, bot, hosting, joining,
                                                 game_end="rounds:1")
    await play_every_round(fake, clock, table, [hosting, joining])
    await tick(fake, clock, 2)
    assert game.phase is Phase.GAME_OVER
    return table


async def told_once(fake: FakeDiscord, clock: LinkedClock, host: TestUser, table: Table,
                    text: str) -> None:
    """The table has stopped posting: its host, clicking twice meanwhile, is told `text`
    once, not at every click."""
    await fake.settle()
    for _ in range(20):
        await tick(fake, clock, 1)
    for _ in range(2):
        await host.click(message(host, table.table_message_id), cid(table, "hand"))
    assert len([m for m in host.visible() if m.content == text]) == 1


async def picks_up_again(fake: FakeDiscord, clock: LinkedClock, host: TestUser, table: Table,
                         locale: str, round_title: str) -> None:
    """What the bot lacked is given back: the table picks up where it was, its host is told
    so, and no call was refused meanwhile."""
    await fake.settle()
    await tick(fake, clock, 1)
    assert t(locale, "table.resumed") in [m.content for m in host.visible()]
    assert round_title in message(host, table.table_message_id).content
    fake.assert_no_errors()


async def test_a_game_night_in_a_voice_channels_text_chat(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie (French) and bob (English) play in #vocal's text chat, a voice channel (type
    2): the lobby, the table message's edits, the hands, the end with its chart, and the
    channel's history there, as in a text channel."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie, bob = fake.add_user("marie", locale="fr"), fake.add_user("bob")
    await place(fake, "vocal", GUILD_VOICE, marie, bob)
    table = await a_whole_game(fake, clock, bot, marie, bob)
    results = message(bob, table.table_message_id)
    assert "Fin de la partie" in results.content and results.attachments == ("points.png",)

    await marie.slash("president history")
    listed = marie.last_ephemeral()
    assert t("fr", "history.title") in listed.text and "1 manche" in listed.text
    await bob.slash("president history")
    assert t("en", "history.title") in bob.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_voice_channel_the_bot_may_not_connect_to_refuses_the_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: in a voice channel whose text chat the bot may not join
    (Connect denied, a private voice room), `/president create` opened a table; the
    lobby came (an interaction's answer), but the game's table never did: every post and
    edit was refused (403 Missing Access, one more at each click, each logged) and nobody
    was told. Connect is now checked there, as View Channel is, in both languages."""
    marie, bob = fake.add_user("marie", locale="fr"), fake.add_user("bob")
    vocal = await place(fake, "vocal", GUILD_VOICE, marie, bob)
    fake.set_bot_permissions(vocal, connect=False)
    await fake.settle()
    for user, locale in ((marie, "fr"), (bob, "en")):
        await user.slash("president create")
        assert user.last_ephemeral().content == refused(
            locale, "err.missing_permission", permission=t(locale, "perm.connect"))
    assert president.service.registry.in_channel(vocal.id) is None
    fake.assert_no_errors()


async def test_connect_taken_mid_game_stops_the_table_until_it_is_given_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A moderator takes Connect from the bot in #vocal mid-game: the bot hears it
    (CHANNEL_UPDATE) and stops posting before any call is refused; marie, the host, is
    told why at her next click, once; given back, the table picks up and she is told."""
    marie = fake.add_user("marie", locale="fr")
    vocal = await place(fake, "vocal", GUILD_VOICE, marie)
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    fake.set_bot_permissions(vocal, connect=False)
    await told_once(fake, clock, marie, table, refused(
        "fr", "err.cannot_post", permission=t("fr", "perm.connect")))

    fake.set_bot_permissions(vocal, connect=True)
    await picks_up_again(fake, clock, marie, table, "fr", "Manche 1")


async def test_the_voice_channel_deleted_mid_game_ends_the_table_and_says_so(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    vocal = await place(fake, "vocal", GUILD_VOICE, marie)
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    fake.delete_channel(vocal)
    await fake.settle()
    assert table.closed
    await marie.slash("president rules", channel=fake.channel)
    assert marie.last_ephemeral(fake.channel).content == t("fr", "vanished.named",
                                                           channel="vocal")
    fake.assert_no_errors()


async def test_an_announcement_channel_closed_to_posts_then_opened_to_the_bot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """#news, an announcement channel (type 5), takes posts from nobody but its editors:
    alice's `/president create` is refused in words naming Send Messages; once the
    moderators let the bot post there, a whole game runs in it."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    news = await place(fake, "news", GUILD_ANNOUNCEMENT, alice, bob)
    fake.set_bot_permissions(news, send_messages=False)
    await fake.settle()
    await alice.slash("president create")
    assert alice.last_ephemeral().content == refused(
        "en", "err.missing_permission", permission="Send Messages")

    fake.set_bot_permissions(news, send_messages=True)
    await fake.settle()
    table = await a_whole_game(fake, clock, president, alice, bob)
    assert "Game over" in message(bob, table.table_message_id).content
    fake.assert_no_errors()


async def test_an_announcement_threads_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A thread of an announcement channel (type 10) takes Send Messages in Threads, like
    any thread: without it the table is refused in a thread's words; with it, it plays."""
    marie = fake.add_user("marie", locale="fr")
    annonces = await place(fake, "annonces", GUILD_ANNOUNCEMENT)
    thread = fake.add_thread(annonces, "la suite", marie)
    await fake.settle()
    marie.channel = thread
    fake.set_bot_permissions(annonces, send_messages_in_threads=False)
    await fake.settle()
    await marie.slash("president create")
    assert marie.last_ephemeral().content == refused(
        "fr", "err.missing_permission.thread",
        permission=t("fr", "perm.send_messages_in_threads"))
    fake.set_bot_permissions(annonces, send_messages_in_threads=True)
    await fake.settle()
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    assert "Manche 1" in message(marie, table.table_message_id).content
    fake.assert_no_errors()


async def test_a_forum_posts_game_and_its_history(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """#tables is a forum (type 15): no command is typed in the forum itself, only in its
    posts (threads), where alice and bob play a whole game; its history is this thread's."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    forum = await place(fake, "tables", GUILD_FORUM)
    post = fake.add_thread(forum, "Friday night", alice)
    await fake.settle()
    alice.channel = bob.channel = post
    table = await a_whole_game(fake, clock, bot, alice, bob)
    assert table.parent_id == forum.id
    await alice.slash("president history")
    assert t("en", "history.title.thread") in alice.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_forum_deleted_with_its_post_mid_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A forum deleted takes its posts with it (discord.py reports the threads it holds as
    deleted too): the post's table ends and marie is told."""
    marie = fake.add_user("marie", locale="fr")
    forum = await place(fake, "tables", GUILD_FORUM)
    post = fake.add_thread(forum, "vendredi", marie)
    await fake.settle()
    marie.channel = post
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    fake.delete_channel(forum)
    await fake.settle()
    assert table.closed
    await marie.slash("president rules", channel=fake.channel)
    assert marie.last_ephemeral(fake.channel).content.startswith("ℹ️ Ta table dans")
    fake.assert_no_errors()


async def private_thread(fake: FakeDiscord, bot: PresidentBot,
                         *users: TestUser) -> Channel:
    """A private thread of the fake's channel started by the first of ``users``, who are
    its members, where the bot may not moderate threads (no Manage Threads)."""
    fake.set_bot_permissions(fake.channel, manage_threads=False)
    thread = fake.add_thread(fake.channel, "entre nous", users[0], private=True)
    for user in users:
        fake.add_to_thread(thread, user)
        user.channel = thread
    await fake.settle()
    return thread


async def test_a_private_thread_the_bot_is_not_in_refuses_the_table_until_it_is_added(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a private thread (type 12) shows only to its members and its
    moderators; the bot, neither, answered `/president create` with a lobby (an
    interaction's answer needs no access) and then could post nothing: the game never
    showed, every click cost a refused call, and nobody heard why. It now says it is not
    in the thread and how to add it, in each player's language; mentioned in the thread
    (added to it), it runs the table."""
    marie, bob = fake.add_user("marie", locale="fr"), fake.add_user("bob")
    thread = await private_thread(fake, president, marie, bob)
    mention = f"<@{fake.world.bot.id}>"
    for user, locale in ((marie, "fr"), (bob, "en")):
        await user.slash("president create")
        assert user.last_ephemeral().content == refused(locale, "err.private_thread",
                                                        bot=mention)
    assert president.service.registry.in_channel(thread.id) is None

    fake.add_bot_to_thread(thread)
    await fake.settle()
    table = await a_whole_game(fake, clock, president, marie, bob)
    assert "Fin de la partie" in message(marie, table.table_message_id).content
    fake.assert_no_errors()


async def test_the_bot_removed_from_a_private_thread_mid_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob, who started the private thread, removes the bot from it mid-game: the table
    stops before any call is refused; bob, the host, is told once why and how to add it
    back; added back, the table picks up and he is told."""
    bob = fake.add_user("bob")
    thread = await private_thread(fake, president, bob)
    fake.add_bot_to_thread(thread)
    await fake.settle()
    table = await host_against_bots(president, bob, "classic", 2)
    await tick(fake, clock, 1)

    fake.remove_bot_from_thread(thread)
    await told_once(fake, clock, bob, table, refused(
        "en", "err.private_thread_left", bot=f"<@{fake.world.bot.id}>"))

    fake.add_bot_to_thread(thread)
    await picks_up_again(fake, clock, bob, table, "en", "Round 1")


async def test_a_click_in_an_archived_private_thread_the_bot_is_in_is_not_refused(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """discord.py keeps no archived thread, so it cannot tell whether the bot is in an
    archived private thread: « Lancer » clicked there (no command is offered in an archived
    thread, a click still comes) starts the game, whose table wakes the thread, rather
    than being refused as if the bot had been removed."""
    marie = fake.add_user("marie", locale="fr")
    thread = await private_thread(fake, president, marie)
    fake.add_bot_to_thread(thread)
    await fake.settle()
    await marie.slash("president create")
    table = president.service.registry.in_channel(thread.id)
    assert table is not None
    for _ in range(2):
        await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    fake.archive_thread(thread)
    await fake.settle()
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None and not thread.archived
    assert "Manche 1" in message(marie, table.table_message_id).content
    fake.assert_no_errors()


async def test_a_thread_archived_mid_game_retires_the_table_message_the_fresh_one_replaced(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: when the thread was archived (a moderator, or a server near its
    thread limit), the next edit was refused and a fresh table message posted, which
    unarchives the thread; the old one stayed above it as it was, « ▶️ À Bot 2 de jouer »
    and live buttons, two tables on screen. The post woke the thread, so the old message
    is edited now: its last state, no buttons, and where the table went."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    first = await archived_mid_game(fake, clock, thread, table)
    old = message(marie, first)
    assert not old.buttons and not old.selects
    assert old.content.startswith("🃏 **Manche 1**")
    assert old.content.endswith(t("fr", "table.moved_on"))
    assert message(marie, table.table_message_id).buttons
    fake.assert_no_errors()


async def test_an_edit_that_goes_through_in_a_thread_sends_what_it_still_owes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """marie's thread is archived mid-game: the table message's edit is refused and a
    fresh one wakes the thread, but the old message's owed edit then meets a long 429
    (Discord's limit on the channel's edits): it stays owed, its turn long past and its
    buttons live, with nothing left to wake the thread. The table's next edit, which goes
    through, shows it awake: the old message gets its edit then."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    first = table.table_message_id
    woken = fake.writer.unarchive

    def unarchive(channel: Channel) -> None:  # the fresh post wakes it: the limit comes
        woken(channel)
        fake.inject_429("/channels/{channel_id}/messages/{message_id}", method="PATCH",
                        retry_after=40.0)

    monkeypatch.setattr(fake.writer, "unarchive", unarchive)
    fake.archive_thread(thread)
    await fake.settle()
    for _ in range(40):
        await tick(fake, clock, 1)
        if table.table_message_id != first:
            break
    fake.expect_error(50083)
    assert not thread.archived and table.table_message_id != first
    assert [c.status for c in fake.calls if c.injected] == [429]
    assert message(marie, first).buttons and president.service.asleep.owes(thread.id)
    fresh = message(marie, table.table_message_id).content
    for _ in range(40):
        await tick(fake, clock, 1)
        if message(marie, table.table_message_id).content != fresh:
            break
    old = message(marie, first)
    assert not old.buttons and old.content.endswith(t("fr", "table.moved_on"))
    assert not president.service.asleep.owes(thread.id)
    fake.assert_no_errors()


async def test_a_thread_that_archives_itself_over_a_long_break_between_rounds(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The first round over, marie's group takes a long break in voice, her hand refreshed
    now and then (the table stays open): nothing is posted for an hour (edits are no
    activity), so the thread, set to archive after an hour, archives itself. « Manche
    suivante » then posts the next round's table, which wakes the thread; the last
    round's message, whose retiring the archived thread had refused, is retired then."""
    marie = Player(fake.add_user("marie", locale="fr"))
    thread = fake.add_thread(fake.channel, "partie", marie.user, auto_archive=60)
    await fake.settle()
    marie.user.channel = thread
    table = await host_against_bots(president, marie.user, "classic", 2)
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    first = table.table_message_id
    while not thread.archived:
        await tick(fake, clock, 9 * 60)
        await marie.user.click(marie.hand, t("fr", "btn.refresh"))
        fake.archive_idle_threads()
    await fake.settle()
    await marie.user.click(message(marie.user, first), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    fake.expect_error(50083)  # the last round's message retired while the thread slept
    assert not fresh(thread).archived and game.round_no == 2 and table.table_message_id != first
    old = message(marie.user, first)
    assert not old.buttons and old.content.endswith(t("fr", "table.moved_on"))
    assert "Manche 2" in message(marie.user, table.table_message_id).content
    fake.assert_no_errors()


async def test_a_restart_in_a_thread_archived_mid_game_keeps_the_lobby_above_the_table(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie's thread is archived mid-game and the bot redeployed: its first redraw, the
    lobby's (« La partie a commencé »), was refused, and a fresh lobby posted below the
    table, which it woke; the table message, edited then, stayed above it. The lobby has
    no buttons during a game and none is posted then: its edit waits for the table's fresh
    message, which wakes the thread, and the old table message is retired."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, bot, marie)
    first, lobby = table.table_message_id, table.lobby_message_id
    fake.archive_thread(thread)
    await fake.settle()
    bot = await restart(fake, clock, bot, url)
    # The table's edit; the lobby, which the stop kept as shown, is not edited again
    # (stop 53's restarts: its refused edit went before).
    fake.expect_error(50083)
    table = table_of(bot, marie)
    assert not thread.archived and table.lobby_message_id == lobby
    assert [m.id for m in fake.messages(thread) if not m.ephemeral] == \
        [lobby, first, table.table_message_id]
    assert message(marie, lobby).content.endswith(t("fr", "lobby.started"))
    old = message(marie, first)
    assert not old.buttons and old.content.endswith(t("fr", "table.moved_on"))
    assert message(marie, table.table_message_id).buttons
    fake.assert_no_errors()


async def test_a_thread_closed_mid_game_across_two_redeploys_retires_the_old_table_message(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A moderator closes marie's thread mid-game (archived and locked; the bot may manage
    threads): the bot stops posting there. Redeployed, its first redraw is refused by the
    archived thread, the fresh table message too (a locked thread does not wake), and the
    old one is owed its last state. Redeployed again before anyone reopens the thread, it
    had kept that in memory only: once the moderator reopened it, the old message stayed
    above the fresh one with a turn long past and live buttons. What is owed is now
    stored (`bot.tables.asleep`), and sent as the thread is reopened."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, bot, marie)
    first, lobby = table.table_message_id, table.lobby_message_id
    fake.archive_thread(thread, locked=True)
    await fake.settle()
    bot = await restart(fake, clock, bot, url)
    for code in (50083, 50083):  # the table's edit, the fresh post (the lobby kept shown)
        fake.expect_error(code)
    bot = await restart(fake, clock, bot, url)
    fake.expect_error(50083)  # the fresh post (the lobby kept shown)
    fake.unarchive_thread(thread)
    await fake.settle()
    await tick(fake, clock, 1)
    table = table_of(bot, marie)
    assert table.table_message_id not in (None, first)
    old = message(marie, first)
    assert not old.buttons and old.content.startswith("🃏 **Manche 1**")
    assert old.content.endswith(t("fr", "table.moved_on"))
    assert message(marie, lobby).content.endswith(t("fr", "lobby.started"))
    assert [m.id for m in fake.messages(thread) if not m.ephemeral] == \
        [lobby, first, table.table_message_id]
    assert message(marie, table.table_message_id).buttons
    fake.assert_no_errors()


async def test_a_table_closed_in_an_archived_thread_closes_its_messages_once_it_wakes(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie's game over, a moderator archives her thread, tidying up after the evening.
    Nobody replays, and half an hour later the table closes: the archived thread refused
    the closing of its messages, and the results kept « Rejouer » and « Terminer », which
    only said the table was gone. Their closing is now owed, stored through the night's
    redeploy, and sent when marie's message the next day wakes the thread (its
    THREAD_UPDATE): the results and the lobby say the table closed, without buttons."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    thread = fake.add_thread(fake.channel, "partie", marie.user)
    await fake.settle()
    marie.user.channel = thread
    table = await host_against_bots(bot, marie.user, "classic", 2, game_end="rounds:1")
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 2)
    results, lobby = table.table_message_id, table.lobby_message_id
    fake.archive_thread(thread)
    await fake.settle()
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed
    for _ in range(2):  # the lobby's closing and the results'
        fake.expect_error(50083)
    assert message(marie.user, results).buttons
    bot = await restart(fake, clock, bot, url, down=10 * 3600)
    marie.user.say("revanche ce soir ?")
    await fake.settle()
    await tick(fake, clock, 1)
    for message_id in (lobby, results):
        shown = message(marie.user, message_id)
        assert not shown.buttons and t("fr", "table.idle_closed") in shown.content
        assert shown.content.endswith(t("fr", "lobby.closed"))
    assert not bot.service.asleep.owes(thread.id)
    fake.assert_no_errors()


async def test_a_table_closed_in_a_thread_a_moderator_closed_shows_it_once_reopened(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A moderator closes marie's thread mid-game (archived and locked): the bot stops
    posting there, and with nobody back the table closes for idleness half an hour later.
    Nothing is sent to the closed thread (no refused call), so its messages kept a live
    turn and buttons for good. Their closing is now owed: the bot is redeployed, the
    moderator reopens the thread meanwhile, and at start, its server's GUILD_CREATE
    listing the thread among the active ones, the old messages say the table closed."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, bot, marie)
    first, lobby = table.table_message_id, table.lobby_message_id
    fake.archive_thread(thread, locked=True)
    await fake.settle()
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed and message(marie, first).buttons

    def reopened() -> None:
        fake.unarchive_thread(thread)
        fake.lock_thread(thread, locked=False)

    bot = await restart(fake, clock, bot, url, meanwhile=reopened)
    for message_id in (lobby, first):
        shown = message(marie, message_id)
        assert not shown.buttons and shown.content.endswith(t("fr", "lobby.closed"))
    assert "Manche 1" in message(marie, first).content
    fake.assert_no_errors()


async def closed_in_a_closed_thread(fake: FakeDiscord, clock: LinkedClock,
                                    bot: PresidentBot, marie: TestUser,
                                    ) -> tuple[Channel, list[int]]:
    """A moderator closes marie's thread mid-game (archived and locked; the bot may not
    manage threads), and with nobody back the table closes for idleness: its messages,
    which the bot may not touch there, are owed their closing. Those messages."""
    thread, table = await table_in_a_thread(fake, clock, bot, marie, manage_threads=False)
    lobby, table_message = table.lobby_message_id, table.table_message_id
    assert lobby is not None and table_message is not None
    fake.archive_thread(thread, locked=True)
    await fake.settle()
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed and bot.service.asleep.owes(thread.id)
    assert message(marie, table_message).buttons  # (the lobby has none during a game)
    return thread, [lobby, table_message]


def closed_on_screen(marie: TestUser, shown: list[int]) -> bool:
    """Whether the messages say the table closed, without buttons."""
    return all(not message(marie, m).buttons
               and message(marie, m).content.endswith(t("fr", "lobby.closed")) for m in shown)


async def test_a_thread_a_moderator_reopens_closes_the_messages_of_a_table_closed_meanwhile(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The moderator reopens the thread (unarchives and unlocks it) while the bot runs:
    its THREAD_UPDATE sends the closing the messages were owed."""
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, president, marie)
    fake.unarchive_thread(thread)
    await fake.settle()
    assert not closed_on_screen(marie, shown)  # still locked: no edit there yet
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert closed_on_screen(marie, shown)
    assert not president.service.asleep.owes(thread.id)
    fake.assert_no_errors()


async def test_a_thread_reopened_where_the_bot_may_not_post_is_owed_until_it_may(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The moderator reopens the thread while the bot may not send messages in the
    channel's threads: nothing can be edited then; once given that permission back
    (CHANNEL_UPDATE), the messages get their closing."""
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, president, marie)
    fake.set_bot_permissions(fake.channel, send_messages_in_threads=False)
    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert not closed_on_screen(marie, shown)
    fake.set_bot_permissions(fake.channel, send_messages_in_threads=True)
    await fake.settle()
    assert closed_on_screen(marie, shown)
    assert not president.service.asleep.owes(thread.id)
    fake.assert_no_errors()


async def test_a_closing_a_long_429_held_back_goes_once_the_limit_is_over(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The moderator reopens the thread of marie's table, closed meanwhile, but the edits
    it owes its messages meet a long 429 (Discord's limit on the channel's edits): they
    stay owed, and with the table gone no edit of its would ever send them, nor another
    THREAD_UPDATE, the thread being open. They go once the limit is over."""
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, president, marie)
    fake.inject_429("/channels/{channel_id}/messages/{message_id}", method="PATCH",
                    retry_after=40.0)
    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert [c.status for c in fake.calls if c.injected] == [429]
    assert not closed_on_screen(marie, shown) and president.service.asleep.owes(thread.id)
    await tick(fake, clock, 40)
    assert closed_on_screen(marie, shown)
    assert not president.service.asleep.owes(thread.id)
    fake.assert_no_errors()


def fail_an_edit(fake: FakeDiscord, failure: str) -> None:
    """The next edit of a message meets a server error ("5xx (SERVER ERROR)", HTTP
    Response Codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes:
    a 503, which discord.py raises at once as it does a 502 past its five retries), a
    dropped connection (aiohttp's `ServerDisconnectedError`, which it does not retry) or a
    timeout (aiohttp's `TimeoutError`, raised in the client: `FakeDiscord.inject_timeout`)."""
    route = "/channels/{channel_id}/messages/{message_id}"
    if failure == "503":
        fake.inject_error(route, 503, method="PATCH")
    elif failure == "timeout":
        fake.inject_timeout(route, method="PATCH")
    else:
        fake.inject_disconnect(route, method="PATCH")


@pytest.mark.parametrize("failure", ["503", "dropped connection", "timeout"])
async def test_a_closing_a_passing_failure_held_back_goes_a_few_seconds_later(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, failure: str
) -> None:
    """The thread of marie's closed table reopens, but an edit it owes meets a 503 or a
    dropped connection. The 503 counted as sent: that message kept its buttons for good.
    The dropped connection went up through the THREAD_UPDATE, the thread's other edits
    taken and left unsent until a restart. Both stay owed now, and go 5 s later
    (`RETRY_DELAYS`, as a chart upload's)."""
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, president, marie)
    fail_an_edit(fake, failure)
    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert [c.status for c in fake.calls if c.injected] == [503 if failure == "503" else 0]
    assert not closed_on_screen(marie, shown) and president.service.asleep.owes(thread.id)
    await tick(fake, clock, RETRY_DELAYS[0])
    assert closed_on_screen(marie, shown)
    assert not president.service.asleep.owes(thread.id)
    fake.assert_no_errors()


@pytest.mark.parametrize("failure", ["503", "dropped connection", "timeout"])
async def test_a_closing_owed_at_a_start_survives_a_passing_failure_as_the_server_is_described(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, failure: str
) -> None:
    """The thread of marie's closed table reopens while the bot is down: the start's
    GUILD_CREATE lists it among the server's active threads, and its owed edits go as the
    server is described (`_awake_threads`). One meets a 503 or a dropped connection: the
    503 deleted it from storage as sent, the message keeping its buttons for good; the
    dropped connection went up through the server's description, the rest of it undone
    (its members' check) and the edit left to the next start. It stays owed now, in
    storage too, and goes 5 s later."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, bot, marie)
    await bot.service.drain()
    await fake.disconnect(bot)
    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    fail_an_edit(fake, failure)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)
    assert [c.status for c in fake.calls if c.injected] == [503 if failure == "503" else 0]
    assert not closed_on_screen(marie, shown) and again.service.asleep.owes(thread.id)
    assert again.storage is not None
    assert await again.storage.asleep_since(datetime(2000, 1, 1, tzinfo=UTC)) != []
    await tick(fake, clock, RETRY_DELAYS[0])
    assert closed_on_screen(marie, shown) and not again.service.asleep.owes(thread.id)
    assert await again.storage.asleep_since(datetime(2000, 1, 1, tzinfo=UTC)) == []
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_player_erased_meanwhile_leaves_the_closed_table_s_messages_their_text(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie's table closed in the thread a moderator closed, its closing owed to its
    messages; she then asks /president forget. The closing's text may name her (it names
    its host's table): the running bot drops it as storage does, and once the thread is
    reopened the messages only lose their buttons, nothing stored left of them."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    thread, shown = await closed_in_a_closed_thread(fake, clock, bot, marie)
    before = {m: message(marie, m).content for m in shown}
    marie.channel = fake.channel
    await marie.slash("president forget")
    await marie.click(marie.last_ephemeral(), t("fr", "btn.forget"))
    marie.channel = thread
    fake.unarchive_thread(thread)
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    assert all(not message(marie, m).buttons and message(marie, m).content == before[m]
               for m in shown)
    assert not bot.service.asleep.owes(thread.id) and bot.storage is not None
    assert (await bot.storage.held_about(marie.id)).empty
    assert await bot.storage.asleep_since(datetime(2000, 1, 1, tzinfo=UTC)) == []
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_thread_archived_while_its_lobby_waits_retires_the_old_lobby(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The lobby alike: archived while it waits, then changed (a seated player banned),
    it is posted afresh, which wakes the thread, and the old one points below."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    thread = fake.add_thread(fake.channel, "game", alice)
    await fake.settle()
    alice.channel = bob.channel = thread
    await alice.slash("president create")
    table = president.service.registry.in_channel(thread.id)
    assert table is not None
    first = table.lobby_message_id
    await bob.click(message(bob, first), cid(table, "join"))
    fake.archive_thread(thread)
    await fake.settle()
    fake.ban(fake.guild, bob)
    await fake.settle()
    await tick(fake, clock, 1)
    fake.expect_error(50083)
    assert not thread.archived and table.lobby_message_id != first
    old = message(alice, first)
    assert old.content == t("en", "table.moved_on") and not old.buttons
    assert "**bob**" not in message(alice, table.lobby_message_id).content
    fake.assert_no_errors()


async def test_a_long_game_keeps_a_one_hour_thread_awake(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A thread archives itself after an hour without a message posted (edits are no
    activity); a table message is replaced before it is an hour old, and each round posts
    one: marie, taking her time (8 minutes a move), plays two hours in a thread set to
    archive after an hour, a first round of nearly two, and it never archives."""
    marie = Player(fake.add_user("marie", locale="fr"))
    thread = fake.add_thread(fake.channel, "partie", marie.user, auto_archive=60)
    await fake.settle()
    marie.user.channel = thread
    table = await host_against_bots(president, marie.user, "classic", 2, turn_seconds=600)
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    game = table.game
    assert game is not None
    started = clock.now()
    while clock.now() - started < 2 * 3600:
        if game.phase is Phase.ROUND_OVER:
            await marie.user.click(message(marie.user, table.table_message_id),
                                   cid(table, "next", game.version))
        elif game.to_act == 0:
            await tick(fake, clock, 8 * 60)
            await marie.act()
        await tick(fake, clock, 2)
        assert not thread.archived
    # Round 1 outlived the hour: its message was replaced as it neared it, which wakes.
    firsts = [m for m in fake.messages(thread) if m.content.startswith("🃏 **Manche 1**")]
    assert len(firsts) >= 2 and game.round_no >= 2
    fake.assert_no_errors()


async def test_slowmode_holds_the_players_chatter_not_the_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """#cards has a six-hour slowmode: alice may post one message in it, yet the bot's
    posts, edits and interaction answers are not held (« bots [...] are unaffected »,
    Channel Object, rate_limit_per_user), and a whole game plays."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    fake.set_slowmode(fake.channel, 21600)
    await fake.settle()
    alice.say("gl hf")
    table = await a_whole_game(fake, clock, president, alice, bob)
    assert "Game over" in message(alice, table.table_message_id).content
    fake.assert_no_errors()
