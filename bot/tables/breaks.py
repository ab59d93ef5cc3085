"""The host's break (play-test 29): « pause, 10 minutes », the pizza has arrived. Every clock
of the table waits, as during an outage (`Outages`), until the host says to play on; nobody
plays meanwhile, bots included, and each player gets back the time they had.

Who: the host, as for every choice that stops or changes everyone's game (the rules,
removing someone, ending it). A host gone quiet is replaced as for any host action
(`hosting.claim`): ten minutes into a break, anyone seated may end it, so a host who
wandered off with the pizza strands nobody.

A seated player whose doorbell rings takes a short break of their own (stop 50,
`Pause.own`): one click, no host to wait for (who may be the one away), at most
`OWN_PAUSE_SECONDS`, after which the game goes on by itself (`lapsed`), not closes; they or
the host may end it sooner. One break at a time, and one each per `OWN_COOLDOWN_SECONDS`:
nobody holds the others' game for long, even by turns."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bot.i18n import t
from bot.tables import hosting, refusals
from bot.tables.clock import Clock
from bot.tables.deadlines import OWN_PAUSE_SECONDS, Deadlines, pause_ends
from bot.tables.logentry import LogEntry
from bot.tables.outages import Outages, clocks_waited
from bot.tables.pause import Pause
from bot.tables.refusals import TableError
from bot.tables.table import Table
from engine import Phase

# The longest reason a break is given (`/president pause`'s option, cut there as typed):
# a few words on the table message, not a paragraph (Discord allows 6,000).
REASON_LENGTH = 100
# A player calls their own break at most once per this long, counted from its start: five
# minutes of every thirty at most, whoever asks, however many take turns at it.
OWN_COOLDOWN_SECONDS = 30 * 60


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

    async def pause(self, table: Table, by: int, reason: str = "") -> bool:
        """Hold every clock of the game under way (a finished game has none to hold, the
        lobby no game). `reason` is shown as given: the caller makes it safe to show. The
        host's break, or anyone else seated's own short one (`own_break`): returns whether
        it was theirs."""
        async with hosting.host_action(table):
            own = not table.is_host(by)
            if own:
                self._own_break(table, by)
            else:
                self._host_only(table, by)
            game = refusals.game_of(table)
            if game.phase is Phase.GAME_OVER:
                raise TableError("err.pause_game_over")
            player = table.player(by)
            name = player.name if player is not None else "?"
            now = self.clock.now()
            if table.pause is not None and table.pause.own and not own:
                self._lengthen(table, table.pause, by, name, reason, now)
                return False
            if table.pause is not None:
                raise TableError("err.already_paused", name=table.pause.name)
            if own:
                again = table.own_breaks.get(by)
                if again is not None and now < again:
                    raise TableError("err.pause_cooldown", at=f"<t:{int(again) + 1}:R>")
                table.own_breaks = {user: at for user, at in table.own_breaks.items()
                                    if at > now}
                table.own_breaks[by] = now + OWN_COOLDOWN_SECONDS
                self.deadlines.human_seen(table)
            # An outage may hold the clocks already: the break's limit waits for its end.
            held = table.paused_since is not None
            table.pause = Pause(by, name, now, reason, outage_since=now if held else None,
                                own=own)
            if not held:
                table.paused_since = now
                self.deadlines.forget(table, keep_refresh=True)
            # A ping posted says « your turn, ends in 10 s » through the break: it goes
            # (the next redraw deletes it), and the timer, running on, pings afresh
            # (`Reminders.arm`), at once if its half was past: after the pizza, the one
            # to act is called back to the table.
            self.deadlines.reminders.drop(table)
            self.deadlines.arm_idle(table)  # the break's own end (`_pause_over`)
            if own:
                table.remember(LogEntry("ev.pause_own", {
                    "name": name, "minutes": OWN_PAUSE_SECONDS // 60}, (by,)))
            else:
                table.remember(LogEntry("ev.pause", {"name": name}, (by,)))
            self._changed(table)
            return own

    def _lengthen(self, table: Table, pause: Pause, by: int, name: str, reason: str,
                  now: float) -> None:
        """The host's « Pause » during a player's own break makes it the host's (stop 51):
        bob's doorbell was a parcel to sign for and a neighbour to chat with, and the host
        lets everyone wait for him. The clocks already wait; the break's limit becomes the
        host's hour, counted from now, and only the host (or whoever the takeover rule lets
        act as host) ends it. Ending bob's five minutes and pausing anew did the same in two
        clicks, with a moment when the clocks ran between them. The break keeps bob's
        reason unless the host gives one; an outage under way goes on holding the limit."""
        table.pause = Pause(by, name, now, reason or pause.reason,
                            outage_since=now if pause.outage_since is not None else None)
        self.deadlines.arm_idle(table)  # the host's hour, not bob's five minutes
        table.remember(LogEntry("ev.pause_lengthened", {"name": name, "owner": pause.name},
                                (by, pause.by)))
        self._changed(table)

    async def lengthen(self, table: Table, by: int, since: int) -> None:
        """The host's « Prolonger la pause », on their hand during a player's own break
        (stop 51's leftovers): what their `/president pause` does then (`_lengthen`), and
        only to the break the button was drawn for (`since`, its start): one over, or
        already the host's, is refused, as starting a break of the host's from it would
        surprise everyone."""
        async with hosting.host_action(table):
            pause = table.pause
            if pause is not None and pause.own and \
                    not hosting.may_host(table, by, self.clock.now()):
                # On the table message everyone sees it (stop 52): whose errand it is, and
                # how the break ends without it, rather than « réservé à l’hôte » alone.
                raise TableError("err.lengthen_host_only", host=table.host_id, name=pause.name,
                                 at=f"<t:{int(pause_ends(pause, self.clock.now()))}:R>",
                                 button=t(table.locale, "btn.play_on"))
            self._host_only(table, by)
            refusals.game_of(table)
            if pause is None or not pause.own or int(pause.since) != since:
                raise TableError("err.lengthen_late")
            player = table.player(by)
            self._lengthen(table, pause, by, player.name if player is not None else "?", "",
                           self.clock.now())

    async def give_reason(self, table: Table, by: int, since: int, reason: str) -> None:
        """The reason given after the click that started the break (the button's form,
        stop 51): only by whoever called it, and only to that break (`since`, its start,
        as the form carries it), not to one begun since or taken over by the host. `reason`
        is shown as given (made safe by the caller); empty, the break has none."""
        async with table.lock:
            pause = table.pause
            if pause is None or pause.by != by or int(pause.since) != since:
                raise TableError("err.pause_reason_late")
            table.pause = replace(pause, reason=reason)
            self._changed(table)

    @staticmethod
    def _own_break(table: Table, by: int) -> None:
        """Whether `by` may call a break of their own: seated, and not gone (a presi
        leaver the table waits for is no longer at it). A spectator or someone in the
        queue is told who may."""
        seat = table.seat_of(by)
        if seat is None or by in table.away:
            raise TableError("err.pause_not_seated", host=table.host_id)

    async def play_on(self, table: Table, by: int) -> None:
        """End the break: every clock runs on from where it stopped (`Outages.release`),
        and the history says who ended it and how long it lasted. A player's own break
        is theirs to end too, without being the host."""
        async with hosting.host_action(table):
            pause = table.pause
            if pause is not None and pause.own and not table.is_host(by):
                self._own_play_on(table, pause, by)
            else:
                self._host_only(table, by)
            refusals.game_of(table)
            if pause is None:
                raise TableError("err.not_paused")
            player = table.player(by)
            waited = self.lift(table)
            table.remember(LogEntry("ev.pause_over", {
                "name": player.name if player is not None else pause.name,
                "minutes": max(1, round(waited / 60))}, (by,)))
            self._changed(table)

    def _own_play_on(self, table: Table, pause: Pause, by: int) -> None:
        """Whether `by`, not the host, may end a player's own break: its owner while still
        at the table (one who left it is no longer a player whose doorbell rang: the break
        runs out by itself, or the host ends it), or whoever the takeover rule lets act as
        host. Anyone else seated is told whose break it is and when it ends, not when they
        could act as host: ending someone's five minutes is not a host's errand worth
        waiting ten minutes for."""
        seated = table.seat_of(by) is not None and by not in table.away
        if pause.by == by and seated:
            self.deadlines.human_seen(table)
            return
        now = self.clock.now()
        if hosting.may_host(table, by, now) or (pause.by != by and not seated):
            self._host_only(table, by)  # the takeover, or a spectator's refusal as before
            return
        at = f"<t:{int(pause_ends(pause, now))}:R>"  # as the table shows it
        if pause.by == by:
            raise TableError("err.pause_left", host=table.host_id, at=at)
        raise TableError("err.pause_not_yours", name=pause.name, host=table.host_id, at=at)

    def lapsed(self, table: Table) -> None:
        """A player's own break is up (`Deadlines._pause_over`, under the table's lock):
        the game goes on by itself, and the history says so."""
        pause = table.pause
        if pause is None:
            return
        waited = self.lift(table)
        table.remember(LogEntry("ev.pause_own_over", {
            "name": pause.name, "minutes": max(1, round(waited / 60))}, (pause.by,)))
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
