"""A table's live message buried under the channel's chatter, brought back to the bottom.

Friends talk while they play (« à toi ! », memes): within a few messages the table message,
with the trick, whose turn it is and the « Ma main » button, scrolls out of a phone's view,
and it is replaced only each round; a lobby's « Rejoindre » too, as friends call others
over. `bot.chatter` tells `heard` of every message posted in a channel from the frame alone
(its channel and author, nothing parsed); once enough of them sit below the message that
has the table's buttons (the table message of a game under way, the lobby between games),
the next redraw posts it anew at the bottom and the old one becomes a short pointer to it
(`Publisher._bring_down`). A game's results stay where they are: their chart is attached
to that message, and the lobby that follows them comes below on its own.

Which messages count: every one but the bot's own. Members', other bots' and webhooks' posts
take the same room on a screen; the bot's own in a table's channel are that table's (its
lobby above a game, its turn pings, and the return's own post, which would otherwise count
against the message it brought back). Edits take no more room, and are not told.

Deletions below the table message are taken off without storing anyone's message: ids are
snowflakes whose highest bits are the milliseconds since Discord's epoch (« Snowflakes »,
https://discord.com/developers/docs/reference#snowflakes), so a deleted id greater than the
table message's, in its channel, was posted after it, below it. Only the bot's own posts
below it (the turn pings, which never counted) are remembered, to be told apart when the
bot deletes them: at most the one or two pings a timer leaves there (`_Pile.own`).

A restart recounts (`recount`, at a restored table's first redraw): the count is in memory,
and a busy channel would otherwise wait for `BURIED_AFTER` more messages. The same read
finds the posts whose ids a crash kept from being stored (a bring-down's, a new round's,
a lobby, a fresh message), and adopts them.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.packages.controls import CUSTOM_ID
from bot.packages.permissions import may_read_history
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

#: Messages by others below the table message past which a phone no longer shows its
#: buttons. A phone's chat shows about 600 points of messages (less with the keyboard open,
#: about 300, as one types « à toi ! »); a short message with its author's name and avatar
#: takes about 50 and a game's table message 250–400: past 8 the table's buttons are gone
#: with the keyboard open and its trick nearly so without it. On a computer it is still in
#: view: the price is one post and one edit.
BURIED_AFTER = 8
#: Seconds without a new message before a buried table comes back on its own: posted in the
#: middle of a burst it would be buried again at once. Any redraw sooner (a move, a timer)
#: brings it back with its change.
QUIET = 3.0
#: Seconds between two returns of one table: in a channel chatting a message every two
#: seconds a table would otherwise jump every 16 s. Each return is one post and one edit in
#: the channel, against Discord's per-channel limits (`Publisher._bring_down`).
EVERY = 30.0
#: The messages one read of a restart returns (`Buried.recount`): one request's worth (Get
#: Channel Messages' `limit`, "Max number of messages to return (1-100)",
#: https://discord.com/developers/docs/resources/message#get-channel-messages), far more than
#: `BURIED_AFTER` with the bot's own pings among them.
RECOUNTED = 100
#: The reads a restart makes at most below one table, each `after` the newest of the one
#: before ("Snowflake IDs in Pagination", https://discord.com/developers/docs/reference),
#: the next made only when one came back full. The count needs `BURIED_AFTER`; the pages
#: are for a lost post (`recount`), which lies among what the channel said between the
#: newest message the table knows and the crash: a table message is replaced before it is
#: an hour old (`messages.FRESH_TABLE_AGE`), and 500 messages within it is one every 7 s,
#: a channel too busy to play in. A restart of 50 restored tables then makes 50 reads, and
#: 250 at most (5.5 s of the bot's 45 calls a second, `budget.GLOBAL_LIMIT`) where every
#: channel said 400 things meanwhile. Past it, the lost post stays beside the new one (logged).
PAGES = 5


@dataclass
class _Pile:
    """The messages posted below one table message."""

    kind: str  # "table" or "lobby"
    message_id: int
    count: int = 0
    last: float = 0.0  # on the bot's clock
    # The bot's own messages posted below it (turn pings): not counted, so their deletion
    # is not taken off. Each leaves with its deletion, most within the timer that posted it.
    own: set[int] = field(default_factory=set)
    # While a restored table's recount is on its way (`Buried.recount`): the ids heard
    # meanwhile, some of which the channel's history it reads may hold too. None otherwise.
    heard: set[int] | None = None
    # Meanwhile too: the ids deleted, which the read may have returned before they went.
    unsaid: set[int] = field(default_factory=set)


class Buried:
    """Counts, per table, the messages posted below its live message (`_live`), and asks
    for a redraw once they bury it (`due` then tells the redraw to bring it back)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._piles: dict[int, _Pile] = {}  # per table id
        self._returned: dict[int, float] = {}  # per table id, its last return's time
        self.returns = 0  # returns tried (`returned`), which the load benchmark counts
        # Tables restored at start whose count is yet to be read from their channel
        # (`restored`, `recount`).
        self._unsure: set[int] = set()
        # Restored tables about to post their lobby or table message, and the posts of
        # that kind a crash kept from being stored, oldest first (`recount`, `stray`).
        self._strays: dict[int, tuple[str, list[int]]] = {}

    def heard(self, channel_id: int, message_id: int) -> None:
        """Someone other than the bot posted message `message_id` in the channel. Called
        for every message of every channel with a table, from the gateway's parser; the id
        is only kept while a restart's recount is on its way (`recount`)."""
        table = self.bot.service.registry.in_channel(channel_id)
        if table is None:
            return
        live = self._live(table)
        if live is None:
            return
        pile = self._pile(table.id, live)
        if pile.heard is not None and len(pile.heard) < RECOUNTED:
            # Posted after the restart, so below any message it could adopt: a table held
            # from its first redraw (a locked thread) keeps `RECOUNTED` of them at most,
            # which bury it in any case.
            pile.heard.add(message_id)
        pile.count += 1
        pile.last = now = self.bot.service.clock.now()
        if pile.count == BURIED_AFTER:
            self._wait(table, now + QUIET)

    def posted_own(self, channel_id: int, message_id: int) -> None:
        """The bot posted in a channel with a table (`bot.chatter`): one below its live
        message is remembered until deleted, so that its deletion is not taken off."""
        table = self.bot.service.registry.in_channel(channel_id)
        live = None if table is None else self._live(table)
        if table is not None and live is not None and message_id > live[1]:
            self._pile(table.id, live).own.add(message_id)

    def deleted(self, channel_id: int, message_ids: Collection[int]) -> None:
        """Messages of the channel were deleted (MESSAGE_DELETE, MESSAGE_DELETE_BULK): those
        posted below the live message by others (a greater id, module docstring) no longer
        bury it. One posted below an earlier message only (before a return) has a smaller
        id than the live one's and is not taken off; the count never goes below zero (a
        message whose MESSAGE_CREATE came before its table message's id was known was
        counted against the earlier message)."""
        table = self.bot.service.registry.in_channel(channel_id)
        if table is None:
            return
        pile = self._piles.get(table.id)
        if pile is None or (pile.kind, pile.message_id) != self._live(table):
            return
        if pile.heard is not None:
            # A recount on its way: what was heard and deleted since is not below, nor
            # what its read returns and was deleted since (stop 50's review, afterwards).
            pile.heard.difference_update(message_ids)
            pile.unsaid.update(message_ids)
        below = 0
        for message_id in message_ids:
            if message_id in pile.own:
                pile.own.discard(message_id)
            elif message_id > pile.message_id:
                below += 1
        pile.count = max(0, pile.count - below)

    def _pile(self, table_id: int, live: tuple[str, int]) -> _Pile:
        pile = self._piles.get(table_id)
        if pile is None or (pile.kind, pile.message_id) != live:
            # The live message changed (a new round, the lobby, a repost): what was above
            # the old one is not below the new one.
            pile = self._piles[table_id] = _Pile(
                *live, heard=set() if table_id in self._unsure else None)
        return pile

    def restored(self, table: Table) -> None:
        """A table restored at start: what buries its live message is read at its first
        redraw (`recount`), once the gateway has described its server."""
        self._unsure.add(table.id)

    async def recount(self, table: Table) -> None:
        """A restored table's first redraw, before it draws anything: the messages below
        its live message are read from the channel, one request (Get Channel Messages,
        `after` its id, https://discord.com/developers/docs/resources/message#get-channel-messages).
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
        crash lost its id; the post then takes it over (`stray`, `Publisher._post`).

        The read needs Read Message History, which the bot's invite asks for (stop 50,
        `permissions.INVITE`) and a channel's overwrites may still deny: where the gateway's
        cache says it is denied, no call is made, and the count starts from zero as before
        the restart; where the cache cannot tell, the read is made, and Discord answers it with no messages ("If
        the current user is missing the READ_MESSAGE_HISTORY permission in the channel, then
        no messages will be returned", same page). The messages by others come without
        their content (no MESSAGE_CONTENT intent), which is not read: only their author.
        Messages heard while the read is on its way are counted once (`_Pile.heard`)."""
        if table.id not in self._unsure:
            return
        live = self._live(table)
        posting = None if live is not None else self._posting(table)
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
            self._unsure.discard(table.id)
            pile = self._piles.get(table.id)
            heard = set() if pile is None or pile.heard is None else pile.heard
            unsaid = set() if pile is None else pile.unsaid
            if pile is not None:
                pile.heard, pile.unsaid = None, set()
        me = self.bot.user
        if below is None or me is None or self._live(table) != live:
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
        pile = self._piles[table.id] = _Pile(kind, live_id)
        for message in below:
            if message.id <= live_id or message.id in unsaid:
                continue
            if message.author.id == me.id:
                pile.own.add(message.id)
            else:
                heard.add(message.id)
        pile.count = sum(1 for message_id in heard if message_id > live_id)
        pile.last = self.bot.service.clock.now()
        if pile.count >= BURIED_AFTER:
            self._wait(table, pile.last)  # this redraw brings it back (`due`), else later

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
        (`recount`), for the table's post to take over (`Publisher._post`): the ones above
        the newest, and the newest. Once only."""
        found = self._strays.pop(table.id, None)
        if found is None or found[0] != kind:
            return None
        return found[1][:-1], found[1][-1]

    async def _below(self, table: Table, message_id: int) -> list[discord.Message] | None:
        """The messages below `message_id` in the table's channel, oldest first, up to
        `PAGES` reads of `RECOUNTED`, each holding its place in the call budget; None where
        a read failed (logged: the count starts from zero)."""
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
        log.info("table %s: read %d messages below %s, and more were said: a post lost "
                 "below them stays", table.id, len(below), message_id)
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

    def due(self, table: Table, kind: str) -> bool:
        """Whether the table's `kind` message is buried and may come back now."""
        pile = self._piles.get(table.id)
        if pile is None or pile.count < BURIED_AFTER or (kind, pile.message_id) != \
                self._live(table):
            return False
        return self.bot.service.clock.now() >= self._next_return(table.id)

    @staticmethod
    def _live(table: Table) -> tuple[str, int] | None:
        """The message with the table's buttons, which chatter buries, if any: the table
        message of a game under way, or the lobby between games; none while either is
        about to be posted anew (`Table.moving_on`, `post_lobby`) or a game's results
        show."""
        if table.under_way and not table.moving_on and table.table_message_id is not None:
            return "table", table.table_message_id
        if not table.running and not table.post_lobby and table.lobby_message_id is not None:
            return "lobby", table.lobby_message_id
        return None

    def returned(self, table: Table) -> None:
        """Its live message is being posted anew at the bottom: counted from zero below
        it, and not again before `EVERY`."""
        self._piles.pop(table.id, None)
        self.returns += 1
        self._returned[table.id] = self.bot.service.clock.now()
        self.bot.service.scheduler.cancel(("buried", table.id))

    def forget(self, table_id: int) -> None:
        """A closed table's count goes with it."""
        self._piles.pop(table_id, None)
        self._returned.pop(table_id, None)
        self._unsure.discard(table_id)
        self._strays.pop(table_id, None)
        self.bot.service.scheduler.cancel(("buried", table_id))

    def _next_return(self, table_id: int) -> float:
        returned = self._returned.get(table_id)
        return float("-inf") if returned is None else returned + EVERY

    def _wait(self, table: Table, when: float) -> None:
        """Look again at `when`, or at the table's next allowed return if later."""
        when = max(when, self._next_return(table.id))

        async def look() -> None:
            pile = self._piles.get(table.id)
            if table.closed or pile is None or (pile.kind, pile.message_id) != \
                    self._live(table) or pile.count < BURIED_AFTER:
                return  # redrawn meanwhile (brought back, a new round, a repost), or the
                # chatter below it deleted (`deleted`)
            later = max(pile.last + QUIET, self._next_return(table.id))
            if self.bot.service.clock.now() < later:
                self._wait(table, later)  # still talking, or back too recently
            else:
                self.bot.service.refresh(table)

        self.bot.service.scheduler.at(("buried", table.id), when, look)
