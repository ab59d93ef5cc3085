"""End-to-end: play-test 7, an evening of chaos across restarts. The bot is replaced by a new
process on the same database at each moment the last stop made stateful — a friend on the
list for the next game, a host handed on, a seat freed at a finished game, a hand near its
token's end, a half-made exchange choice, a hard bot thinking — and the players check, as
they see it, that nothing is lost, nothing is said twice and every button still answers."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.i18n.cards import shorts
from bot.packages.game.lines import countdown
from bot.packages.game.table_message import table_screen
from bot.packages.publisher import messages
from bot.packages.publisher.messages import Publisher
from bot.packages.screen import Screen
from bot.tables import thinking
from bot.tables.snapshot import stored_table
from bot.tables.table import LOG_SIZE, Table
from bot.tables.tokens import TOKEN_LIFETIME
from engine import Card, Game, Phase
from engine.actions import Action
from engine.bots.hard import HardBot
from engine.view import PlayerView
from fakediscord import FakeDiscord, Message
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    after_restart,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    host_against_bots,
    leave_game,
    message,
    play_until,
    restart,
    table_of,
    tick,
)


async def dies(bot: PresidentBot, on_their_way: Collection[asyncio.Task[Any] | None]) -> None:
    """The process dies with work on its way (a bot's search, an edit): it never ends, nor
    do the process's timers; what its snapshot writer committed is all that is left. The
    `restart` that follows then finds nothing to wait for."""
    assert on_their_way
    for task in on_their_way:
        assert task is not None
        task.cancel()
    await bot.service.scheduler.close()
    bot.shutdown_wait = 0


async def refreshed(fake: FakeDiscord, clock: LinkedClock) -> None:
    """Two seconds of the clock, a second at a time: a redraw the game's last change left
    waiting (one a second per table, `Coalescer`) has run, and the next click's redraw
    runs at once, within the click, rather than a second later. Where the game's end came
    while a redraw was waiting, one tick drew it, and « Terminer »'s retiring edit waited
    a second, past the `dies` the test meant it to die in."""
    for _ in range(2):
        await tick(fake, clock, 1)


def posts(fake: FakeDiscord) -> list[Message]:
    """The channel's public messages, oldest first."""
    return [m for m in fake.messages() if not m.ephemeral]


def with_buttons(fake: FakeDiscord) -> list[Message]:
    """Public messages that still offer controls: only the table's current one should."""
    return [m for m in posts(fake) if m.buttons or m.selects]


async def marie_and_leo_stored(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                               game_end: str = "rounds:2", bots: int = 1,
                               ) -> tuple[str, PresidentBot, Player, Player, Table]:
    """marie hosts, léo joins, ``bots`` bots: a classic game on a stored bot, both hands
    open."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    leo = Player(fake.add_user("léo", locale="fr"))
    table = await create_table(bot, marie.user)
    await bot.service.set_rules(table, marie.user.id, table.rules.replace(game_end=game_end))
    lobby = message(marie.user, table.lobby_message_id)
    await leo.user.click(lobby, cid(table, "join"))
    for _ in range(bots):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    await leo.open_hand(bot)
    return url, bot, marie, leo, table


def words(shown: Message) -> list[str]:
    """The message's lines of text, without its lines of card faces."""
    return [line for line in shown.content.splitlines() if "<:" not in line]


def keys(table: Table) -> list[str]:
    return [e.key for e in table.log]


@pytest.mark.both_databases  # on PostgreSQL in `make test` too
async def test_a_game_under_way_comes_back_whole_after_two_restarts_in_a_row(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """sam asks for the next game from the table message; marie's turn is running when the
    bot restarts twice in a row. sam is still listed, the game, the history and the points
    are as they were, marie's timer ends when it would have, her old hand plays, and the
    channel shows one table message with buttons."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path)
    sam = fake.add_user("sam", locale="fr")
    await sam.click(message(sam, table.table_message_id), cid(table, "join"))
    assert sam.last_ephemeral().content == t("fr", "lobby.listed_next_game", **button_names("fr"))
    game = table.game
    assert game is not None
    await play_until(fake, clock, [leo], lambda: game.to_act == 0 and game.version > 2)
    old_hand = Player(leo.user)
    old_hand.hand_id = leo.hand_id
    await leo.user.slash("president hand")  # léo follows a second hand: the first goes stale
    leo.hand_id = leo.user.last_ephemeral().id
    await fake.settle()
    before, log, deadline = game.to_dict(), keys(table), table.timer_deadline
    assert deadline is not None
    shown = len(posts(fake))

    stopped = clock.now()
    again = await restart(fake, clock, bot, url)
    deadline = after_restart(deadline, stopped, clock)
    stopped = clock.now()
    third = await restart(fake, clock, again, url)
    restored = table_of(third, marie.user)
    live = restored.game
    assert live is not None and live.to_dict() == before
    assert [p.user_id for p in restored.queue] == [sam.id] and restored.host_id == marie.user.id
    assert keys(restored) == [*log, "ev.restarted"][-LOG_SIZE:]  # said once for both
    # Not stored: the versions before cannot word it, and a rollback froze every table.
    assert third.storage is not None
    stored = await third.storage.load_snapshot(restored.id)
    assert stored is not None and [e["key"] for e in stored_table(stored.state)["log"]] == keys(restored)[:-1]
    deadline = after_restart(deadline, stopped, clock)
    assert restored.timer_deadline == pytest.approx(deadline)
    assert len(posts(fake)) == shown  # the table message is brought up to date in place
    assert [m.id for m in with_buttons(fake)] == [restored.table_message_id]
    board = message(sam, restored.table_message_id)
    await sam.click(board, cid(restored, "join"))
    assert sam.last_ephemeral().content == "⚠️ " + t("fr", "err.already_listed")
    await sam.slash("president hand")
    assert t("fr", "hand.queue_next_game", **button_names("fr")) in sam.last_ephemeral().content

    # marie's timer resumes with what was left of it as the bot stopped: not a second early.
    await tick(fake, clock, deadline - clock.now() - 1)
    assert live.version == before["version"]
    await tick(fake, clock, 1)
    assert live.version > before["version"] and live.timeouts[0] == before["timeouts"][0] + 1
    await play_until(fake, clock, [leo], lambda: live.to_act == 0)
    moved = live.version
    assert await marie.act()  # her hand from before both restarts
    assert live.version > moved
    # léo's first hand says where his hand went (play-test 12); the newer one is followed.
    assert old_hand.hand.content == t("fr", "hand.moved")
    assert [b.label for b in old_hand.hand.buttons] == [t("fr", "btn.hand_here")]
    await tick(fake, clock, 1)
    assert live.to_act == 1 and leo.hand.selects  # his turn: his plays, live
    await third.service.drain()
    await fake.disconnect(third)
    fake.assert_no_errors()


async def test_the_hand_a_player_opened_last_is_the_one_followed_after_a_redeploy(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """léo presses « Ma main » again and the bot is redeployed before anyone moves. The
    hand he looks at, the newer one, is the one the restarted bot keeps up to date: it shows
    the moves made since, with nothing a Refresh would change."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path)
    await leo.open_hand(bot)
    game = table.game
    assert game is not None
    version = game.version

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, leo.user)
    live = restored.game
    assert live is not None
    await play_until(fake, clock, [marie], lambda: live.version > version + 1)
    await tick(fake, clock, 1)
    followed = words(leo.hand)
    await leo.user.click(leo.hand, cid(restored, "refresh"))
    assert words(leo.hand) == followed
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_host_handed_on_mid_game_outlives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie goes home mid-round: léo is the host. After a restart his hand still says so,
    the table message marks him, the history names him once, and his « Manche suivante »
    deals the next round."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    await leave_game(marie.user)
    await tick(fake, clock, 1)
    assert table.is_host(leo.user.id) and table.host_handed
    log = keys(table)
    assert log.count("ev.new_host") == 1

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, leo.user)
    assert restored.is_host(leo.user.id) and restored.host_handed
    assert keys(restored) == [*log, "ev.restarted"][-LOG_SIZE:]
    assert leo.hand.content.startswith(t("fr", "hand.new_host"))
    board = message(leo.user, restored.table_message_id).content
    assert "**léo** · " in board and t("fr", "table.host_mark") in board
    game = restored.game
    assert game is not None
    await play_until(fake, clock, [leo], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert t("fr", "table.host_next", host="léo") in \
        message(leo.user, restored.table_message_id).content
    results = restored.table_message_id
    await leo.user.click(message(leo.user, results), cid(restored, "next", game.version))
    assert game.round_no == 2 and keys(restored).count("ev.new_host") == 0
    await tick(fake, clock, 1)
    # The results message, drawn by the restarted bot, is retired as any other: its
    # buttons and the host's instructions go, the results stay.
    retired = message(leo.user, results)
    assert not retired.buttons and retired.content.endswith(t("fr", "table.moved_on"))
    assert t("fr", "table.host_next", host="léo") not in retired.content
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_seat_freed_at_a_finished_game_stays_free_across_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The game is over; sam asks for the next one and léo goes home. After a restart the
    results are still shown with « Rejouer », marie's replay deals her, her bots and sam,
    and léo is not dealt back in."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path,
                                                             game_end="rounds:1", bots=2)
    sam = fake.add_user("sam", locale="fr")
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await sam.click(message(sam, table.table_message_id), cid(table, "join"))
    await sam.slash("president hand")  # his hand says he is on the list
    sam_hand = sam.last_ephemeral().id
    await leo.user.slash("president leave")
    await tick(fake, clock, 1)
    assert table.seat_of(leo.user.id) is None and table.queued(sam.id)
    points, shown, board = list(game.points), len(posts(fake)), table.table_message_id

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    # The results and their chart are shown once, on the message that offers « Rejouer ».
    assert len(posts(fake)) == shown
    assert [m.id for m in with_buttons(fake)] == [board] == [restored.table_message_id]
    assert [m.id for m in posts(fake) if m.attachments] == [board]
    over = restored.game
    assert over is not None and over.phase is Phase.GAME_OVER and over.points == points
    assert restored.seat_of(leo.user.id) is None and restored.queued(sam.id)
    await marie.user.click(message(marie.user, restored.table_message_id),
                           cid(restored, "replay", over.version))
    replayed = restored.game
    assert replayed is not None and replayed is not over and replayed.seats == 4
    assert [p.name for p in restored.seats] == ["marie", "Bot 1", "Bot 2", "sam"]
    await tick(fake, clock, 1)
    # The hand sam opened on the list before the restart now deals him his cards.
    dealt = message(sam, sam_hand)
    assert t("fr", "hand.queue_next_game", **button_names("fr")) not in dealt.content
    assert dealt.selects or dealt.buttons
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_round_dealt_just_before_a_restart_gets_its_own_message(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The process stops between léo's « Manche suivante » and the new round's message:
    the restart posts that message, and the first round's results stay on theirs."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.ROUND_OVER)
    await refreshed(fake, clock)
    results_id = table.table_message_id
    results = message(marie.user, results_id).content
    bot.service.display = None  # the new round's message is never posted
    await bot.service.games.next_round(table, marie.user.id, game.version)
    assert table.post_table

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert restored.table_message_id not in (None, results_id)
    assert message(marie.user, results_id).content.startswith(results.split("\n")[0])
    assert t("fr", "table.title_of", round=1, rounds=2, preset="Président classique") in \
        message(marie.user, results_id).content
    assert [m.id for m in with_buttons(fake)] == [restored.table_message_id]
    assert t("fr", "table.title_last", round=2, rounds=2, preset="Président classique") in \
        message(marie.user, restored.table_message_id).content
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_hands_opened_before_a_long_restart_are_edited_only_while_their_token_lasts(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The bot is down for 14 minutes. Its timers wait for it (nobody could play), and run
    on after; the hands opened before are redrawn while their interaction tokens last,
    never after (the fake refuses an expired token with a 401, which Cloudflare counts),
    and then the table message asks each player to press « Ma main »."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path)
    opened = table.hands[marie.user.id].created
    game = table.game
    assert game is not None
    version = game.version

    again = await restart(fake, clock, bot, url, down=14 * 60)
    restored = table_of(again, marie.user)
    live = restored.game
    assert live is not None and live.version == version  # no turn ran out while it was down
    assert restored.hands[marie.user.id].created == opened
    assert "press_hand" not in message(marie.user, restored.table_message_id).content
    await tick(fake, clock, opened + TOKEN_LIFETIME - clock.now() + 1)
    for _ in range(10):  # the game goes on, every change redrawn
        await tick(fake, clock, 5)
    board = message(marie.user, restored.table_message_id).content
    assert t("fr", "table.press_hand.many", names="marie et léo") in board
    await marie.open_hand(again)
    assert live.phase is Phase.PLAY and marie.hand.content
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_cards_picked_in_a_split_exchange_outlive_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie, the President, has 28 cards and owes two: she picks them in the first of two
    menus, and the bot restarts before she confirms. Her hand still shows them picked, and
    her confirm on that hand gives exactly those."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(bot, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    deal(bot, table, [deck[0::2], deck[1::2]], previous_ranking=[0, 1])
    await marie.open_hand(bot)
    first = next(s for s in marie.hand.selects if s.custom_id.endswith(":0"))
    picked = [o.value for o in first.options[:2]]
    await marie.user.select(marie.hand, picked, select=first.custom_id)
    game = table.game
    assert game is not None
    deadline, shown = table.timer_deadline, marie.hand

    assert deadline is not None
    stopped = clock.now()
    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert restored.gift_picks == {marie.user.id: {0: picked}}
    moved = after_restart(deadline, stopped, clock)
    assert restored.timer_deadline == pytest.approx(moved)
    # (the first bot had not uploaded the faces yet; the countdown is the moved one)
    assert words(marie.hand) == [line.replace(f"<t:{int(deadline)}:R>", f"<t:{int(moved)}:R>")
                                 for line in words(shown)]
    cards = shorts("fr", [Card.parse(c) for c in picked], False)
    assert t("fr", "hand.give_complete", cards=cards, left="0 carte") in shown.content
    confirm = next(b.custom_id for b in marie.hand.buttons
                   if b.custom_id and ":give_ok:" in b.custom_id)
    await marie.user.click(marie.hand, confirm)
    live = restored.game
    assert live is not None and restored.gift_picks == {}
    assert all(Card.parse(c) in live.hand(1) for c in picked)
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def presi_of_marie_and_leo(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                 ) -> tuple[str, PresidentBot, Player, Player, Table]:
    """marie hosts presi with léo and a bot, started, on a database a restart reads back."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    leo = Player(fake.add_user("léo", locale="fr"))
    table = await create_table(bot, marie.user, "presi")
    lobby = message(marie.user, table.lobby_message_id)
    await leo.user.click(lobby, cid(table, "join"))
    await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    return url, bot, marie, leo, table


async def test_a_low_role_s_gift_held_by_a_blind_exchange_outlives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """presi: marie finished last and gives léo her best cards; the exchange is blind, so
    her choice waits for léo's. The bot restarts: her hand still says what she gives, the
    exchange's timer keeps what it had left, and léo's gift swaps the cards she chose."""
    url, bot, marie, leo, table = await presi_of_marie_and_leo(fake, clock, tmp_path)
    table.game = Game.new(table.rules, seats=3, seed=7, bots=[2], previous_ranking=[1, 2, 0])
    bot.service._after(table, [])
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    await leo.open_hand(bot)
    game = table.game
    assert game.phase is Phase.EXCHANGE
    assert await marie.act()  # the cards the rules pre-check, confirmed
    held = game.gift_on_hold(0)
    assert held is not None and held[0] == 1 and not held[2]
    deadline, shown = table.timer_deadline, marie.hand.content
    assert deadline is not None

    stopped = clock.now()
    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    live = restored.game
    assert live is not None and live.gift_on_hold(0) == held
    assert restored.timer_deadline == pytest.approx(after_restart(deadline, stopped, clock))
    assert marie.hand.content == shown
    assert t("fr", "hand.give_held", cards=shorts("fr", held[1], True), name="léo") in shown
    assert await leo.act()
    await tick(fake, clock, 1)
    assert live.phase is Phase.PLAY
    assert all(card in live.hand(1) and card not in live.hand(0) for card in held[1])
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def presi_with_leo_away(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                              ) -> tuple[str, PresidentBot, Player, Player, Table]:
    """marie hosts presi with léo and a bot; léo goes home mid-round and his seat waits
    for him until his grace runs out."""
    url, bot, marie, leo, table = await presi_of_marie_and_leo(fake, clock, tmp_path)
    await marie.open_hand(bot)
    await leo.open_hand(bot)
    await leave_game(leo.user)
    assert leo.user.id in table.away
    return url, bot, marie, leo, table


async def test_a_leaver_s_grace_waits_for_the_bot_across_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """presi waits for léo, who went home; the bot restarts meanwhile. The table still asks
    him back, and his seat's wait, which he could not end while the bot was away, ends
    that much later (play-test 15): not a second early."""
    url, bot, marie, leo, table = await presi_with_leo_away(fake, clock, tmp_path)
    grace = table.away[leo.user.id]
    log = keys(table)

    stopped = clock.now()
    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    grace = after_restart(grace, stopped, clock)
    assert restored.away == {leo.user.id: pytest.approx(grace)}
    assert keys(restored) == [*log, "ev.restarted"][-LOG_SIZE:]
    board = message(marie.user, restored.table_message_id).content
    assert t("fr", "table.press_hand_back.one", names="léo") in board
    await tick(fake, clock, grace - clock.now() - 1)
    assert restored.game is not None and restored.away
    await tick(fake, clock, 1)
    assert fresh(restored).game is None and restored.notice is not None
    assert restored.notice.key == "table.cancelled"
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


def away_line(table: Table, name: str) -> str:
    """The history's line saying ``name`` left and until when their seat waits."""
    return "• " + t("fr", "ev.away", name=name, deadline=int(table.away[
        next(p.user_id for p in table.seats if p.name == name and p.user_id is not None)]))


async def test_the_line_saying_a_leaver_is_awaited_shows_the_grace_a_restart_moved_on(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The history said until when presi waits for léo; the bot restarts, a minute down,
    and his seat waits that much longer: the line says the new time, as the table keeps it
    (it kept the old one, a minute before the game was really cancelled), and stores it."""
    url, bot, marie, leo, table = await presi_with_leo_away(fake, clock, tmp_path)
    await tick(fake, clock, 1)
    before = away_line(table, "léo")
    assert before in message(marie.user, table.table_message_id).content

    again = await restart(fake, clock, bot, url, down=60)
    restored = table_of(again, marie.user)
    board = message(marie.user, restored.table_message_id).content
    assert away_line(restored, "léo") in board and before not in board
    await again.service.drain()
    assert again.storage is not None
    stored = await again.storage.load_snapshot(restored.id)
    assert stored is not None
    state = stored_table(stored.state)
    assert [e["params"]["deadline"] for e in state["log"] if e["key"] == "ev.away"] == \
        [int(state["away"][str(leo.user.id)])]
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_the_line_saying_a_leaver_is_awaited_shows_the_grace_an_outage_moved_on(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Discord loses the server for ten minutes while presi waits for léo: his seat waits
    ten minutes longer, and the history's line says so."""
    url, bot, marie, leo, table = await presi_with_leo_away(fake, clock, tmp_path)
    await tick(fake, clock, 1)
    before = away_line(table, "léo")
    assert before in message(marie.user, table.table_message_id).content
    fake.start_outage(fake.guild)
    await fake.settle()
    await tick(fake, clock, 600)
    fake.end_outage(fake.guild)
    await fake.settle()
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id).content
    assert away_line(table, "léo") in board and before not in board
    await bot.service.drain()
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_leaver_back_after_a_restart_is_welcomed_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """léo comes back through the hand he had open before the restart: his seat is his
    again, the history says so once, and the cancelled grace never ends the game."""
    url, bot, marie, leo, table = await presi_with_leo_away(fake, clock, tmp_path)
    grace = table.away[leo.user.id]

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    await leo.open_hand(again)
    assert restored.away == {} and keys(restored).count("ev.back") == 1
    await tick(fake, clock, grace - clock.now() + 1)
    assert restored.game is not None and keys(restored).count("ev.back") == 1
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


class Held:
    """Hard bots' decisions in worker threads; the first one waits for `release`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered = threading.Event()  # the first decision is searching
        self.release = threading.Event()
        self.decisions = 0
        choose = HardBot.choose

        def held(bot: HardBot, view: PlayerView) -> Action:
            self.decisions += 1
            if self.decisions == 1:
                self.entered.set()
                self.release.wait(timeout=60)  # bounds a failing run; the test releases it
            return choose(bot, view)

        monkeypatch.setattr(HardBot, "choose", held)


@pytest.fixture
def worker_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every bot process's hard decisions go to two worker threads standing for its
    processes (a spawn would cost a second of real time, and a held decision must not
    block the next process's), and search a fixed number of samples."""
    pool = ThreadPoolExecutor(2)
    monkeypatch.setattr(thinking.Workers, "pool", lambda self: pool)
    build = thinking.Thinker.__init__

    def sampled(self: thinking.Thinker, workers: int | None = None) -> None:
        build(self, workers)
        self.samples = 3

    monkeypatch.setattr(thinking.Thinker, "__init__", sampled)
    yield
    pool.shutdown(wait=False, cancel_futures=True)


async def hard_bot_thinking(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                            marie: Player, held: Held) -> Table:
    """marie against three hard bots; her move hands the turn to one, whose decision is
    in flight in its worker."""
    table = await create_table(bot, marie.user)
    await bot.service.set_options(table, marie.user.id, bot_level="hard")
    lobby = message(marie.user, table.lobby_message_id)
    for _ in range(3):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    game = table.game
    assert game is not None
    while game.to_act == 0 or game.version == 0:
        assert await marie.act()
    clock.advance(1.0)  # the bot's pause: its search starts, and blocks in its thread
    # Until the search runs: a decision cancelled before its worker took it up never runs.
    assert await asyncio.to_thread(held.entered.wait, 60)
    assert bot.service.thinker.running == 1
    return table


async def test_a_crash_while_a_hard_bot_thinks_replays_its_move_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    worker_threads: None,
) -> None:
    """The process dies with a hard bot's search in its worker: nothing of it was stored.
    The restarted bot decides that move again, once, and the game goes on."""
    held = Held(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await hard_bot_thinking(fake, clock, bot, marie, held)
    game = table.game
    assert game is not None
    before, seat, log = game.to_dict(), game.to_act, keys(table)
    await dies(bot, list(bot.service.bots.tasks))

    again = await restart(fake, clock, bot, url)
    held.release.set()
    restored = table_of(again, marie.user)
    live = restored.game
    assert live is not None and seat is not None
    assert live.version > before["version"]  # the move, decided again by the new bot
    name = restored.seats[seat].name
    moves = [e.params.get("name") for e in restored.log[len(log):] if e.key != "ev.restarted"]
    assert moves[0] == name and moves.count(name) == 1  # marie plays before it again
    assert keys(restored)[:len(log)] == log
    assert game.version == before["version"]  # the dead process's search changed nothing
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_redeploy_while_a_hard_bot_thinks_stores_its_move_first(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    worker_threads: None,
) -> None:
    """A redeploy (SIGTERM) arrives while a hard bot searches: the stop waits for the move,
    stores it, and the restarted bot does not play it a second time."""
    held = Held(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await hard_bot_thinking(fake, clock, bot, marie, held)
    game = table.game
    assert game is not None
    version, seat = game.version, game.to_act
    assert seat is not None  # the bot's turn, whose search is held
    # The stop's patience with a running timer is wall-clock seconds (`Scheduler.close`):
    # the search, released below, must not be outwaited on a machine slow enough to spend
    # the default two seconds on it. Here the stop waits a minute for a search of 80 ms;
    # a stop that never ended would still fail the test, not hang it.
    bot.shutdown_wait = 60.0
    stopping = asyncio.ensure_future(restart(fake, clock, bot, url))
    for _ in range(100):
        await asyncio.sleep(0)
    assert not stopping.done()
    held.release.set()
    again = await stopping
    moved = game.to_dict()
    assert game.version > version  # applied before the stop
    restored = table_of(again, marie.user)
    live = restored.game
    assert live is not None and live.version >= moved["version"]
    assert live.to_dict()["hands"][seat] == moved["hands"][seat]  # not played twice
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


def dies_while_editing(monkeypatch: pytest.MonkeyPatch,
                       message_id: int | None) -> list[asyncio.Task[Any] | None]:
    """The bot's next edit of ``message_id`` never returns: a change is stored while it is
    on its way, then the process dies (`dies`, with the task returned)."""
    hung: list[asyncio.Task[Any] | None] = []
    edit = Publisher._edit

    async def dying(self: Publisher, shown: Table, edited: int, screen: Screen | None,
                    asleep: str | None, *args: Any) -> bool:
        if edited != message_id or hung:
            return await edit(self, shown, edited, screen, asleep, *args)
        hung.append(asyncio.current_task())
        self.bot.service.touch(shown)  # a change stored while the edit is on its way
        # The process dies here (`dies` cancels it). A test failing before then stops its
        # bot at teardown, whose drain waits for this edit: bounded (real seconds, as
        # `FakeDiscord.settle` bounds a failing test), it fails there rather than hang.
        await asyncio.wait_for(asyncio.Event().wait(), timeout=60)
        raise AssertionError("the bot stopped with an edit the test meant to die in")

    monkeypatch.setattr(Publisher, "_edit", dying)
    return hung


async def test_a_crash_while_the_last_round_s_message_is_retired_keeps_its_results(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """marie deals round 2; while the bot retires round 1's message (its buttons and
    instructions going), a bot's move is stored, and the process dies before the new
    message is posted. The restart posts round 2's message; round 1's results stay."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.ROUND_OVER)
    await refreshed(fake, clock)
    results_id = table.table_message_id
    hung = dies_while_editing(monkeypatch, results_id)
    await marie.user.click(message(marie.user, results_id), cid(table, "next", game.version))
    assert game.round_no == 2
    await dies(bot, hung)

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert restored.table_message_id not in (None, results_id)
    assert t("fr", "table.title_of", round=1, rounds=2, preset="Président classique") in \
        message(marie.user, results_id).content
    assert t("fr", "table.title_last", round=2, rounds=2, preset="Président classique") in \
        message(marie.user, restored.table_message_id).content
    assert [m.id for m in with_buttons(fake)] == [restored.table_message_id]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_crash_while_a_finished_game_goes_back_to_the_lobby_posts_the_lobby_below(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """marie ends a finished game; the process dies while the bot retires its results
    message. The restart posts the lobby below the results, whose buttons go, rather than
    bring back the lobby message of the game's start, far up the channel."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path,
                                                             game_end="rounds:1", bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.GAME_OVER)
    await refreshed(fake, clock)
    results_id, started_id = table.table_message_id, table.lobby_message_id
    hung = dies_while_editing(monkeypatch, results_id)
    await marie.user.click(message(marie.user, results_id), cid(table, "end", game.version))
    assert table.game is None
    await dies(bot, hung)

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert restored.lobby_message_id not in (None, started_id)
    assert posts(fake)[-1].id == restored.lobby_message_id
    assert [m.id for m in with_buttons(fake)] == [restored.lobby_message_id]
    assert t("fr", "table.finished") in message(marie.user, restored.lobby_message_id).content
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_friend_waiting_at_a_table_of_bots_takes_a_bot_s_seat_after_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """proletario fills its seats with bots: sam, arriving mid-round, waits for the round's
    end. The bot restarts meanwhile; marie's « Manche suivante » seats him in a bot's place."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    sam = fake.add_user("sam", locale="fr")
    table = await create_table(bot, marie.user, "proletario")
    await marie.user.click(message(marie.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    await sam.slash("president join")
    assert table.queued(sam.id)

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert [p.user_id for p in restored.queue] == [sam.id]
    game = restored.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, restored.table_message_id),
                           cid(restored, "next", game.version))
    assert restored.seat_of(sam.id) is not None and restored.queue == []
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_restored_game_of_hard_bots_starts_their_workers_at_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    worker_threads: None,
) -> None:
    """A game's start warms the hard bots' worker processes, so that the first decision
    does not spend a spawn's second out of its 80 ms; a restored game did not, and every
    restart cost the first hard move its search."""
    warmed: list[int] = []
    monkeypatch.setattr(thinking.Workers, "warm", lambda self: warmed.append(1))
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie)
    await bot.service.set_options(table, marie.id, bot_level="hard")
    lobby = message(marie, table.lobby_message_id)
    for _ in range(3):
        await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    assert warmed == [1]

    again = await restart(fake, clock, bot, url)
    assert warmed == [1, 1]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_lobby_s_new_host_outlives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie leaves her lobby to léo, the host now, and the bot restarts. The lobby, in its
    own message, still marks léo as host, and his « Lancer » starts the game."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, leo, zoe = (fake.add_user(n, locale="fr") for n in ("marie", "léo", "zoé"))
    table = await create_table(bot, marie)
    lobby = message(marie, table.lobby_message_id)
    for user in (leo, zoe):
        await user.click(lobby, cid(table, "join"))
    await marie.slash("president leave")
    await tick(fake, clock, 1)
    assert table.is_host(leo.id)
    lobby_id = table.lobby_message_id

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, leo)
    assert restored.lobby_message_id == lobby_id and restored.is_host(leo.id)
    shown = message(leo, lobby_id).content
    assert "👑 " + t("fr", "host.mark") in next(line for line in shown.splitlines()
                                               if "léo" in line and line[0].isdigit())
    await leo.click(message(leo, lobby_id), cid(restored, "addbot"))
    await leo.click(message(leo, lobby_id), cid(restored, "start"))
    assert restored.game is not None and [p.name for p in restored.seats] == \
        ["léo", "zoé", "Bot 1"]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


@pytest.mark.parametrize("ends", [False, True], ids=["next round", "terminer"])
async def test_results_retired_by_the_restarted_bot_lose_the_hosts_instructions_too(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    ends: bool
) -> None:
    """The process stops between marie's « Manche suivante » (or « Terminer ») and the
    message it owes. The restarted bot retired the results without knowing their text:
    only the buttons went, and the host's instructions stayed, pointing at buttons that
    were gone. The text to keep is in the table's snapshot now."""
    url, bot, marie, leo, table = await marie_and_leo_stored(
        fake, clock, tmp_path, game_end="rounds:1" if ends else "rounds:2", bots=2)
    game = table.game
    assert game is not None
    over = Phase.GAME_OVER if ends else Phase.ROUND_OVER
    await play_until(fake, clock, [marie, leo], lambda: game.phase is over)
    await tick(fake, clock, 1)
    results_id = table.table_message_id
    shown = message(marie.user, results_id).content
    # What the click owes is never shown.
    monkeypatch.setattr(bot.service, "refresh", lambda changed: None)
    if ends:
        await bot.service.games.end(table, marie.user.id, game.version)
    else:
        await bot.service.games.next_round(table, marie.user.id, game.version)
    kept = table.retired
    assert kept and shown.startswith(kept) and shown != kept  # the instructions below

    again = await restart(fake, clock, bot, url)
    retired = message(marie.user, results_id)
    assert retired.content == f"{kept}\n\n{t('fr', 'table.moved_on')}"
    assert not retired.buttons
    assert [m.id for m in with_buttons(fake)] == \
        [table_of(again, marie.user).lobby_message_id if ends
         else table_of(again, marie.user).table_message_id]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


def answer_lost(monkeypatch: pytest.MonkeyPatch, table: Table,
                phase: Phase) -> list[asyncio.Task[Any] | None]:
    """The bot's first edit of the table message showing ``phase`` reaches Discord, which
    shows it, but its answer never comes back: the process dies before it does (`dies`,
    with the task returned)."""
    hung: list[asyncio.Task[Any] | None] = []
    edit = Publisher._edit

    async def lost(self: Publisher, shown: Table, edited: int, screen: Screen | None,
                   asleep: str | None, *args: Any) -> bool:
        game = shown.game
        done = await edit(self, shown, edited, screen, asleep, *args)
        if hung or edited != shown.table_message_id or game is None or game.phase is not phase:
            return done
        hung.append(asyncio.current_task())
        await asyncio.Event().wait()  # the process dies here
        raise AssertionError("unreachable")

    monkeypatch.setattr(Publisher, "_edit", lost)
    return hung


async def test_results_whose_edit_was_on_its_way_are_retired_as_players_saw_them(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 1's results reach the channel, and marie deals round 2 from them before the
    bot hears back from that edit; the process then dies. The snapshot owing round 2's
    message kept the text the bot had last heard was shown, the last trick's: the restart
    retired the results message with it, and the results players had seen went."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    hung = answer_lost(monkeypatch, table, Phase.ROUND_OVER)
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert hung
    results_id = table.table_message_id
    shown = message(marie.user, results_id)
    kept = table_screen(table, clock.now()).retired
    assert kept and shown.content.startswith(kept) and shown.content != kept
    await marie.user.click(shown, cid(table, "next", game.version))
    assert game.round_no == 2
    await dies(bot, hung)

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert message(marie.user, results_id).content == \
        f"{kept}\n\n{t('fr', 'table.moved_on')}"
    assert t("fr", "table.title_last", round=2, rounds=2, preset="Président classique") in \
        message(marie.user, restored.table_message_id).content
    assert [m.id for m in with_buttons(fake)] == [restored.table_message_id]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def dies_between_changes(bot: PresidentBot) -> None:
    """The process dies with nothing on its way: what its snapshot writer was given is
    committed, and nothing after (a stop's last snapshot of every table never comes)."""
    assert bot.writer is not None
    await bot.writer.close()
    await bot.service.scheduler.close()
    bot.shutdown_wait = 0


async def test_a_table_message_replaced_at_a_restart_keeps_the_last_move_players_saw(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move is stored, then drawn on the table message; the process dies before any
    other change. The restarted bot finds the message nearly an hour old and posts a fresh
    one: the old one was retired with the text the last snapshot held, drawn one move
    earlier, and the move everyone had seen there went. It is retired as the restored
    state reads now, the state the fresh message goes on from."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.version > 4 and game.to_act == 1)
    await tick(fake, clock, 1)  # the move's redraw, while léo thinks: the last change
    first = table.table_message_id
    seen = message(marie.user, first).content
    kept = table_screen(table, clock.now()).retired
    # All it showed but whose turn it was, which holds only while it is the table's message.
    turn = t("fr", "table.turn", name="léo", countdown=countdown(table))
    assert kept and turn in seen and seen.replace(f"{turn}\n", "").startswith(kept)
    version = game.version
    await dies_between_changes(bot)
    monkeypatch.setattr(messages, "FRESH_TABLE_AGE", 0.0)  # every message is too old now

    again = await restart(fake, clock, bot, url)
    restored = table_of(again, marie.user)
    assert restored.game is not None and restored.game.version == version
    assert restored.table_message_id != first
    # Its cards as text alone: the restarted bot draws before it knows the card faces
    # again (`PresidentBot.sync_faces`), and a retired message is not drawn again.
    retired = message(marie.user, first)
    # (and the history's line saying the bot restarted, since that is how it reads now)
    restarted = "• " + t("fr", "ev.restarted")
    assert words(retired) == [line for line in f"{kept}\n{restarted}\n\n"
                              f"{t('fr', 'table.moved_on')}".splitlines() if "<:" not in line]
    assert not retired.buttons
    assert [m.id for m in with_buttons(fake)] == [restored.table_message_id]
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()
