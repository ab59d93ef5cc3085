"""Engine events as lines of the table's recent history ("Alice plays two Kings").

Lines keep catalogue keys and raw cards, not sentences, so each reader's language renders
them; players' names are captured now because a seat may change hands later.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from bot.i18n import has
from bot.tables.logentry import GAVE_LATE, LogEntry
from bot.tables.snapshot import LineParams
from bot.tables.table import Table
from engine import Event
from engine.events import (
    AutopilotChanged,
    Dealt,
    ExchangeDone,
    ExchangeGiven,
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

# The role whose holder opens a later round, by the ``round_opener`` value that chose them.
OPENER_ROLE = {"last_place": "L", "first_place": "P"}


def opens(seat: int, why: str | None, who: Callable[[int], LineParams],
          free: bool = False) -> LogEntry:
    """Who opens the round and why: « Dame de cœur : Alice ouvre », « Trou du cul : … ».
    `free` (fast mode, RULES §9): nobody opens first, the queen of hearts' holder included;
    the engine's opener only acts if the timer runs out."""
    if free:
        return LogEntry("ev.opens_free")
    params = who(seat)
    if why in OPENER_ROLE:
        params["role"] = OPENER_ROLE[why]
    return LogEntry(f"ev.opens.{why or 'given'}", params)


def note(table: Table, event: Event, *, late: Collection[int] = ()) -> None:
    """Write an event into the table's history, and an exchange into both players' notes;
    `late`: the givers the exchange's timer gave for (`TimedOut.late`), whose note says so
    (« Tu as donné 3♣ 4♣ » read as their own choice). Who made a play goes with the trick
    too (`note_trick`)."""
    note_trick(table, event)
    for entry in entries_for(event, named(table), free_opening=table.rules.fast,
                             on_equal=table.rules.on_equal):
        if entry.key == "ev.penalised" and table.log and table.log[-1].key == "ev.out" \
                and table.log[-1].params["name"] == entry.params["name"]:
            table.log.pop()  # « sort (1er) » then « classé 4e » would contradict itself
        last = table.log[-1] if table.log else None
        if entry.key == "ev.played" and last is not None and last.key == "ev.timeout_table":
            # Fast mode's timer opened for them: « time is up • alice plays a 3 » read as
            # alice's own move.
            table.log.pop()
            entry = LogEntry("ev.played_timeout", entry.params, entry.people)
        elif entry.key in ("ev.passed", "ev.played") and last is not None and \
                last.key == "ev.timeout" and last.params["name"] == entry.params["name"]:
            # « fred ran out of time • fred passes »: two of the ten lines per turn of a
            # friend away from the keyboard (play-test 14), one now.
            table.log.pop()
            entry = LogEntry(entry.key + "_late", entry.params, entry.people)
        elif entry.key == "ev.trick_closed.timeout" and last is not None and \
                last.key == "ev.timeout_table":
            table.log.pop()  # « time is up • time is up: bob wins the trick »
        elif entry.key == "ev.trick_closed.finished" and last is not None and \
                last.key == "ev.out" and last.params["name"] == entry.params["name"]:
            # « is out (3rd) • goes out and closes the trick »: one line, a tenth of the
            # history at a table of six.
            table.log.pop()
            entry = LogEntry("ev.out_closes", last.params)
        table.remember(entry)
    if isinstance(event, ExchangeGiven):
        cards = [str(c) for c in event.cards]
        gave = GAVE_LATE if event.giver in late else "hand.gave"
        table.exchange_notes.setdefault(event.giver, []).append(
            LogEntry(gave, {"cards": cards, **_partner(table, event.receiver)}))
        table.exchange_notes.setdefault(event.receiver, []).append(
            LogEntry("hand.received", {"cards": cards, **_partner(table, event.giver)}))


def named(table: Table) -> Callable[[int], LineParams]:
    """How a history line names a seat's player: their name, and whether a bot held the
    seat, for the line to mark it as the table message marks bots (« 🤖 Bot 1 »). Kept
    beside the name, not in it: a line from an older snapshot has no mark and reads as it
    did, and the lines compare names alone (`note`)."""
    def who(seat: int) -> LineParams:
        player = table.seats[seat]
        return {"name": player.name, **({"bot": True} if player.is_bot else {})}
    return who


def note_trick(table: Table, event: Event) -> None:
    """Keep who made a play beside the trick it lies in (`Table.trick_by`), named now as its
    history line names them (`named`), with its seat: the seat's holder later may be
    someone else. A closed trick, a round's end or a new deal empties the trick."""
    if isinstance(event, Played):
        table.trick_by.append({"seat": event.seat, **named(table)(event.seat)})
    elif isinstance(event, TrickClosed | RoundOver | Dealt):
        table.trick_by.clear()


def _partner(table: Table, seat: int) -> dict[str, str]:
    """Whom an exchange note names: a bot's level kept beside its name, for the hand to
    name it as the table message names bots (the seat may hold someone else by then)."""
    player = table.seats[seat]
    return {"name": player.name, **({"level": player.level} if player.is_bot else {})}


def note_skips(table: Table, events: list[Event]) -> None:
    """Keep, for each seat an equal answer skipped, why, worded for them in their hand
    (`Table.skipped`): the same reason as the history's line, with who answered equal (the
    play just before). A closed trick or a new deal ends them; their own turn too
    (`Table.forget_skips`, once the events are applied)."""
    answered: int | None = None
    for event in events:
        if isinstance(event, Played):
            answered = event.seat
        elif isinstance(event, Skipped):
            key = f"hand.skipped.{table.rules.on_equal}"
            if answered is not None and has(key):
                table.skipped[event.seat] = LogEntry(key, named(table)(answered))
            else:
                table.skipped[event.seat] = LogEntry("hand.skipped")
        elif isinstance(event, TrickClosed | RoundOver | Dealt):
            table.skipped.clear()
    table.forget_skips()


def entries_for(event: Event, who: Callable[[int], LineParams], *,
                free_opening: bool = False, on_equal: str = "none") -> list[LogEntry]:
    """The history lines for an event (none for events the table shows otherwise);
    `free_opening`: anyone may open a round (fast mode); `on_equal`: the rule that skips a
    turn after an equal answer, which the skip names."""
    if isinstance(event, TimedOut) and event.late:
        # Whose time ran out, not only that it did; never which cards (a gift is private).
        return [LogEntry("ev.timeout_gift", who(seat)) for seat in event.late]
    entry = entry_for(event, who, free_opening=free_opening, on_equal=on_equal)
    lines = [entry] if entry is not None else []
    if isinstance(event, ExchangeDone) and event.opener is not None:
        lines.append(opens(event.opener, event.why, who, free_opening))
    return lines


def entry_for(event: Event, who: Callable[[int], LineParams], *,
              free_opening: bool = False, on_equal: str = "none") -> LogEntry | None:
    """The main history line for an event, or None for events the table shows otherwise."""
    if isinstance(event, Played):
        return LogEntry("ev.played", {
            **who(event.seat), "cards": [str(c) for c in event.cards],
            "value": event.value, "count": event.count, "announce": event.announce,
            "special": event.special,
        })
    if isinstance(event, Passed):
        return LogEntry("ev.passed", who(event.seat))
    if isinstance(event, Skipped):  # why: « ta gueule » (none of that value), presi's rule
        why = f"ev.skipped.{on_equal}"
        return LogEntry(why if has(why) else "ev.skipped", who(event.seat))
    if isinstance(event, SameOrPass):
        return LogEntry("ev.same_or_pass", who(event.seat))
    if isinstance(event, TrickClosed):  # why it closed: « un 2 ferme le pli », …
        return LogEntry(f"ev.trick_closed.{event.reason}", {**who(event.winner),
                                                             "value": event.value})
    if isinstance(event, RevolutionChanged):
        key = "ev.revolution_on" if event.active else "ev.revolution_off"
        return LogEntry(key, who(event.seat))
    if isinstance(event, Out):
        return LogEntry("ev.out", {**who(event.seat), "place": event.place})
    if isinstance(event, Penalised):
        return LogEntry("ev.penalised", {**who(event.seat), "place": event.place,
                                         "rank": event.rank})
    if isinstance(event, RoundOver):
        return LogEntry("ev.round_over", {"round": event.round_no})
    if isinstance(event, ExchangeDone):
        return LogEntry("ev.exchange_done")
    if isinstance(event, Dealt) and event.opener is not None:
        return opens(event.opener, event.why, who, free_opening)
    if isinstance(event, TimedOut):
        if event.seat is None:
            return LogEntry("ev.timeout_table")
        return LogEntry("ev.timeout", who(event.seat))
    if isinstance(event, AutopilotChanged):
        key = "ev.autopilot_on" if event.active else "ev.autopilot_off"
        return LogEntry(key, who(event.seat))
    return None  # a Left is worded by the table (Seating.remove): who made them go
