"""The public lobby message: who sits, the rules in one line, and the lobby buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import join_names, t
from bot.packages.controls import button, select, view
from bot.packages.rules_text import preset_name, summary
from bot.packages.screen import Screen
from bot.tables.table import Table
from engine.bots import LEVELS


def lobby_screen(table: Table) -> Screen:
    loc = table.locale
    if table.closed:
        return Screen(t(loc, "lobby.closed"), view())
    lines = [t(loc, "lobby.title", preset=preset_name(loc, table.rules.preset_id)),
             t(loc, "lobby.rules", summary=summary(loc, table.rules))]
    if table.running:
        lines.append(t(loc, "lobby.started"))
        return Screen("\n".join(lines), view())
    if table.notice is not None:
        lines.append(t(loc, table.notice.key, **table.notice.params))
    lines.append(t(loc, "lobby.seats", count=len(table.seats), capacity=table.capacity()))
    if not table.seats:
        lines.append(t(loc, "lobby.empty"))
    for index, player in enumerate(table.seats, start=1):
        marks = []
        if player.user_id is not None and table.is_host(player.user_id):
            marks.append("👑 " + t(loc, "host.mark"))
        if player.is_bot:
            marks.append("🤖 " + t(loc, "bot.mark_level", level=t(loc, f"level.{player.level}")))
        suffix = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"{index}. **{player.name}**{suffix}")
    if table.queue:
        lines.append(t(loc, "lobby.queue", names=join_names(loc, [p.name for p in table.queue])))
    lines.append("")
    lines.append(t(loc, "lobby.hint"))
    lines.append(t(loc, "lobby.rules_hint"))  # the only way to the full rules, for a newcomer
    return Screen("\n".join(lines), lobby_view(table))


def lobby_view(table: Table) -> discord.ui.View:
    loc = table.locale
    items: list[discord.ui.Item[Any]] = [
        button(table.id, "join", t(loc, "btn.join"), style=discord.ButtonStyle.primary),
        button(table.id, "leave", t(loc, "btn.leave")),
        button(table.id, "addbot", t(loc, "btn.addbot")),
        button(table.id, "settings", t(loc, "btn.settings")),
        button(table.id, "start", t(loc, "btn.start"), style=discord.ButtonStyle.success),
    ]
    if table.rules.preset_id == "presi":
        items.append(button(table.id, "vsbots", t(loc, "btn.vs_bots"), row=1))
    if any(p.is_bot for p in table.seats):
        items.append(button(table.id, "removebot", t(loc, "btn.removebot"), row=1))
    # « Ajouter un bot » seats one at the table's default level; this picks another.
    items.append(select(
        table.id, "addbot_level", t(loc, "lobby.addbot_level"),
        [discord.SelectOption(label=t(loc, f"level.{level}"), value=level,
                              description=t(loc, f"level.{level}.desc")[:100])
         for level in LEVELS],
        row=2))
    return view(*items)
