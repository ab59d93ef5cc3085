"""End-to-end: play-test 5, games in a real, hostile server: channels and threads deleted,
the bot removed from its server, moderators, permissions and restarts at bad moments."""

from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    archived_mid_game,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    message,
    play_until,
    table_in_a_thread,
    tick,
    two_humans_against_a_bot,
)
from .stored import StoredGame, stored_game


async def one_round_played(fake: FakeDiscord, clock: LinkedClock, url: str,
                           ) -> tuple[PresidentBot, Player, Player, Table, Game]:
    """A bot storing to ``url``; marie and bob against a bot, in a three-round game: the
    first round is played and the host dealt the second."""
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, bob = Player(fake.add_user("marie", locale="fr")), Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob,
                                                 game_end="rounds:3")
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.round_no == 2 and game.phase is not Phase.ROUND_OVER
    return bot, marie, bob, table, game


async def first_round_kept(url: str, table: Table) -> StoredGame:
    """The table's game as stored: ended, with the round played before the table ended."""
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert stored.round_nos == [1] and stored.ended == 1
    return stored


async def test_a_deleted_channel_ends_its_game_and_keeps_the_round_played(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """From the play-test: a moderator deleted the channel mid-game and the table played on
    unseen, bots and timers for 30 minutes, posting into the void at every move (each a
    404 and a logged error), and the game was never ended in the records. It ends at once
    as the host's End would, the round played kept, and nothing more is sent."""
    url = database_url(tmp_path)
    bot, marie, bob, table, game = await one_round_played(fake, clock, url)

    mark = fake.mark()
    fake.delete_channel(fake.channel)
    await fake.settle()
    for _ in range(120):
        await tick(fake, clock, 1)
    await bot.service.drain()

    assert table.closed and bot.service.registry.tables() == []
    assert game.phase is Phase.GAME_OVER
    assert fake.calls_since(mark) == []  # no post, no edit: the channel and hands are gone
    stored = await first_round_kept(url, table)
    assert stored.rated_rounds == {marie.user.id: 1, bob.user.id: 1}
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_deleted_thread_frees_its_players_and_the_parent_channel_plays_on(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A table in a thread ends with the thread; the parent channel's own table is not
    touched, and the thread's players may open a table elsewhere."""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    thread = fake.add_thread(fake.channel, "partie", marie)
    await fake.settle()
    marie.channel = thread
    in_thread = await host_against_bots(president, marie, "classic", 2)
    upstairs = await host_against_bots(president, bob, "classic", 2)
    await tick(fake, clock, 1)

    fake.delete_channel(thread)
    await fake.settle()
    await tick(fake, clock, 5)
    assert in_thread.closed and not upstairs.closed
    assert president.service.registry.in_channel(thread.id) is None
    assert upstairs.game is not None and upstairs.game.phase is not Phase.GAME_OVER

    marie.channel = fake.add_channel(fake.guild, "salon")
    await create_table(president, marie)
    fake.assert_no_errors()


async def test_a_channel_deleted_while_the_bot_was_down_ends_its_table_at_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The deletion happened while no bot listened: the restored table's first post is
    Discord's « Unknown Channel », and the table ends there, its round kept."""
    url = database_url(tmp_path)
    bot, _, _, table, _ = await one_round_played(fake, clock, url)
    await fake.disconnect(bot)
    fake.delete_channel(fake.channel)

    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await tick(fake, clock, 1)
    # What the restart tried before it knew: the lobby and the hands, which the stop kept
    # as shown, are not drawn again (stop 53; they cost three refused calls before), so
    # the one refused call is the post that ends the table; nothing after it.
    for _ in range(60):
        await tick(fake, clock, 1)
    await again.service.drain()
    fake.expect_error(10003)
    assert again.service.registry.tables() == []
    await first_round_kept(url, table)
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_bot_removed_from_its_server_ends_its_tables_there_and_is_welcome_back(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """From the play-test: kicked mid-game, the bot played on for 30 minutes in a server it
    was no longer in. Its tables there end at once, the round played kept and each hand
    told; a table in another server plays on; invited back, the bot opens new tables."""
    url = database_url(tmp_path)
    bot, marie, bob, table, game = await one_round_played(fake, clock, url)
    other = fake.add_guild("Ailleurs")
    carol = fake.add_user("carol", guilds=[other])
    carol.channel = fake.add_channel(other, "cartes")
    elsewhere = await host_against_bots(bot, carol, "classic", 2)
    board = message(marie.user, table.table_message_id)

    mark = fake.mark()
    fake.remove_bot(fake.guild)
    await fake.settle()
    for _ in range(60):
        await tick(fake, clock, 1)
    await bot.service.drain()

    assert table.closed and game.phase is Phase.GAME_OVER and not elsewhere.closed
    assert marie.hand.content == "Cette table est fermée."
    assert bob.hand.content == "This table is closed."
    assert not [c for c in fake.calls_since(mark)
                if c.route.startswith("/channels/") and c.path.startswith(
                    f"/channels/{fake.channel.id}")]
    assert fake.invalid_requests() == 0
    await first_round_kept(url, table)

    fake.invite_bot(fake.guild)
    await fake.settle()
    await marie.user.click(board, cid(table, "hand"))  # the old board, still on screen
    assert "n’existe plus" in marie.user.last_ephemeral().content
    again = await create_table(bot, marie.user)
    assert again is not table and not again.closed
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_table_restored_in_a_server_that_removed_the_bot_meanwhile_ends(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Kicked while it was down, the bot restores the table, learns from READY that the
    server is no longer its own, and ends it as if it had seen the kick, without a call
    Discord refuses."""
    url = database_url(tmp_path)
    bot, marie, _, table, _ = await one_round_played(fake, clock, url)
    await fake.disconnect(bot)
    fake.remove_bot(fake.guild)

    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    for _ in range(60):
        await tick(fake, clock, 1)
    await again.service.drain()
    # Restored before the gateway said which servers the bot is in, it sends nothing to
    # the channel before READY (`UndescribedServers.unseen`), which ends the table: no refused call.
    assert fake.invalid_requests() == 0
    assert again.service.registry.tables() == []
    assert marie.hand.content == "Cette table est fermée."
    await first_round_kept(url, table)
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_an_archived_thread_is_woken_by_a_fresh_table_message(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a moderator archived the table's thread mid-game; every edit
    was refused (« archived thread ») and logged as an error, the table frozen on screen.
    The table posts a fresh message instead, which unarchives the thread, as Discord does
    for any message sent there."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    await archived_mid_game(fake, clock, thread, table)
    board = message(marie, table.table_message_id)
    await marie.click(board, cid(table, "hand"))
    assert "Ta main" in marie.last_ephemeral(thread).content
    fake.assert_no_errors()


async def test_a_thread_a_moderator_archived_and_locked_stays_closed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Play-test 13: a moderator archived and locked the table's thread; the bot, which may
    manage threads, posted a fresh table message there, reopening what the moderator had
    closed (Discord's own posts do not: « unless the thread has been locked by a
    moderator »). It now waits, sending nothing, until the thread is reopened."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    first = table.table_message_id
    fake.archive_thread(thread, locked=True)
    await fake.settle()
    for _ in range(40):
        await tick(fake, clock, 1)
    fake.assert_no_errors()  # not one call tried there
    assert thread.archived and thread.locked and table.table_message_id == first
    for _ in range(3):  # players go on from their hands: still nothing tried there
        await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
        await tick(fake, clock, 5)
    fake.assert_no_errors()
    told = [m for m in marie.visible() if t("fr", "err.thread_closed") in m.content]
    assert len(told) == 1  # the host, once

    thread.archived = False  # a moderator reopens it
    fake.lock_thread(thread, locked=False)
    await fake.settle()
    await tick(fake, clock, 2)
    assert not thread.archived and "Manche 1" in message(marie, table.table_message_id).content
    fake.assert_no_errors()


async def test_a_locked_thread_stops_the_posting_until_someone_acts_once_unlocked(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A thread a moderator locked takes no post nor edit from a bot without Manage
    Threads: the bot hears the lock (THREAD_UPDATE) and sends nothing there, rather than
    an error logged at every move. Unlocked without the bot hearing it, the thread gets
    the table back at the next action there."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie, manage_threads=False)
    board = message(marie, table.table_message_id)

    fake.archive_thread(thread, locked=True)
    await fake.settle()
    for _ in range(120):
        await tick(fake, clock, 1)
    fake.assert_no_errors()  # not one refused call

    thread.archived = thread.locked = False  # a moderator unlocks it, unheard
    await marie.click(board, cid(table, "hand"))
    await tick(fake, clock, 1)
    assert message(marie, table.table_message_id).content != board.content
    fake.assert_no_errors()
