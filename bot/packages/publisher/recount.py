"""A restart's read of a restored table's channel, and the posts a crash lost found in it.

A table's posts carry its buttons, and their ids are stored with the table's next snapshot:
a process that dies in between leaves a message on Discord the restart knows nothing of,
and the restart, posting again, left two messages with working buttons. At a restored
table's first redraw (`read`) the channel is read below the newest message the table knows
(Get Channel Messages, `after` that id,
https://discord.com/developers/docs/resources/message#get-channel-messages); a message of
the bot's own there carrying the table's controls is such a post, and is made the table's
again. The same read gives back what buries the table (`Buried.recounted`): the count is in
memory, and the chatter said before the restart and while the bot was down was lost.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.packages.controls import CUSTOM_ID
from bot.packages.permissions import may_read_history
from bot.packages.publisher import opened
from bot.packages.publisher.buried import Buried
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

#: The messages one read returns: one request's worth (Get Channel Messages' `limit`, "Max
#: number of messages to return (1-100)", same page), far more than `BURIED_AFTER` with the
#: bot's own pings among them.
RECOUNTED = 100
#: The reads made at most below one table, each `after` the newest of the one before
#: ("Snowflake IDs in Pagination", https://discord.com/developers/docs/reference), the next
#: made only when one came back full. The count needs `BURIED_AFTER`; the pages are for a
#: lost post, which lies among what the channel said between the newest message the table
#: knows and the crash: a table message is replaced before it is an hour old
#: (`messages.FRESH_TABLE_AGE`), and 500 messages within it is one every 7 s, a channel too
#: busy to play in. A restart of 50 restored tables makes 50 reads, and 250 at most (5.5 s
#: of the bot's 45 calls a second, `budget.GLOBAL_LIMIT`) where every channel said 400 things
#: meanwhile. Past them, one read more, of the channel's newest page, where a post lost just
#: before the crash lies (stop 52): lost only where the channel said more than a page after
#: it too, before the restart (logged).
PAGES = 5


class Recount:
    """Reads a restored table's channel at its first redraw, adopts or keeps for its next
    post what a crash lost there, and gives the count back to `Buried`."""

    def __init__(self, bot: Host, buried: Buried) -> None:
        self.bot = bot
        self.buried = buried
        # Restored tables about to post their lobby or table message, and the posts of
        # that kind a crash kept from being stored, oldest first (`read`, `stray`).
        self._strays: dict[int, tuple[str, list[int]]] = {}

    async def read(self, table: Table) -> None:
        """A restored table's first redraw, before it draws anything: the messages below
        its live message are read from the channel, one request per `RECOUNTED` up to
        `PAGES` (`_below`).
        Counted in memory only, the chatter was forgotten by the restart, with what was
        said while the bot was down: a table in a busy channel waited for `BURIED_AFTER`
        more messages.

        Among them, a post of the bot's own carrying this table's controls is one whose
        snapshot never stored its id: the process died in between, and both messages kept
        live buttons. Below the live message, a bring-down's (`Publisher._bring_down`), or
        the fresh message replacing a deleted or nearly hour-old one (`Publisher._table`):
        the newest is adopted as the live message, and the live one is owed its pointer
        (`Table.pointers_owed`, edited by this same redraw) only where the read shows it
        still has its buttons (a bring-down's): one nearly an hour old was retired before
        its fresh message was posted, and keeps its retired text; a deleted one is gone.
        The strays above the newest are owed pointers too. Nothing else of the bot's there
        has buttons: its turn pings have none, its hands are ephemeral.

        A table with no live message about to post one (a new round's table message, a
        lobby, a fresh message for one deleted: `_posting`) reads below the newest message
        it knows instead, `Table.retired_below` among them, where that post would be if a
        crash lost its id; the post then takes it over (`stray`, `Publisher._post`). A new
        table's first lobby whose `/president create` token still lives needs no read: the
        lobby goes into that command's response, wherever it is (`opened`).

        The read needs Read Message History, which the bot's invite asks for (stop 50,
        `permissions.INVITE`) and a channel's overwrites may still deny: where the gateway's
        cache says it is denied, no call is made, and the count starts from zero as before
        the restart; where the cache cannot tell, the read is made, and Discord answers it with no messages ("If
        the current user is missing the READ_MESSAGE_HISTORY permission in the channel, then
        no messages will be returned", same page). The messages by others come without
        their content (no MESSAGE_CONTENT intent), which is not read: only their author.
        Messages heard while the read is on its way are counted once (`Buried.recounted`)."""
        if not self.buried.awaits_read(table.id):
            return
        live = self.buried.live(table)
        posting = None if live is not None else self._posting(table)
        if posting is not None and posting[0] == "lobby" \
                and opened.usable(table, self.bot.service.clock.now()):
            posting = None  # the lobby goes into the command's response, at any depth
        # Below the live message, read from the message itself (`after` the id before it):
        # whether it still has its buttons tells what a stray below it replaced. Else below
        # the newest message the table knows, where the post it is about to make would be.
        floor = live[1] if live is not None else None if posting is None else posting[1]
        try:
            if floor is None or may_read_history(self.bot, table.guild_id, table.channel_id,
                                                 table.parent_id) is False:
                return
            below = await self._below(table, floor - 1 if live is not None else floor)
        finally:
            heard, unsaid = self.buried.read_over(table.id)
        me = self.bot.user
        if below is None or me is None or self.buried.live(table) != live:
            return  # refused, or redrawn meanwhile (a new round): its count starts anew
        strays = [m.id for m in below
                  if m.id > floor and m.author.id == me.id and self._controls(m, table)]
        if posting is not None:
            if strays:  # taken over by the post it is about to make (`Publisher._post`)
                self._strays[table.id] = (posting[0], strays)
            return
        assert live is not None
        kind, live_id = live
        if strays:
            adopted = strays[-1]
            # The live message is owed its pointer where it still has its buttons: a
            # bring-down's. One nearly an hour old was retired before its fresh message was
            # posted (`Publisher._table`), and keeps its retired text; a deleted one is gone.
            kept = [m for m in below if m.id == live_id and self._controls(m, table)]
            for old in [m.id for m in kept] + strays[:-1]:
                table.pointers_owed.append((old, adopted))
            if kind == "table":
                table.table_message_id = adopted
            else:
                table.lobby_message_id = adopted
            log.info("table %s: adopted its %s message %s, posted below %s and never stored",
                     table.id, kind, adopted, live_id)
            self.bot.service.touch(table)
            live_id = adopted
        self.buried.recounted(table, (kind, live_id), below, heard, unsaid, me.id)

    @staticmethod
    def _posting(table: Table) -> tuple[str, int] | None:
        """The message a table without a live message is about to post (as
        `Publisher._lobby` and `_table` decide), with the newest message id it knows,
        below which that post goes; None where it posts nothing or knows no message."""
        if not table.running and (table.post_lobby or table.lobby_message_id is None):
            kind = "lobby"
        elif table.game is not None and (table.post_table or table.table_message_id is None):
            kind = "table"
        else:
            return None
        known = [m for m in (table.lobby_message_id, table.table_message_id,
                             table.retired_below) if m is not None]
        return (kind, max(known)) if known else None

    def stray(self, table: Table, kind: str) -> tuple[list[int], int] | None:
        """The `kind` message a crash kept from being stored, found by the restart's read
        (`read`), for the table's post to take over (`Publisher._post`): the ones above
        the newest, and the newest. Once only."""
        found = self._strays.pop(table.id, None)
        if found is None or found[0] != kind:
            return None
        return found[1][:-1], found[1][-1]

    def forget(self, table_id: int) -> None:
        """A closed table's lost posts go with it."""
        self._strays.pop(table_id, None)

    async def _below(self, table: Table, message_id: int) -> list[discord.Message] | None:
        """The messages below `message_id` in the table's channel, oldest first, up to
        `PAGES` reads of `RECOUNTED`, then the newest page where more was said, each holding
        its place in the call budget; None where a read of the pages failed (logged: the
        count starts from zero)."""
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        below: list[discord.Message] = []
        after = message_id
        try:
            for _ in range(PAGES):
                async with self.bot.budget.call():
                    page = [message async for message in channel.history(
                        limit=RECOUNTED, after=discord.Object(after), oldest_first=True)]
                below += page
                if len(page) < RECOUNTED:
                    return below
                after = page[-1].id
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as err:
            log.info("table %s: could not read its channel's messages (%s): counted from "
                     "zero", table.id, err)
            return None
        # More was said than the pages hold. A post a crash lost was made just before it:
        # past the pages, it lies among the newest messages, unless the channel said more
        # than a page after it (while the bot was down). One read more, of the newest
        # page (no `after`: « Returns an array of message objects from newest to oldest »,
        # Get Channel Messages), finds it however deep; the unread gap counts for nothing
        # (the pages read already bury the table: `BURIED_AFTER`).
        try:
            async with self.bot.budget.call():
                newest = [message async for message in channel.history(limit=RECOUNTED)]
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as err:
            log.info("table %s: could not read its channel's newest messages (%s): a post "
                     "lost below the %d read stays", table.id, err, len(below))
            return below
        below += sorted((m for m in newest if m.id > below[-1].id), key=lambda m: m.id)
        log.info("table %s: read %d messages below %s and the newest %d: a post lost "
                 "between them stays", table.id, PAGES * RECOUNTED, message_id, len(newest))
        return below

    @staticmethod
    def _controls(message: discord.Message, table: Table) -> bool:
        """Whether the message carries one of the table's controls (`controls.custom_id`)."""
        for row in message.components:
            for item in getattr(row, "children", ()):
                match = CUSTOM_ID.fullmatch(getattr(item, "custom_id", None) or "")
                if match is not None and int(match[1]) == table.id:
                    return True
        return False
