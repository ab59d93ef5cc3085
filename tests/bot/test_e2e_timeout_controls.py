"""A member in timeout and the controls of no table (docs/bot.md « Saving before answering
(stop 61) »): `/president history`'s pages and charts follow the command that drew them,
which Discord no longer offers a member in timeout, as a table's controls do
(`bot.packages.moderation`); an erasure's buttons stay open."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import message, tick
from .test_e2e_history_chart import ana_s_channel_stored


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_member_in_timeout_pages_no_history_until_it_ends_and_may_still_erase(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str,
) -> None:
    """ana opened `/president history` (twelve games: two pages) and `/president forget`,
    then a moderator timed her out for ten minutes. Her client offers her no command any
    more, yet she still turned the history's pages and opened its charts: they are now
    refused, privately in her language, saying until when, and change nothing, as her
    clicks at a table are. Her erasure, a right and no play, goes through. Once the
    timeout is over the pages turn again."""
    bot, storage, finished_game = await ana_s_channel_stored(fake, clock, tmp_path)
    games = [await finished_game(number, number) for number in range(1, 13)]
    ana = fake.add_user("ana", locale=locale)
    await storage.choose_language(ana.id, "fr")  # something of hers to erase
    await ana.slash("president history")
    page = ana.last_ephemeral()
    [older] = page.buttons
    assert older.custom_id is not None
    first = page.text
    await ana.slash("president forget")
    question = ana.last_ephemeral()
    fake.time_out(fake.guild, ana, 600)
    await fake.settle()
    refusal = "⚠️ " + t(locale, "err.timed_out.read", until=int(clock.now()) + 600)

    await ana.click(page, older.custom_id)
    assert ana.last_ephemeral().content == refusal
    assert message(ana, page.id).text == first  # not turned
    await ana.select(page, [str(games[-1])])  # its chart
    assert ana.last_ephemeral().content == refusal

    erase = next(b.custom_id for b in question.buttons
                 if b.custom_id is not None and ":forget:" in b.custom_id)
    await ana.click(question, erase)
    erased = message(ana, question.id)
    assert not erased.buttons and erased.content not in (question.content, refusal)
    assert not (await storage.held_about(ana.id)).language

    await tick(fake, clock, 601)
    await ana.click(page, older.custom_id)
    assert message(ana, page.id).text != first  # page 2, in place
    await fake.disconnect(bot)
    fake.assert_no_errors()
