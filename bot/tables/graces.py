"""How long a presi leaver's seat waits for them (`Table.away`), moved as the clocks stand still.

Apart from `Table` because it keeps two things in step, each seat's deadline and the
history's line that words it (`AWAY`): a restart, an outage or a host's break moves
both (`bot.tables.outages`), and a break shows the time a seat will still wait
(`bot.packages.game.lines`).
"""

from __future__ import annotations

from bot.tables.logentry import AWAY, LogEntry
from bot.tables.table import Table


def graces_waited(table: Table, waited: float, now: float) -> None:
    """The presi leavers' clocks stood still for `waited` seconds until `now` (a
    restart, an outage, a host's break): each seat waits that much longer, and the
    history's line that says until when (`AWAY`) says the time the table keeps: it
    showed the old one, the game then cancelled after the time it gave (play-test 15).
    The line keeps its key and placeholders, so that a version rolled back to words it
    still. A seat left while they stood still (during a break, where players still
    act) waits its whole grace from `now`, not that plus the whole wait: no one's grace
    has more left than it (a turn's timer started meanwhile counts from now too)."""
    latest = now + table.rules.leave_grace_seconds
    for user_id, before in list(table.away.items()):
        table.away[user_id] = min(before + waited, max(before, latest))
        for i, entry in enumerate(table.log):
            if _says_away(table, entry, user_id, before):
                table.log[i] = LogEntry(AWAY, {**entry.params,
                                              "deadline": int(table.away[user_id])},
                                       entry.people)


def grace_after_break(table: Table, entry: LogEntry) -> float | None:
    """During a host's break, the seconds an `AWAY` line's seat will still wait once
    the clocks run on, or None (no break, or not a line of a seat still waited for).
    The line's time may pass during the break, though the seat waits on: it showed it
    until « Continuer » moved it on (stop 49's review). This is what `graces_waited`
    will leave, whenever the break ends: the time left as it began, and the whole
    grace for one who left during it (the deadline's move is capped there)."""
    since = table.paused_since
    if table.pause is None or since is None or entry.key != AWAY:
        return None
    for user_id, deadline in table.away.items():
        if _says_away(table, entry, user_id, deadline):
            return max(0.0, min(deadline - since, table.rules.leave_grace_seconds))
    return None


def _says_away(table: Table, entry: LogEntry, user_id: int, deadline: float) -> bool:
    """Whether `entry` is the `AWAY` line telling until when `user_id`'s seat waits."""
    player = table.player(user_id)
    return entry.key == AWAY and entry.params.get("deadline") == int(deadline) \
        and (player is None or entry.params.get("name") == player.name)
