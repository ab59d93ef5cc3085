"""The table's own deadlines on the shared scheduler: its turn timer and its players' ping
(`Reminders`), its close when no person acts any more and the warning before it, the moment
a silent host's choice passes to anyone seated, and forgetting them all when the game or
the table ends."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables.clock import Clock
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.logentry import LogEntry
from bot.tables.pause import Pause
from bot.tables.reminders import Reminders
from bot.tables.table import Table
from bot.tables.timers import Scheduler
from engine import Event, Phase
from engine.events import TimedOut

# A table where no person has acted this long closes itself.
IDLE_CLOSE_SECONDS = 30 * 60
# A click that stores no change (refused, or a hand's redraw) moves the last-seen times
# only by this much or more since they were stored, and stores them at once (`_seen_kept`):
# a write a minute at most under a flood of them, and nothing a crash can lose.
SEEN_STEP = 60.0
# This long before, its messages say when (`Table.idle_warned`).
IDLE_WARN_SECONDS = 5 * 60
# A host's break (`Table.pause`) lasts at most this long: then the table closes as an idle
# one does, its messages saying so from the break's start. Twice the idle close: a meal,
# a child put back to bed; a break nobody ends is a table everyone left.
PAUSE_LIMIT_SECONDS = 60 * 60
# A seated player's own break (`Pause.own`, stop 50): the doorbell, a glass of water. Then
# the game goes on by itself: a player's break never holds the others' game for long.
OWN_PAUSE_SECONDS = 5 * 60


def pause_ends(pause: Pause, now: float) -> float:
    """When the break's limit comes: PAUSE_LIMIT_SECONDS from its start (a player's own,
    OWN_PAUSE_SECONDS), not counting the time nobody could continue it (`Pause.held`), an
    outage under way counted until `now` (its end puts the limit off further,
    `Outages.server_back`)."""
    outage = now - pause.outage_since if pause.outage_since is not None else 0.0
    limit = OWN_PAUSE_SECONDS if pause.own else PAUSE_LIMIT_SECONDS
    return pause.since + limit + pause.held + max(0.0, outage)


class Deadlines:
    """`after` applies the events of a turn that timed out, `close` closes an idle table,
    `own_over` ends a player's own break as its time is up (`Breaks.lapsed`); all the
    service's, called under the table's lock."""

    def __init__(self, clock: Clock, scheduler: Scheduler, *,
                 after: Callable[[Table, list[Event]], None],
                 close: Callable[[Table], None],
                 own_over: Callable[[Table], None],
                 touch: Callable[[Table], None],
                 changed: Callable[[Table], None]) -> None:
        self.clock = clock
        self.scheduler = scheduler
        self._after = after
        self._close = close
        self._own_over = own_over
        self._touch = touch
        self._changed = changed
        self.reminders = Reminders(clock, scheduler, changed=changed)

    def arm_turn(self, table: Table) -> None:
        """Follow the game's timer. The deadline is kept on the table (stored with it), so
        a restart re-arms it where it was; only a new timer serial starts a new count. Its
        players' ping follows it (`Reminders`)."""
        self._arm_turn(table)
        self.reminders.arm(table)
        self._arm_host_quiet(table)

    def _arm_turn(self, table: Table) -> None:
        game = table.game
        timer = game.timer if game is not None else None
        key = (table.id, "timer")
        if timer is None:
            self.scheduler.cancel(key)
            table.timer_serial = table.timer_deadline = None
            return
        if timer.serial == table.timer_serial and self.scheduler.deadline(key) is not None:
            return
        if table.paused_since is not None:
            # Nobody can act: a timer started meanwhile starts its count when they can.
            if timer.serial != table.timer_serial:
                table.timer_serial, table.timer_deadline = timer.serial, None
            return
        if timer.serial != table.timer_serial or table.timer_deadline is None:
            table.timer_serial = timer.serial
            table.timer_deadline = self.clock.now() + timer.seconds
        serial = timer.serial
        self.scheduler.at(key, table.timer_deadline, lambda: self._expire(table, serial))

    async def _expire(self, table: Table, serial: int) -> None:
        async with table.lock:
            game = table.game
            if game is None or game.timer is None or game.timer.serial != serial:
                return
            before, playing = game.version, game.phase is Phase.PLAY
            events = game.timeout()
            for event in events:
                if playing and isinstance(event, TimedOut) and event.seat is not None:
                    table.moved(before, event.seat, timer=True)
            self._after(table, events)

    def _arm_host_quiet(self, table: Table) -> None:
        """A round's or game's end waits for the host, and says from when anyone seated may
        choose in their place (`table_message.takeover_lines`): redrawn as that comes."""
        game = table.game
        key = (table.id, "host quiet")
        if game is None or game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) \
                or table.paused_since is not None:
            self.scheduler.cancel(key)
            return
        self.scheduler.at(key, table.host_seen + HOST_IDLE_SECONDS + 1,
                          lambda: self._host_quiet(table))

    async def _host_quiet(self, table: Table) -> None:
        async with table.lock:
            game = table.game
            if table.closed or game is None or table.paused_since is not None \
                    or game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
                return
            if self.clock.now() < table.host_seen + HOST_IDLE_SECONDS + 1:
                self._arm_host_quiet(table)  # the host acted since (a kick, say)
                return
            self._changed(table)

    def human_seen(self, table: Table) -> None:
        """A person acted here: the table stays open for IDLE_CLOSE_SECONDS more. Stored
        with the action's change; if there is none (a refused click), by `_seen_kept`
        right after the click."""
        table.human_seen = self.clock.now()
        table.idle_warned = False
        self.arm_idle(table)
        key = (table.id, "seen")
        if self.scheduler.deadline(key) is None:
            self.scheduler.after(key, 0, lambda: self._seen_kept(table))

    async def _seen_kept(self, table: Table) -> None:
        """Once the click is handled (the lock taken after it), keep its last-seen times
        only as storage does. Moved by SEEN_STEP or more since stored, they are stored now;
        by less, they go back to the stored ones. Kept in memory alone, a crash restored
        the older ones, and the idle close (or a guest's taking a silent host's role over)
        came early by as much as the refused clicks had put it off (stop 47); stored a
        minute later, by up to a minute (stop 47's `SEEN_KEPT_WITHIN`), where a restart
        keeps the turn's timer exactly. Not stored with each refused click: a flood of
        them, forged or a player pressing a dead button, would cost a write each; here one
        a minute at most, for a clock of 30 minutes (10 for a host), which such a click
        puts off by up to a minute less than an accepted one."""
        async with table.lock:
            if table.closed or table.seen_stored == (table.human_seen, table.host_seen):
                return
            human, host = table.seen_stored
            if table.human_seen - human >= SEEN_STEP or table.host_seen - host >= SEEN_STEP:
                self._touch(table)
                return
            table.human_seen, table.host_seen = human, host
            self.arm_idle(table)

    def arm_idle(self, table: Table) -> None:
        """The idle close and its warning, counted from `human_seen`; while the clocks wait
        they do not run, and a host's break has its own end instead (`_pause_over`), which
        waits too while an outage lasts: nobody could continue the break."""
        if table.paused_since is not None:
            pause = table.pause
            if pause is None or pause.outage_since is not None:
                self.scheduler.cancel((table.id, "pause over"))
            else:
                self.scheduler.at((table.id, "pause over"), pause_ends(pause, self.clock.now()),
                                  lambda: self._pause_over(table))
            return
        self.scheduler.cancel((table.id, "pause over"))
        closes = table.human_seen + IDLE_CLOSE_SECONDS
        self.scheduler.at((table.id, "idle"), closes, lambda: self._idle_over(table))
        self.scheduler.at((table.id, "idle warning"), closes - IDLE_WARN_SECONDS,
                          lambda: self._idle_near(table))

    async def _idle_near(self, table: Table) -> None:
        """The idle close is IDLE_WARN_SECONDS away: its lobby or table message says when.
        It came unannounced: players who had stepped away found the table gone (play-test
        24). Re-armed from `human_seen` after a restart, so it is said again at once where
        it was due."""
        async with table.lock:
            if table.closed or self.clock.now() < \
                    table.human_seen + IDLE_CLOSE_SECONDS - IDLE_WARN_SECONDS:
                return
            table.idle_warned = True
            self._changed(table)

    async def _idle_over(self, table: Table) -> None:
        """Nobody has acted for IDLE_CLOSE_SECONDS: the timers and bots would otherwise keep
        an abandoned table playing in its channel forever."""
        async with table.lock:
            if table.closed or self.clock.now() < table.human_seen + IDLE_CLOSE_SECONDS:
                return
            # A lobby has no game to play: « nobody has played » read oddly where none ever
            # started (play-test 22).
            table.notice = LogEntry("table.idle_closed" if table.game is not None
                                    else "table.idle_closed_lobby")
            self._close(table)

    async def _pause_over(self, table: Table) -> None:
        """The host's break has lasted PAUSE_LIMIT_SECONDS (`pause_ends`: the time
        nobody could continue it not counted), nobody said to play on: the
        table closes, its game stopped as an idle table's is, and its message says why.
        A player's own break, once its few minutes are up, ends instead: the game goes on."""
        async with table.lock:
            pause = table.pause
            if table.closed or pause is None or pause.outage_since is not None or \
                    self.clock.now() < pause_ends(pause, self.clock.now()):
                return
            if pause.own:
                self._own_over(table)
                return
            table.notice = LogEntry("table.pause_closed",
                                    {"minutes": PAUSE_LIMIT_SECONDS // 60})
            self._close(table)

    def forget(self, table: Table, *, keep_refresh: bool) -> None:
        """Cancel every deadline of the table, its bots' and absences' too; with
        `keep_refresh` its pending message edits still run."""
        self.scheduler.cancel_where(lambda key: _of_table(key, table.id, keep_refresh))


def _of_table(key: object, table_id: int, keep_refresh: bool) -> bool:
    """Whether `key` is one of the table's deadlines to cancel. Its hands' last edits
    (`Hands._lapse_at_expiry`) go with its refreshes: the hands outlive a game sent
    back to the lobby, and a server's outage."""
    if not isinstance(key, tuple) or not key:
        return False
    if len(key) > 1 and key[1] == "lapse":
        return not keep_refresh and bool(key[0] == table_id)
    if key[0] == "refresh":
        target = key[1]
        if isinstance(target, tuple):
            target = target[1]
        return not keep_refresh and bool(target == table_id)
    return bool(key[0] == table_id)
