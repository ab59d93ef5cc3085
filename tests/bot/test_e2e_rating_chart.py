"""`/president stats` shows the member's rating after each rated round as a chart, replayed
from the stored rounds: its last point is the rating the statistics show."""

from pathlib import Path

import pytest

from bot.packages.game import chart
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    connect_bot,
    database_url,
    play_every_round,
    record_charts,
    two_humans_against_a_bot,
)


async def test_stats_attach_the_rating_after_each_rated_round(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, alice, bob, game_end="rounds:2")
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

