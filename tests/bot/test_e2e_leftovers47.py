"""End-to-end: stop 45's leftovers a player or host could meet (docs/bot.md, « Leftovers
(stop 47) »): results moved on from during their chart's upload show the chart once, as
text, whether the upload's answer was lost, the picture's take-off failed, or the bot
restarted before taking it off."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.packages.game import chart
from bot.packages.publisher.charts import RETRY_DELAYS
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    cid,
    connect_bot,
    database_url,
    http_waits_on_the_fake_clock,
    message,
    record_charts,
    restart,
    table_of,
    tick,
)
from .test_e2e_attach_files import chart_line
from .test_e2e_chart_upload import EDIT, game_over, injected, results


async def left_during_the_upload(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                 marie: TestUser) -> tuple[int, str]:
    """marie's one-round game ends; its chart's upload meets a 502 discord.py tries again,
    four times over 16 s (on the fake clock), its fifth try carried out by Discord but its
    answer lost (a dropped connection). marie ends the game (« Terminer ») meanwhile: the
    results are retired with the chart as text (`Charts.moved_on`). The results message
    and the chart's line."""
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=4)
    fake.inject_disconnect(EDIT, method="PATCH", uploads=True, handled=True)
    table = await game_over(fake, clock, bot, marie)
    first, game = table.table_message_id, table.game
    assert first is not None and game is not None
    assert injected(fake) and 0 not in injected(fake)  # the upload is on its way
    await marie.click(results(marie, table), cid(table, "end", game.version))
    await tick(fake, clock, 5)
    assert table.game is None and table.charts_off == [first]
    return first, chart_line(table)


async def test_results_left_while_an_upload_s_answer_was_lost_show_the_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The upload went through but its answer was lost: the picture stayed beside the text
    the results were retired with, as only an answered upload had it taken off."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, president, marie)
    table = table_of(president, marie)
    for _ in range(30):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0]
    left = message(marie, first)
    assert left.content.count(line) == 1 and left.attachments == ()
    assert table.charts_off == []
    waits.end()
    fake.assert_no_errors()


async def test_a_failed_take_off_is_tried_again(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The edit taking the picture off meets a 503: it was not tried again, and the
    results showed the chart twice for good. It is, 5 s later."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, president, marie)
    table = table_of(president, marie)
    fake.inject_error(EDIT, 503, method="PATCH")  # the next edit: the take-off
    for _ in range(16):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0, 503]
    assert message(marie, first).attachments == (chart.FILENAME,)
    assert table.charts_off == [first]
    await tick(fake, clock, RETRY_DELAYS[0])
    left = message(marie, first)
    assert left.content.count(line) == 1 and left.attachments == ()
    assert table.charts_off == []
    waits.end()
    fake.assert_no_errors()


async def test_a_restart_takes_off_the_picture_owed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The take-off failed and the bot restarted before trying again: what was owed was in
    memory only, and the results kept the chart twice. The table's snapshot keeps it
    (`Table.charts_off`): the restart takes the picture off, once."""
    record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    first, line = await left_during_the_upload(fake, clock, bot, marie)
    fake.inject_error(EDIT, 503, method="PATCH")
    for _ in range(16):
        await tick(fake, clock, 1)
    assert injected(fake) == [502] * 4 + [0, 503]
    assert message(marie, first).attachments == (chart.FILENAME,)
    waits.end()
    bot = await restart(fake, clock, bot, url)
    try:
        left = message(marie, first)
        assert left.content.count(line) == 1 and left.attachments == ()
        assert table_of(bot, marie).charts_off == []
        bot = await restart(fake, clock, bot, url)
        mark = fake.mark()
        await tick(fake, clock, 10)
        assert table_of(bot, marie).charts_off == []
        assert not [c for c in fake.calls_since(mark, EDIT) if c.path.endswith(str(first))]
    finally:
        await fake.disconnect(bot)
    fake.assert_no_errors()
