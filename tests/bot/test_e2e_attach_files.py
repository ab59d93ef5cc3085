"""Attach Files: where the bot lacks it, it uploads nothing Discord would refuse (every 403
counts toward Cloudflare's ban). The results give the end-of-game chart as text, the host is
told once, privately and in their language, which permission the chart takes, and
/president stats and history answer with their charts' text; once the permission is back,
so are the charts. A notice the host's opening of a settings form would have carried waits
for the form's answer (this one and « cannot post »)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.text import shown_text
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    alice_and_bob_stored,
    before_takeover,
    cid,
    create_table,
    eight_seat_game_over,
    host_against_three_bots,
    let_timers_play,
    message,
    play_every_round,
    record_charts,
    tick,
)
from .test_e2e_playtest4 import LONG_NAMES
from .test_e2e_playtest5_stats import MARKDOWN_NAMES
from .test_e2e_settings import open_form

LOCALES = ["fr", "en"]


def notices(user: TestUser, locale: str) -> int:
    """How often ``user`` was told the chart cannot be attached."""
    told = "⚠️ " + t(locale, "err.cannot_attach", permission=t(locale, "perm.attach_files"))
    return sum(1 for m in user.visible() if m.ephemeral and m.content == told)


def chart_line(table: Table) -> str:
    """The results' line that stands for the chart: its alt text, every value."""
    shown = chart.points_chart(table, table.locale)
    assert shown is not None
    return t(table.locale, "table.chart_text", chart=shown_text(shown.alt))


@pytest.mark.parametrize("locale", LOCALES)
async def test_without_attach_files_the_results_give_the_chart_as_text_until_it_is_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, locale: str,
) -> None:
    drawn = record_charts(monkeypatch)
    fake.set_bot_permissions(fake.channel, attach_files=False)
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(president, marie, "rounds:1")
    assert notices(marie, locale) == 1  # at /president create, not again at each click
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)

    results = message(marie, table.table_message_id)
    assert results.attachments == () and drawn == []  # no upload tried, none drawn
    assert chart_line(table) in results.content
    assert t(locale, "table.standings") in results.content
    assert fake.invalid_requests() == 0
    await marie.click(results, cid(table, "join"))  # acting again tells her nothing more
    assert notices(marie, locale) == 1

    fake.set_bot_permissions(fake.channel, attach_files=True)
    await marie.click(results, cid(table, "join"))
    await tick(fake, clock, 1)
    results = message(marie, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)
    assert chart_line(table) not in results.content and len(drawn) == 1
    assert fake.invalid_requests() == 0


@pytest.mark.parametrize("locale", LOCALES)
async def test_attach_files_taken_away_during_a_game_costs_no_refusal_and_comes_back_alone(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, locale: str,
) -> None:
    """Nobody acted since the permission went, but the gateway told the bot (CHANNEL_UPDATE,
    `Charts.channel_changed`): the results give the chart as text with no upload tried, the
    host hears why at their next action. Given back, the chart comes with nobody acting.
    Before (play-test 37), the upload was refused once (a 403 toward Cloudflare's ban) and
    the chart came back only at someone's next click."""
    drawn = record_charts(monkeypatch)
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(president, marie, "rounds:1")
    fake.set_bot_permissions(fake.channel, attach_files=False)
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)

    results = message(marie, table.table_message_id)
    assert results.attachments == () and chart_line(table) in results.content
    assert drawn == [] and fake.invalid_requests() == 0
    assert notices(marie, locale) == 0
    await marie.click(results, cid(table, "join"))
    await marie.click(results, cid(table, "join"))
    assert notices(marie, locale) == 1

    fake.set_bot_permissions(fake.channel, attach_files=True)
    await fake.settle()
    await tick(fake, clock, 1)
    results = message(marie, table.table_message_id)
    assert results.attachments == (chart.FILENAME,) and chart_line(table) not in results.content
    await tick(fake, clock, 60)
    assert fake.invalid_requests() == 0


@pytest.mark.parametrize("locale", LOCALES)
async def test_stats_and_history_without_attach_files_answer_with_the_charts_text(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, _ = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:2",
                                                           bob_locale=locale)
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    drawn.clear()  # the game's points chart
    fake.set_bot_permissions(fake.channel, attach_files=False)

    await bob.user.slash("president stats")
    stats = bob.user.last_ephemeral()
    assert stats.attachments == () and drawn == []

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    await bob.user.select(listed, [listed.select().options[0].value])
    past = bob.user.last_ephemeral()
    assert past.id != listed.id and past.attachments == () and drawn == []
    assert t(locale, "chart.title").lower() in past.text.lower()

    fake.set_bot_permissions(fake.channel, attach_files=True)
    await bob.user.slash("president stats")
    assert bob.user.last_ephemeral().attachments == (chart.RATING_FILENAME,)
    (rating,) = drawn
    assert shown_text(rating.alt) in stats.text  # every value, without the image
    assert shown_text(rating.alt) not in bob.user.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize(("names", "fits"), [(LONG_NAMES, True), (MARKDOWN_NAMES, False)])
async def test_at_eight_seats_the_charts_text_goes_before_the_standings(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, names: list[str], fits: bool,
) -> None:
    """The longest results messages: the chart's text comes under the standings where it
    fits, and gives way before them where it does not (the standings sum it up)."""
    record_charts(monkeypatch)
    fake.set_bot_permissions(fake.channel, attach_files=False)
    game, board = await eight_seat_game_over(fake, clock, instant, names)
    assert len(board) <= 2000 - 80  # the retired note's room
    standings = before_takeover("fr", board.split("**Classement final**\n")[1].split("\n"))
    assert len([line for line in standings if re.search(r"\spts?$", line)]) == 8, board
    assert standings[-1].startswith("L’hôte, ") and french(" choisit : ") in standings[-1]
    assert ("\n📈 Points par manche, 8 participants, 1 manche. " in board) is fits
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_attach_notice_waits_for_the_settings_form_to_be_submitted(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
) -> None:
    """marie's first action since Attach Files went was picking a typed rule, which opens a
    form: the notice was sent as a followup under the open form, where she did not see it.
    It comes with the form's answer instead."""
    marie = fake.add_user("marie", locale=locale)
    await create_table(president, marie)
    await marie.slash("president settings")
    fake.set_bot_permissions(fake.channel, attach_files=False)
    await open_form(marie, "turn_seconds")
    assert marie.modal is not None and notices(marie, locale) == 0
    await marie.modal_submit({t(locale, "settings.modal.field"): "45"})
    assert notices(marie, locale) == 1
    assert marie.last_ephemeral().content.startswith("⚠️ ")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_cannot_post_notice_waits_for_the_settings_form_too(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
) -> None:
    """The channel refused the lobby's redraw for léo's arrival; marie's next action opens
    the settings form: she hears the bot cannot post there once she submits it."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    await create_table(president, marie)
    await marie.slash("president settings")
    fake.set_bot_permissions(fake.channel, view_channel=False)
    await leo.slash("president join")
    await tick(fake, clock, 1)
    assert fake.invalid_requests() == 0  # the overwrite was heard (CHANNEL_UPDATE)
    told = "⚠️ " + t(locale, "err.cannot_post", permission=t(locale, "perm.view_channel"))
    await open_form(marie, "turn_seconds")
    assert marie.modal is not None
    assert not any(m.content == told for m in marie.visible() if m.ephemeral)
    await marie.modal_submit({t(locale, "settings.modal.field"): "45"})
    assert marie.last_ephemeral().content == told
