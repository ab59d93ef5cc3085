"""End-to-end: play-test 14 (stop 41). Each test is a thing a player, a host or a league's
organiser tripped over, as they met it."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select

from bot.client import PresidentBot
from bot.i18n import button_names, join_names, plural, t
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.game.lines import who_name
from bot.storage import Storage
from bot.storage.models import GameSeat
from bot.tables.table import Table
from engine import Game, Phase, Rules
from fakediscord import FakeDiscord, LatencyConfig, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    TIMED_OUT,
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    host_against_three_bots,
    humans_only,
    leave_game,
    let_timers_play,
    marie_against_three_bots,
    marie_timed_out_until,
    message,
    play_until,
    tick,
    to_the_next_exchange,
    two_humans_against_a_bot,
)
from .test_e2e_slow_store import slow_commits


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
    names = join_names("fr", [who_name(table, who) for who in leaders])
    assert marie.last_ephemeral().text == t("fr", "end.confirm.between.leaders", names=names)
    await marie.click(marie.last_ephemeral(), "Arrêter la partie")
    assert game.winners == leaders and not game.stopped_early


async def chloe_leaves_after_round_one(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                      game_end: str
                                      ) -> tuple[PresidentBot, Storage, list[TestUser], Game]:
    """Three French players at classic, storing to a database: after the first round
    chloé leaves, too few are left, and the table is back in its lobby, its storage work
    done. The bot, its storage, the three users and the game that stopped."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = [fake.add_user(name, locale="fr") for name in ("amelie", "bruno", "chloé")]
    table, players = await humans_only(fake, clock, bot, users, "classic", game_end=game_end)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await leave_game(users[2])
    await tick(fake, clock, 1)
    assert table.game is None
    await bot.service.drain()
    assert bot.storage is not None
    return bot, bot.storage, users, game


async def test_a_game_sent_back_to_the_lobby_after_a_round_is_a_game_in_the_stats(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Three at classic; after the first round chloé leaves and too few are left: the
    table went back to its lobby and the round counted, but the game never did (« 0 partie
    · 1 manche »), and the channel's history said no game had been played. It is stored
    now as a game stopped early, with no winner."""
    bot, storage, users, _ = await chloe_leaves_after_round_one(fake, clock, tmp_path,
                                                               "rounds:3")
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


# --- the review of this stop's own changes ----------------------------------------------


async def test_a_listed_player_banned_while_the_bot_was_down_loses_their_place(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """The start's member check asked only of seated players: carl, on the list for the
    next game and banned meanwhile, would be seated at « Rejouer » and time out turn after
    turn."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, bob = Player(fake.add_user("marie", locale="fr")), Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, marie, bob)
    carl = fake.add_user("carl")
    await carl.slash("president join")
    assert table.queued(carl.id)
    await bot.service.drain()
    await fake.disconnect(bot)
    fake.ban(fake.guild, carl)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await tick(fake, clock, 1)
    restored = again.service.registry.in_channel(table.channel_id)
    assert restored is not None and not restored.queued(carl.id)
    fake.expect_error(10007)
    await fake.disconnect(again)


async def test_start_typed_once_the_game_is_over_says_what_comes_next(
        fake: FakeDiscord, clock: LinkedClock, instant: PresidentBot) -> None:
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:1")
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await marie.slash("president start")
    assert marie.last_ephemeral().text == "⚠️ " + t(
        "fr", "err.start_after_game", **button_names("fr"))


async def test_replay_typed_between_rounds_names_the_button_as_the_table_shows_it(
        fake: FakeDiscord, clock: LinkedClock, instant: PresidentBot) -> None:
    """An English host at a French table: the refusal read **Replay** where the button
    says « Rejouer »."""
    alice = fake.add_user("alice")
    table = await host_against_bots(instant, alice, "classic", 3)
    table.locale = "fr"
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await alice.slash("president replay")
    assert "**Rejouer**" in alice.last_ephemeral().text


async def test_an_open_ended_game_stopped_for_want_of_players_goes_to_its_leader(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """No set end; after round 1 chloé leaves and too few are left: the game stops as the
    host's stop would have stopped it, and the leader on points among those still at the
    table wins (RULES §8 and §10), where nobody did."""
    bot, storage, users, game = await chloe_leaves_after_round_one(fake, clock, tmp_path,
                                                                  "unlimited")
    wins = {seat for seat, user in enumerate(users)
            if (await storage.player_stats(fake.guild.id, user.id)).wins}
    # Among those still playing (a leaver's seat is out of the game, `Game.remove_seat`).
    assert game.winners and wins == set(game.winners) and 2 not in wins
    await fake.disconnect(bot)


async def test_the_leaver_of_a_game_stopped_for_want_of_players_keeps_her_stored_seat(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Storing the game's end rewrote chloé's freed seat as a nameless bot: her name stayed
    in it after `/president forget`, and the game no longer said who had played it."""
    bot, storage, users, _ = await chloe_leaves_after_round_one(fake, clock, tmp_path,
                                                               "rounds:3")
    async with storage._engine.connect() as connection:
        seat = (await connection.execute(select(GameSeat.user_id, GameSeat.is_bot).where(
            GameSeat.name == "chloé"))).one()
    assert seat == (users[2].id, False)
    await storage.forget_user(users[2].id)
    async with storage._engine.connect() as connection:
        assert not (await connection.execute(
            select(GameSeat.name).where(GameSeat.name == "chloé"))).all()
    await fake.disconnect(bot)


async def test_a_presi_game_cancelled_in_its_exchange_keeps_no_countdown_nor_a_game(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Round 2's exchange; bob steps out and is not back: the game is cancelled (RULES §10,
    « no result »). The message it retired kept « 🔁 Échange en cours <t:…:R> »."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = [fake.add_user(name, locale="fr") for name in ("amelie", "bob", "chloé")]
    table, players = await humans_only(fake, clock, bot, users, "presi",
                                       exchange_seconds=300, leave_grace_seconds=30)
    game = await to_the_next_exchange(fake, clock, table, players, users[0])
    assert game.phase is Phase.EXCHANGE
    old = table.table_message_id
    await leave_game(users[1])
    await tick(fake, clock, 31)
    assert table.game is None
    await tick(fake, clock, 1)
    assert "<t:" not in message(users[0], old).content.split(
        t("fr", "table.recent"))[0]
    await bot.service.drain()
    assert bot.storage is not None
    stats = await bot.storage.player_stats(fake.guild.id, users[0].id)
    assert (stats.games, stats.rounds) == (0, 1)
    await fake.disconnect(bot)


async def test_a_click_failing_on_discords_api_is_not_told_as_the_database(
        fake: FakeDiscord, clock: LinkedClock, instant: PresidentBot,
        caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """aiohttp's timeouts and resets are OSErrors and TimeoutErrors too: a click whose
    work failed on Discord's API read « the database cannot be reached », no traceback."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(instant, marie)
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "addbot"))

    async def broken(*args: object, **kwargs: object) -> None:
        raise aiohttp.ServerTimeoutError("Timeout on reading data from socket")

    monkeypatch.setattr(instant.service.games, "start", broken)
    await marie.click(lobby, cid(table, "start"))
    assert marie.last_ephemeral().text == "⚠️ " + t("fr", "err.internal")
    assert any(r.levelno == logging.ERROR and r.exc_info for r in caplog.records)
    caplog.clear()  # the bug is the test's


# --- players on phones in a train ------------------------------------------------------


def _hands_of(user: TestUser) -> list[Message]:
    return [m for m in user.visible() if m.ephemeral]


def _live(hand_message: Message) -> bool:
    """A hand that offers a move: a menu, or a button besides « Actualiser » and a moved
    hand's « Afficher ma main ici » (play-test 32)."""
    return bool(hand_message.selects) or any(
        b.custom_id and ":refresh:" not in b.custom_id and ":here:" not in b.custom_id
        for b in hand_message.buttons)


async def _bobs_turn(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot
                     ) -> tuple[Player, Player, Table, Game]:
    alice, bob = Player(fake.add_user("alice", locale="fr")), Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob)
    await tick(fake, clock, 2)
    assert game.to_act == table.seat_of(bob.user.id)  # the seeded deal: bob opens
    return alice, bob, table, game


@pytest.mark.parametrize("gap", [0.0, 0.3])
async def test_my_hand_tapped_three_times_leaves_one_hand_to_play_from(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, gap: float) -> None:
    """Three taps on « My hand » within a refresh: only the last older hand said it moved
    (one farewell per player, the second tap's replacing the first's); the first kept its
    menu and « Your turn », no longer refreshed."""
    _, bob, table, _ = await _bobs_turn(fake, clock, president)
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0.04, seed=3))
    board = message(bob.user, table.table_message_id)
    for _ in range(3):
        await bob.user.click(board, cid(table, "hand"), settle=gap > 0)
        if gap:
            await tick(fake, clock, gap)
    await fake.settle()
    await tick(fake, clock, 1)
    hands = _hands_of(bob.user)  # the one he had open, and three more
    assert len(hands) == 4 and [_live(m) for m in hands].count(True) == 1
    assert [m.text for m in hands].count(t("en-US", "hand.moved")) == 3
    fake.assert_no_errors()


async def test_a_hand_not_yet_sent_is_told_it_moved_once_it_is(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The second tap made the first hand, its save still under way, a farewell; a move
    meanwhile edited it before Discord had it: 404 10008, and it kept its controls."""
    alice, bob = Player(fake.add_user("alice", locale="fr")), Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob)
    seat = table.seat_of(alice.user.id)
    assert seat is not None
    for _ in range(30):
        if game.phase is Phase.PLAY and game.to_act == seat:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 2)
    release, _ = slow_commits(president, monkeypatch)
    board = message(bob.user, table.table_message_id)
    for _ in range(2):
        await bob.user.click(board, cid(table, "hand"), settle=False)
        await fake.settle(require_answers=False)
    play = game.legal_plays(seat)[0]
    await president.service.moves.play(table, alice.user.id, play.cards, None, game.version)
    await fake.settle(require_answers=False)
    await tick(fake, clock, 0.6)
    release.set()
    await fake.settle()
    await tick(fake, clock, 1)
    moved = t("en-US", "hand.moved")
    assert [m.text == moved for m in _hands_of(bob.user)] == [True, True, False]
    fake.assert_no_errors()


async def test_a_play_sent_twice_in_fast_mode_is_not_told_as_someone_elses(
        fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock) -> None:
    """The phone sent bob's play twice: the second read « Trop tard : bob a joué avant
    toi. Tes cartes restent dans ta main. », though the cards were his, and played."""
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, instant, alice, bob,
                                                 fast=True, game_end="unlimited")
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    for _ in range(60):
        if game.phase is Phase.PLAY and game.legal_plays(seat):
            break
        if not await alice.act():
            await tick(fake, clock, 1)
    await bob.user.click(bob.hand, cid(table, "refresh"))
    shown = bob.hand
    menu = next(m for m in shown.selects if ":play:" in m.custom_id)
    value = menu.options[0].value
    before = len(game.hand(seat))
    await bob.user.select_shown(shown, [value], select=menu.custom_id, settle=False)
    retry = await bob.user.select_shown(shown, [value], select=menu.custom_id, settle=False)
    await fake.settle()
    assert len(game.hand(seat)) == before - 1  # played once
    said = str((retry.response or {}).get("content"))
    assert french(t("fr", "err.already_played")) in said
    fake.assert_no_errors()


async def test_a_hand_left_alone_for_the_life_of_its_token_says_it_stopped_following(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    """bob's phone slept 20 minutes (10-minute turns, the timers playing for him): the
    bot stopped editing his hand at 14.5 minutes without a word in it, and he came back to
    « Ce n'est pas ton tour » while it was. Its last edit says it no longer follows, and
    the table message asks him for « Ma main »."""
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob,
                                                 turn_seconds=600)
    notice = t("fr", "hand.lapsing", refresh="Actualiser", hand="Ma main")
    await tick(fake, clock, 13 * 60)
    assert notice not in bob.hand.text
    for _ in range(4 * 6):
        await tick(fake, clock, 10)
    assert bob.hand.text.startswith(french(notice))
    shown = bob.hand.text
    for _ in range(6 * 6):  # bots and timers play on: the hand is left as it said
        await tick(fake, clock, 10)
    assert bob.hand.text == shown
    assert "bob" in message(bob.user, table.table_message_id).text.split("🔔")[-1]
    await bob.user.click(bob.hand, cid(table, "refresh"))  # a fresh token: live again
    assert not bob.hand.text.startswith("⏸️") and game.phase is not Phase.GAME_OVER
    fake.assert_no_errors()


async def test_an_older_hand_tapped_after_a_newer_one_tells_the_newer_it_moved(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    """Back after 20 minutes bob pressed « Ma main » (a new hand at the bottom), then
    « Actualiser » on his old hand further up: the bot followed the old one, and the newer
    one, where he looked, kept its controls and stopped moving without a word."""
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob,
                                                 turn_seconds=600)
    old = bob.hand_id
    assert old is not None
    await tick(fake, clock, 20 * 60)
    await bob.open_hand(president)
    new = bob.hand_id
    await tick(fake, clock, 1)
    await bob.user.click(old, cid(table, "refresh"))
    await tick(fake, clock, 1)
    newer = message(bob.user, new)
    assert newer.text == french(t("fr", "hand.moved")) and not _live(newer)
    assert _live(message(bob.user, old)) or game.to_act != table.seat_of(bob.user.id)
    fake.assert_no_errors()


# --- a marathon evening ------------------------------------------------------------------


def test_a_ninth_line_of_the_points_chart_is_not_drawn_as_the_first() -> None:
    """Eight seats where one friend left draw nine lines (people, not seats): the ninth
    had the first's colour, marker and dashes, in the plot and the legend."""
    names = ("amélie", "bruno", "carol", "dédé", "emma", "Bot 1", "Bot 2", "Bot 3",
             "dédé (bot)")
    series = tuple((i, i + 1, i + 2) for i in range(len(names)))
    lines = chart.draw(chart.PointsChart("Points", "Manche", "Points", names, series,
                                         "alt")).axes[0].get_lines()
    styles = [(line.get_color(), line.get_marker(), line.get_linestyle()) for line in lines]
    assert len(set(styles)) == len(names)


async def test_a_nights_games_read_apart_in_the_history_and_a_closed_one_keeps_its_winner(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Four one-round games in a row: `/president history` gave four lines and four menu
    options reading alike (« 06/01/2025 · Président classique · 1 manche »). Then the
    table closed for idleness, and the last game's message lost its « 🏆 » line."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_three_bots(bot, marie, "rounds:1")
    for replays in range(4):
        game = table.game
        assert game is not None
        await let_timers_play(fake, clock, game, Phase.GAME_OVER)
        await tick(fake, clock, 2)
        if replays < 3:
            await marie.click(message(marie, table.table_message_id),
                              cid(table, "replay", game.version))
            await tick(fake, clock, 1)
    await bot.service.drain()
    await marie.slash("president history")
    page = marie.last_ephemeral()
    labels = [option.label for option in page.select().options]
    # Newest first, each by its number in the channel (stop 42: the oldest is 1).
    assert [label.split(".")[0] for label in labels] == ["4", "3", "2", "1"]
    assert [line.split(".")[0] for line in page.text.splitlines()[1:]] == ["4", "3", "2", "1"]
    last = table.game
    assert last is not None
    won = plural("fr", "table.game_over", len(last.winners), names=join_names(
        "fr", [who_name(table, who) for who in last.winners]))
    board = table.table_message_id
    clock.advance(31 * 60)
    await tick(fake, clock, 1)
    assert table.closed and won in message(marie, board).content
    await fake.disconnect(bot)


async def test_six_friends_switching_to_proletario_sit_four_and_queue_two(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    """proletario's queue is made for more players than its four seats (RULES §10): six
    friends switching to it were refused, « retire d'abord des personnes ou des bots »."""
    users = [fake.add_user(name, locale="fr") for name in ("amélie", "bruno", "chloé",
                                                           "dédé", "élodie", "farid")]
    table = await create_table(president, users[0], "classic")
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await president.service.set_rules(table, users[0].id, Rules.preset("proletario"))
    assert [p.name for p in table.seats] == ["amélie", "bruno", "chloé", "dédé"]
    assert [p.name for p in table.queue] == ["élodie", "farid"]
