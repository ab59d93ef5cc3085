"""The house rules a new table starts from: the rules its channel last played, or its host
last confirmed (docs/bot.md, « Play-test 33: the house rules »).

They are read back from storage as some version of the bot wrote them (`Rules.to_dict`): one
that knew a knob this one does not, or a value it no longer takes. Such a knob is left at
the preset's value and named in the lobby; rules that do not hold together once it is gone,
or a preset this version does not know, leave the whole set aside for the preset's defaults,
said as plainly. A table always opens.

Beside the rules, the host's table settings (the bots' level, « Conseil », reminders) are
kept with them and read back the same way (« House rules, leftovers (stop 52) »).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from engine import KNOBS, PRESETS, Rules, RulesError
from engine.bots import LEVELS
from engine.jsonvalue import Json

#: The preset a table opens at when its channel keeps no house rules and none is asked for.
DEFAULT_PRESET = "classic"
#: The stored knobs a lobby names when some cannot be read back; the rest are counted.
DROPPED_NAMED = 3
#: Characters of a stored knob's name a lobby shows: it was written by some other version.
NAME_SHOWN = 32
#: The level of the bots a host adds when the table's settings say none other.
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class TableSettings:
    """The host's table settings beside the rules (`Table.bot_level`, `hints`,
    `reminders`), as a channel keeps them with its house rules: they shape what everyone at
    its tables meets (the bots they play, the hands' « Conseil », the pings posted in the
    channel), so they are the house's, like the rules, not a host's own."""

    bot_level: str = DEFAULT_LEVEL
    hints: bool = False
    reminders: bool = True

    def to_dict(self) -> dict[str, Json]:
        return {"bot_level": self.bot_level, "hints": self.hints,
                "reminders": self.reminders}

    def differences(self) -> tuple[str, ...]:
        """The settings not at their default, in the panel's order."""
        default = TableSettings()
        return tuple(name for name in SETTINGS
                     if getattr(self, name) != getattr(default, name))


#: Each table setting and whether a stored value may be it (anything else is another
#: version's, left at the default and named).
SETTINGS: dict[str, type] = {"bot_level": str, "hints": bool, "reminders": bool}


class HouseSnapshot(TypedDict):
    """`House` as a table's snapshot keeps it (`TableSnapshot.house`)."""

    dropped: list[str]
    unreadable: bool
    settings: NotRequired[list[str]]  # stop 52, written only when some
    own_thread: NotRequired[bool]  # stop 52, written only when true


@dataclass(frozen=True)
class House:
    """What the lobby says of a table that opened on its channel's house rules, until the
    host changes the rules or a game starts (`Table.house`)."""

    # Knobs stored that this version could not read back, left at the preset's value.
    dropped: tuple[str, ...] = ()
    # Nothing stored could be used: the table opened at the preset's defaults.
    unreadable: bool = False
    # The table settings the house set away from their defaults and the host has not
    # changed since (`TableSettings.differences`): « Revenir au préréglage » resets them.
    settings: tuple[str, ...] = ()
    # They are the thread's own, kept by its games (not its channel's).
    own_thread: bool = False

    def to_dict(self) -> HouseSnapshot:
        d: HouseSnapshot = {"dropped": list(self.dropped), "unreadable": self.unreadable}
        if self.settings:
            d["settings"] = list(self.settings)
        if self.own_thread:
            d["own_thread"] = True
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> House:
        return cls(tuple(str(name) for name in d.get("dropped", ())),
                   bool(d.get("unreadable", False)),
                   tuple(str(name) for name in d.get("settings", ()) if name in SETTINGS),
                   bool(d.get("own_thread", False)))


def shown_name(name: str) -> str:
    """A stored knob's name as a public lobby may show it: a knob's name is a word of
    letters, digits and « _ », and a stored one is text some other version wrote."""
    return re.sub(r"[^A-Za-z0-9_]", "", name)[:NAME_SHOWN] or "?"


def house_to_leave(house: House | None, rules: Rules) -> bool:
    """Whether a table on its house rules has something « Revenir au préréglage » would
    change: rules that are not the preset's own, or table settings the house set."""
    return house is not None and (bool(house.settings) or (
        not house.unreadable and bool(rules.differences())))


def places_of(channel_id: int, parent_id: int | None) -> tuple[int, int | None]:
    """Where a table keeps its house rules and reads them: its channel, and the thread
    it is in, if any. A thread's table keeps them under the thread and its channel: the
    regulars' new thread each evening starts from the channel's (their last evening's), a
    thread that played (a forum's post for each variant) from its own (stop 52)."""
    return (parent_id, channel_id) if parent_id is not None else (channel_id, None)


def read(stored: Mapping[str, Any] | None, preset: str | None) -> tuple[Rules, House | None]:
    """The rules a new table opens at: `stored` (the channel's house rules for `preset`, or
    its last ones when none is asked for) read leniently, else `preset`'s defaults. The
    `House` is None where there is nothing to say: no house rules, or house rules that are
    the preset's defaults."""
    asked = preset or DEFAULT_PRESET
    if stored is None:
        return Rules.preset(asked), None
    kept = stored.get("preset")
    if not isinstance(kept, str) or kept not in PRESETS:
        return Rules.preset(asked), House(unreadable=True)
    knobs = stored.get("set") or {}  # as `Rules.from_dict` reads it
    if not isinstance(knobs, Mapping):
        return Rules.preset(kept), House(unreadable=True)
    readable: dict[str, object] = {}
    dropped: list[str] = []
    for name, value in knobs.items():
        spec = KNOBS.get(str(name))
        try:
            if spec is None:
                raise ValueError(name)
            readable[str(name)] = spec.parse(value)
        except (ValueError, TypeError):
            dropped.append(shown_name(str(name)))
    try:
        rules = Rules.preset(kept, **readable)
    except RulesError:
        return Rules.preset(kept), House(unreadable=True)
    if not dropped and not rules.differences():
        return rules, None
    return rules, House(dropped=tuple(dropped))


def read_settings(stored: object) -> tuple[TableSettings, list[str]]:
    """The table settings kept with the house rules, read as leniently as the knobs: a
    setting this version does not know, or a value it does not take, stays at its default
    and is named; none kept (a row from before 0012), the defaults."""
    if stored is None:
        return TableSettings(), []
    if not isinstance(stored, Mapping):  # a shape no version wrote: nothing of it is used
        return TableSettings(), list(SETTINGS)
    readable: dict[str, Any] = {}
    dropped: list[str] = []
    for name, value in stored.items():
        kind = SETTINGS.get(str(name))
        if kind is None or type(value) is not kind \
                or (name == "bot_level" and value not in LEVELS):
            dropped.append(shown_name(str(name)))
        else:
            readable[str(name)] = value
    return TableSettings(**readable), dropped


def read_house(stored: Mapping[str, Any] | None, settings: object, preset: str | None,
               *, own_thread: bool = False) -> tuple[Rules, TableSettings, House | None]:
    """`read`, with the table settings kept beside the rules (`read_settings`): the rules,
    the settings and what the lobby says of them (None: nothing, all at their defaults)."""
    rules, house = read(stored, preset)
    table, dropped = read_settings(settings)
    changed = table.differences()
    if house is None and not dropped and not changed:
        return rules, table, None
    house = house or House()
    return rules, table, House(dropped=house.dropped + tuple(dropped),
                               unreadable=house.unreadable, settings=changed,
                               own_thread=own_thread)
