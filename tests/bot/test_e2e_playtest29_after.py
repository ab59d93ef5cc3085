"""End-to-end: play-test 29's two leftovers (« Play-test 29, afterwards », stop 49).

- The break's 60 minutes ran while nobody could press « Continuer »: an outage (Discord
  lost the server), a gap in the bot's gateway connection, or a restart's time away. A
  break reaching its hour then closed the table. Those now hold its limit as the turn
  clocks wait for an outage, and the table message says the limit that holds.
- A presi leaver's history line, during a break, gave the time their grace would have ended
  without it, a time that could pass before « Continuer »; it now says how long their seat
  will wait from « Continuer ».

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.deadlines import PAUSE_LIMIT_SECONDS
from bot.tables.table import Table
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    after_restart,
    connect_bot,
    database_url,
    leave_game,
    restart,
    table_of,
    tick,
)
from .test_e2e_playtest29 import a_humans_turn, board, pause, play_on

LOCALES = ["fr", "en-US"]


async def paused_since(fake: FakeDiscord, clock: LinkedClock, host: TestUser,
                       table: Table) -> float:
    """``host`` calls a break from the table message: when it began, on the table's clock."""
    await pause(fake, clock, host, table)
    assert table.pause is not None
    return table.pause.since


def limit_shown(user: TestUser, table: Table) -> str:
    """The table message's line saying when the break's limit closes the table."""
    loc = table.locale
    start = t(loc, "table.paused_until", button=t(loc, "btn.play_on"), at="\0").split("\0")[0]
    return next(line for line in board(user, table).splitlines() if line.startswith(start))


def shows_limit(user: TestUser, table: Table, ends: float) -> bool:
    """Whether the table message says the table closes at `ends` (to the second the
    fake's clock may split: `int` of a time a restart's window put a fraction on)."""
    loc = table.locale
    shown = limit_shown(user, table)
    return any(shown == t(loc, "table.paused_until", button=t(loc, "btn.play_on"),
                          at=f"<t:{at}:R>") for at in (int(ends) - 1, int(ends), int(ends) + 1))


async def closes_at(fake: FakeDiscord, clock: LinkedClock, table: Table, ends: float) -> None:
    """The table stays open until `ends` (two seconds before it, still open), and closes
    then, as the break's limit closes it."""
    await tick(fake, clock, ends - clock.now() - 2)
    assert not table.closed
    await tick(fake, clock, 4)
    assert fresh(table).closed
    assert table.notice is not None and table.notice.key == "table.pause_closed"


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_outage_during_the_break_holds_its_hour(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Fifty minutes into the break, Discord loses the server for half an hour: the
    break's hour passes meanwhile, and the table stays open (before, it closed at the
    hour, though nobody could have continued). Once the server is back the table message
    says the limit that holds, half an hour later, and the table closes then."""
    marie, _, table, _ = await a_humans_turn(fake, clock, president, locale)
    since = await paused_since(fake, clock, marie.user, table)
    assert shows_limit(marie.user, table, since + PAUSE_LIMIT_SECONDS)
    await tick(fake, clock, 50 * 60)

    fake.start_outage(fake.guild)
    await fake.settle()
    lost = clock.now()
    for _ in range(30):
        await tick(fake, clock, 60)
    assert not table.closed  # the hour passed during the outage
    back = clock.now()
    fake.end_outage(fake.guild)
    await fake.settle()
    await tick(fake, clock, 1)  # the redraw, coalesced

    assert fresh(table).pause is not None and table.paused_since is not None  # still a break
    ends = since + PAUSE_LIMIT_SECONDS + back - lost
    assert shows_limit(marie.user, table, ends)
    await closes_at(fake, clock, table, ends)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_gap_in_the_gateway_during_the_break_holds_its_hour(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The bot's gateway is gone ten minutes, from the break's 55th: no click can reach
    it meanwhile, so the break's hour waits too, and the host still has five minutes
    after the gap to continue; they do, and the turn has the time it had."""
    marie, _, table, _ = await a_humans_turn(fake, clock, president, locale)
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    since = await paused_since(fake, clock, marie.user, table)
    await tick(fake, clock, 55 * 60)

    await fake.gateway_down()
    lost = clock.now()
    clock.advance(10 * 60)
    back = clock.now()
    await fake.gateway_up()
    await tick(fake, clock, 1)

    assert not table.closed and table.pause is not None
    assert shows_limit(marie.user, table, since + PAUSE_LIMIT_SECONDS + back - lost)
    await tick(fake, clock, 4 * 60)
    assert not table.closed
    await play_on(fake, marie.user, table)
    assert table.timer_deadline is not None
    assert table.timer_deadline - clock.now() == pytest.approx(left)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_restart_s_time_away_holds_the_break_s_hour(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The bot is redeployed fifty minutes into the break and down twenty: nobody could
    continue meanwhile, so the restored break has the ten minutes it had left (before,
    the time away counted in its hour, and the table closed as the bot started)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, _, table, _ = await a_humans_turn(fake, clock, bot, locale)
    since = await paused_since(fake, clock, marie.user, table)
    await tick(fake, clock, 50 * 60)
    stopped = clock.now()

    again = await restart(fake, clock, bot, url, down=20 * 60)

    restored = table_of(again, marie.user)
    assert not restored.closed and restored.pause is not None
    ends = after_restart(since + PAUSE_LIMIT_SECONDS, stopped, clock)
    await tick(fake, clock, 1)
    assert shows_limit(marie.user, restored, ends)
    await closes_at(fake, clock, restored, ends)
    await fake.disconnect(again)


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_outage_under_way_across_a_restart_holds_the_break_until_it_ends(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Discord loses the server twenty minutes into the break; ten minutes later the bot
    is redeployed, down ten, and starts with the server still out; it is back ten minutes
    after that. The whole outage, the bot's time away within it, holds the break's hour:
    it closes thirty minutes late, as the table message says once the server is back."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, _, table, _ = await a_humans_turn(fake, clock, bot, locale)
    since = await paused_since(fake, clock, marie.user, table)
    await tick(fake, clock, 20 * 60)
    fake.start_outage(fake.guild)
    await fake.settle()
    lost = clock.now()
    await tick(fake, clock, 10 * 60)

    again = await restart(fake, clock, bot, url, down=10 * 60)
    await tick(fake, clock, 10 * 60)
    back = clock.now()
    fake.end_outage(fake.guild)
    await fake.settle()
    await tick(fake, clock, 1)

    restored = table_of(again, marie.user)
    assert not restored.closed and restored.pause is not None
    ends = since + PAUSE_LIMIT_SECONDS + back - lost
    assert shows_limit(marie.user, restored, ends)
    await closes_at(fake, clock, restored, ends)
    await fake.disconnect(again)


def away_line(user: TestUser, table: Table, name: str) -> str:
    """The history's line saying that `name` left and how long their seat waits."""
    loc = table.locale
    starts = (t(loc, "ev.away", name=name, deadline=0).split("<")[0],
              t(loc, "ev.away_paused", name=name, seconds=0, button="").split("0")[0])
    return next(line for line in board(user, table).splitlines()
                if line.startswith(tuple(f"• {start}" for start in starts)))


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_leaver_during_the_break_is_told_the_grace_from_continue(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Under presi's rule the table waits a minute for bob, who leaves twenty minutes
    into the break. The history said « his seat waits until 20:36 », a time past long
    before « Continuer », though his seat waits on; it now says it waits 60 s from
    « Continuer », and once marie continues, until when."""
    marie, bob, table, _ = await a_humans_turn(fake, clock, president, locale,
                                               on_leave="wait_then_cancel",
                                               leave_grace_seconds=60)
    loc = table.locale
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, 20 * 60)
    await leave_game(bob.user)
    await tick(fake, clock, 1)

    said = t(loc, "ev.away_paused", name="bob", seconds=60, button=t(loc, "btn.play_on"))
    assert away_line(marie.user, table, "bob") == f"• {said}"
    await tick(fake, clock, 10 * 60)
    assert away_line(marie.user, table, "bob") == f"• {said}"

    await play_on(fake, marie.user, table)
    deadline = int(clock.now() + 60)
    assert away_line(marie.user, table, "bob") == \
        f"• {t(loc, 'ev.away', name='bob', deadline=deadline)}"


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_leaver_before_the_break_is_told_the_time_left_from_continue(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob leaves with two minutes of grace; thirty seconds later marie pauses. During
    the break his line says the 90 s his seat will still wait from « Continuer », not a
    time that passes meanwhile; continued, it waits those 90 s."""
    marie, bob, table, _ = await a_humans_turn(fake, clock, president, locale,
                                               on_leave="wait_then_cancel",
                                               leave_grace_seconds=120)
    loc = table.locale
    await leave_game(bob.user)
    await tick(fake, clock, 30)
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, 5 * 60)

    said = t(loc, "ev.away_paused", name="bob", seconds=90, button=t(loc, "btn.play_on"))
    assert away_line(marie.user, table, "bob") == f"• {said}"
    await play_on(fake, marie.user, table)
    assert table.away[bob.user.id] - clock.now() == pytest.approx(90, abs=1)
