"""Sends the edits an archived thread refused once it is active again.

What each message is owed is kept by `bot.tables.asleep.AsleepThreads` (the table service's,
stored with it); this is the Discord side: owing an edit a thread refused, and paying what
a thread owes once the gateway, a post or an edit shows it awake.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.packages.publisher.acks import Acks
from bot.packages.publisher.calls import ARCHIVED_THREAD, NO_PINGS, Passing, passing
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.packages.screen import Screen
from bot.tables.asleep import OwedEdit
from bot.tables.budget import BudgetClosed
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


class OwedEdits:
    """The edits archived threads owe their messages, sent as each wakes."""

    def __init__(self, bot: Host, acks: Acks) -> None:
        self.bot = bot
        # The publisher's (`Publisher.acks`): a message owed an edit is not known to show
        # anything once it is sent (never kept for a restart).
        self._acks = acks
        # Per thread: the wakings its owed edits failed in passing (`_try_again`).
        self._tries: dict[int, int] = {}

    async def owe(self, table: Table, message_id: int, text: str | None) -> None:
        """The message is owed `text` (None: only its controls go) once the table's thread
        wakes, in storage too (`bot.tables.asleep`): the thread, archived, refused its
        edit, or the bot may not post there now."""
        await self.bot.service.asleep.owe(
            table.guild_id or 0, table.channel_id, message_id,
            OwedEdit(text, table.people() if text is not None else frozenset()))

    async def awake(self, guild_id: int | None, channel_id: int) -> None:
        """The gateway says the thread is active again and lets the bot post there (its
        THREAD_UPDATE as it is unarchived, "Unarchiving a Thread", Threads,
        https://discord.com/developers/docs/topics/threads#unarchiving-a-thread; or its
        server's GUILD_CREATE listing it among the active threads at start): the edits it
        owes go now. A closed table's would wait for nothing else, its messages keeping
        their buttons; a table that goes on there would only send them with its next
        change."""
        if not self.bot.service.asleep.owes(channel_id):
            return
        try:
            await self.wake(guild_id, channel_id)
        except BudgetClosed:
            log.debug("thread %s: owed edits left to the restart, the bot is stopping",
                      channel_id)

    async def wake(self, guild_id: int | None, channel_id: int,
                   edited: int | None = None) -> None:
        """A post or an edit went through where edits had been refused as the thread was
        archived, or the gateway said it was unarchived (`awake`): it is active again (a
        post unarchives it, "Sending a message will automatically unarchive the thread",
        Threads, Active & Archived Threads,
        https://discord.com/developers/docs/topics/threads#active-archived-threads; a
        member's too, or a moderator reopened it), so the edits owed go now (but
        `edited`'s, whose newer edit stands). Left undone, a message a fresh one replaced
        kept a turn long past and live buttons above the live table, and a closed table's
        kept buttons that only said the table was gone. Each is forgotten in storage once
        sent: a stop meanwhile leaves the rest to the restart."""
        asleep = self.bot.service.asleep
        settled: list[int] = []
        failed: Passing | None = None
        try:
            for message_id, edit in (await asleep.take(channel_id)).items():
                if message_id == edited:
                    settled.append(message_id)
                    continue
                outcome = await self._owed_edit(guild_id, channel_id, message_id, edit)
                if outcome is True:
                    settled.append(message_id)
                elif outcome is not False:
                    failed = outcome
        finally:
            await asleep.paid(settled)
        if failed is not None:
            self._try_again(guild_id, channel_id, failed)
        elif settled:
            self._tries.pop(channel_id, None)

    async def _owed_edit(self, guild_id: int | None, channel_id: int, message_id: int,
                         edit: OwedEdit) -> bool | Passing:
        """Send one owed edit, whatever became of its table: whether it is settled (sent,
        or never to be: the message deleted, say), not owed again (the thread archived
        again already, or a long rate limit), or what failed in passing, owed again too
        (`_try_again`)."""
        kwargs = Screen(edit.text).kwargs() if edit.text is not None else {"view": None}
        outcome: bool | Passing = False
        try:
            with self._acks.edit(message_id, 0):  # (never known: nothing is acknowledged)
                async with self.bot.budget.call():
                    await self.bot.get_partial_messageable(channel_id, guild_id=guild_id) \
                        .get_partial_message(message_id).edit(allowed_mentions=NO_PINGS,
                                                              **kwargs)
        except discord.RateLimited as err:
            log.warning("thread %s: owed edit rate limited for %.1f s", channel_id,
                        err.retry_after)
            self._awake_after(guild_id, channel_id, err.retry_after)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as err:
            if passing(err):
                outcome = err
            elif isinstance(err, discord.HTTPException) and err.code != ARCHIVED_THREAD:
                log.info("message %s could not get its owed edit (%s %s)", message_id,
                         err.status, err.code)
                return True
        else:
            return True
        # Archived again already, or held back: owed again, for the thread's next waking.
        await self.bot.service.asleep.owe(guild_id or 0, channel_id, message_id, edit)
        return outcome

    def _try_again(self, guild_id: int | None, channel_id: int, err: Passing) -> None:
        """The thread's owed edits met a server error or the network: sent again after the
        next of `RETRY_DELAYS`, as a chart upload is, then left to the thread's next
        waking or the next start, owed in storage. Counted as sent, a 5xx forgot them, and
        a closed table's messages kept their buttons for good; raised, a dropped
        connection left the thread's other edits unsent until a restart, and the server's
        description (`_described`) undone past it."""
        tries = self._tries.get(channel_id, 0) + 1
        if tries > len(RETRY_DELAYS):
            self._tries.pop(channel_id, None)
            log.warning("thread %s: owed edits failed %d times (%r), left to its next "
                        "waking", channel_id, tries, err)
            return
        self._tries[channel_id] = tries
        delay = RETRY_DELAYS[tries - 1]
        log.warning("thread %s: owed edits failed (%r), trying again in %.0f s", channel_id,
                    err, delay)
        self._awake_after(guild_id, channel_id, delay)

    def _awake_after(self, guild_id: int | None, channel_id: int, delay: float) -> None:
        """Send what the thread owes once a long 429 is over, or a passing failure's delay
        (`_try_again`): a closed table's messages have no edit of the table's to carry
        them, nor, the thread being open, another THREAD_UPDATE, and kept their buttons
        until a restart. Archived again by then, it refuses them once, and they wait for
        its waking."""
        async def again() -> None:
            await self.awake(guild_id, channel_id)

        self.bot.service.scheduler.after(("owed edits", channel_id), delay, again)

