"""Moves the table's automated seats (bots, absent players' autopilot) when their turn comes.

When a seat acts and at what level is `autoplay`'s; what it plays is the engine's bots'. This
keeps one pending move per table on the shared scheduler and applies it as a person's move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot.tables import autoplay
from bot.tables.table import Table
from bot.tables.thinking import Thinker, searches
from bot.tables.timers import Scheduler
from engine import Action, Event, Game
from engine.bots import Bot, make_bot
from engine.view import PlayerView, player_view

log = logging.getLogger(__name__)

# Who plays a move a bot failed to decide (a bug in its search must not stall the table):
# the normal level's tactics, which read only the seat's view.
FALLBACK = make_bot("normal")


def _decided(bot: Bot, view: PlayerView) -> Action:
    """The bot's move, or the tactics' if its decision raised."""
    try:
        return bot.choose(view)
    except Exception:
        if bot is FALLBACK:
            raise
        log.exception("a %s bot's decision failed; the tactics play", bot.level)
        return FALLBACK.choose(view)


class BotTurns:
    """`after` is the service's, applying a move's events under the table's lock."""

    def __init__(self, scheduler: Scheduler, thinker: Thinker, pause: float,
                 after: Callable[[Table, list[Event]], None]) -> None:
        self.scheduler = scheduler
        self.thinker = thinker
        self.pause = pause
        self._after = after
        self.tasks: set[asyncio.Task[None]] = set()  # hard moves thinking: drain waits for them

    def schedule(self, table: Table) -> None:
        key = (table.id, "bot")
        game = table.game
        if game is None or autoplay.next_seat(game, table.id) is None or \
                table.paused_since is not None:
            self.scheduler.cancel(key)
            return
        if self.scheduler.deadline(key) is None:
            self.scheduler.after(key, autoplay.delay(table, game, self.pause),
                                 lambda: self.move(table))

    async def move(self, table: Table) -> None:
        async with table.lock:
            game = table.game
            seat = autoplay.next_seat(game, table.id) if game is not None else None
            if game is None or seat is None or table.held():
                return  # (a break or an outage came as the move was due: `schedule` again)
            bot = self.bot(table, game, seat)
            view = player_view(game, seat)
            if not searches(bot, view):  # well under a millisecond: decided in place
                self._after(table, game.apply(seat, _decided(bot, view)))
                return
            version = game.version
        # The search (hard's, or normal's end) runs outside the lock and the loop: the table's timers,
        # its players' clicks and other tables go on meanwhile. A shutdown's `drain` waits
        # for the move, so it is applied and stored before the snapshot writer closes.
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        try:
            try:
                action = await self.thinker.think(bot, view)
            except Exception:
                log.exception("table %s: seat %s's search failed; the tactics play", table.id,
                              seat)
                action = FALLBACK.choose(view)
            async with table.lock:
                if table.closed or table.game is not game or game.version != version:
                    return  # the game moved on meanwhile; what moved it re-armed the bots
                if table.held():
                    return  # a break came while it thought: its end schedules it again
                self._after(table, game.apply(seat, action))
        finally:
            self.tasks.discard(task)

    def bot(self, table: Table, game: Game, seat: int) -> Bot:
        """Who plays this automated seat now (see `autoplay.player_of`)."""
        thinker = self.thinker
        return autoplay.player_of(table, game, seat, samples=thinker.samples,
                                  budget=thinker.budget, clock=time.perf_counter)
