"""The host's break (play-test 29): « pause, 10 minutes », the pizza has arrived. Every clock
of the table waits, as during an outage (`Outages`), until the host says to play on; nobody
plays meanwhile, bots included, and each player gets back the time they had.

Who: the host, as for every choice that stops or changes everyone's game (the rules,
removing someone, ending it). A host gone quiet is replaced as for any host action
(`hosting.claim`): ten minutes into a break, anyone seated may end it, so a host who
wandered off with the pizza strands nobody. A player who needs a break asks the host."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables import hosting, refusals
from bot.tables.clock import Clock
from bot.tables.deadlines import Deadlines
from bot.tables.outages import Outages, clocks_waited
from bot.tables.refusals import TableError
from bot.tables.table import LogEntry, Pause, Table
from engine import Phase

# The longest reason a break is given (`/president pause`'s option, cut there as typed):
# a few words on the table message, not a paragraph (Discord allows 6,000).
REASON_LENGTH = 100


class Breaks:
    """`host_only` lets a host action through (the role taken over if need be), `changed`
    stores and shows the table: the service's."""

    def __init__(self, clock: Clock, deadlines: Deadlines, outages: Outages, *,
                 host_only: Callable[[Table, int], None],
                 changed: Callable[[Table], None]) -> None:
        self.clock = clock
        self.deadlines = deadlines
        self.outages = outages
        self._host_only = host_only
        self._changed = changed

    async def pause(self, table: Table, by: int, reason: str = "") -> None:
        """Hold every clock of the game under way (a finished game has none to hold, the
        lobby no game). `reason` is shown as given: the caller makes it safe to show."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            game = refusals.game_of(table)
            if game.phase is Phase.GAME_OVER:
                raise TableError("err.pause_game_over")
            if table.pause is not None:
                raise TableError("err.already_paused", name=table.pause.name)
            player = table.player(by)
            name = player.name if player is not None else "?"
            now = self.clock.now()
            # An outage may hold the clocks already: the break's limit waits for its end.
            held = table.paused_since is not None
            table.pause = Pause(by, name, now, reason, outage_since=now if held else None)
            if not held:
                table.paused_since = now
                self.deadlines.forget(table, keep_refresh=True)
            # A ping posted says « your turn, ends in 10 s » through the break: it goes
            # (the next redraw deletes it), and the timer, running on, pings afresh
            # (`Reminders.arm`), at once if its half was past: after the pizza, the one
            # to act is called back to the table.
            self.deadlines.reminders.drop(table)
            self.deadlines.arm_idle(table)  # the break's own end (`_pause_over`)
            table.remember(LogEntry("ev.pause", {"name": name}, (by,)))
            self._changed(table)

    async def play_on(self, table: Table, by: int) -> None:
        """End the break: every clock runs on from where it stopped (`Outages.release`),
        and the history says who ended it and how long it lasted."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            refusals.game_of(table)
            pause = table.pause
            if pause is None:
                raise TableError("err.not_paused")
            player = table.player(by)
            waited = self.lift(table)
            table.remember(LogEntry("ev.pause_over", {
                "name": player.name if player is not None else pause.name,
                "minutes": max(1, round(waited / 60))}, (by,)))
            self._changed(table)

    def lift(self, table: Table) -> float:
        """The break ends (the host's word, or the game's end): every clock runs on from
        where it stopped, an outage's that began during it too (none can end during a
        break: `Outages.server_back`). Returns how long they waited. Ended while Discord
        has still not given the server back, the clocks wait on as for any outage, until
        its end runs them on (`server_back`), not while nobody can act."""
        pause, table.pause = table.pause, None
        since = table.paused_since
        if since is None:
            return 0.0
        if pause is not None and pause.outage_since is not None:
            self.deadlines.arm_idle(table)  # (no break's end left to wait for)
            return max(0.0, self.clock.now() - since)
        return self.outages.release(table)


def dropped(table: Table, now: float) -> None:
    """The game under a break went back to the lobby (`Games.back_to_lobby`), which arms
    its own clocks: the break ends with it, the idle close counting on from where it was.
    During an outage nobody can act in the lobby either: its clocks wait on as an
    outage's, until the server is back (`Outages.server_back`); they ran at once (stop 50),
    and the idle close could come mid-outage."""
    pause = table.pause
    if pause is None:
        return
    table.pause = None
    if pause.outage_since is None and table.paused_since is not None:
        clocks_waited(table, max(0.0, now - table.paused_since), now)
        table.paused_since = None
