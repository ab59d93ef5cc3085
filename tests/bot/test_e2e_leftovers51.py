"""End-to-end: small leftovers of stop 51's first round that players would notice
(docs/bot.md « Round-one leftovers (stop 51) »).

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, record_charts
from .test_e2e_playtest34 import Night, play_out, seat_and_start

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_history_in_a_thread_under_a_closed_table_points_to_the_channel(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """dave closes the presi table for the night; in the thread « tournoi » under #presi,
    emma's `/president history` said « no game has been played here yet », as if the
    night's games were lost: the hint pointed to the channel only while its table was
    open. It now points there once the table has closed too; a thread under a channel
    that never had a game still says there is none."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    presi = fake.add_channel(fake.guild, "presi")
    quiet = fake.add_channel(fake.guild, "quiet")
    await fake.settle()
    dave, emma = fake.add_user("dave", locale=locale), fake.add_user("emma", locale=locale)
    night = Night(bot, [await seat_and_start(fake, clock, bot, presi, "presi", [dave, emma], 1)])
    await play_out(fake, clock, night)
    await dave.slash("president end", channel=presi)  # back to the lobby
    await dave.slash("president end", channel=presi)  # the table closes
    assert bot.service.registry.in_channel(presi.id) is None
    thread = fake.add_thread(presi, "tournoi", emma)
    elsewhere = fake.add_thread(quiet, "chat", emma)
    await fake.settle()

    await emma.slash("president history", channel=thread)
    assert emma.last_ephemeral(thread).text.endswith(
        t(locale, "history.empty.parent", channel=f"<#{presi.id}>"))
    await emma.slash("president history", channel=elsewhere)
    assert emma.last_ephemeral(elsewhere).text.endswith(t(locale, "history.empty"))
    await fake.disconnect(bot)
    fake.assert_no_errors()
