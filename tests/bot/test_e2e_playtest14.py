"""End-to-end: play-test 14 (stop 41). Each test is a thing a player, a host or a league's
organiser tripped over, as they met it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.client import PresidentBot
from bot.i18n import join_names, t
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    TIMED_OUT,
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    humans_only,
    leave_game,
    marie_against_three_bots,
    marie_timed_out_until,
    message,
    play_until,
    tick,
)


async def test_an_open_ended_game_stopped_before_any_round_counted_has_no_winner(
        fake: FakeDiscord, clock: LinkedClock, instant: PresidentBot) -> None:
    """A proletario-style game with no set end, stopped in its first round: « victoire
    partagée : marie, Bot 1, Bot 2 et Bot 3 », everyone level at 0, and a win in each
    player's stats. Nobody has scored: the host is told so, and nobody wins."""
    marie, table, game = await marie_against_three_bots(fake, instant, "unlimited")
    await marie.slash("president end")
    assert marie.last_ephemeral().text == t("fr", "end.confirm")
    await marie.click(marie.last_ephemeral(), "Arrêter la partie")
    assert game.phase is Phase.GAME_OVER and game.winners == () and game.stopped_early


async def test_stopping_an_open_ended_game_between_rounds_names_who_wins(
        fake: FakeDiscord, clock: LinkedClock, instant: PresidentBot) -> None:
    """Between two rounds of a game with no set end, the host was told « personne ne gagne
    la partie », and then read « victoire : Bot 2 »: its totals decide it (RULES §8)."""
    marie, table, game = await marie_timed_out_until(fake, clock, instant, "unlimited",
                                                     Phase.ROUND_OVER)
    leaders = game.stop_winners()
    assert leaders
    await marie.slash("president end")
    names = join_names("fr", [table.name(seat) for seat in leaders])
    assert marie.last_ephemeral().text == t("fr", "end.confirm.between.leaders", names=names)
    await marie.click(marie.last_ephemeral(), "Arrêter la partie")
    assert game.winners == leaders and not game.stopped_early


async def test_a_game_sent_back_to_the_lobby_after_a_round_is_a_game_in_the_stats(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Three at classic; after the first round chloé leaves and too few are left: the
    table went back to its lobby and the round counted, but the game never did (« 0 partie
    · 1 manche »), and the channel's history said no game had been played. It is stored
    now as a game stopped early, with no winner."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = [fake.add_user(name, locale="fr") for name in ("amelie", "bruno", "chloé")]
    table, players = await humans_only(fake, clock, bot, users, "classic",
                                       game_end="rounds:3")
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await leave_game(users[2])
    await tick(fake, clock, 1)
    assert table.game is None
    await bot.service.drain()
    storage = bot.storage
    assert storage is not None
    stats = await storage.player_stats(fake.guild.id, users[0].id)
    assert (stats.games, stats.wins, stats.rounds) == (1, 0, 1)
    await users[0].slash("president history")
    assert "1 manche · arrêtée avant la fin, sans victoire" in users[0].last_ephemeral().text
    await fake.disconnect(bot)


FRIENDS = [("alice", "en-US"), ("bruno", "fr"), ("chloé", "fr"), ("dan", "en-US"),
           ("élodie", "fr"), ("fred", "en-GB"), ("gaby", "fr")]


async def streamers_table(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                          preset: str, **rules: Any) -> tuple[Table, list[Player]]:
    """A streamer (French) opens a `preset` table of eight seats in the public channel,
    seven friends of both languages join, and it starts."""
    host = fake.add_user("StreamerZ", locale="fr")
    friends = [fake.add_user(name, locale=locale) for name, locale in FRIENDS]
    table = await create_table(bot, host, preset)
    await bot.service.set_rules(table, host.id, table.rules.replace(max_players=8, **rules))
    for friend in friends:
        await friend.click(message(friend, table.lobby_message_id), cid(table, "join"))
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    return table, [Player(user) for user in [host, *friends]]


async def test_replaying_a_full_table_says_once_that_the_list_waits(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """Twelve viewers asked for the next game of a full table: « Rejouer » wrote « viewerN
    n'a pas de place dans cette partie… » once each, nine of the new game's ten history
    lines, under the line that already named them all. One line says it now."""
    table, players = await streamers_table(fake, clock, president, "classic",
                                           game_end="rounds:1")
    viewers = [fake.add_user(f"viewer{i}", locale="fr") for i in range(12)]
    for viewer in viewers:
        await viewer.click(message(viewer, table.table_message_id), cid(table, "join"))
    for player in players:
        await player.open_hand(president)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    host = players[0].user
    await host.click(message(host, table.table_message_id), cid(table, "replay", game.version))
    await tick(fake, clock, 1)
    shown = message(host, table.table_message_id).content
    assert t("fr", "ev.no_seat_next_many", count=12, max=8) in shown
    assert "n’a pas de place" not in shown


async def test_a_turn_that_runs_out_is_one_history_line(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """Two friends away from the keyboard at the streamer's table: each of their turns took
    two of the history's ten lines, « fred a dépassé son temps » then « fred passe »."""
    table, players = await streamers_table(fake, clock, president, "classic")
    active = players[:6]
    for player in active:
        await player.open_hand(president)
    game = table.game
    assert game is not None
    await play_until(fake, clock, active, lambda: sum(
        e.key in TIMED_OUT for e in table.log) >= 2)
    keys = [e.key for e in table.log]
    assert "ev.timeout" not in keys and {"ev.passed_late", "ev.played_late"} & set(keys)
    late = next(e for e in table.log if e.key in TIMED_OUT)
    assert late.params["name"] in ("fred", "gaby")


async def test_a_second_click_on_start_says_the_game_has_started(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """The streamer double-clicked « Lancer »: the second click read, on stream, « Une
    partie est en cours à cette table ; attends qu'elle se termine », their own game."""
    host = fake.add_user("StreamerZ", locale="fr")
    friend = fake.add_user("bruno", locale="fr")
    table = await create_table(president, host, "classic")
    lobby = message(host, table.lobby_message_id)
    await friend.click(lobby, cid(table, "join"))
    await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"), settle=False)
    await host.click(lobby, cid(table, "start"), settle=False)
    await fake.settle()
    assert host.last_ephemeral().content == "⚠️ " + t("fr", "err.already_started",
                                                      hand="Ma main")


async def test_a_presi_player_back_in_time_finds_the_old_hand_pointing_to_the_new(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """dan steps out of the presi game (his seat waits) and comes back with the table's
    « Rejoindre »: his new hand is below, and the old one still read « You left the
    table. » (classic's take-back already pointed it to the new one)."""
    table, players = await streamers_table(fake, clock, president, "presi")
    for player in players:
        await player.open_hand(president)
    dan = players[4]
    old = dan.hand_id
    await leave_game(dan.user)
    await tick(fake, clock, 1)
    assert dan.user.id in table.away
    await dan.user.click(message(dan.user, table.table_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    assert table.seat_of(dan.user.id) is not None and dan.user.id not in table.away
    assert message(dan.user, old).content == t("en-US", "hand.moved")


async def test_a_cancelled_presi_game_leaves_no_live_turn_in_its_old_message(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """dan leaves the presi game and is not back in time: the game is cancelled and a
    fresh lobby posted below, while the message above still read « ▶️ À **fred** de jouer
    <t:…:R> » (« il y a 2 minutes »)."""
    table, players = await streamers_table(fake, clock, president, "presi")
    await leave_game(players[4].user)
    old = table.table_message_id
    await tick(fake, clock, table.rules.leave_grace_seconds + 1)
    assert table.game is None
    await tick(fake, clock, 1)  # the lobby posted, the old message retired
    retired = message(players[0].user, old).content
    assert "de jouer" not in retired and t("fr", "table.moved_on") in retired
