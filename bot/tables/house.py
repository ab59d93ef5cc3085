"""The house rules a new table starts from: the rules its channel last played, or its host
last confirmed (docs/bot.md, « Play-test 33: the house rules »).

They are read back from storage as some version of the bot wrote them (`Rules.to_dict`): one
that knew a knob this one does not, or a value it no longer takes. Such a knob is left at
the preset's value and named in the lobby; rules that do not hold together once it is gone,
or a preset this version does not know, leave the whole set aside for the preset's defaults,
said as plainly. A table always opens.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from engine import KNOBS, PRESETS, Rules, RulesError

#: The preset a table opens at when its channel keeps no house rules and none is asked for.
DEFAULT_PRESET = "classic"
#: The stored knobs a lobby names when some cannot be read back; the rest are counted.
DROPPED_NAMED = 3
#: Characters of a stored knob's name a lobby shows: it was written by some other version.
NAME_SHOWN = 32


class HouseSnapshot(TypedDict):
    """`House` as a table's snapshot keeps it (`TableSnapshot.house`)."""

    dropped: list[str]
    unreadable: bool


@dataclass(frozen=True)
class House:
    """What the lobby says of a table that opened on its channel's house rules, until the
    host changes the rules or a game starts (`Table.house`)."""

    # Knobs stored that this version could not read back, left at the preset's value.
    dropped: tuple[str, ...] = ()
    # Nothing stored could be used: the table opened at the preset's defaults.
    unreadable: bool = False

    def to_dict(self) -> HouseSnapshot:
        return {"dropped": list(self.dropped), "unreadable": self.unreadable}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> House:
        return cls(tuple(str(name) for name in d.get("dropped", ())),
                   bool(d.get("unreadable", False)))


def shown_name(name: str) -> str:
    """A stored knob's name as a public lobby may show it: a knob's name is a word of
    letters, digits and « _ », and a stored one is text some other version wrote."""
    return re.sub(r"[^A-Za-z0-9_]", "", name)[:NAME_SHOWN] or "?"


def channel_of(channel_id: int, parent_id: int | None) -> int:
    """The channel whose house rules a table keeps and starts from: a thread's are its
    channel's (a new thread each evening under the regulars' channel plays their rules)."""
    return parent_id if parent_id is not None else channel_id


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
