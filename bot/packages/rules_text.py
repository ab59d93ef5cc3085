"""Knob values and rule summaries in words, shared by the lobby, settings and /rules."""

from __future__ import annotations

from typing import Any

from bot.i18n import LocaleLike, has, plural, t
from bot.i18n.cards import short
from engine import KNOBS, Card, GameEnd, Rules
from engine.rules import ROLE_CODES


def knob_label(locale: LocaleLike, name: str) -> str:
    return t(locale, f"knob.{name}")


def knob_value(locale: LocaleLike, name: str, value: Any, rules: Rules) -> str:
    spec = KNOBS[name]
    if spec.kind == "bool":
        return t(locale, "yes" if value else "no")
    if spec.kind == "choice":
        key = f"knob.{name}.{value}"
        return t(locale, key) if has(key) else str(value)
    if spec.kind == "game_end":
        end: GameEnd = value
        if end.n is None:
            return t(locale, f"game_end.{end.kind}")
        return plural(locale, f"game_end.{end.kind}", end.n)
    if spec.kind == "points":
        return " · ".join(f"{t(locale, f'role.{rules.role_names}.{role}')} {value[role]}"
                          for role in ROLE_CODES)
    if spec.kind == "card":
        return t(locale, "none") if value is None else short(
            locale, value if isinstance(value, Card) else Card.parse(str(value)),
            rules.deck_kind.spanish)
    if spec.kind == "optional_int" and value is None:
        return t(locale, "never")
    return spec.format(value)


def preset_name(locale: LocaleLike, preset: str) -> str:
    return t(locale, f"preset.{preset}")


def summary(locale: LocaleLike, rules: Rules) -> str:
    """One line: how the game ends and every knob changed from the preset (the lobby's title
    names the preset)."""
    parts = [knob_value(locale, "game_end", rules.game_end, rules)]
    for name, value in rules.differences().items():
        if name != "game_end":
            parts.append(t(locale, "lobby.rule", knob=knob_label(locale, name),
                           value=knob_value(locale, name, value, rules)))
    return " · ".join(parts)


def full(locale: LocaleLike, rules: Rules) -> list[str]:
    """Every knob of the table with its value, changed ones marked."""
    base = Rules.preset(rules.preset_id)
    lines = []
    for name in KNOBS:
        value = getattr(rules, name)
        base_value = getattr(base, name)
        if value != base_value:
            lines.append(t(locale, "settings.line_changed", mark="✏️", knob=knob_label(locale, name),
                           value=knob_value(locale, name, value, rules),
                           base=knob_value(locale, name, base_value, base)))
        else:
            lines.append(t(locale, "settings.line", mark="▫️", knob=knob_label(locale, name),
                           value=knob_value(locale, name, value, rules)))
    return lines
