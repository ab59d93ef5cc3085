"""End-to-end: play-test 22, « the clock »: every timer a table has, seen by its players and
its host, in French and in English: the turn, the exchange and fast mode's timers, a lobby
or a finished round left idle, a table on autopilot, a restart while the clocks run, and two
tables at once. Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.lines import bot_shown, entry_text, level_words
from bot.tables.deadlines import IDLE_CLOSE_SECONDS
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.logentry import LogEntry
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    after_restart,
    cid,
    connect_bot,
    create_table,
    database_url,
    dealt_against_two_bots,
    message,
    play_until,
    restart,
    tick,
    two_humans_against_a_bot,
)

LOCALES = ["fr", "en-US"]


async def a_lobby_of_two_stored(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                locale: str) -> tuple[str, PresidentBot, TestUser, TestUser,
                                                      Table]:
    """A bot on a database file; marie opens a table and bob joins its lobby, both in
    ``locale``. Returned with the database's url."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    bob = fake.add_user("bob", locale=locale)
    table = await create_table(bot, marie)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    return url, bot, marie, bob, table


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_lobby_left_idle_closes_on_time_across_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """marie opens a table and bob joins; nobody acts after that. Twenty minutes on, the
    bot restarts (down a minute). The idle close counted its 30 minutes again from the
    restart: a table redeployed every twenty minutes never closed. The minutes before the
    restart now count, those the bot was down do not: it closes 30 minutes after the last
    action, the downtime added, and its lobby says why."""
    url, bot, marie, bob, table = await a_lobby_of_two_stored(fake, clock, tmp_path, locale)
    idle_since = clock.now()
    await tick(fake, clock, 20 * 60)
    stopped = clock.now()
    bot = await restart(fake, clock, bot, url, down=60)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None
    closes = after_restart(idle_since + IDLE_CLOSE_SECONDS, stopped, clock)
    while clock.now() < closes - 1:
        await tick(fake, clock, 1)
    assert not restored.closed
    await tick(fake, clock, 2)
    assert fresh(restored).closed
    lobby = message(marie, restored.lobby_message_id)
    # No game was ever played here: « Personne n’a joué à cette table » said otherwise.
    assert t(restored.locale, "table.idle_closed_lobby") in lobby.content and not lobby.buttons
    assert t(restored.locale, "table.idle_closed") not in lobby.content
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_silent_host_is_silent_across_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie, the host, has said nothing for eight minutes when the bot restarts. A restart
    gave her ten fresh minutes; now her silence goes on counting (the downtime aside), and
    bob takes the role over with a host action two and a half minutes later."""
    url, bot, marie, bob, table = await a_lobby_of_two_stored(fake, clock, tmp_path, "fr")
    await tick(fake, clock, 8 * 60)
    bot = await restart(fake, clock, bot, url, down=60)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None
    await tick(fake, clock, HOST_IDLE_SECONDS - 8 * 60 + 30)
    await bob.slash("president addbot")
    assert restored.host_id == bob.id and len(restored.seats) == 3
    await fake.disconnect(bot)
    fake.assert_no_errors()



@pytest.mark.parametrize("locale", LOCALES)
async def test_a_giver_who_never_chooses_is_told_the_timer_gave_for_them(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie, President of the round before, owes Bot 2 two cards of her choice and picks
    none. Once the exchange's timer ran out the history read only « temps écoulé » and her
    hand « Tu as donné 3♣ 4♣ à Bot 2. », as if she had chosen them. The history now says
    whose time ran out (not which cards: the exchange is private), and her hand that the
    cards went for her."""
    marie = Player(fake.add_user("marie", locale=locale))
    table, game = await dealt_against_two_bots(
        fake, clock, president, marie,
        [["3C", "4C", "5C", "6C", "7C", "8C"], ["3D", "4D", "5D", "6D", "7D", "8D"],
         ["3H", "4H", "5H", "6H", "7H", "8H"]], previous_ranking=[0, 1, 2])
    timer = game.timer
    assert timer is not None and timer.kind == "exchange"
    for _ in range(table.rules.exchange_seconds + 1):
        await tick(fake, clock, 1)
    assert game.phase is Phase.PLAY
    history = [entry_text(table.locale, table, e) for e in table.log]
    assert entry_text(table.locale, table, LogEntry("ev.timeout_gift", {"name": "marie"})) \
        in history
    assert t(table.locale, "ev.timeout_table") not in history
    gave = t(locale, "hand.gave_late", cards="3♣ 4♣", name=t(
        locale, "hand.bot_named", name=bot_shown("Bot 2"), level=level_words(locale, "normal")))
    assert gave in marie.hand.content.split("\n"), marie.hand.content
    fake.assert_no_errors()



@pytest.mark.parametrize("locale", LOCALES)
async def test_a_game_closed_for_idleness_after_a_round_is_in_the_history(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """marie and bob play a round of three, then nobody presses « Manche suivante ». Thirty
    minutes on the table closed, its message giving the « Classement final », yet the
    game was stored as never ended: `/president historique` said no game had been played
    here and their stats counted the round but no game. It now ends as a host's stop ends
    it (stopped before its end, without a winner), as a game stopped for want of players
    does (play-test 14)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob,
                                                 game_end="rounds:3")
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    for _ in range(IDLE_CLOSE_SECONDS // 10 + 1):
        await tick(fake, clock, 10)
    assert table.closed
    await bot.service.drain()
    closed = [m for m in fake.messages() if not m.ephemeral][-1]
    assert t(locale, "table.idle_closed") in closed.content and not closed.buttons
    await marie.user.slash("president history")
    history = marie.user.last_ephemeral().text
    assert t(locale, "history.empty") not in history
    assert t(locale, "history.no_winner") in history
    # Counted once, a restart after the close included: a game, no win, the round.
    bot = await restart(fake, clock, bot, url, down=60)
    assert bot.service.registry.by_id(table.id) is None
    assert bot.storage is not None
    for player in (marie, bob):
        stats = await bot.storage.player_stats(fake.guild.id, player.user.id)
        assert (stats.games, stats.wins, stats.rounds) == (1, 0, 1)
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_turn_that_ran_out_is_said_in_the_players_own_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob, reading Discord in his language at marie's French table, lets his turn run out
    twice where the autopilot takes the third. His hand went on « Not your turn: marie is
    playing » with a card fewer and his own 3 on the table, the timeout told only in the
    table's history, in French; nor did anything say the autopilot was one timeout away.
    His hand now says his turns ran out and were played for him, and when the autopilot
    comes next; his own move clears it."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 autopilot_after_timeouts=3)
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    for ran_out in (1, 2):
        await play_until(fake, clock, [marie], lambda: game.to_act == seat)
        for _ in range(table.rules.turn_seconds + 1):
            await tick(fake, clock, 1)
        assert game.timeouts[seat] == ran_out and seat not in game.autopilot
    lines = bob.hand.content.split("\n")
    assert t(locale, "hand.timed_out.many", count=2) in lines
    assert t(locale, "hand.autopilot_soon.one") in lines
    await play_until(fake, clock, [marie], lambda: game.to_act == seat)
    await tick(fake, clock, 1)
    assert t(locale, "hand.timed_out.many", count=2) in bob.hand.content.split("\n")
    assert await bob.act()
    await tick(fake, clock, 1)
    assert "⏱️" not in bob.hand.content and game.timeouts[seat] == 0
    fake.assert_no_errors()


async def test_a_table_stored_before_last_seen_was_kept_counts_from_the_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A snapshot stored before the host's and the table's last-seen times were kept: the
    restart is then the last time anyone was seen, so the table stays open 30 minutes from
    it (not closed at once, as a time of 0 would have it) and its host keeps the role."""
    url, bot, marie, bob, table = await a_lobby_of_two_stored(fake, clock, tmp_path, "fr")
    await tick(fake, clock, 20 * 60)
    await bot.service.committed(table)
    storage = bot.storage
    assert storage is not None
    stored = await storage.load_snapshot(table.id)
    assert stored is not None and "human_seen" in stored.state
    older = {k: v for k, v in stored.state.items() if k not in ("host_seen", "human_seen")}
    assert await storage.save_snapshot(table.id, stored.seq + 100, older)
    bot = await restart(fake, clock, bot, url, down=60)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None and restored.human_seen == restored.host_seen > 0
    assert clock.now() - restored.human_seen < 60
    closes = restored.human_seen + IDLE_CLOSE_SECONDS
    await tick(fake, clock, HOST_IDLE_SECONDS - 60)
    await bob.slash("president addbot")  # refused: marie's silence began at the restart
    assert restored.host_id == marie.id and len(restored.seats) == 2
    while clock.now() < closes - 1:
        await tick(fake, clock, 1)
    assert not restored.closed
    await tick(fake, clock, 2)
    assert fresh(restored).closed
    await fake.disconnect(bot)
    fake.assert_no_errors()
