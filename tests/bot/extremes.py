"""The longest things a lobby can be asked to show: Discord's longest names and the rules a
host can set whose summary is longest, for the tests of Discord's length limits."""

from __future__ import annotations

from bot.packages.rules_text import summary
from bot.packages.text import player_name
from engine import KNOBS, KnobSpec, Rules, RulesError

# Discord's longest display name, every character but one to escape, and that one right
# to left, so the name stands between isolates as well.
LONG_TYPED = "\u05d0" + "_" * 31
LONGEST_NAME = player_name(LONG_TYPED)


def candidates(spec: KnobSpec) -> list[object]:
    """Values a host can give the knob, its extremes for numbers."""
    if spec.kind == "bool":
        return [True, False]
    if spec.kind == "choice":
        return list(spec.choices)
    if spec.kind in ("int", "optional_int"):
        return [spec.min, spec.max, *([None] if spec.kind == "optional_int" else [])]
    if spec.kind == "game_end":
        return ["unlimited", "rounds:99", "target:99"]
    if spec.kind == "points":
        return ["P99 VP98 N97 VL96 L95"]
    if spec.kind == "card":
        return ["none", "2S", "2H", "2C", "2D", "2O"]
    raise AssertionError(spec.kind)


def longest_rules(preset: str, locale: str) -> Rules:
    """The preset with 8 seats and, knob by knob, the valid value whose summary is longest:
    as many knobs changed as can show at once, each in its longest words."""
    rules = Rules.preset(preset).replace(max_players=8)
    for _ in range(2):  # a second pass: a knob may show only once a later one changed
        for name, spec in KNOBS.items():
            for value in candidates(spec):
                try:
                    tried = rules.replace(**{name: value})
                except (RulesError, ValueError):
                    continue
                if len(summary(locale, tried)) > len(summary(locale, rules)):
                    rules = tried
    return rules
