"""When nobody could act at a table: Discord lost its server for a while, or the bot itself was
away (a restart, `adopt`). Its clocks wait rather than time players out or hand their seats
to the autopilot, and run on from where they stopped once people can act again."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables import graces
from bot.tables.botturns import BotTurns
from bot.tables.clock import Clock
from bot.tables.deadlines import Deadlines
from bot.tables.logentry import RESTARTED, LogEntry
from bot.tables.outbox import Outbox
from bot.tables.registry import Registry
from bot.tables.seating import Seating
from bot.tables.table import Table


class Outages:
    """`changed` stores and shows the table, `touch` stores it, `warm` starts the worker
    processes its hard bots need: the service's."""

    def __init__(self, clock: Clock, registry: Registry, outbox: Outbox, deadlines: Deadlines,
                 seating: Seating, bots: BotTurns, *,
                 changed: Callable[[Table], None],
                 touch: Callable[[Table], None],
                 warm: Callable[[Table], None]) -> None:
        self.clock = clock
        self.registry = registry
        self.outbox = outbox
        self.deadlines = deadlines
        self.seating = seating
        self.bots = bots
        self._changed = changed
        self._touch = touch
        self._warm = warm

    async def server_lost(self, guild_id: int) -> None:
        """Discord has lost the server (an outage): none of its players can act, so their
        clocks wait rather than time them out and hand their seats to the
        autopilot. Bots do not play on either: the game waits as a whole. A host's break
        holds the clocks already; its limit waits (`Pause.outage_began`): nobody could
        continue it."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                if table.closed:
                    continue
                if table.paused_since is None:
                    table.paused_since = self.clock.now()
                    self.deadlines.forget(table, keep_refresh=True)
                    self._touch(table)
                elif table.pause is not None and table.pause.outage_since is None:
                    table.pause = table.pause.outage_began(self.clock.now())
                    self.deadlines.arm_idle(table)
                    self._touch(table)

    async def server_back(self, guild_id: int, *, told_from: float = 0.0) -> None:
        """The server is back: every clock its tables' players had left runs on from where
        it stopped (a timer started meanwhile starts its count now), and the tables say how
        long they waited, if it was `told_from` seconds or more (a gateway reconnection of
        a second is not worth « the game waited 1 minute »)."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                if table.closed or table.paused_since is None:
                    continue
                pause = table.pause
                if pause is not None:
                    # A host's break goes on until they say to play on (`Breaks.play_on`),
                    # its limit put off by the outage, and shown so.
                    if pause.outage_since is not None:
                        table.pause = pause.outage_ended(self.clock.now())
                        self.deadlines.arm_idle(table)
                        self._changed(table)
                    continue
                waited = self.release(table)
                if table.running and waited >= told_from:
                    table.remember(LogEntry("ev.paused",
                                            {"minutes": max(1, round(waited / 60))}))
                self._changed(table)

    def adopt(self, table: Table, stored_at: float | None = None) -> None:
        """Take over a table restored from storage: timers re-armed from their stored
        deadlines, moved on by the time the bot was away since `stored_at`, on its clock
        (when the process stopped, as far as storage tells: `restore_tables`): nobody could
        act meanwhile, so a redeploy times nobody out, hands no seat to the autopilot and
        cancels no presi game for a leaver's grace (play-test 15); bots resumed, its
        messages brought up to date where they are. Posting them afresh told the channel
        everything twice (a finished game's results and chart), above an old message whose
        buttons were gone but whose text still said whose turn it was or what the host
        could press; the publisher still posts anew a message that is gone or nearly an
        hour old, and one the table owed (`post_table`, `post_lobby`, kept in the
        snapshot).

        A table showing a finished round or game records it again: the process may have
        stopped after storing the state that ended it but before storing the result (never
        the other way round). Both records are idempotent, so this is a no-op when stored."""
        self.registry.add(table)
        game = table.game
        if game is not None and table.game_row_id is None:
            self.outbox.record_start(table)  # the process stopped before the start was stored
        for pending in table.unstored:  # results whose storing the process did not see end
            self.outbox.store_result(table, pending)
        if table.running:
            self._warm(table)
        now = self.clock.now()
        if not table.human_seen:  # a snapshot from before it was kept
            table.host_seen = table.human_seen = now
        if stored_at is not None:
            waited = max(0.0, now - stored_at)
            if table.paused_since is None:  # (paused: `server_back`, or « Continuer »)
                clocks_waited(table, waited, now)
                if table.under_way and waited >= 1:
                    table.remember(LogEntry(RESTARTED))
            elif table.pause is not None and table.pause.outage_since is None:
                # Nobody could continue the break while the bot was away: its limit waits,
                # as for an outage (one under way as it stopped goes on, to `server_back`).
                table.pause = table.pause.away(waited)
        self._arm(table)
        self.deadlines.arm_idle(table)
        self._changed(table)

    def release(self, table: Table) -> float:
        """The table's clocks, waiting since `Table.paused_since` (an outage, a host's
        break), run on from where they stopped: every deadline re-armed that much later,
        a timer started meanwhile starting its count now. Returns how long they waited."""
        since = table.paused_since
        assert since is not None
        now = self.clock.now()
        waited = max(0.0, now - since)
        table.paused_since = None
        clocks_waited(table, waited, now)
        self.deadlines.arm_idle(table)
        self._arm(table)
        return waited

    def _arm(self, table: Table) -> None:
        """Schedule the table's clocks from its stored deadlines (leavers' grace, its
        timer) and its bots' next move, as after a restart or an outage."""
        for user_id, deadline in table.away.items():
            self.seating.arm_grace(table, user_id, deadline)
        self.deadlines.arm_turn(table)
        self.bots.schedule(table)


def clocks_waited(table: Table, waited: float, now: float) -> None:
    """The players' clocks stood still for `waited` seconds (an outage, a restart, a
    host's break): the turn's timer and the leavers' grace end that much later, and
    nobody could act meanwhile, so the host's silence and the idle close count on from
    where they were (a restart counted them from full: play-test 22)."""
    if table.timer_deadline is not None:
        table.timer_deadline += waited
    graces.graces_waited(table, waited, now)
    table.host_seen = min(table.host_seen + waited, now)
    table.human_seen = min(table.human_seen + waited, now)
