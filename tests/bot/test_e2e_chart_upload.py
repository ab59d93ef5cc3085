"""A finished game's chart whose upload fails for another reason than Attach Files: the results
still show it, as a picture once a retry gets it through, else as text; nobody is told to grant
a permission, and the next game's results get their picture when uploads work again."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game import chart
from bot.packages.publisher import charts as charts_module
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser, errors
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    AsyncioOnTheFakeClock,
    cid,
    connect_bot,
    database_url,
    host_against_three_bots,
    http_waits_on_the_fake_clock,
    let_timers_play,
    message,
    record_charts,
    restart,
    table_of,
    tick,
)
from .test_e2e_attach_files import chart_line, notices

# A message's edits, its chart's upload among them (`Charts.attach`).
EDIT = "/channels/{channel_id}/messages/{message_id}"


async def game_over(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                    host: TestUser) -> Table:
    """``host`` plays one round against three bots, to the results."""
    table = await host_against_three_bots(bot, host, "rounds:1")
    assert table.game is not None
    await let_timers_play(fake, clock, table.game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    return table


def charts_drawn_late(monkeypatch: pytest.MonkeyPatch, bot: PresidentBot) -> asyncio.Event:
    """Charts not drawn within `IN_TIME` (a machine too busy; here no wait at all, and each
    drawing held until the test sets the event returned): the results' edit goes without
    the chart, and the upload follows once it is drawn, in an edit of its own, as before
    stop 52. The one way the results show while their first upload is on its way."""
    monkeypatch.setattr(charts_module, "IN_TIME", 0.0)
    released = asyncio.Event()
    charts = bot.publisher.charts
    draw = charts.draw

    async def late(shown: chart.PointsChart, filename: str) -> discord.File:
        await released.wait()
        return await draw(shown, filename)

    monkeypatch.setattr(charts, "draw", late)
    return released


async def game_over_charted_late(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                 host: TestUser, monkeypatch: pytest.MonkeyPatch) -> Table:
    """As `game_over`, but the chart drawn late (`charts_drawn_late`): the results show
    first, then its upload starts."""
    released = charts_drawn_late(monkeypatch, bot)
    table = await game_over(fake, clock, bot, host)
    assert "Fin de la partie" in results(host, table).content
    assert results(host, table).attachments == ()
    released.set()
    await fake.settle()
    return table


def results(user: TestUser, table: Table) -> Message:
    return message(user, table.table_message_id)


def injected(fake: FakeDiscord) -> list[int]:
    """The statuses of the failures the fake was told to answer (0: the call dropped)."""
    return [c.status for c in fake.calls if c.injected]


@pytest.mark.parametrize("failure", ["503", "502 five times", "dropped connection"])
async def test_a_chart_whose_upload_failed_is_attached_by_a_retry(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, failure: str,
) -> None:
    """A server error (discord.py's own five tries of a 502 spent first, on the fake clock)
    or a connection dropped: the results wait for their chart, which the retry attaches."""
    drawn = record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    if failure == "503":
        fake.inject_error(EDIT, 503, method="PATCH", uploads=True)
    elif failure == "502 five times":
        fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=5)
    else:
        fake.inject_disconnect(EDIT, method="PATCH", uploads=True)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, president, marie)
    failed_at = [c.time for c in fake.calls if c.injected][-1]
    line = chart_line(table)
    shown = results(marie, table)
    assert shown.attachments == () and line not in shown.content

    for _ in range(60):
        if results(marie, table).attachments:
            break
        await tick(fake, clock, 1)
    shown = results(marie, table)
    assert shown.attachments == (chart.FILENAME,) and line not in shown.content
    assert fake.clock.monotonic() - failed_at >= RETRY_DELAYS[0]
    assert len(drawn) == 2  # the one retry
    assert injected(fake) == {"503": [503], "502 five times": [502] * 5,
                              "dropped connection": [0]}[failure]
    assert notices(marie, "fr") == 0 and table.attach_files is not False
    assert fake.invalid_requests() == 0
    waits.end()
    fake.assert_no_errors()


@pytest.mark.parametrize(("failure", "locale"), [("too large", "fr"), ("too large", "en"),
                                                 ("server errors", "fr")])
async def test_a_chart_that_cannot_be_uploaded_is_given_as_text_and_the_next_game_s_attached(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, failure: str, locale: str,
) -> None:
    """A 413 « Request entity too large » (40005) would be answered to the same file again:
    the text at once. A 503 at every try: the text once the retries are spent. Either way
    the host is told nothing about permissions, and the next game's results, in the same
    channel, get their picture once uploads work."""
    drawn = record_charts(monkeypatch)
    if failure == "too large":
        fake.inject_error(EDIT, errors.request_entity_too_large(), method="PATCH",
                          uploads=True)
    else:
        fake.inject_error(EDIT, 503, method="PATCH", uploads=True,
                          times=len(RETRY_DELAYS) + 1)
    marie = fake.add_user("marie", locale=locale)
    table = await game_over(fake, clock, president, marie)
    line = chart_line(table)
    if failure == "server errors":
        for delay in RETRY_DELAYS:
            assert line not in results(marie, table).content  # not yet: a retry waits
            await tick(fake, clock, delay)
        await tick(fake, clock, 1)
    shown = results(marie, table)
    assert shown.attachments == () and line in shown.content
    assert t(locale, "table.standings") in shown.content
    assert len(drawn) == (1 if failure == "too large" else len(RETRY_DELAYS) + 1)
    await tick(fake, clock, sum(RETRY_DELAYS))  # nothing more is tried for this message
    assert len(drawn) == (1 if failure == "too large" else len(RETRY_DELAYS) + 1)
    assert notices(marie, locale) == 0 and table.attach_files is not False

    first = table.table_message_id
    game = table.game
    assert game is not None
    await marie.click(results(marie, table), cid(table, "replay", game.version))
    await tick(fake, clock, 1)
    assert table.game is not None
    await let_timers_play(fake, clock, table.game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert table.table_message_id != first
    shown = results(marie, table)
    assert shown.attachments == (chart.FILENAME,) and chart_line(table) not in shown.content
    assert line in message(marie, first).content  # the first game's results keep theirs
    assert notices(marie, locale) == 0
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


async def test_a_rate_limited_upload_goes_once_the_limit_is_over(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 429 longer than discord.py waits (`MAX_RATELIMIT_WAIT`): the upload goes again once
    its `retry_after` is over, and not before, whatever happens at the table meanwhile (each
    429 counts toward Cloudflare's ban)."""
    drawn = record_charts(monkeypatch)
    fake.inject_429(EDIT, method="PATCH", uploads=True, retry_after=60.0)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, president, marie)
    line = chart_line(table)
    shown = results(marie, table)
    assert shown.attachments == () and line not in shown.content
    await marie.click(shown, cid(table, "join"))
    await tick(fake, clock, 30)
    assert results(marie, table).attachments == () and len(drawn) == 1
    await tick(fake, clock, 30)
    shown = results(marie, table)
    assert shown.attachments == (chart.FILENAME,) and line not in shown.content
    assert len(drawn) == 2 and fake.invalid_requests() == 1
    assert notices(marie, "fr") == 0
    fake.assert_no_errors()


async def test_a_restart_uploads_a_chart_given_as_text_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What `Charts` keeps of a failed upload is in memory: the restart redraws the results
    and uploads their chart again, which now goes through, the text gone."""
    record_charts(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    fake.inject_error(EDIT, errors.request_entity_too_large(), method="PATCH", uploads=True)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, bot, marie)
    line = chart_line(table)
    assert line in results(marie, table).content
    bot = await restart(fake, clock, bot, url)
    try:
        table = table_of(bot, marie)
        shown = results(marie, table)
        assert shown.attachments == (chart.FILENAME,) and line not in shown.content
        assert notices(marie, "fr") == 0
    finally:
        await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("end", ["bot removed", "channel deleted"])
async def test_an_upload_that_ends_after_its_table_closed_leaves_nothing_behind(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, end: str,
) -> None:
    """The table closes while discord.py still retries its chart's upload (a 502, its sleeps
    on the fake clock): the bot removed from the server, or the channel deleted, close it
    with no channel edit, so its bookkeeping goes (`Publisher.closed`) before the upload
    fails (the 502s spent, or 404 Unknown Channel). What that failure would have marked, a
    try waiting on the scheduler or the message as charted, outlived the table, for good:
    one entry per such table, over weeks."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True,
                      times=5 if end == "bot removed" else 2)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, president, marie)
    assert injected(fake) and not table.closed  # the upload is still on its way
    if end == "bot removed":
        fake.remove_bot(fake.guild)
    else:
        fake.delete_channel(fake.channel)
    await fake.settle()
    assert fresh(table).closed
    for _ in range(30):
        await tick(fake, clock, 1)
    assert len(injected(fake)) == (5 if end == "bot removed" else 2)
    charts = president.publisher.charts
    assert table.id not in charts._failed and table.id not in charts._charted
    assert ("chart upload", table.id) not in president.service.scheduler.pending()
    if end == "channel deleted":
        fake.expect_error(10003)  # the upload's last try: Unknown Channel
    waits.end()
    fake.assert_no_errors()


@pytest.mark.parametrize("next_game", ["replay", "end"])
async def test_results_left_while_their_upload_waits_for_a_retry_keep_the_chart_as_text(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, next_game: str,
) -> None:
    """The upload failed (a 503) and waits 5 s for its retry, and the host moves on at once:
    a new game (« Rejouer »), or the lobby (« Terminer »). The retry only ever uploads to the
    results on screen: the message left behind got neither the picture nor its text, the
    chart lost after all. It is retired with the text, and nothing more is tried for it."""
    drawn = record_charts(monkeypatch)
    fake.inject_error(EDIT, 503, method="PATCH", uploads=True)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, president, marie)
    first = table.table_message_id
    line = chart_line(table)
    assert results(marie, table).attachments == () and line not in results(marie, table).content
    game = table.game
    assert game is not None and len(drawn) == 1
    await marie.click(results(marie, table), cid(table, next_game, game.version))
    await tick(fake, clock, 1)
    assert table.table_message_id != first or table.game is None
    await tick(fake, clock, sum(RETRY_DELAYS))
    left = message(marie, first)
    assert left.attachments == () and line in left.content
    assert len(drawn) == 1 and injected(fake) == [503]
    assert notices(marie, "fr") == 0
    fake.assert_no_errors()


@pytest.mark.parametrize("next_game", ["replay", "end"])
async def test_results_left_while_their_first_upload_is_on_its_way_keep_the_chart_as_text(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, next_game: str,
) -> None:
    """As above, but the host moves on while the first upload is still on its way: a 502,
    which discord.py tries five times over 25 s (on the fake clock) before the bot hears of
    it, a window longer than the bot's own first wait and the one a host clicking « Rejouer »
    on the results is likeliest to hit. Nothing waited on the scheduler then, so the message
    was retired without the chart's text, and the failure that came after scheduled a retry
    for results no longer on screen: the chart lost. It is kept as text, nothing is tried
    again for it, and nothing is left marked for it."""
    moved = await moved_on_while_uploading(fake, clock, president, monkeypatch, next_game, 5)
    marie, table = moved.marie, moved.table
    left = message(marie, moved.first)
    assert left.attachments == () and moved.line in left.content
    assert len(moved.drawn) == 1 and injected(fake) == [502] * 5
    assert table.id not in president.publisher.charts._failed
    assert ("chart upload", table.id) not in president.service.scheduler.pending()
    assert notices(marie, "fr") == 0
    moved.waits.end()
    fake.assert_no_errors()


@dataclass(frozen=True)
class MovedOn:
    """`moved_on_while_uploading`'s scene: the host, the table, its results message, the
    chart's line of text, the charts drawn, discord.py's waits on the fake clock (`end`
    them before the bot stops)."""

    marie: TestUser
    table: Table
    first: int | None
    line: str
    drawn: list[chart.PointsChart]
    waits: AsyncioOnTheFakeClock


async def moved_on_while_uploading(
    fake: FakeDiscord, clock: LinkedClock, president: PresidentBot,
    monkeypatch: pytest.MonkeyPatch, next_game: str, failures: int,
) -> MovedOn:
    """marie's game of one round against three bots ends, and the results' first upload
    answers 502 ``failures`` times (discord.py tries five times in all, on the fake clock);
    she moves on (``next_game``: « Rejouer », « Terminer ») while it is on its way, and the
    clock runs past every retry the bot could schedule."""
    drawn = record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=failures)
    marie = fake.add_user("marie", locale="fr")
    # Drawn late: the results on screen while the upload is on its way (drawn in time, the
    # results' own edit carries it, and they wait for it: `Charts.in_time`).
    table = await game_over_charted_late(fake, clock, president, marie, monkeypatch)
    first = table.table_message_id
    line = chart_line(table)
    charts = president.publisher.charts
    assert injected(fake) and table.id not in charts._failed  # on its way, none waiting
    game = table.game
    assert game is not None and len(drawn) == 1
    await marie.click(results(marie, table), cid(table, next_game, game.version))
    for _ in range(30 + int(sum(RETRY_DELAYS))):
        await tick(fake, clock, 1)
    assert table.table_message_id != first or table.game is None
    return MovedOn(marie, table, first, line, drawn, waits)
