"""What `/president rules` shows: a table's rules, or a preset's when there is no table or
one is asked for (with no table, the channel's house rules where it keeps some), so a
newcomer can read them before anyone opens a table."""

from __future__ import annotations

import discord

from bot.graphemes import cut
from bot.i18n import LocaleLike, t
from bot.packages.rules_text import preset_name, rules_page, table_preset_name
from bot.packages.screen import EMBED_DESCRIPTION
from bot.tables.house import DEFAULT_PRESET
from bot.tables.table import Table
from engine import Phase, Rules


def rules_embed(locale: LocaleLike, table: Table | None, preset: str | None,
                no_table: str = "rules.no_table", house: Rules | None = None,
                house_note: str = "rules.house", elsewhere: str = "") -> discord.Embed:
    """The table's rules (at the game's size when one is under way) unless a preset is asked
    for. A preset's rules open with whose they are: at a table a reader would otherwise take
    them for the table's, and with no table for rules already agreed on. With no table and
    no preset asked for, the channel's `house` rules where it keeps some: the next table
    starts from them, not from classic's (play-test 33); where they are a preset's own
    unchanged (presi played as it comes), that preset's page, as the starting rules. A
    `table` in another channel than the reader's is theirs, said where (`elsewhere`)."""
    if table is None and preset is None and house is not None and house.differences():
        return embed(t(locale, "rules.title.house", preset=preset_name(locale, house.preset_id)),
                     [t(locale, house_note), "",
                      *rules_page(locale, house)])
    if table is not None and preset is None:
        game = table.game
        seats = game.seats if game is not None else None  # else the lobby's range
        # (a revolution ends with its round: between rounds the next deal's order holds)
        revolution = game is not None and game.phase is Phase.PLAY and game.revolution
        name = table_preset_name(locale, table.rules)
        page = rules_page(locale, table.rules, seats, revolution)
        if elsewhere:
            return embed(t(locale, "rules.title.yours", preset=name), [elsewhere, "", *page])
        return embed(t(locale, "rules.title", preset=name), page)
    chosen = preset or (house.preset_id if house is not None and table is None
                        else DEFAULT_PRESET)
    name = preset_name(locale, chosen)
    rules = Rules.preset(chosen)
    if table is None:
        note = t(locale, no_table)  # (a thread's wording where asked in one)
    elif table.rules == rules:
        note = t(locale, "rules.same_as_table")
    else:
        note = t(locale, "rules.not_this_table", preset=name)
    return embed(t(locale, "rules.title.preset", preset=name),
                 [note, "", *rules_page(locale, rules)])


def embed(title: str, lines: list[str]) -> discord.Embed:
    return discord.Embed(title=title, description=cut("\n".join(lines), EMBED_DESCRIPTION))
