"""The lobby and /president rules within Discord's limits whatever the host changed: a
message's content holds 2,000 characters, an embed's description 4,096 (« Embed Limits » in
https://discord.com/developers/docs/resources/message#embed-object-embed-limits)."""

import pytest

from bot.i18n import t
from bot.packages.lobby.display import lobby_screen, start_hint
from bot.packages.rules_text import rules_page, summary
from bot.packages.screen import EMBED_DESCRIPTION
from bot.tables.logentry import LogEntry
from bot.tables.players import Player
from bot.tables.table import Table
from engine import PRESETS

from .extremes import LONGEST_NAME, longest_rules


def crowded_lobby(preset: str, locale: str) -> Table:
    """Eight long names seated, thirty waiting and the longest notice, naming a long name."""
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale=locale,
                  rules=longest_rules(preset, locale))
    table.seats = [Player(100 + s, LONGEST_NAME) for s in range(8)]
    table.queue = [Player(200 + s, LONGEST_NAME) for s in range(30)]
    table.notice = LogEntry("table.list_seated", {"name": LONGEST_NAME})
    return table


@pytest.mark.parametrize("locale", ["fr", "en"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_lobby_fits_a_message_with_every_knob_changed_and_a_full_table(
    preset: str, locale: str
) -> None:
    """From the closing note: only the waiting list was cut short, so a host who changed
    every knob at a full table pushed the lobby past 2,000 characters and Discord refused
    it. The rules line now keeps its first changes and counts the others."""
    table = crowded_lobby(preset, locale)
    content = lobby_screen(table).content
    assert len(content) <= 2000, len(content)
    lines = content.split("\n")
    assert lines[-2:] == [start_hint(table), t(locale, "lobby.rules_hint")]
    assert sum(line.endswith(f"**{LONGEST_NAME}**") or f"**{LONGEST_NAME}** (" in line
               for line in lines) == 8
    rules_line = lines[1]
    full = summary(locale, table.rules)
    prefix = t(locale, "lobby.rules", summary="")
    kept, _, more = rules_line.removeprefix(prefix).partition(" · … ")
    if not more:  # the whole summary fitted
        assert kept == full
        return
    assert full.startswith(kept + " · ")  # the first changes, as the full summary has them
    counted = int(more.split()[1])
    assert more == t(locale, "lobby.rules_more." + ("one" if counted == 1 else "many"),
                     rules="", n=counted).removeprefix(" · … ")


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_a_summary_that_fits_is_not_cut(locale: str) -> None:
    table = crowded_lobby("classic", locale)
    table.seats, table.queue, table.notice = table.seats[:3], [], None
    assert lobby_screen(table).content.split("\n")[1] == t(
        locale, "lobby.rules", summary=summary(locale, table.rules))


@pytest.mark.parametrize("locale", ["fr", "en"])
@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_rules_page_of_the_longest_rules_fits_an_embed_uncut(preset: str,
                                                                 locale: str) -> None:
    """/president rules at such a table lists every change too: past the limit its embed
    would cut a line in half. (A preset's page, with its note, changes nothing.)"""
    page = "\n".join(rules_page(locale, longest_rules(preset, locale)))
    assert len(page) <= EMBED_DESCRIPTION
