"""End-to-end: play-test 24, « the slow player »: a player who looked away while their
timer ran, in French and in English. Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.deadlines import IDLE_CLOSE_SECONDS, IDLE_WARN_SECONDS
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.reminders import REMIND_AFTER
from bot.tables.snapshot import stored_table
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord, Message
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    dealt_against_two_bots,
    marie_and_bob_against_a_bot,
    message,
    play_until,
    restart,
    tick,
)

LOCALES = ["fr", "en-US"]
# marie opens, and may play any of her cards; the bots hold higher ones, none of a value
# the other holds (an equal would skip her turn).
HANDS = [["3C", "4C", "5C", "6C", "7C", "8C"], ["9D", "JD", "KD", "9S", "JS", "KS"],
         ["10H", "QH", "AH", "10S", "QS", "AS"]]


def reminders(fake: FakeDiscord) -> list[Message]:
    """The channel's pings (`bot.tables.reminders`), as everyone sees the channel."""
    return [m for m in fake.messages() if not m.ephemeral and m.content.startswith("⏰")]


def reminder_text(table: Table, kind: str, *user_ids: int) -> str:
    assert table.timer_deadline is not None
    return t(table.locale, f"remind.{kind}", who=" ".join(f"<@{u}>" for u in user_ids),
             at=f"<t:{int(table.timer_deadline)}:R>")


async def until_half_time(fake: FakeDiscord, clock: LinkedClock, table: Table) -> None:
    """Up to a second before the ping is due, then past it."""
    assert table.timer_deadline is not None and table.game is not None
    timer = table.game.timer
    assert timer is not None
    due = table.timer_deadline - timer.seconds * REMIND_AFTER
    await tick(fake, clock, due - clock.now() - 1)
    assert reminders(fake) == []
    await tick(fake, clock, 2)


async def until_the_timer_ends(fake: FakeDiscord, clock: LinkedClock, game: Game) -> None:
    """Until the running timer is over (played out or run out), then the redraw after it."""
    serial = game.timer_serial
    while game.timer_serial == serial:
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_who_looked_away_is_pinged_once_half_their_time_is_gone(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie's turn: the table showed a live countdown, but an edit notifies nobody, and
    her turn was played for her without a word to her phone. Half her time gone, a message
    pings her, and her alone; she plays, and it is deleted: the channel keeps none."""
    marie = Player(fake.add_user("marie", locale=locale))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    assert game.to_act == 0
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    assert ping.content == reminder_text(table, "turn", marie.user.id)
    assert fake.writer.pinged(ping.id) == {marie.user.id}
    assert await marie.act()
    await tick(fake, clock, 1)
    assert reminders(fake) == []
    fake.assert_no_errors()


async def test_a_player_gone_is_pinged_once_not_every_turn(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie has gone. Her ping comes, her turn runs out, and the ping is deleted with it;
    her next turns ping her no more (one notification, not one a turn until the table
    closes), until she plays again."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    assert len(reminders(fake)) == 1
    await until_the_timer_ends(fake, clock, game)
    assert reminders(fake) == [] and game.timeouts[0] == 1
    for _ in range(600):  # her next turn, and all of it
        if game.to_act == 0 and game.timer is not None:
            break
        await tick(fake, clock, 1)
    assert game.to_act == 0 and game.phase is Phase.PLAY
    serial = game.timer_serial
    while game.timer_serial == serial:
        assert reminders(fake) == []
        await tick(fake, clock, 1)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_giver_who_has_not_chosen_is_pinged(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie, President of the last round, owes Bot 2 two cards of her choice: half the
    exchange's time gone, she is pinged; she gives, and the ping goes."""
    marie = Player(fake.add_user("marie", locale=locale))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS,
                                               previous_ranking=[0, 1, 2])
    assert game.phase is Phase.EXCHANGE
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    assert ping.content == reminder_text(table, "exchange", marie.user.id)
    assert fake.writer.pinged(ping.id) == {marie.user.id}
    while fresh(game).phase is Phase.EXCHANGE:
        assert await marie.act()
    await tick(fake, clock, 1)
    assert reminders(fake) == []
    fake.assert_no_errors()


async def test_a_restart_neither_repeats_nor_forgets_a_ping(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The bot restarts (down a minute) once marie was pinged: no second ping, the one
    posted says her turn's new deadline (moved on by the downtime) and goes when it runs
    out. Restarted before it was due, the ping comes once, on time."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, bot, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    bot = await restart(fake, clock, bot, url, down=60)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None and restored.game is not None
    [again] = reminders(fake)
    assert again.id == ping.id and again.content == reminder_text(restored, "turn", marie.user.id)
    assert again.content != ping.content
    await until_the_timer_ends(fake, clock, restored.game)
    assert reminders(fake) == []
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_restart_before_the_ping_sends_it_once_on_time(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="en-US"))
    table, _ = await dealt_against_two_bots(fake, clock, bot, marie, HANDS, opener=0)
    await tick(fake, clock, 5)
    bot = await restart(fake, clock, bot, url, down=60)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None
    await until_half_time(fake, clock, restored)
    [ping] = reminders(fake)
    assert fake.writer.pinged(ping.id) == {marie.user.id}
    await tick(fake, clock, 5)
    assert len(reminders(fake)) == 1
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_host_may_turn_the_pings_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The pings post in the channel, which a host may keep for talk: the settings panel
    turns them off (and on again), saying what that changes; off, a slow turn pings nobody."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await create_table(president, marie.user)
    lobby = message(marie.user, table.lobby_message_id)
    await marie.user.click(lobby, cid(table, "settings"))
    panel = marie.user.last_ephemeral()
    state = {value: t(locale, "settings.reminders", state=t(locale, value))
             for value in ("yes", "no")}
    assert state["yes"] in [b.label for b in panel.buttons]
    await marie.user.click(panel, cid(table, "reminders"))
    panel = marie.user.last_ephemeral()
    assert state["no"] in [b.label for b in panel.buttons] and not table.reminders
    assert t(locale, "settings.reminders_off") in panel.content
    await marie.user.click(panel, cid(table, "reminders"))
    assert fresh(table).reminders and t(locale, "settings.reminders_on") in \
        marie.user.last_ephemeral().content
    await marie.user.click(marie.user.last_ephemeral(), cid(table, "reminders"))
    for _ in range(2):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    deal(president, table, HANDS, opener=0)
    await tick(fake, clock, 1)
    assert table.timer_deadline is not None
    await tick(fake, clock, table.timer_deadline - clock.now() + 1)
    assert reminders(fake) == [] and table.game is not None and table.game.timeouts[0] == 1
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_idle_lobby_says_when_it_will_close(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """marie opens a table and nobody acts: thirty minutes on it closed, with no word before.
    Five minutes before, the lobby now says when; bob joining puts it off, and the lobby
    stops saying it. A restart past the warning says it again at once."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale=locale)
    bob = fake.add_user("bob", locale=locale)
    table = await create_table(bot, marie)
    warning = t(table.locale, "table.idle_warning",
                at=f"<t:{int(clock.now() + IDLE_CLOSE_SECONDS)}:R>")
    await tick(fake, clock, IDLE_CLOSE_SECONDS - IDLE_WARN_SECONDS - 2)
    assert warning not in message(marie, table.lobby_message_id).content
    await tick(fake, clock, 3)
    assert warning in message(marie, table.lobby_message_id).content
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    # No warning of any time: a line ending « … se fermera <t:…:R>. »
    assert t(table.locale, "table.idle_warning", at="\0").split("\0")[0] not in \
        message(marie, table.lobby_message_id).content
    await tick(fake, clock, IDLE_CLOSE_SECONDS - IDLE_WARN_SECONDS)
    bot = await restart(fake, clock, bot, url, down=10)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None and not restored.closed
    warning = t(table.locale, "table.idle_warning",
                at=f"<t:{int(restored.human_seen + IDLE_CLOSE_SECONDS)}:R>")
    assert warning in message(marie, restored.lobby_message_id).content
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_round_left_waiting_says_when_the_table_closes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's round against two bots is over and nobody presses « Manche suivante »: the
    table message says, five minutes before, when the table closes."""
    marie = Player(fake.add_user("marie", locale="en-US"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    warning = t(table.locale, "table.idle_warning",
                at=f"<t:{int(table.human_seen + IDLE_CLOSE_SECONDS)}:R>")
    assert warning not in message(marie.user, table.table_message_id).content
    await tick(fake, clock, table.human_seen + IDLE_CLOSE_SECONDS - IDLE_WARN_SECONDS
               - clock.now() + 1)
    assert warning in message(marie.user, table.table_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("preset", ["classic", "presi"])
async def test_a_round_end_says_from_when_anyone_may_choose_for_a_silent_host(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, preset: str
) -> None:
    """marie hosts bob and a bot; the round is over and she says nothing. bob learnt that he
    could choose in her place only by pressing « Manche suivante » and being refused
    (`err.not_host_later`, play-test 22). The table message now says from when, and once
    that has come, that anyone seated may; bob then deals the next round."""
    marie, bob, table, game = await marie_and_bob_against_a_bot(fake, clock, president, preset)
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    at = int(table.host_seen + HOST_IDLE_SECONDS) + 1
    board = message(bob.user, table.table_message_id).content
    assert t(table.locale, "table.host_quiet_at", at=f"<t:{at}:R>") in board
    assert t(table.locale, "table.host_quiet") not in board
    await tick(fake, clock, at - clock.now() + 1)
    board = message(bob.user, table.table_message_id).content
    assert t(table.locale, "table.host_quiet") in board
    await bob.user.click(message(bob.user, table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.host_id == bob.user.id and table.game is not None
    assert table.game.phase is not Phase.ROUND_OVER
    fake.assert_no_errors()


async def test_a_host_alone_with_bots_is_told_nothing_of_a_takeover(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Nobody else sits at marie's table: nobody could take the role over, and nothing says
    anyone could."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, HOST_IDLE_SECONDS + 2)
    board = message(marie.user, table.table_message_id).content
    quiet = t(table.locale, "table.host_quiet_at", at="\0").split("\0")[0]
    assert quiet not in board and t(table.locale, "table.host_quiet") not in board
    fake.assert_no_errors()


async def test_a_ping_posted_then_killed_before_it_was_stored_is_posted_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The process is killed once the ping is posted, before the table storing it as sent:
    the snapshot the restart reads owes it again (here: that snapshot written back, as a
    kill leaves it). It posted a second ping, the first staying in the channel for good;
    the ping carries one nonce per table, game and timer, which Discord enforces (Create
    Message, `enforce_nonce`), so the restart gets the first back and deletes it with its
    timer."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table, _ = await dealt_against_two_bots(fake, clock, bot, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    await bot.service.committed(table)
    storage = bot.storage
    assert storage is not None
    stored = await storage.load_snapshot(table.id)
    assert stored is not None
    state = stored_table(stored.state)
    reminder = state["reminder"]
    assert reminder is not None and reminder["message_id"] == ping.id
    killed = {**state, "reminder": {**reminder, "sent": False, "message_id": None,
                                    "deadline": None}}
    assert await storage.save_snapshot(table.id, stored.seq + 100, killed)
    bot = await restart(fake, clock, bot, url, down=30)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None and restored.game is not None
    [again] = reminders(fake)
    assert again.id == ping.id
    assert restored.reminder is not None and restored.reminder.message_id == ping.id
    await until_the_timer_ends(fake, clock, restored.game)
    assert reminders(fake) == []
    await fake.disconnect(bot)
    fake.assert_no_errors()
