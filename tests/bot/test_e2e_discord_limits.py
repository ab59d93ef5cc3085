"""The bot against Discord's permissions and old-message limits (issue 8, parts 1 and 3)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.config import Config, InvalidSetting
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.publisher import messages
from bot.tables.table import Table
from fakediscord import FakeDiscord, TestUser, UserActionError

from .conftest import LinkedClock
from .e2e import cid, create_table, host_against_three_bots, message, table_of, tick


async def wait_looking(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       host: TestUser, minutes: int) -> None:
    """Ten minutes at a time, the host's timer passes for her and the bots answer; she
    opens her hand each time, so the table is not closed as abandoned."""
    for _ in range(minutes // 10):
        await tick(fake, clock, 600.0)
        table = table_of(bot, host)
        await host.click(message(host, table.table_message_id), cid(table, "hand"))


async def slow_round(bot: PresidentBot, host: TestUser) -> Table:
    """``host`` against three bots, with 10-minute turns and no autopilot: one round
    outlives its table message's first hour."""
    await host.slash("president create", preset="classic")
    table = table_of(bot, host)
    await bot.service.set_rules(table, host.id, table.rules.replace(turn_seconds=600))
    lobby = message(host, table.lobby_message_id)
    for _ in range(3):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    return table


async def test_create_without_send_messages_names_the_permission_and_opens_nothing(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    fake.set_bot_permissions(fake.channel, send_messages=False)
    marie = fake.add_user("marie", locale="fr")
    john = fake.add_user("john", locale="en-US")

    await marie.slash("president create", preset="classic")
    assert french("« Envoyer des messages »") in marie.last_ephemeral().content
    await john.slash("president create", preset="classic")
    assert "“Send Messages”" in john.last_ephemeral().content
    assert president.service.registry.in_channel(fake.channel.id) is None
    assert fake.invalid_requests() == 0


async def test_a_table_in_a_thread_needs_send_messages_in_threads_not_send_messages(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Send Messages counts for nothing in a thread: without Send Messages in Threads the
    table would open and then fail to post, so create names that permission; with it, and
    without Send Messages, the table runs there."""
    marie = fake.add_user("marie", locale="fr")
    thread = fake.add_thread(fake.channel, "partie", marie)
    await fake.settle()
    marie.channel = thread
    fake.set_bot_permissions(thread, send_messages_in_threads=False)
    await marie.slash("president create", preset="classic")
    assert french("« Envoyer des messages dans les fils »") in marie.last_ephemeral(thread).content
    assert president.service.registry.in_channel(thread.id) is None

    fake.set_bot_permissions(thread, send_messages_in_threads=True, send_messages=False)
    await marie.slash("president create", preset="classic")
    table = table_of(president, marie)
    assert table.channel_id == thread.id
    lobby = message(marie, table.lobby_message_id)
    for _ in range(2):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None and table.table_message_id is not None
    assert fake.invalid_requests() == 0


async def test_start_without_view_channel_is_refused(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president create", preset="classic")
    table = table_of(president, marie)
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "addbot"))
    fake.set_bot_permissions(fake.channel, view_channel=False)

    await marie.click(lobby, cid(table, "start"))
    assert french("« Voir le salon »") in marie.last_ephemeral().content
    assert table.game is None
    assert fake.invalid_requests() == 0


async def test_view_channel_taken_mid_game_stops_posting_with_no_call_refused(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """The overwrite comes as CHANNEL_UPDATE: the bot stops before Discord refuses it
    anything (a refused call once the event is missed: test_e2e_channel_events)."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_three_bots(instant, marie, "rounds:2")
    await tick(fake, clock, 1.0)
    board = message(marie, table.table_message_id)
    fake.set_bot_permissions(fake.channel, view_channel=False)
    for _ in range(120):  # timers and bots keep playing for two minutes
        await tick(fake, clock, 1.0)

    assert fake.invalid_requests() == 0
    await marie.click(board, cid(table, "hand"))  # the host acts: told, nothing retried
    notice = marie.last_ephemeral()
    assert french("« Voir le salon »") in notice.content and "publier" in notice.content
    assert fake.invalid_requests() == 0

    mark = fake.mark()
    fake.set_bot_permissions(fake.channel, view_channel=True)  # the table is redrawn
    await fake.settle()
    await tick(fake, clock, 1.0)
    redrawn = [c for c in fake.calls_since(mark) if c.route.startswith("/channels/")]
    assert redrawn and all(c.status == 200 for c in redrawn)
    assert message(marie, table.table_message_id).content != board.content
    fake.assert_no_errors()


async def test_the_table_message_is_replaced_before_it_is_an_hour_old(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    fake.writer.old_edit_limit = 0
    marie = fake.add_user("marie", locale="fr")
    table = await slow_round(instant, marie)
    await tick(fake, clock, 1.0)
    first = table.table_message_id
    game = table.game
    assert game is not None
    await wait_looking(fake, clock, instant, marie, 80)

    assert game.round_no == 1  # still the first round, on a second table message
    assert table.table_message_id != first and not table.closed
    fake.assert_no_errors()  # no edit of a message over an hour old


async def test_30046_posts_a_fresh_table_message(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(messages, "FRESH_TABLE_AGE", 24 * 3600.0)  # never replaced early
    fake.writer.old_edit_limit = 0
    marie = fake.add_user("marie", locale="fr")
    table = await slow_round(instant, marie)
    await tick(fake, clock, 1.0)
    first = table.table_message_id
    await wait_looking(fake, clock, instant, marie, 80)

    fake.expect_error(30046)
    assert table.table_message_id != first and not table.closed
    assert message(marie, table.table_message_id).buttons
    fake.assert_no_errors()


def bot_with(fake: FakeDiscord, clock: LinkedClock, config: Config) -> PresidentBot:
    return PresidentBot(config, clock=clock, with_storage=False, guild_ready_timeout=0)


async def test_a_global_sync_clears_the_development_guild_commands(
    fake: FakeDiscord, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    for config in (Config(token=fake.token, dev_guild_id=fake.guild.id),
                   Config(token=fake.token)):
        bot = bot_with(fake, clock, config)
        await fake.connect(bot)
        await fake.disconnect(bot)
    with pytest.raises(UserActionError, match="listed twice"):
        await marie.slash("president create", preset="classic")

    bot = bot_with(fake, clock, Config.from_env(
        {"DISCORD_TOKEN": fake.token, "CLEAR_GUILD_COMMANDS": f" {fake.guild.id} "},
        dotenv=None))
    await fake.connect(bot)
    await marie.slash("president create", preset="classic")
    assert bot.service.registry.in_channel(fake.channel.id) is not None
    await fake.disconnect(bot)
    with pytest.raises(InvalidSetting):
        Config.from_env({"DISCORD_TOKEN": "x", "CLEAR_GUILD_COMMANDS": "12,abc"}, dotenv=None)


async def test_a_lobby_open_over_an_hour_is_posted_afresh_not_edited(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Found by the monkey play-test (tests/bot/test_monkey.py, seed 3): the lobby message
    was edited at every arrival however old it was, and Discord refused the edits of a
    message over an hour old (30046). Like the table message, it now gives way to a fresh
    one once it is nearly an hour old: the old one is edited once more, to point below."""
    fake.writer.old_edit_limit = 1  # Discord does not say how many: one here
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    first = table.lobby_message_id
    for name, minutes in (("bob", 25), ("chloé", 25), ("dave", 25), ("émile", 5)):
        await tick(fake, clock, minutes * 60)  # arrivals keep it from closing as abandoned
        guest = fake.add_user(name, locale="fr")
        await guest.slash("president join")
    # The redraw of the last arrival: the lobby's idle warning, due as bob arrived, took
    # the coalescer's first slot, so each arrival after it is drawn within the second.
    await tick(fake, clock, 1)
    assert table.lobby_message_id != first and not table.closed
    assert "émile" in message(marie, table.lobby_message_id).content
    assert message(marie, first).content == t("fr", "table.moved_on")
    assert not message(marie, first).buttons
    fake.assert_no_errors()  # no edit of a message over an hour old

