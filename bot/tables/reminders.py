"""A ping for the players a timer waits on, once half its time is gone (play-test 24).

The table message's `<t:unix:R>` countdown is live, but an edit notifies nobody: Discord
notifies the mentions of a message as it is created (its Allowed Mentions Object,
https://discord.com/developers/docs/resources/message#allowed-mentions-object), and an edit
only rebuilds its `mentions` array (Edit Message, same page), so a player who looked away
saw their turn played for them. The ping is a message of its own, mentioning only them
(`Publisher`, `publisher.reminders`), deleted once the timer is over, answered or not, so
the channel keeps none.

Not a ping per turn for someone gone: a player whose last turn ran out is not pinged again
until they move (the engine's `Game.timeouts`), so an absent player gets one, not one a
turn until the table closes. Bots, autopilots, leavers and fast mode's common timer (no one
person is waited on) get none. Runs under the table's lock, like every deadline."""

from __future__ import annotations

from collections.abc import Callable

from bot.tables.clock import Clock
from bot.tables.ping import Reminder
from bot.tables.table import Table
from bot.tables.timers import Scheduler
from engine import Game
from engine.state import Timer

# The share of a timer gone when its ping goes: 15 s of a 30 s turn, 7.5 of proletario's 15.
REMIND_AFTER = 0.5


class Reminders:
    def __init__(self, clock: Clock, scheduler: Scheduler, *,
                 changed: Callable[[Table], None]) -> None:
        self.clock = clock
        self.scheduler = scheduler
        self._changed = changed

    def arm(self, table: Table) -> None:
        """Follow the table's timer (`Deadlines.arm_turn`): a ping whose timer is over goes
        (deleted by the next redraw), and the timer running gets one at its halfway mark,
        unless it has had it (a restart re-arms it: the one owed or sent stands)."""
        game = table.game
        timer = game.timer if game is not None else None
        key = (table.id, "remind")
        reminder = table.reminder
        if reminder is not None and (timer is None or timer.serial != reminder.serial):
            self.drop(table)
        if (timer is None or timer.kind == "fast" or table.timer_deadline is None
                or table.paused_since is not None or not table.reminders
                or table.reminder is not None):
            self.scheduler.cancel(key)
            return
        serial = timer.serial
        self.scheduler.at(key, table.timer_deadline - timer.seconds * REMIND_AFTER,
                          lambda: self._remind(table, serial))

    def drop(self, table: Table) -> None:
        """The ping's timer is over, or the host turned pings off: a posted one is deleted by
        the table's next redraw."""
        reminder = table.reminder
        if reminder is not None and reminder.message_id is not None:
            table.reminders_gone.append(reminder.message_id)
        table.reminder = None

    async def _remind(self, table: Table, serial: int) -> None:
        async with table.lock:
            game = table.game
            timer = game.timer if game is not None else None
            if (table.closed or game is None or timer is None or timer.serial != serial
                    or table.reminder is not None or table.paused_since is not None
                    or not table.reminders):
                return
            users = waited_on(table, game, timer)
            if users:
                table.reminder = Reminder(serial, users, timer.kind)
                self._changed(table)


def waited_on(table: Table, game: Game, timer: Timer) -> tuple[int, ...]:
    """The people the timer waits on who have not let a turn run out since they last
    moved: the seat to act, or the givers who have not chosen and may (not a high role
    waiting for its own gift in an exchange that is not blind)."""
    if timer.kind == "turn" and timer.seat is not None:
        seats = [timer.seat]
    elif timer.kind == "exchange":
        seats = [seat for seat in range(game.seats)
                 if (due := game.exchange_due(seat)) is not None and due.ready]
    else:
        return ()
    users = []
    for seat in seats:
        user_id = table.seats[seat].user_id
        if (user_id is not None and not game.automated(seat) and not game.timeouts[seat]
                and user_id not in table.away and user_id not in users):
            users.append(user_id)
    return tuple(users)
