"""Engine events as lines of the table's recent history ("Alice plays two Kings").

Lines keep catalogue keys and raw cards, not sentences, so each reader's language renders
them; players' names are captured now because a seat may change hands later.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.tables.table import LogEntry
from engine import Event
from engine.events import (
    AutopilotChanged,
    ExchangeDone,
    Left,
    Out,
    Passed,
    Penalised,
    Played,
    RevolutionChanged,
    RoundOver,
    SameOrPass,
    Skipped,
    TimedOut,
    TrickClosed,
)


def entry_for(event: Event, name: Callable[[int], str]) -> LogEntry | None:
    """The history line for an event, or None for events the table shows otherwise."""
    if isinstance(event, Played):
        return LogEntry("ev.played", {
            "name": name(event.seat), "cards": [str(c) for c in event.cards],
            "value": event.value, "count": event.count, "announce": event.announce,
            "special": event.special,
        })
    if isinstance(event, Passed):
        return LogEntry("ev.passed", {"name": name(event.seat)})
    if isinstance(event, Skipped):
        return LogEntry("ev.skipped", {"name": name(event.seat)})
    if isinstance(event, SameOrPass):
        return LogEntry("ev.same_or_pass", {"name": name(event.seat)})
    if isinstance(event, TrickClosed):
        return LogEntry("ev.trick_closed", {"name": name(event.winner)})
    if isinstance(event, RevolutionChanged):
        key = "ev.revolution_on" if event.active else "ev.revolution_off"
        return LogEntry(key, {"name": name(event.seat)})
    if isinstance(event, Out):
        return LogEntry("ev.out", {"name": name(event.seat), "place": event.position})
    if isinstance(event, Penalised):
        return LogEntry("ev.penalised", {"name": name(event.seat), "place": event.place,
                                         "rank": event.rank})
    if isinstance(event, RoundOver):
        return LogEntry("ev.round_over", {"round": event.round_no})
    if isinstance(event, ExchangeDone):
        return LogEntry("ev.exchange_done")
    if isinstance(event, TimedOut):
        if event.seat is None:
            return LogEntry("ev.timeout_table")
        return LogEntry("ev.timeout", {"name": name(event.seat)})
    if isinstance(event, AutopilotChanged):
        key = "ev.autopilot_on" if event.active else "ev.autopilot_off"
        return LogEntry(key, {"name": name(event.seat)})
    if isinstance(event, Left):
        return LogEntry("ev.left", {"name": name(event.seat)})
    return None
