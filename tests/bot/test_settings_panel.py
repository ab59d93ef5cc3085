"""The settings panel and its summary drawn from rules alone (no Discord): a knob is always in
the same menu and at the same place among the others, whatever the preset or fast mode, so a
host finds it again; within Discord's limits."""

import re
from itertools import product
from typing import Any

import discord

from bot.i18n.typography import french
from bot.packages.rules_text import full, rules_page, summary
from bot.packages.settings.views import WAYS_OUT, every_clash, settings_screen
from bot.tables.players import Player
from bot.tables.table import Table
from engine import KNOBS, PRESETS, KnobGroup, Rules, RulesError


def rules_for(preset: str, fast: bool) -> Rules:
    """A preset, with fast mode on or off (proletario's one-lap tricks exclude it: in fast
    mode its tricks end when all have passed)."""
    return Rules.preset(preset, **({"fast": True, "trick_end": "all_passed"} if fast else {}))


# Between them they make every knob apply and not apply (jokers, equals, fast mode, leaving).
VARIANTS = [rules_for(preset, fast) for preset in PRESETS for fast in (False, True)]
HEADINGS = {"fr": ["**🃏 Plis et cartes**", "**🪑 Manches, échange et table**"],
            "en": ["**🃏 Tricks and cards**", "**🪑 Rounds, exchange and table**"]}


def panel(rules: Rules, locale: str = "fr", focus: str = "") -> discord.ui.View:
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale=locale, rules=rules,
                  seats=[Player(100, "p0")])
    view = settings_screen(table, locale, focus=focus).view
    assert view is not None
    return view


def selects(view: discord.ui.View) -> list[discord.ui.Select[Any]]:
    inner = [item.item if isinstance(item, discord.ui.DynamicItem) else item
             for item in view.children]
    return [item for item in inner if isinstance(item, discord.ui.Select)]


def knob_menus(view: discord.ui.View) -> list[discord.ui.Select[Any]]:
    return [s for s in selects(view) if ":knob:" in (s.custom_id or "")]


def test_every_knob_has_a_group_that_fits_one_menu() -> None:
    assert all(isinstance(spec.group, KnobGroup) for spec in KNOBS.values())
    for group in KnobGroup:
        assert 0 < sum(spec.group is group for spec in KNOBS.values()) <= 25, group
    # Each group's knobs together, groups in order: every list in KNOBS order (the lobby,
    # /president rules) reads as the panel does.
    groups = [spec.group for spec in KNOBS.values()]
    assert groups == sorted(groups, key=list(KnobGroup).index)


def test_a_knob_keeps_its_menu_and_its_place_under_every_preset_and_fast_mode() -> None:
    menu_of: dict[str, int] = {}
    before: set[tuple[str, str]] = set()  # (a, b): a was offered above b in their menu
    placeholders: set[tuple[str, ...]] = set()
    for rules in VARIANTS:
        menus = knob_menus(panel(rules))
        assert len(menus) == len(KnobGroup)
        placeholders.add(tuple(m.placeholder or "" for m in menus))
        for index, menu in enumerate(menus):
            names = [o.value for o in menu.options]
            assert 0 < len(names) <= 25
            for name in names:
                assert menu_of.setdefault(name, index) == index, (rules.describe(), name)
            before |= {(a, b) for i, a in enumerate(names) for b in names[i + 1:]}
    assert set(menu_of) == set(KNOBS)  # every knob was offered somewhere
    assert not {(b, a) for a, b in before} & before  # never two knobs the other way round
    assert placeholders == {(french("🃏 Plis et cartes : changer une règle…"),
                             french("🪑 Manches, échange et table : changer une règle…"))}
    assert menu_of["revolution"] == 0 and menu_of["turn_seconds"] == menu_of["fast"] == 1


def test_the_panel_keeps_within_five_rows_while_a_value_menu_is_open() -> None:
    for rules in VARIANTS:
        for name, spec in KNOBS.items():
            if spec.kind != "choice" or not rules.applies(name):
                continue
            view = panel(rules, focus=name)
            assert len(view.to_components()) <= 5, (rules.describe(), name)
            assert all(len(s.options) <= 25 for s in selects(view))
            assert any(s.custom_id == f"pz:7:value:0:{name}" for s in selects(view))


def test_the_summary_shows_the_menus_groups_under_headings_in_both_languages() -> None:
    for locale, headings in HEADINGS.items():
        for rules in VARIANTS:
            lines = full(locale, rules)
            assert [line for line in lines if line in headings] == headings
            second = lines.index(headings[1])
            sections = lines[1:second - 1], lines[second + 1:]
            assert lines[second - 1] == ""
            for section, menu in zip(sections, knob_menus(panel(rules, locale)), strict=True):
                shown = [re.match(r"\S+ \*\*(.+?)\*\*", line) for line in section]
                assert [m.group(1) for m in shown if m] == [o.label for o in menu.options]


def test_changed_rules_are_listed_in_the_panels_order() -> None:
    rules = Rules.preset("classic", on_leave="wait_then_cancel", timeout_action="smallest",
                         revolution=False, reseat_by_rank=True, deal_extras="to_top")
    offered = [o.label for menu in knob_menus(panel(rules)) for o in menu.options]
    lobby = summary("fr", rules)
    changed = [label for label in offered if french(f"{label} :") in lobby]
    assert len(changed) == 5
    page = "\n".join(rules_page("fr", rules))
    page = page[page.index(french("Réglages changés par rapport au préréglage :")):]
    for text in (lobby, page):
        assert sorted(changed, key=text.index) == changed


def _tables_reached(preset: str) -> list[Rules]:
    """A preset with each deck, opener of the first round and top single card (the preset's
    or none) the engine accepts together, fast mode on and off: the tables a host's panel
    can reach before picking one more value."""
    base = Rules.preset(preset)
    reached = []
    for deck, opener, card, fast in product(KNOBS["deck"].choices, KNOBS["first_opener"].choices,
                                            (base.top_single, None), (False, True)):
        try:
            reached.append(base.replace(deck=deck, first_opener=opener, top_single=card,
                                        fast=fast, trick_end="all_passed" if fast
                                        else base.trick_end))
        except RulesError:
            continue
    return reached


def test_a_refused_value_names_each_knob_to_set_first_once_and_all_of_them() -> None:
    """Every value a value menu offers at every table the panel reaches: a refused one is
    told with every clash it meets (`every_clash`), each about the knob picked and naming
    another knob once, and setting the knobs named as told lets the value through; a clash
    with no way out of `WAYS_OUT` but the knob picked (one-lap tricks in fast mode, an
    opener not in the deck) is told alone."""
    refused = 0
    for preset in PRESETS:
        for rules in _tables_reached(preset):
            for name, spec in KNOBS.items():
                for value in spec.choices if spec.kind == "choice" else ():
                    try:
                        rules.replace(**{name: value})
                        continue
                    except RulesError as err:
                        clashes = every_clash(rules, err, name, value)
                    refused += 1
                    assert all(name in clash.involved for clash in clashes)
                    named = [next(k for k in clash.involved if k != name) for clash in clashes]
                    assert len(set(named)) == len(named), (preset, name, value, named)
                    ways = [WAYS_OUT.get(clash.conflict or "") for clash in clashes]
                    if any(way is None or way[0] == name for way in ways):
                        assert len(clashes) == 1, (preset, name, value, named)
                        continue
                    rules.replace(**{name: value, **dict(w for w in ways if w is not None)})
    assert refused > 100
