"""End-to-end: small fixes of stop 42, gaps a host or a player met that play-test 14's
fixes left open. Each test drives the real bot against the fake Discord."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.settings.views import knob_form
from engine import Rules
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, create_table, message, tick
from .test_e2e_history_chart import ana_s_channel_stored


async def type_knob(host: TestUser, knob: str, text: str) -> str:
    """``host`` picks ``knob`` on their open settings panel and types ``text`` in its form;
    returns the panel's notice, as the redrawn panel shows it."""
    panel = host.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await host.select(panel, [knob], select=menu.custom_id)
    form = host.modal
    assert form is not None
    await host.modal_submit({form.inputs[0].custom_id: text})
    return host.last_ephemeral().content


async def test_a_bots_count_beyond_the_tables_seats_is_refused_in_the_hosts_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """« Lancer contre des bots » seats one player and the typed count of bots: 9 (or 6)
    at a table of 6 seats was saved as typed, and the button then seated 5. The count is
    refused with the range this table takes, and nothing changes."""
    for locale, name in (("fr", "marie"), ("en-US", "mary")):
        host = fake.add_user(name, locale=locale)
        host.channel = fake.add_channel(fake.guild, f"salon-{name}")
        table = await create_table(president, host, "classic")
        assert table.rules.max_players == 6 and table.rules.vs_bots is None
        await host.slash("president settings")
        before = table.rules
        lang = "fr" if locale == "fr" else "en"
        refused = "⚠️ " + t(lang, "settings.bad.vs_bots", knob=t(lang, "knob.vs_bots"),
                            min=1, max=5, seats=6,
                            none=t(lang, "quoted", text=t(lang, "knob.vs_bots.none")))
        for typed in ("9", "6"):
            notice = await type_knob(host, "vs_bots", typed)
            assert refused in notice, notice
            assert table.rules == before
        assert ("de 1 à 5" if lang == "fr" else "from 1 to 5") in refused
        # The form's hint says the same range before anything is typed.
        (hint,) = [item.description for item in knob_form(table, "vs_bots", lang).children
                   if isinstance(item, discord.ui.Label)]
        assert hint == t(lang, "settings.hint.optional_int", min=1, max=5,
                         none=t(lang, "quoted", text=t(lang, "knob.vs_bots.none")))
        await type_knob(host, "vs_bots", "5")
        assert fresh(table).rules.vs_bots == 5
        await tick(fake, clock, 1)
        await host.click(message(host, table.lobby_message_id), cid(table, "vsbots"))
        assert len(table.seats) == 6 and table.game is not None
    fake.assert_no_errors()


async def test_a_smaller_table_takes_its_bots_count_down_with_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """A host who set 5 bots, then lowers the seats to 4, means a smaller table: the
    settings show the 3 bots the button seats, not 5 it never will."""
    host = fake.add_user("marie", locale="fr")
    table = await create_table(president, host, "classic")
    await president.service.set_rules(table, host.id, table.rules.replace(vs_bots=5))
    await president.service.set_rules(table, host.id, table.rules.replace(max_players=4))
    assert table.rules == Rules.preset("classic", vs_bots=3, max_players=4)
    await tick(fake, clock, 1)
    await host.click(message(host, table.lobby_message_id), cid(table, "vsbots"))
    assert len(table.seats) == 4 and table.game is not None
    fake.assert_no_errors()


@pytest.mark.both_databases  # the number is counted in SQL: on PostgreSQL too
async def test_a_past_game_keeps_its_number_in_the_history_as_newer_games_end(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """`/president history` numbered games newest first: the game that was « 1. » tonight
    was « 2. » after the next one ended, so « the chart of game 1 » named another game
    from one day to the next. Each keeps its number in the channel, the oldest 1. The
    menu's labels gave the date in UTC, which a label cannot show in the reader's time
    zone (no Discord timestamp there): a game late at night read a day off its line. The
    label has the line's number instead, and the line the date and time."""
    bot, storage, finished_game = await ana_s_channel_stored(fake, clock, tmp_path)

    async def listed(user: TestUser) -> tuple[list[str], dict[str, str]]:
        """The page's lines and its menu's labels by game id."""
        await user.slash("president history")
        page = user.last_ephemeral()
        description = page.embeds[0].description or ""
        return description.splitlines(), {o.value: o.label for o in page.select().options}

    first = await finished_game(1, 3)
    (game,) = await storage.game_history(channel_id=fake.channel.id)
    assert game.ended_at is not None
    for locale, label in (("fr", "1. Président classique · 1 manche"),
                          ("en-US", "1. Classic Président · 1 round")):
        reader = fake.add_user(f"reader-{locale}", locale=locale)
        lines, labels = await listed(reader)
        assert lines[0].startswith(f"1. <t:{int(game.ended_at.timestamp())}:f> · ")
        assert labels == {str(first): label}

    clock.advance(3600)
    second = await finished_game(2, 3)
    ana = fake.add_user("ana", locale="fr")
    lines, labels = await listed(ana)
    assert [line.split(" ", 1)[0] for line in lines] == ["2.", "1."]  # newest first
    assert labels[str(first)].startswith("1. ") and labels[str(second)].startswith("2. ")
    await fake.disconnect(bot)
    fake.assert_no_errors()
