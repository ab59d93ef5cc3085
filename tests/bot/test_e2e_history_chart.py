"""`/president history` opens a past game's points chart, rebuilt from its stored rounds:
the same series the table showed when the game ended, answered only to the one who asked,
in their language."""

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
    tick,
    two_humans_against_a_bot,
)


async def test_history_opens_a_past_games_chart_from_the_stored_rounds(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale="en-US"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, alice, bob, game_end="rounds:2")
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    await tick(fake, clock, 1)
    (at_the_end,) = drawn  # the chart the results message got when the game ended
    drawn.clear()

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    assert "2 manches" in listed.text
    menu = listed.select()
    assert len(menu.options) == 1
    await bob.user.select(listed, [menu.options[0].value])
    shown = bob.user.last_ephemeral()
    assert shown.id != listed.id and shown.ephemeral
    assert shown.attachments == (chart.FILENAME,)
    assert "Points de la partie" in shown.text
    (rebuilt,) = drawn
    assert rebuilt.names == at_the_end.names
    assert rebuilt.series == at_the_end.series and len(rebuilt.series[0]) == 2
    assert rebuilt.title == "Points par manche"  # in bob's language, not the table's
    await fake.disconnect(bot)
    fake.assert_no_errors()
