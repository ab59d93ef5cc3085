"""End-to-end: play-test 29, « a break ». An evening's game with turn timers; halfway
through, the pizza arrives and the host says « pause, 10 minutes ». Before, the bot had no
pause: the turn clocks ran out, the autopilot played for everyone away, and a long break
closed the table as idle. Now the host pauses from the table message or with `/president
pause` (`bot.tables.breaks`): every clock waits, nothing is played, and `Continuer` gives
everyone back the time they had. Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.controls import WARNING
from bot.tables.deadlines import IDLE_CLOSE_SECONDS, PAUSE_LIMIT_SECONDS
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    leave_game,
    message,
    play_until,
    restart,
    table_of,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest24 import reminder_text, reminders, until_half_time

LOCALES = ["fr", "en-US"]


async def a_humans_turn(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                        locale: str, **rules: Any) -> tuple[Player, Player, Table, Game]:
    """marie hosts bob and a bot, both speaking `locale`, at a classic table (its `rules`
    changed); time passes (the bot plays) until it is one of theirs' turn, its timer
    running."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob, **rules)
    humans = {table.seat_of(marie.user.id), table.seat_of(bob.user.id)}
    await play_until(fake, clock, [], lambda: game.to_act in humans)
    await tick(fake, clock, 1)
    assert table.timer_deadline is not None
    return marie, bob, table, game


def board(user: TestUser, table: Table) -> str:
    return message(user, table.table_message_id).content


def phase_of(game: Game) -> Phase:
    """The game's phase now (a function: what mypy learnt of it an action ago is stale)."""
    return game.phase


def keys(table: Table) -> list[str]:
    return [entry.key for entry in table.log]


async def pause(fake: FakeDiscord, clock: LinkedClock, host: TestUser, table: Table) -> None:
    await host.click(message(host, table.table_message_id), cid(table, "pause"))
    await fake.settle()
    await tick(fake, clock, 1)  # the hands follow, coalesced


async def play_on(fake: FakeDiscord, host: TestUser, table: Table) -> None:
    await host.click(message(host, table.table_message_id), cid(table, "play_on"))
    await fake.settle()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_pizza_break_holds_every_clock_and_gives_back_the_time_left(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie presses « Pause » with 20 s of someone's turn left, and they eat for 45
    minutes, past the idle close: no turn times out, no bot plays, the table stays open,
    and the table message and both hands say the game is paused, by whom and since when.
    bob's pick meanwhile is refused in his language and plays nothing. « Continuer »: the
    player to act has exactly the 20 s they had, and the history says who continued."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    version, since = game.version, clock.now()

    await pause(fake, clock, marie.user, table)

    assert table.pause is not None and keys(table)[-1] == "ev.pause"
    shown = board(marie.user, table)
    # Said once: the turn's lines were added with the break's a second time (stop 49).
    assert shown.count(t(loc, "table.paused", name="marie", since=f"<t:{int(since)}:t>")) == 1
    assert t(loc, "table.paused_until", button=t(loc, "btn.play_on"),
             at=f"<t:{int(since + PAUSE_LIMIT_SECONDS)}:R>") in shown
    buttons = [b.label for b in message(marie.user, table.table_message_id).buttons]
    assert t(loc, "btn.play_on") in buttons and t(loc, "btn.pause") not in buttons
    assert t(locale, "hand.paused", name="marie") in bob.hand.content
    assert t(locale, "hand.paused_you") in marie.hand.content  # her own (play-test 45)
    for _ in range(45):
        await tick(fake, clock, 60)
    assert IDLE_CLOSE_SECONDS < 45 * 60
    assert not table.closed and game.version == version
    assert not any(game.automated(seat) for seat in range(game.seats) if
                   not table.seats[seat].is_bot)

    actor = marie if table.seat_of(marie.user.id) == game.to_act else bob
    assert await actor.act()  # the pick is refused, on the hand it was made from
    refused = WARNING + t(locale, "err.paused", name="marie", button=t(loc, "btn.play_on"))
    assert actor.hand.content.startswith(refused)
    assert game.version == version

    await play_on(fake, marie.user, table)

    assert fresh(table).pause is None and fresh(table).paused_since is None
    assert table.timer_deadline is not None
    assert table.timer_deadline - clock.now() == pytest.approx(left)
    assert keys(table)[-1] == "ev.pause_over"
    assert t(loc, "ev.pause_over", name="marie", minutes=45) in board(marie.user, table)
    await tick(fake, clock, 1)  # the hands follow
    assert t(locale, "hand.paused", name="marie") not in bob.hand.content
    await tick(fake, clock, left - 2)
    assert game.version == version
    await tick(fake, clock, 2)
    assert game.version > version  # the turn ran out as it would have before the break


@pytest.mark.parametrize("locale", LOCALES)
async def test_only_seated_people_pause_and_never_in_the_lobby(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """zoe watches, not seated: her press of « Pause » and her `/president pause` are
    refused privately, naming the host, and change nothing (bob, seated, takes a short
    break of his own since « Play-test 29, leftovers »: test_e2e_playtest29_leftovers.py).
    The lobby shows no « Pause » and `/president pause` there says no game is running;
    continuing a game not paused is refused too."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    await marie.user.slash("president create")
    table = table_of(president, marie.user)
    lobby = message(marie.user, table.lobby_message_id)
    assert t(table.locale, "btn.pause") not in [b.label for b in lobby.buttons]
    await marie.user.slash("president pause")
    assert marie.user.last_ephemeral().content == WARNING + t(locale, "err.no_game")
    await bob.user.click(lobby, cid(table, "join"))
    await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None

    zoe = fake.add_user("zoe", locale=locale)
    await zoe.click(message(zoe, table.table_message_id), cid(table, "pause"))
    not_seated = WARNING + t(locale, "err.pause_not_seated", host=marie.user.id)
    assert zoe.last_ephemeral().content == not_seated
    await zoe.slash("president pause", reason="pizza")
    assert zoe.last_ephemeral().content == not_seated
    await marie.user.slash("president continue")
    assert marie.user.last_ephemeral().content == WARNING + t(locale, "err.not_paused")
    assert table.pause is None and table.paused_since is None


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_reason_is_shown_and_a_forgotten_break_closes_the_table_after_an_hour(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """`/president pause raison:…` shows the reason, made safe (a mention stays text),
    and tells the host how to continue. Nobody continues: at the hour the table closes,
    its message saying why, and not a second before."""
    marie, _, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    since = clock.now()
    await marie.user.slash("president pause", reason="  la pizza   @everyone  ")
    assert marie.user.last_ephemeral().content == t(locale, "done.paused",
                                                    button=t(loc, "btn.play_on"))
    await tick(fake, clock, 1)  # the table message follows, coalesced
    shown = board(marie.user, table)
    assert t(loc, "table.paused_reason", name="marie", since=f"<t:{int(since)}:t>",
             reason="la pizza @\u200beveryone") in shown
    await marie.user.slash("president pause")
    assert marie.user.last_ephemeral().content == \
        WARNING + t(locale, "err.already_paused", name="marie")

    shown_id = table.table_message_id
    await tick(fake, clock, PAUSE_LIMIT_SECONDS - 3)
    assert not table.closed
    await tick(fake, clock, 3)

    assert fresh(table).closed
    assert [key for key in president.service.scheduler.pending()
            if isinstance(key, tuple) and key[0] == table.id] == []  # no clock left behind
    closed = message(marie.user, shown_id).content
    assert t(loc, "table.pause_closed", minutes=PAUSE_LIMIT_SECONDS // 60) in closed
    assert t(loc, "lobby.closed") in closed


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_break_outlives_a_restart_and_continues_with_the_time_left(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The bot is redeployed ten minutes into the break, and down five more: the restored
    table is still paused (its message and hands say so, no bot plays, no clock runs), and
    « Continuer » then gives the turn exactly the time it had."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, bob, table, game = await a_humans_turn(fake, clock, bot, locale)
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    version = game.version
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, 10 * 60)

    again = await restart(fake, clock, bot, url, down=5 * 60)

    restored = table_of(again, marie.user)
    assert restored.pause is not None and restored.pause.name == "marie"
    assert restored.paused_since is not None
    restored_game = restored.game
    assert restored_game is not None and restored_game.version == version
    await tick(fake, clock, 60)
    assert restored_game.version == version and "ev.restarted" not in keys(restored)
    loc = restored.locale
    assert t(loc, "btn.play_on") in [b.label for b in
                                     message(marie.user, restored.table_message_id).buttons]

    await play_on(fake, marie.user, restored)

    assert restored.timer_deadline is not None
    assert restored.timer_deadline - clock.now() == pytest.approx(left)
    assert fresh(restored).pause is None
    await fake.disconnect(again)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_who_leaves_during_the_break_hands_it_on_with_the_role(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie pauses, then leaves the game (her child needs her): the bot finishing her
    round does not play, the break goes on, and bob, host now, continues it."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, marie.user, table)

    await leave_game(marie.user)
    version = game.version  # (a bot holds her seat now)
    await tick(fake, clock, 5 * 60)

    assert table.is_host(bob.user.id) and table.pause is not None
    assert game.version == version
    await play_on(fake, bob.user, table)
    assert fresh(table).pause is None and keys(table)[-1] == "ev.pause_over"
    await tick(fake, clock, 40)
    assert game.version > version  # the game runs on: the bot plays marie's round


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seat_left_during_the_break_waits_its_grace_from_the_break_s_end(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Where the table waits for one who leaves (presi's rule), bob leaves twenty minutes
    into the break, and marie continues a minute later: his seat waits its minute from
    then, as a turn's timer started during the break counts from its end, and the game is
    cancelled after it. Before (stop 49's review), the whole break was added to the grace
    he left with: the table waited 22 minutes for him, not one."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale,
                                                  on_leave="wait_then_cancel",
                                                  leave_grace_seconds=60)
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, 20 * 60)
    await leave_game(bob.user)
    await fake.settle()
    assert bob.user.id in table.away
    await tick(fake, clock, 60)

    await play_on(fake, marie.user, table)
    assert table.away[bob.user.id] - clock.now() == 60
    said = [entry for entry in table.log if entry.key == "ev.away"][-1]
    assert said.params["deadline"] == int(clock.now() + 60)  # the history says so too
    await tick(fake, clock, 61)
    assert table.game is None  # cancelled for his absence, a minute after the break


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_exchange_and_a_new_round_wait_for_the_break_too(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Paused as a round ends: « Manche suivante » is refused until marie continues.
    Paused in the exchange: its deadline waits, and a gift is refused; once continued,
    the exchange's time left is what it was."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale,
                                                  low_gives="pick")
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await pause(fake, clock, marie.user, table)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    loc = table.locale
    assert marie.user.last_ephemeral().content == \
        WARNING + t(locale, "err.paused", name="marie", button=t(loc, "btn.play_on"))
    assert phase_of(game) is Phase.ROUND_OVER
    await play_on(fake, marie.user, table)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert phase_of(game) is Phase.EXCHANGE and table.timer_deadline is not None
    left = table.timer_deadline - clock.now()
    version = game.version

    await pause(fake, clock, marie.user, table)
    assert board(marie.user, table).count(t(loc, "btn.play_on")) == 1  # (said once)
    await tick(fake, clock, 20 * 60)
    for player in (marie, bob):
        await player.open_hand(president)
    givers = [p for p in (marie, bob) if p.hand.selects or any(
        b.custom_id and ":give_ok:" in b.custom_id for b in p.hand.buttons)]
    assert givers
    for giver in givers:
        assert await giver.act()
        assert giver.hand.content.startswith(WARNING + t(locale, "err.paused", name="marie",
                                                         button=t(loc, "btn.play_on")))
    assert game.version == version and game.phase is Phase.EXCHANGE

    await play_on(fake, marie.user, table)
    assert table.timer_deadline - clock.now() == pytest.approx(left)


@pytest.mark.parametrize("locale", LOCALES)
async def test_stopping_the_game_during_a_break_ends_the_break(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie pauses, then stops the game (`/president end`, confirmed): the game is over,
    the break with it; the finished game offers no « Pause » and the lobby that follows
    closes when idle as any does."""
    marie, _, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, marie.user, table)
    await marie.user.slash("president end")
    await marie.user.click(marie.user.last_ephemeral(), t(locale, "btn.stop_game"))
    await tick(fake, clock, 1)

    assert game.phase is Phase.GAME_OVER and table.pause is None
    assert table.paused_since is None
    loc = table.locale
    labels = [b.label for b in message(marie.user, table.table_message_id).buttons]
    assert t(loc, "btn.pause") not in labels and t(loc, "btn.play_on") not in labels
    await marie.user.slash("president pause")
    assert marie.user.last_ephemeral().content == WARNING + t(locale, "err.pause_game_over")


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_ping_goes_with_the_break_and_comes_back_after_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The ping (« ⏰ @bob, ends in 15 s ») was posted at the turn's half: through a break
    it would say a time long past. It is deleted as the break starts, and once marie
    continues, the one to act is pinged again, with the deadline that then holds."""
    host, _, table, game = await a_humans_turn(fake, clock, president, locale)
    assert game.to_act is not None
    to_act = table.seats[game.to_act].user_id
    assert to_act is not None
    await until_half_time(fake, clock, table)
    assert [m.content for m in reminders(fake)] == [reminder_text(table, "turn", to_act)]
    marie = host.user

    await pause(fake, clock, marie, table)
    assert reminders(fake) == []
    await tick(fake, clock, 10 * 60)
    assert reminders(fake) == []
    await play_on(fake, marie, table)
    await tick(fake, clock, 1)

    assert [m.content for m in reminders(fake)] == [reminder_text(table, "turn", to_act)]


@pytest.mark.parametrize("locale", LOCALES)
async def test_fast_mode_and_its_bots_wait_for_the_break(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Fast mode has no turns: one shared timer, and bots racing for each trick. Paused,
    neither moves for ten minutes; continued, the shared timer has what it had left."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 fast=True)
    assert table.timer_deadline is not None
    left = table.timer_deadline - clock.now()
    version = game.version
    await pause(fake, clock, marie.user, table)
    assert game.version == version  # (the tick after the press moved nothing either)
    await tick(fake, clock, 10 * 60)
    assert game.version == version

    await play_on(fake, marie.user, table)

    assert table.timer_deadline - clock.now() == pytest.approx(left)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_connection_lost_and_back_during_the_break_does_not_end_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The bot's gateway drops for two minutes during the break (play-test 27): its end,
    which runs on the clocks of an outage, leaves the host's break alone."""
    marie, _, table, game = await a_humans_turn(fake, clock, president, locale)
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    await pause(fake, clock, marie.user, table)
    version = game.version

    await fake.gateway_down()
    clock.advance(120)
    await fake.gateway_up()
    await tick(fake, clock, 5 * 60)

    assert table.pause is not None and table.paused_since is not None
    assert game.version == version
    await play_on(fake, marie.user, table)
    assert table.timer_deadline is not None
    assert table.timer_deadline - clock.now() == pytest.approx(left)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_who_wandered_off_with_the_pizza_strands_nobody(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie pauses and goes quiet. Nine minutes in, bob's « Continuer » is refused, saying
    from when he may; past ten, it is his: he hosts now, and the game runs on."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, marie.user, table)
    board = table.table_message_id
    await tick(fake, clock, 9 * 60)
    await bob.user.click(message(bob.user, board), cid(table, "play_on"))
    assert bob.user.last_ephemeral().content.startswith(
        WARNING + t(locale, "err.not_host_later", host=marie.user.id, at="\0").split("\0")[0])
    assert table.pause is not None
    await tick(fake, clock, 61)

    await bob.user.click(message(bob.user, board), cid(table, "play_on"))

    assert fresh(table).pause is None and table.is_host(bob.user.id)
    assert keys(table)[-2:] == ["ev.new_host", "ev.pause_over"]
