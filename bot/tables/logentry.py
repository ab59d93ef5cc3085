"""One line of a table's history (`LogEntry`), the keys of the lines the table itself looks
for, how a line's placeholders are read back, and the lobby's notice as a stored table
gives it back (`stored_notice`).

Apart from `Table`, which keeps its recent lines, because the wording of lines
(`bot.packages.game.lines`) and the events turned into them (`bot.tables.log`) read
lines without the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TypeVar

from bot.tables.snapshot import LineParams, LogSnapshot, TableSnapshot

# The history line a restored table gets (`Outages.adopt`): shown for the run that
# restored it, never stored. The versions before it cannot word it: stored, it failed their
# every redraw of every table under way (a KeyError) once an operator rolled back to one
# (docs/deploy.md, « Rolling back »). Each restore says it again, once.
RESTARTED = "ev.restarted"
# The history line saying a presi leaver's seat waits for them, and until when
# (`Seating.remove`); `graces.graces_waited` moves its time with their grace's.
AWAY = "ev.away"
# The giver's exchange note when the exchange's timer chose their cards (`log.note`): what
# says, this round, that a gift refused as already given was the timer's (`Table.gave_late`).
GAVE_LATE = "hand.gave_late"


@dataclass
class LogEntry:
    """One line of the table's recent events, kept as a catalogue key so each reader's
    language can render it; `cards` is rendered as words ("deux Rois") at display time.
    `people`: whom it names (by id) that the table may no longer hold, such as a leaver
    whose absence cancelled the game: the line keeps them among `Table.people`, so that
    an owed edit showing it goes with their erasure, and storage sees them named while it
    is shown (`Storage.open_tables_holding`)."""

    key: str
    params: LineParams = field(default_factory=dict)
    people: tuple[int, ...] = ()

    def to_dict(self) -> LogSnapshot:
        d: LogSnapshot = {"key": self.key, "params": self.params}
        if self.people:
            d["people"] = list(self.people)
        return d

    @classmethod
    def from_dict(cls, d: LogSnapshot) -> LogEntry:
        return cls(d["key"], dict(d.get("params", {})), tuple(d.get("people", ())))


P = TypeVar("P")


def given(params: LineParams, key: str, kind: type[P]) -> P:
    """A line's placeholder as its line stores it (a play's value a word, its count a
    number); a `TypeError` where a stored line holds something else, which leaves the line
    unworded (`lines.drop_unworded` drops it), as a missing one does (`KeyError`)."""
    value = params[key]
    if not isinstance(value, kind):
        raise TypeError(f"{key} is {type(value).__name__}, not {kind.__name__}")
    return value


def maybe(params: LineParams, key: str, kind: type[P]) -> P | None:
    """`given` for a placeholder a line may lack or hold None (a play's announce)."""
    return None if params.get(key) is None else given(params, key, kind)


def line_cards(params: LineParams) -> list[str]:
    """A line's cards, as codes (a play's, an exchange note's)."""
    codes = params["cards"]
    if not isinstance(codes, list):
        raise TypeError(f"cards is {type(codes).__name__}, not a list")
    return codes


def stored_notice(d: TableSnapshot) -> LogEntry | None:
    """The lobby's notice. One saying a person took a bot's seat, stored before it named
    them by id (stop 46), is given the id of the one seated person of that name: their
    leaving then ends it, where it stayed until the lobby's next change (stop 47). With
    no such person it already speaks of someone gone, and is dropped."""
    stored = d.get("notice")
    if not stored:
        return None
    notice = LogEntry.from_dict(stored)
    if notice.key != "lobby.bot_gave_way" or notice.people:
        return notice
    named = [user for p in d["seats"]
             if (user := p["user_id"]) is not None and p["name"] == notice.params.get("name")]
    return replace(notice, people=(named[0],)) if len(named) == 1 else None
