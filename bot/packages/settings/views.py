"""The host's settings panel: every knob of RULES.md, starting from the chosen preset.

Yes/no knobs toggle on pick, choice knobs open a select of their values, numbers and other
typed values open a modal. The engine validates every change (`Rules.replace`); a refused
value leaves the rules as they were and shows the engine's reason on top of the panel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.packages.controls import (
    Click,
    action,
    button,
    custom_id,
    error_text,
    select,
    view,
)
from bot.packages.rules_text import full, knob_label, knob_value, preset_name
from bot.packages.screen import Screen
from bot.tables.service import TableError
from bot.tables.table import Table
from engine import KNOBS, PRESETS, Rules, RulesError

if TYPE_CHECKING:
    from bot.client import PresidentBot

    Interaction = discord.Interaction[PresidentBot]

KNOB_NAMES = list(KNOBS)
HALF = (len(KNOB_NAMES) + 1) // 2
TYPED_KINDS = ("int", "optional_int", "points", "game_end", "card")


def settings_screen(table: Table, locale: str, *, focus: str = "", notice: str = "") -> Screen:
    rules = table.rules
    lines = [notice] if notice else []
    lines.append(t(locale, "settings.title", preset=preset_name(locale, rules.preset_id)))
    embed_text = "\n".join(full(locale, rules))
    items: list[discord.ui.Item[Any]] = [select(
        table.id, "preset", t(locale, "settings.pick_preset"),
        [discord.SelectOption(label=preset_name(locale, p), value=p,
                              default=p == rules.preset_id) for p in PRESETS],
        row=0)]
    for part, names in enumerate((KNOB_NAMES[:HALF], KNOB_NAMES[HALF:])):
        options = [discord.SelectOption(
            label=knob_label(locale, name)[:100], value=name,
            description=knob_value(locale, name, getattr(rules, name), rules)[:100],
            default=name == focus) for name in names]
        items.append(select(table.id, "knob", t(locale, "settings.pick_knob", part=part + 1),
                            options, arg=str(part), row=1 + part))
    if focus and KNOBS[focus].kind == "choice":
        current = getattr(rules, focus)
        items.append(select(
            table.id, "value", t(locale, "settings.pick_value", knob=knob_label(locale, focus)),
            [discord.SelectOption(label=knob_value(locale, focus, c, rules)[:100], value=c,
                                  default=c == current) for c in KNOBS[focus].choices],
            arg=focus, row=3))
    items.append(button(table.id, "reset", t(locale, "settings.reset"), row=4))
    items.append(button(table.id, "done", t(locale, "settings.done"),
                        style=discord.ButtonStyle.success, row=4))
    screen = Screen("\n".join(lines), view(*items))
    screen.embed = discord.Embed(description=embed_text[:4096])
    return screen


async def open_settings(interaction: Interaction, table: Table) -> None:
    """Host only, before the start: the panel as an ephemeral message."""
    if not table.is_host(interaction.user.id):
        raise TableError("err.not_host", host=table.host_id)
    if table.running:
        raise TableError("err.settings_locked")
    screen = settings_screen(table, str(interaction.locale))
    await interaction.response.send_message(ephemeral=True, **screen.kwargs())


async def apply(interaction: Interaction, table: Table, make: Callable[[], Rules],
                knob: str = "") -> None:
    """Build new rules with `make()`; show the panel again, with the engine's refusal if any."""
    locale = str(interaction.locale)
    notice = ""
    try:
        rules = make()
    except RulesError as err:
        label = knob_label(locale, err.knob) if err.knob in KNOBS else err.knob
        notice = "⚠️ " + t(locale, "err.setting_invalid", knob=label, detail=str(err))
    else:
        try:
            await interaction.client.service.set_rules(table, interaction.user.id, rules)
        except TableError as err:
            notice = "⚠️ " + error_text(locale, err)
            knob = ""
        if knob:
            notice = "✅ " + t(locale, "settings.saved", knob=knob_label(locale, knob),
                              value=knob_value(locale, knob, getattr(rules, knob), rules))
    screen = settings_screen(table, locale, notice=notice)
    await interaction.response.edit_message(**screen.kwargs())


def _check(click: Click) -> None:
    if not click.table.is_host(click.user_id):
        raise TableError("err.not_host", host=click.table.host_id)
    if click.table.running:
        raise TableError("err.settings_locked")


@action("preset")
async def pick_preset(click: Click) -> None:
    _check(click)
    await apply(click.interaction, click.table, lambda: Rules.preset(click.values[0]))


@action("reset")
async def reset(click: Click) -> None:
    _check(click)
    await apply(click.interaction, click.table, lambda: Rules.preset(click.table.rules.preset_id))


@action("done")
async def done(click: Click) -> None:
    await click.interaction.response.edit_message(
        content=t(click.locale, "settings.closed"), embed=None, view=None)


@action("knob")
async def pick_knob(click: Click) -> None:
    _check(click)
    name = click.values[0] if click.values else ""
    if name not in KNOBS:
        raise TableError("err.unknown_control")
    spec = KNOBS[name]
    rules = click.table.rules
    if spec.kind == "bool":
        await apply(click.interaction, click.table,
                    lambda: rules.replace(**{name: not getattr(rules, name)}), name)
    elif spec.kind == "choice":
        screen = settings_screen(click.table, click.locale, focus=name)
        await click.interaction.response.edit_message(**screen.kwargs())
    else:
        await click.interaction.response.send_modal(KnobModal(click.table, name, click.locale))


@action("value")
async def pick_value(click: Click) -> None:
    _check(click)
    name = click.arg
    if name not in KNOBS or not click.values:
        raise TableError("err.unknown_control")
    rules = click.table.rules
    await apply(click.interaction, click.table, lambda: rules.replace(**{name: click.values[0]}),
                name)


class KnobModal(discord.ui.Modal):
    """One text field for a typed knob (numbers, points per role, game end, a card)."""

    def __init__(self, table: Table, knob: str, locale: str) -> None:
        super().__init__(title=t(locale, "settings.modal", knob=knob_label(locale, knob))[:45],
                         custom_id=custom_id(table.id, "modal", 0, knob), timeout=600)
        self.table = table
        self.knob = knob
        spec = KNOBS[knob]
        current = spec.format(getattr(table.rules, knob))
        self.field: discord.ui.TextInput[KnobModal] = discord.ui.TextInput(
            label=t(locale, "settings.modal.field")[:45], default=current[:4000],
            placeholder=t(locale, "settings.modal.hint", value=current)[:100], max_length=100)
        self.add_item(self.field)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        table = self.table
        if table.closed:
            await interaction.response.send_message(t(interaction.locale, "err.table_gone"),
                                                    ephemeral=True)
            return
        try:
            if not table.is_host(interaction.user.id):
                raise TableError("err.not_host", host=table.host_id)
            if table.running:
                raise TableError("err.settings_locked")
            rules = table.rules
            value = self.field.value
            await apply(interaction, table, lambda: rules.replace(**{self.knob: value}),
                        self.knob)
        except TableError as err:
            await interaction.response.send_message(error_text(interaction.locale, err),
                                                    ephemeral=True)
