"""Tables the bot can no longer reach: their channel or thread was deleted, or the bot was
removed from their server. They end at once, their game stopped as the host's End stops it,
with nothing posted or edited in the channel. A deleted channel or thread is forgotten too:
the house rules and settings it kept (docs/bot.md, « A deleted place's rows (stop 55) »).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from typing import Protocol

from bot.tables import refusals
from bot.tables.registry import Registry
from bot.tables.table import Table
from bot.tables.vanished import VanishedTables
from engine import Event, Phase

log = logging.getLogger(__name__)


class PlaceStore(Protocol):
    """Where a place's house rules are kept (see `bot.tables.persistence`)."""

    async def forget_places(self, channel_ids: Collection[int]) -> None: ...


class UnreachableTables:
    """`after` applies the engine's events and `close` closes the table, `stored` waits
    for the storage work queued so far: the service's."""

    def __init__(self, registry: Registry, vanished: VanishedTables, *,
                 after: Callable[[Table, list[Event]], None],
                 close: Callable[[Table], None],
                 stored: Callable[[], Awaitable[None]]) -> None:
        self.registry = registry
        self.vanished = vanished
        self.store: PlaceStore | None = None
        self._after = after
        self._close = close
        self._stored = stored

    async def channel_deleted(self, channel_id: int, name: str | None = None) -> None:
        """The table's channel or thread (`name`, when known) was deleted, and every message
        in it, its players' hands included: the table ends (`_vanish`) with nothing left to
        edit, and its players are owed the word (`vanished`). A channel takes its threads'
        tables with it: discord.py reports only the threads it holds, and it drops archived
        ones."""
        places = {channel_id}
        for table in self.registry.tables():
            if channel_id in (table.channel_id, table.parent_id):
                places.add(table.channel_id)
                players = [p.user_id for p in (*table.humans(), *table.queue)
                           if p.user_id is not None]
                # The deleted one is the table's thread, or the channel it was in.
                thread = channel_id == table.channel_id and table.parent_id is not None
                # Told by whichever call ends the table: the deletion's event, and a call
                # that met the deleted channel on its way (`BlockedTables.gone`), both
                # passed the check while the other stored its word, and each player was
                # told twice (play-test 37).
                if await self._vanish(table, hands=False) and table.guild_id is not None:
                    await self.vanished.record(table.guild_id, players, name,
                                               in_thread=thread)
        await self.forget(places)

    async def forget(self, places: Collection[int]) -> None:
        """The deleted channel's or thread's house rows go, and those of the channel's
        threads: the rows written since 0014 say their channel (`Storage.forget_house`),
        and a thread's table says it for older rows (an archived thread too, which
        discord.py does not report deleted with its channel); no table opens there
        again. An older row of a thread without a table stays until the start-up sweep
        finds it gone (`bot.packages.president.sweep`, which forgets the threads of
        deleted channels it finds here too). Once the
        storage work queued so far is done, so that a write of their tables' (the settings
        a host confirmed, a game's start) cannot keep them again after. A courtesy: the
        rows are a few bytes, and erased with the server anyway, so a database that
        refuses leaves them."""
        if self.store is None:
            return
        await self._stored()
        try:
            await self.store.forget_places(places)
        except Exception:
            log.warning("could not forget the house rules of deleted channels %s",
                        sorted(places), exc_info=True)

    async def removed_from_guild(self, guild_id: int) -> None:
        """The bot was removed from a server: its tables there end (`_vanish`). The hands,
        edited through their players' interactions rather than the channel, say so."""
        for table in self.registry.in_guild(guild_id):
            await self._vanish(table, hands=True)

    async def _vanish(self, table: Table, *, hands: bool) -> bool:
        """End a table the bot can no longer reach. A game under way stops as the host's End
        stops it, so its rounds keep their results and the game its end, rather than bots
        and timers playing on unseen until IDLE_CLOSE_SECONDS; nothing is posted or edited
        in the channel, and the hands are told only with `hands`. False where it had
        ended already."""
        async with table.lock:
            if table.closed:
                return False
            game = table.game
            if game is not None and game.phase is not Phase.GAME_OVER:
                self._after(table, refusals.engine(game.stop))
            table.lobby_message_id = table.table_message_id = None
            # Its turn ping too, gone with the channel (or out of reach with the server):
            # deleting it cost a refused call, a 404 in a deleted thread, a 403 toward
            # Cloudflare's ban on a server that removed the bot (play-test 37).
            table.reminder = None
            table.reminders_gone.clear()
            if not hands:
                table.hands.clear()
                table.farewells.clear()
            self._close(table)
        return True
