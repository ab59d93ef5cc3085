"""The ping of the players a timer waits on (`bot.tables.reminders`), posted and deleted
with the table's redraw: through its coalescer and the call budget, after the table
message, so it lands below it, where the notification takes them.

It mentions only them: the bot's every other message pings nobody (`NO_PINGS`), and
Discord notifies only the users named both in the content and in `allowed_mentions.users`
(Allowed Mentions Object,
https://discord.com/developers/docs/resources/message#allowed-mentions-object)."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

import aiohttp
import discord

from bot.i18n import t
from bot.packages.publisher.calls import NO_PINGS
from bot.packages.screen import Screen
from bot.tables.ping import Reminder
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# Seconds before the one new try of a ping whose post failed for a passing reason: well
# inside the half of the timer left (7.5 s of proletario's 15 s turn).
RETRY_DELAY = 2.0
# The channel's messages a ping whose two tries failed is looked for among (`_look`): one
# request's worth (Get Channel Messages' `limit`, "Max number of messages to return
# (1-100)") since its first try, less a margin for the bot's clock against Discord's.
LOOKED = 100
LOOK_MARGIN = timedelta(minutes=1)


class Send(Protocol):
    """`Publisher._send`: the message's id, or None if Discord refused it; with
    `passing`, a passing failure is raised (`calls.passing`)."""

    def __call__(self, table: Table, screen: Screen, mentions: discord.AllowedMentions,
                 nonce: str | None, *, passing: bool = False) -> Awaitable[int | None]: ...


def reminder_text(table: Table, reminder: Reminder, deadline: float | None = None) -> str:
    """In the table's language, as its other messages: the channel's, not one player's.
    The timer's deadline, or ``deadline`` (the one a ping was posted with)."""
    who = " ".join(f"<@{user_id}>" for user_id in reminder.user_ids)
    at = f"<t:{int(deadline or table.timer_deadline or 0)}:R>"
    return t(table.locale, f"remind.{reminder.kind}", who=who, at=at)


def reminder_nonce(table: Table, reminder: Reminder) -> str:
    """The ping's nonce, the same at every try and start. `sent` and the message's id are
    stored after the post is answered, so a process killed in between posts it again at its
    next start, and the first ping stayed for good (nothing knew to delete it). With
    Create Message's `enforce_nonce` (which discord.py sets with any nonce), "If another
    message was created by the same author with the same nonce, that message will be
    returned and no new message will be created", checked "in the past few minutes"
    (https://discord.com/developers/docs/resources/message#create-message): the restart
    gets the first ping back, and deletes it with its timer. One per table, game and timer;
    hashed to fit the nonce's 25 characters (same page) whatever the ids."""
    key = f"{table.id}:{table.game_no}:{reminder.serial}".encode()
    return "p" + hashlib.blake2b(key, digest_size=12).hexdigest()


class Reminders:
    def __init__(self, bot: Host, send: Send) -> None:
        self.bot = bot
        self._send = send

    async def flush(self, table: Table) -> None:
        """Delete the pings whose timer is over, post the one due, or move the one shown to
        the timer's new deadline (a restart's downtime, a gap in the connection), without
        pinging again."""
        for message_id in list(table.reminders_gone):
            await self._delete(table, message_id)
            table.reminders_gone.remove(message_id)
            self.bot.service.touch(table)
        reminder = table.reminder
        if reminder is None or table.timer_deadline is None:
            return
        if not reminder.sent:
            reminder.sent = True
            reminder.deadline = table.timer_deadline
            reminder.tries += 1
            if reminder.first_try is None:
                reminder.first_try = self.bot.service.clock.now()
            mentions = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False,
                users=[discord.Object(user_id) for user_id in reminder.user_ids])
            try:
                posted = await self._send(table, Screen(reminder_text(table, reminder)),
                                          mentions, reminder_nonce(table, reminder),
                                          passing=True)
            except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                    TimeoutError) as err:  # only passing ones: `_send` handles the others
                self._failed(table, reminder, err)
                return
            if posted is not None:
                reminder.message_id = posted
                if table.reminder is not reminder:  # its timer ended while it was on its way
                    table.reminders_gone.append(posted)
            self.bot.service.touch(table)
        elif reminder.message_id is not None and reminder.deadline != table.timer_deadline:
            shown, reminder.deadline = reminder.deadline, table.timer_deadline
            # The text shows whole seconds (`reminder_text`): a gap in the gateway
            # connection of under a second that leaves that second as it was changes
            # nothing on screen, and is worth no edit.
            if shown is None or int(shown) != int(table.timer_deadline):
                await self._edit(table, reminder.message_id, reminder_text(table, reminder))
            self.bot.service.touch(table)

    def _failed(self, table: Table, reminder: Reminder, err: Exception) -> None:
        """A ping whose post failed for a passing reason is tried once more, after
        `RETRY_DELAY` (or the rate limit's wait), by a redraw of the table, if its timer
        still runs then (`bot.tables.reminders` drops it otherwise). Once: its timer is half
        gone, and a player told after it ran out is no help. Tried again, its nonce (the
        same) makes a post that landed despite the error come back rather than twice."""
        service = self.bot.service
        if reminder.tries > 1:
            log.warning("table %s: ping failed %d times (%r), looking for it in %.0f s",
                        table.id, reminder.tries, err, RETRY_DELAY)
            service.touch(table)  # tried, as a refused one is: not after a restart

            async def look() -> None:
                await self._look(table, reminder)

            service.scheduler.after(("ping look", table.id), RETRY_DELAY, look)
            return
        reminder.sent = False
        delay = err.retry_after if isinstance(err, discord.RateLimited) else RETRY_DELAY
        log.warning("table %s: ping not posted (%r), trying again in %.0f s", table.id, err,
                    delay)

        async def again() -> None:
            service.refresh(table)

        service.scheduler.after(("ping retry", table.id), delay, again)

    async def _look(self, table: Table, reminder: Reminder) -> None:
        """Both tries failed, yet either may have been carried out: a 5xx does not say
        Discord did nothing (a 504 is a gateway that gave up waiting), and the second,
        with the first's nonce, then got that ping back without learning its id. Its id
        unknown, nothing deleted it with its timer: a stale « à toi » stayed in the
        channel for good. Tried a third time, on the bot's clock, not as a post (one that
        never landed would ping its players late, or twice) but as a look: the bot's own
        message of that text among the channel's messages since the first try (Get
        Channel Messages, `after`, one request, https://discord.com/developers/docs/
        resources/message#get-channel-messages; Read Message History, which the invite
        asks for, `permissions.INVITE`, as `servers._said_before` does). Found, it is
        deleted with its timer, or now if its timer is over; not found, or the look
        failing, it is given up with a log line."""
        me = self.bot.user
        if me is None or reminder.first_try is None or reminder.message_id is not None:
            return
        text = reminder_text(table, reminder, reminder.deadline)
        since = datetime.fromtimestamp(reminder.first_try, UTC) - LOOK_MARGIN
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        found: int | None = None
        try:
            async with self.bot.budget.call():
                async for message in channel.history(limit=LOOKED, oldest_first=True,
                                                     after=since):
                    if message.author.id == me.id and message.content == text:
                        found = message.id
                        break
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                TimeoutError) as err:
            log.warning("table %s: ping given up, its look failed (%r)", table.id, err)
            return
        if found is None:
            log.warning("table %s: ping given up, not posted", table.id)
            return
        log.info("table %s: ping %s found after its failed tries", table.id, found)
        reminder.message_id = found
        if table.reminder is not reminder:  # its timer is over: it goes now
            table.reminders_gone.append(found)
            self.bot.service.refresh(table)
        self.bot.service.touch(table)

    async def closed(self, table: Table) -> None:
        """The table closed: its ping goes with it."""
        if table.reminder is not None and table.reminder.message_id is not None:
            table.reminders_gone.append(table.reminder.message_id)
        table.reminder = None
        for message_id in table.reminders_gone:
            await self._delete(table, message_id)
        table.reminders_gone.clear()

    def _message(self, table: Table, message_id: int) -> discord.PartialMessage:
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        return channel.get_partial_message(message_id)

    async def _delete(self, table: Table, message_id: int) -> None:
        """Gone already (a moderator's tidying) or refused: nothing more to do about it."""
        try:
            async with self.bot.budget.call():
                await self._message(table, message_id).delete()
        except discord.HTTPException as err:
            log.info("table %s: reminder %s not deleted (%s)", table.id, message_id, err)

    async def _edit(self, table: Table, message_id: int, text: str) -> None:
        try:
            async with self.bot.budget.call():
                await self._message(table, message_id).edit(content=text,
                                                            allowed_mentions=NO_PINGS)
        except discord.HTTPException as err:
            log.info("table %s: reminder %s not edited (%s)", table.id, message_id, err)
