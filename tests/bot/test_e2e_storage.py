"""Storage through the bot: results feed /stats, /leaderboard and /history; a bot replaced
mid-trick, mid-exchange or in fast mode restores its tables with working hands, controls and
timers, and the game ends with every result stored once; a sharded bot restores only its
shards' tables; SIGTERM stops the bot only after its snapshots are stored."""

import asyncio
import signal
from collections.abc import Callable
from pathlib import Path

import discord
import pytest

from bot.__main__ import serve
from bot.client import PresidentBot, create_bot
from bot.config import Config
from bot.i18n import t
from bot.packages.controls import WARNING
from bot.storage import Storage, shard_of
from bot.tables.snapshot import stored_table
from bot.tables.table import Table
from engine import Game, Phase
from engine.rules import ROLE_CODES
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    TIMED_OUT,
    Player,
    cid,
    connect_bot,
    database_url,
    host_against_bots,
    message,
    play_until,
    table_of,
    tick,
    two_humans_against_a_bot,
)
from .stored import stored_game


async def start_bot(fake: FakeDiscord, clock: LinkedClock, url: str) -> PresidentBot:
    return await connect_bot(fake, clock, url, bot_pause=1.0)


@pytest.mark.both_databases  # on PostgreSQL in `make test` too
async def test_results_stats_and_restart(fake: FakeDiscord, clock: LinkedClock,
                                         tmp_path: Path) -> None:
    url = database_url(tmp_path)
    bot = await start_bot(fake, clock, url)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob, game_end="rounds:1")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()

    await alice.user.slash("president stats")
    text = alice.user.last_ephemeral().text
    assert "1 game ·" in text
    assert "**Classic Président** · rating" in text and "· 1 round" in text
    # Her one round's role, under the preset's names, on a line of its own.
    assert [line for line in text.split("\n") if "×" in line] in (
        [f"{t('en', f'role.classic.{code}')} ×1"] for code in ROLE_CODES)
    await alice.user.slash("president history")
    assert "1 round ·" in alice.user.last_ephemeral().text
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
    assert deadline is not None
    hand_id = alice.hand_id
    await fake.disconnect(bot)
    left = deadline - clock.now()

    clock.advance(5)
    again = await start_bot(fake, clock, url)
    restored = table_of(again, alice.user)
    assert restored is not table and restored.game is not None
    assert restored.game.version == live.version
    # Nobody could play while the bot was down: alice has the time she had left.
    assert restored.timer_deadline == pytest.approx(clock.now() + left)
    await tick(fake, clock, 0)
    board = message(alice.user, restored.table_message_id)
    assert restored.table_message_id == table.table_message_id  # brought up to date there
    assert "alice" in board.content
    alice.hand_id = hand_id
    assert await alice.act()  # the hand opened before the restart still plays
    assert restored.game.version > live.version
    await play_until(fake, clock, [bob], lambda: restored.game is not None
                     and restored.game.to_act == 0)
    assert restored.timer_deadline is not None
    await tick(fake, clock, restored.timer_deadline - clock.now())
    assert any(e.key in TIMED_OUT for e in restored.log)
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_turn_does_not_run_out_while_the_bot_is_down(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """alice's 30 seconds would have run out during the bot's minute away (a redeploy);
    nobody could play meanwhile, so her turn waits: she has the time she had left, the
    history says why the clocks stood still, and the timer plays for her only then
    (play-test 15: a redeploy timed every player on turn out, and cancelled presi games)."""
    url = database_url(tmp_path)
    bot = await start_bot(fake, clock, url)
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(bot, alice.user, "classic", 2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    version = game.version
    await fake.disconnect(bot)
    assert table.timer_deadline is not None
    left = table.timer_deadline - clock.now()

    clock.advance(60)
    again = await start_bot(fake, clock, url)
    await fake.settle()
    restored = table_of(again, alice.user)
    live = restored.game
    assert live is not None and live.version == version and live.to_act == 0
    assert restored.timer_deadline == pytest.approx(clock.now() + left)
    assert restored.log[-1].key == "ev.restarted"
    await tick(fake, clock, left - 1)
    assert live.version == version
    await tick(fake, clock, 1)
    assert live.version > version and any(e.key in TIMED_OUT for e in restored.log)
    await fake.disconnect(again)
    fake.assert_no_errors()


def cards_held(game: Game) -> list[str]:
    """Every card in a hand or on the pile (the current trick included), sorted."""
    held = [c for seat in range(game.seats) for c in game.hand(seat)] + list(game.pile)
    return sorted(str(c) for c in held)


def gifts(game: Game) -> tuple[int, int]:
    """(given, still due) gifts of the exchange in progress."""
    made = [g["cards"] is not None for g in game.to_dict()["gifts"]]
    return sum(made), len(made) - sum(made)


async def restart_mid_game(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                           stop_when: Callable[[Game], bool], *, humans: int = 2,
                           **knobs: object) -> None:
    """alice, bob (and carol, or a bot) play a two-round classic game; at `stop_when` the
    bot is replaced by a new one on the same database; the game is finished through clicks."""
    url = database_url(tmp_path)
    bot = await start_bot(fake, clock, url)
    players = [Player(fake.add_user(name)) for name in ("alice", "bob", "carol")[:humans]]
    alice = players[0]
    await alice.user.slash("president create", preset="classic")
    table = table_of(bot, alice.user)
    await bot.service.set_rules(table, alice.user.id,
                                table.rules.replace(game_end="rounds:2", **knobs))
    lobby = message(alice.user, table.lobby_message_id)
    for player in players[1:]:
        await player.user.click(lobby, cid(table, "join"))
    for _ in range(3 - humans):
        await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(bot)
    game = table.game
    assert game is not None
    deck = sorted(str(c) for c in game.rules.deck_kind.cards())

    async def finish(table: Table, game: Game, stop: Callable[[Game], bool]) -> None:
        done = [Phase.ROUND_OVER, Phase.GAME_OVER]
        while not stop(game) and game.phase is not Phase.GAME_OVER:
            await play_until(fake, clock, players, lambda: stop(game) or game.phase in done)
            if game.phase is Phase.ROUND_OVER:
                await tick(fake, clock, 1)
                board = message(alice.user, table.table_message_id)
                await alice.user.click(board, cid(table, "next", game.version))
                await tick(fake, clock, 1)

    await finish(table, game, stop_when)
    assert stop_when(game), "the game never reached the position of the restart"
    before = game.to_dict()
    assert cards_held(game) == deck
    deadline, board_id = table.timer_deadline, table.table_message_id
    await fake.disconnect(bot)
    left = None if deadline is None else deadline - clock.now()

    again = await start_bot(fake, clock, url)
    await fake.settle()
    restored = table_of(again, alice.user)
    live = restored.game
    assert restored is not table and live is not None
    assert live.to_dict() == before  # hands, pile, trick, gifts, scores, version, seed
    assert cards_held(live) == deck
    assert live.points == before["points"]
    assert restored.timer_deadline == (None if left is None else
                                       pytest.approx(clock.now() + left))
    assert restored.table_message_id == board_id  # brought up to date where it is
    await alice.open_hand(again)  # a control of the board; the others keep their hands
    await finish(restored, live, lambda g: False)
    await again.service.drain()

    assert live.phase is Phase.GAME_OVER and live.round_no == 2
    assert restored.game_row_id is not None
    stored = await stored_game(url, restored.game_row_id)
    assert stored.round_nos == [1, 2]
    assert stored.points == dict(enumerate(live.points))
    assert stored.ended == 1 and stored.table_games == 1
    assert stored.rated_rounds == {p.user.id: 2 for p in players}
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_restart_mid_trick(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    await restart_mid_game(fake, clock, tmp_path,
                           lambda g: g.phase is Phase.PLAY and len(g.trick) >= 2)


async def test_restart_mid_exchange(fake: FakeDiscord, clock: LinkedClock,
                                    tmp_path: Path) -> None:
    def mid_exchange(game: Game) -> bool:
        given, due = gifts(game)
        return game.phase is Phase.EXCHANGE and given > 0 and due > 0

    # Only humans: a bot President would return its gift at once, in the same engine step
    # as the Scum's automatic one, and the exchange would never be seen half done.
    await restart_mid_game(fake, clock, tmp_path, mid_exchange, humans=3)


async def test_restart_mid_trick_in_fast_mode(fake: FakeDiscord, clock: LinkedClock,
                                              tmp_path: Path) -> None:
    await restart_mid_game(fake, clock, tmp_path,
                           lambda g: g.phase is Phase.PLAY and len(g.trick) >= 2, fast=True)


async def test_sigterm_stops_the_bot_only_after_its_snapshots_are_stored(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Hosting platforms send SIGTERM on every redeploy; `python -m bot` must close the
    bot (and flush its snapshot writer) rather than die on the spot."""
    url = database_url(tmp_path)
    bot = PresidentBot(Config(token=fake.token, database_url=url, bot_pause=1.0), clock=clock,
                       guild_ready_timeout=0)
    ready = asyncio.Event()

    async def on_ready() -> None:
        ready.set()

    bot.add_listener(on_ready)
    fake.watch(bot)
    running = asyncio.create_task(serve(bot, fake.token))
    await asyncio.wait_for(ready.wait(), 10)
    await fake.settle()
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    table = table_of(bot, alice)
    lobby = message(alice, table.lobby_message_id)
    await alice.click(lobby, cid(table, "addbot"))

    assert not running.done()
    signal.raise_signal(signal.SIGTERM)
    with pytest.raises(asyncio.CancelledError):
        await running
    await fake.settle(require_answers=False)
    assert bot.is_closed()
    storage = await Storage.open(url)
    snapshot = await storage.load_snapshot(table.id)
    await storage.close()
    assert snapshot is not None and snapshot.seq == table.seq
    assert len(stored_table(snapshot.state)["seats"]) == len(table.seats)


async def test_a_sharded_bot_restores_only_the_tables_of_its_shards(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = database_url(tmp_path)
    bot = await start_bot(fake, clock, url)
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    await fake.disconnect(bot)
    owner = shard_of(fake.guild.id, 2)

    for shard, owns in ((1 - owner, False), (owner, True)):
        config = Config(token=fake.token, database_url=url, shard_count=2, shard_ids=(shard,))
        sharded = create_bot(config, clock=clock, guild_ready_timeout=0)
        assert isinstance(sharded, discord.AutoShardedClient)
        await fake.connect(sharded)
        assert sharded.shard_ids == [shard] and sharded.shard_count == 2
        found = sharded.service.registry.in_channel(alice.channel.id)
        assert (found is not None) == owns
        await fake.disconnect(sharded)


async def test_a_click_after_the_snapshot_writer_closed_is_refused_politely(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    bot = await start_bot(fake, clock, database_url(tmp_path))
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president create", preset="classic")
    table = table_of(bot, marie)
    lobby = message(marie, table.lobby_message_id)
    assert bot.writer is not None
    await bot.writer.close()  # the first steps of a shutdown
    await marie.click(lobby, cid(table, "addbot"))
    assert marie.last_ephemeral().content == WARNING + t("fr", "err.restarting")
    assert len(table.seats) == 1 and "Bot 1" not in message(marie, lobby.id).content
    fake.assert_no_errors()
    await fake.disconnect(bot)
