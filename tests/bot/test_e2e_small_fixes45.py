"""End-to-end: small fixes (docs/bot.md, « Small fixes (stop 45) »), in French and in
English where the wording changes: results left while their chart's first upload is on its
way show the chart once, as text."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.packages.publisher.charts import RETRY_DELAYS
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import cid, http_waits_on_the_fake_clock, message, record_charts, tick
from .test_e2e_attach_files import chart_line, notices
from .test_e2e_chart_upload import EDIT, game_over, injected, results

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("next_game", ["replay", "end"])
async def test_results_left_while_their_first_upload_goes_through_show_the_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, next_game: str,
) -> None:
    """The host moves on (« Rejouer », « Terminer ») while the results' first upload is on
    its way: a 502 discord.py tries again, four times over 20 s (on the fake clock), its
    fifth try going through. The results were retired with the chart as text
    (`Charts.moved_on`), and the upload landing after gave them the picture too: the chart
    twice. They keep the text alone, the picture taken off."""
    drawn = record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    fake.inject_error(EDIT, 502, method="PATCH", uploads=True, times=4)
    marie = fake.add_user("marie", locale="fr")
    table = await game_over(fake, clock, president, marie)
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
    assert injected(fake) == [502] * 4  # the fifth try went through
    left = message(marie, first)
    assert line in left.content
    assert left.attachments == ()
    assert len(drawn) == 1 and table.id not in charts._failed
    assert ("chart upload", table.id) not in president.service.scheduler.pending()
    assert notices(marie, "fr") == 0
    waits.end()
    fake.assert_no_errors()
