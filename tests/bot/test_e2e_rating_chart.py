"""`/president stats` shows the member's rating after each rated round as a chart, replayed
from the stored rounds: its last point is the rating the statistics show."""

from pathlib import Path

import pytest

from bot.packages.game import chart
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    alice_and_bob_stored,
    play_every_round,
    record_charts,
)


async def test_stats_attach_the_rating_after_each_rated_round(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, _ = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:2")
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    drawn.clear()  # the game's points chart

    await alice.user.slash("president stats")
    shown = alice.user.last_ephemeral()
    assert shown.attachments == (chart.RATING_FILENAME,)
    assert len(drawn) == 1 and drawn[0].names == ("Classic Président",)
    (series,) = drawn[0].series
    assert len(series) == 2  # both rounds had two humans
    assert f"rating {series[-1]}" in shown.text  # the replay ends on the stored rating
    await fake.disconnect(bot)

