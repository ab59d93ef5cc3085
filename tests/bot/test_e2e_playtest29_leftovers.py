"""End-to-end: play-test 29's leftovers (« Play-test 29, leftovers », stop 50).

- Only the host could pause: bob, seated, whose doorbell rang, was told to ask marie. A
  seated player now takes a short break of their own (`Pause.own`): every clock waits
  five minutes at most, then the game goes on by itself; bob or the host may end it
  sooner; one break at a time, and one each per half hour.
- A table message that gave way to a fresh one during a break kept, for good, the
  leaver's line as the break words it (« sa place l’attend 60 s à partir de la reprise
  (**Continuer**) »), a button it no longer has and a promise the break's end breaks.

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.controls import WARNING
from bot.packages.publisher.messages import FRESH_TABLE_AGE
from bot.tables.breaks import OWN_COOLDOWN_SECONDS
from bot.tables.deadlines import OWN_PAUSE_SECONDS
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    after_restart,
    cid,
    connect_bot,
    database_url,
    leave_game,
    message,
    restart,
    table_of,
    tick,
)
from .test_e2e_playtest29 import a_humans_turn, board, keys, pause, play_on

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seated_player_s_doorbell_holds_the_game_a_few_minutes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob, seated but not the host, presses « Pause » with some of a turn left: his own
    break begins (before, he was refused and told to wait for marie). The table says so,
    and that the game goes on by itself in five minutes; nothing plays meanwhile, a move
    is refused saying how the break ends; at five minutes the game goes on with the
    turn's time intact, and the history says so."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    version, since = game.version, clock.now()

    await pause(fake, clock, bob.user, table)

    assert table.pause is not None and table.pause.own and table.pause.by == bob.user.id
    assert table.host_id == marie.user.id  # nobody's role taken over
    assert keys(table)[-1] == "ev.pause_own"
    shown = board(marie.user, table)
    assert t(loc, "table.paused", name="bob", since=f"<t:{int(since)}:t>") in shown
    assert t(loc, "table.paused_own_until", button=t(loc, "btn.play_on"), name="bob",
             at=f"<t:{int(since + OWN_PAUSE_SECONDS)}:R>",
             lengthen=t(loc, "btn.lengthen")) in shown
    assert t(loc, "ev.pause_own", name="bob", minutes=OWN_PAUSE_SECONDS // 60) in shown
    await tick(fake, clock, OWN_PAUSE_SECONDS - 60)
    assert game.version == version and fresh(table).pause is not None

    actor = marie if table.seat_of(marie.user.id) == game.to_act else bob
    assert await actor.act()
    refused = WARNING + t(locale, "err.paused_own", name="bob", button=t(loc, "btn.play_on"))
    assert actor.hand.content.startswith(refused)
    assert game.version == version

    await tick(fake, clock, 58)
    assert fresh(table).pause is not None
    await tick(fake, clock, 3)

    assert fresh(table).pause is None and table.paused_since is None and not table.closed
    assert keys(table)[-1] == "ev.pause_own_over"
    assert t(loc, "ev.pause_own_over", name="bob", minutes=OWN_PAUSE_SECONDS // 60) \
        in board(marie.user, table)
    assert table.timer_deadline is not None
    assert table.timer_deadline - (since + OWN_PAUSE_SECONDS) == pytest.approx(left, abs=2)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_s_break_cannot_hold_the_others_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """One break at a time: bob's second « Pause » during his own is refused (the host's
    makes his break hers since stop 51: `test_e2e_breaks_leftovers51`). bob ends his own
    break as soon as he is back; he may not take another before half an hour from the
    first (refused, saying when, in his language, by the button and the command), and
    then he may. The host may end a player's break too, her role unchanged; a spectator
    may not (nor pause: `test_only_seated_people_pause_and_never_in_the_lobby`)."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    first = clock.now()
    await pause(fake, clock, bob.user, table)
    await bob.user.slash("president pause")
    assert bob.user.last_ephemeral().content == \
        WARNING + t(locale, "err.already_paused", name="bob")
    zoe = fake.add_user("zoe", locale=locale)
    await zoe.click(message(zoe, table.table_message_id), cid(table, "play_on"))
    assert zoe.last_ephemeral().content == \
        WARNING + t(locale, "err.not_host", host=marie.user.id)
    await tick(fake, clock, 60)

    await play_on(fake, bob.user, table)
    assert fresh(table).pause is None and keys(table)[-1] == "ev.pause_over"
    assert t(loc, "ev.pause_over", name="bob", minutes=1) in board(marie.user, table)

    again = f"<t:{int(first + OWN_COOLDOWN_SECONDS) + 1}:R>"
    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "pause"))
    assert bob.user.last_ephemeral().content == \
        WARNING + t(locale, "err.pause_cooldown", at=again)
    await bob.user.slash("president pause")
    assert bob.user.last_ephemeral().content == \
        WARNING + t(locale, "err.pause_cooldown", at=again)
    assert table.pause is None

    # Half an hour from the first (the game played on meanwhile, the autopilot taking
    # the seats of those who let their turns run out), bob may again; marie, the host,
    # ends that one, her role unchanged.
    while clock.now() < first + OWN_COOLDOWN_SECONDS + 1:
        await tick(fake, clock, 60)
    assert not table.closed and table.game is game
    await bob.user.slash("president pause")
    assert bob.user.last_ephemeral().content == t(
        locale, "done.paused_own", minutes=OWN_PAUSE_SECONDS // 60,
        button=t(loc, "btn.play_on"))
    assert fresh(table).pause is not None
    await tick(fake, clock, 1)  # the table message follows, coalesced
    await play_on(fake, marie.user, table)
    assert fresh(table).pause is None and table.host_id == marie.user.id


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_message_replaced_during_the_break_keeps_what_held_then(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Under presi's rule the table waits a minute for a leaver. marie pauses; nearly an
    hour on, the table message is too old to edit freely (`FRESH_TABLE_AGE`), and bob's
    leaving gives it way to a fresh one. The old one kept bob's line as the break words
    it live, « sa place l’attend 60 s à partir de la reprise (**Continuer**) », for good:
    a button it no longer has, and once marie continues, a promise past. It now keeps
    what held when it was replaced, and the fresh message goes on as before."""
    marie, bob, table, _ = await a_humans_turn(fake, clock, president, locale,
                                               on_leave="wait_then_cancel",
                                               leave_grace_seconds=60)
    loc = table.locale
    old = table.table_message_id
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, FRESH_TABLE_AGE)
    await leave_game(bob.user)
    await tick(fake, clock, 1)

    assert table.table_message_id != old and old is not None
    live = t(loc, "ev.away_paused", name="bob", seconds=60, button=t(loc, "btn.play_on"))
    assert f"• {live}" in board(marie.user, table)
    await play_on(fake, marie.user, table)
    deadline = int(clock.now() + 60)
    assert f"• {t(loc, 'ev.away', name='bob', deadline=deadline)}" in board(marie.user, table)
    await tick(fake, clock, 1)

    kept = message(marie.user, old).content
    assert live not in kept
    assert f"• {t(loc, 'ev.away_paused_kept', name='bob', seconds=60)}" in kept
    assert t(loc, "table.moved_on") in kept and not message(marie.user, old).buttons


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_s_break_and_its_half_hour_outlive_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The bot is redeployed two minutes into bob's break, and down two: the restored
    break is still his own (nobody could end it meanwhile: its five minutes wait), the
    game goes on by itself three minutes after the restart, and bob may not take another
    before his half hour is up."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, bob, table, _ = await a_humans_turn(fake, clock, bot, locale)
    first = clock.now()
    await pause(fake, clock, bob.user, table)
    await tick(fake, clock, 2 * 60)
    stopped = clock.now()

    again = await restart(fake, clock, bot, url, down=2 * 60)

    restored = table_of(again, marie.user)
    assert restored.pause is not None and restored.pause.own
    ends = after_restart(first + OWN_PAUSE_SECONDS, stopped, clock)
    await tick(fake, clock, ends - clock.now() - 2)
    assert fresh(restored).pause is not None
    await tick(fake, clock, 4)
    assert fresh(restored).pause is None and keys(restored)[-1] == "ev.pause_own_over"
    await bob.user.slash("president pause")
    assert bob.user.last_ephemeral().content == WARNING + t(
        locale, "err.pause_cooldown", at=f"<t:{int(first + OWN_COOLDOWN_SECONDS) + 1}:R>")
    await fake.disconnect(again)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_who_left_no_longer_ends_the_break_they_called(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob calls his own break and leaves the game during it (a bot takes his seat): his
    « Continuer » ended everyone's break (« Review of stop 50, afterwards »). He is told, in
    his language and to himself only, that it is no longer his to end, when the game goes
    on by itself, and that the host may end it sooner; the break goes on."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    since = clock.now()
    await pause(fake, clock, bob.user, table)
    await leave_game(bob.user)
    await fake.settle()
    assert table.seat_of(bob.user.id) is None and fresh(table).pause is not None
    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "play_on"))
    assert bob.user.last_ephemeral().content == WARNING + t(
        locale, "err.pause_left", host=marie.user.id,
        at=f"<t:{int(since + OWN_PAUSE_SECONDS)}:R>")
    held = fresh(table).pause
    assert held is not None and held.by == bob.user.id
    await play_on(fake, marie.user, table)
    assert fresh(table).pause is None
