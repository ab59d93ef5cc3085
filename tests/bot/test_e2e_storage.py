"""Storage through the bot: results feed /stats, /leaderboard and /history; a restarted bot
restores its tables with working hands, controls and timers."""

from pathlib import Path

from bot.client import PresidentBot
from bot.config import Config
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, message, play_until, table_of, tick


async def start_bot(fake: FakeDiscord, clock: LinkedClock, url: str) -> PresidentBot:
    bot = PresidentBot(Config(token=fake.token, database_url=url, bot_pause=1.0), clock=clock,
                       guild_ready_timeout=0)
    await fake.connect(bot)
    return bot


async def test_results_stats_and_restart(fake: FakeDiscord, clock: LinkedClock,
                                         tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'president.db'}"
    bot = await start_bot(fake, clock, url)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob"))
    await alice.user.slash("president create", preset="classic")
    table = table_of(bot, alice.user)
    await bot.service.set_rules(table, alice.user.id, table.rules.replace(game_end="rounds:1"))
    lobby = message(alice.user, table.lobby_message_id)
    await bob.user.click(lobby, cid(table, "join"))
    await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await alice.open_hand(bot)
    await bob.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()

    await alice.user.slash("president stats")
    assert "1 games" in alice.user.last_ephemeral().text
    await alice.user.slash("president history")
    assert "1 rounds" in alice.user.last_ephemeral().text
    await alice.user.slash("president leaderboard", preset="classic")
    assert f"<@{alice.user.id}>" in alice.user.last_ephemeral().text

    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    await alice.user.click(board, cid(table, "replay", game.version))
    await tick(fake, clock, 1)
    await play_until(fake, clock, [bob], lambda: table.game is not None
                     and table.game.to_act == 0 and table.game.version > 3)
    live = table.game
    assert live is not None
    deadline = table.timer_deadline
    hand_id = alice.hand_id
    await fake.disconnect(bot)

    clock.advance(5)
    again = await start_bot(fake, clock, url)
    restored = table_of(again, alice.user)
    assert restored is not table and restored.game is not None
    assert restored.game.version == live.version
    assert restored.timer_deadline == deadline
    await tick(fake, clock, 0)
    board = message(alice.user, restored.table_message_id)
    assert restored.table_message_id != table.table_message_id
    assert "alice" in board.content
    alice.hand_id = hand_id
    assert await alice.act()  # the hand opened before the restart still plays
    assert restored.game.version > live.version
    await play_until(fake, clock, [bob], lambda: restored.game is not None
                     and restored.game.to_act == 0)
    assert restored.timer_deadline is not None
    await tick(fake, clock, restored.timer_deadline - clock.now())
    assert any(e.key == "ev.timeout" for e in restored.log)
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_timer_that_expired_while_the_bot_was_down_fires_at_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'president.db'}"
    bot = await start_bot(fake, clock, url)
    alice = Player(fake.add_user("alice"))
    await alice.user.slash("president create", preset="classic")
    table = table_of(bot, alice.user)
    lobby = message(alice.user, table.lobby_message_id)
    await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "start"))
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    version = game.version
    await fake.disconnect(bot)

    clock.advance(60)  # alice's 30 seconds ran out while the bot was down
    again = await start_bot(fake, clock, url)
    await fake.settle()
    restored = table_of(again, alice.user)
    assert restored.game is not None and restored.game.version > version
    assert any(e.key == "ev.timeout" for e in restored.log)
    await fake.disconnect(again)
    fake.assert_no_errors()
