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

A restart recounts (`recount.Recount.read`, at a restored table's first redraw): the count
is in memory, and a busy channel would otherwise wait for `BURIED_AFTER` more messages. The
same read finds the posts whose ids a crash kept from being stored; that recovery is
`recount`'s, which hands the count back here (`recounted`).
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

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
#: The ids heard while a restart's read is on its way kept at most (`_Pile.heard`): all
#: posted after the restart, below any message the read could adopt, so that many bury
#: the table in any case (a table held from its first redraw, a locked thread).
HEARD_KEPT = 100


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
    # While a restored table's recount is on its way (`Recount.read`): the ids heard
    # meanwhile, some of which the channel's history it reads may hold too. None otherwise.
    heard: set[int] | None = None
    # Meanwhile too: the ids deleted, which the read may have returned before they went.
    unsaid: set[int] = field(default_factory=set)


class Buried:
    """Counts, per table, the messages posted below its live message (`live`), and asks
    for a redraw once they bury it (`due` then tells the redraw to bring it back)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._piles: dict[int, _Pile] = {}  # per table id
        self._returned: dict[int, float] = {}  # per table id, its last return's time
        self.returns = 0  # returns tried (`returned`), which the load benchmark counts
        # Tables restored at start whose count is yet to be read from their channel
        # (`restored`, `Recount.read`).
        self._unsure: set[int] = set()

    def heard(self, channel_id: int, message_id: int) -> None:
        """Someone other than the bot posted message `message_id` in the channel. Called
        for every message of every channel with a table, from the gateway's parser; the id
        is only kept while a restart's recount is on its way (`Recount.read`)."""
        table = self.bot.service.registry.in_channel(channel_id)
        if table is None:
            return
        live = self.live(table)
        if live is None:
            return
        pile = self._pile(table.id, live)
        if pile.heard is not None and len(pile.heard) < HEARD_KEPT:
            pile.heard.add(message_id)
        pile.count += 1
        pile.last = now = self.bot.service.clock.now()
        if pile.count == BURIED_AFTER:
            self._wait(table, now + QUIET)

    def posted_own(self, channel_id: int, message_id: int) -> None:
        """The bot posted in a channel with a table (`bot.chatter`): one below its live
        message is remembered until deleted, so that its deletion is not taken off."""
        table = self.bot.service.registry.in_channel(channel_id)
        live = None if table is None else self.live(table)
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
        if pile is None or (pile.kind, pile.message_id) != self.live(table):
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
        redraw (`Recount.read`), once the gateway has described its server."""
        self._unsure.add(table.id)

    def awaits_read(self, table_id: int) -> bool:
        """Whether the table was restored and its channel is yet to be read below it
        (`Recount.read`)."""
        return table_id in self._unsure

    def read_over(self, table_id: int) -> tuple[set[int], set[int]]:
        """The restart's read of the table's channel is over, made or not (`Recount.read`):
        the ids heard while it was on its way, and those deleted meanwhile, which the read
        may have returned before they went. Heard from now on are counted only."""
        self._unsure.discard(table_id)
        pile = self._piles.get(table_id)
        if pile is None:
            return set(), set()
        heard = set() if pile.heard is None else pile.heard
        unsaid = pile.unsaid
        pile.heard, pile.unsaid = None, set()
        return heard, unsaid

    def recounted(self, table: Table, live: tuple[str, int], below: list[discord.Message],
                  heard: set[int], unsaid: set[int], me: int) -> None:
        """What buries the live message `live` (its kind and id, maybe just adopted) once a
        restart read the channel below it (`Recount.read`): the others' messages, read or
        heard meanwhile, once each (`_Pile.heard`), not those deleted meanwhile; the bot's
        own are remembered as `_Pile.own`. Eight or more: this redraw brings it back."""
        kind, live_id = live
        pile = self._piles[table.id] = _Pile(kind, live_id)
        for message in below:
            if message.id <= live_id or message.id in unsaid:
                continue
            if message.author.id == me:
                pile.own.add(message.id)
            else:
                heard.add(message.id)
        pile.count = sum(1 for message_id in heard if message_id > live_id)
        pile.last = self.bot.service.clock.now()
        if pile.count >= BURIED_AFTER:
            self._wait(table, pile.last)  # this redraw brings it back (`due`), else later

    def due(self, table: Table, kind: str) -> bool:
        """Whether the table's `kind` message is buried and may come back now."""
        pile = self._piles.get(table.id)
        if pile is None or pile.count < BURIED_AFTER or (kind, pile.message_id) != \
                self.live(table):
            return False
        return self.bot.service.clock.now() >= self._next_return(table.id)

    @staticmethod
    def live(table: Table) -> tuple[str, int] | None:
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
                    self.live(table) or pile.count < BURIED_AFTER:
                return  # redrawn meanwhile (brought back, a new round, a repost), or the
                # chatter below it deleted (`deleted`)
            later = max(pile.last + QUIET, self._next_return(table.id))
            if self.bot.service.clock.now() < later:
                self._wait(table, later)  # still talking, or back too recently
            else:
                self.bot.service.refresh(table)

        self.bot.service.scheduler.at(("buried", table.id), when, look)
