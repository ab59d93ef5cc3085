"""What waits for the gateway to describe a server (its GUILD_CREATE): the posts of its
tables, and the word owed to the channels of its tables that could not be restored.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.i18n import t
from bot.packages.publisher.calls import (
    ARCHIVED_THREAD,
    NO_PINGS,
    THREAD_LOCKED,
    Passing,
    passing,
)
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.tables.asleep import OwedEdit
from bot.tables.budget import BudgetClosed
from bot.tables.restore import Unreadable

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# The channel's messages an owed word is looked for among (`_said_before`): one request's
# worth (Get Channel Messages' `limit`, "Max number of messages to return (1-100)"), since
# the word was owed less a margin for the bot's clock against Discord's.
SAID_LOOKED = 100
SAID_MARGIN = timedelta(minutes=1)


def _nonce(lost: Unreadable) -> str:
    """The post's nonce, the same at every try and start: the word is stored as told only
    after it is said (`UndescribedServers._told`), and a process killed in between says it
    again at its next start. The edits change nothing the second time; the post would be
    a second one, but for Create Message's `enforce_nonce` (which discord.py sets with any
    nonce): "If another message was created by the same author with the same nonce, that
    message will be returned and no new message will be created", checked "in the past
    few minutes" (https://discord.com/developers/docs/resources/message#create-message);
    a start later than that looks for the post instead (`_said_before`). Up to 25
    characters (same page): a table id of up to 14 digits."""
    return f"unreadable:{lost.table_id}"


class UndescribedServers:
    """The servers the gateway has yet to describe, and what waits for it."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # The servers of the tables restored at start, until the gateway has described them
        # (their GUILD_CREATE), and servers in an outage until it ends: a channel locked or
        # closed to the bot meanwhile would refuse the tables' first edits, so nothing is
        # sent there before (`unseen`, `seen`).
        self._unseen: set[int] = set()
        # Per server: the tables found unreadable at start, whose channels are told once the
        # gateway has described the server (`unreadable`, `tell_unreadable`).
        self._unreadable: dict[int, list[Unreadable]] = {}
        # Per table found unreadable: the tries its word has failed for a passing reason
        # (`_try_again`).
        self._tries: dict[int, int] = {}

    def unseen(self, guild_ids: set[int]) -> None:
        """Hold the channel posts of these servers' tables until `seen`."""
        self._unseen |= guild_ids

    def seen(self, guild_id: int) -> bool:
        """The gateway has described this server: its tables may post again, once told
        whether their channel lets them. Whether it was held."""
        held = guild_id in self._unseen
        self._unseen.discard(guild_id)
        return held

    def holds(self, guild_id: int | None) -> bool:
        """Whether the server's tables post nothing yet (`unseen`)."""
        return guild_id in self._unseen

    def unreadable(self, owed: Iterable[Unreadable]) -> None:
        """The tables closed at start because their stored state could not be read, at this
        start or at one that stopped before telling them (`Storage.unreadable_since`): each
        channel is told once its server has been described (`tell_unreadable`)."""
        for lost in owed:
            self._unreadable.setdefault(lost.guild_id, []).append(lost)

    @property
    def unreadable_guilds(self) -> set[int]:
        """The servers whose channels are still owed the word of an unreadable table."""
        return set(self._unreadable)

    async def tell_unreadable(self, guild_id: int) -> None:
        """Tell each channel of the server whose table could not be restored (`_tell_each`).
        Called as the gateway describes the server, before its tables are let post
        (`seen`): it raises nothing a call to Discord may raise, which held them."""
        await self._tell_each(self._unreadable.pop(guild_id, []))

    async def _tell_each(self, owed: list[Unreadable]) -> None:
        """Tell these channels (`_tell`), then no longer owe them, in one write after the
        last (`_told`): a write after each let the server's other calls take the call
        budget's places before the next. One the stop leaves untold stays owed in storage:
        the next start tells it; one a long 429 holds back, once it is over (`_later`);
        one that met a server error or the network, a few times more (`_try_again`).

        A failure that passes (`calls.passing`: a 5xx past discord.py's own retries, the
        network) keeps the word owed; a refusal for good (a 403, the channel closed to the
        bot; a 404, Unknown Channel) ends it: nothing more is owed."""
        told: list[Unreadable] = []
        try:
            for lost in owed:
                try:
                    await self._tell(lost.guild_id, lost)
                except BudgetClosed:
                    return
                except discord.RateLimited as err:
                    log.warning("table %s: channel %s rate limited for %.1f s, its word "
                                "waits", lost.table_id, lost.channel_id, err.retry_after)
                    self._later(lost, err.retry_after)
                    continue
                except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as err:
                    if passing(err):
                        self._try_again(lost, err)
                        continue
                    log.warning("table %s: channel %s could not be told its table was not "
                                "restored (%s)", lost.table_id, lost.channel_id, err)
                except Exception:  # a bug: the server's tables post all the same
                    log.exception("table %s: channel %s could not be told its table was "
                                  "not restored: left to the next start", lost.table_id,
                                  lost.channel_id)
                    self._tries.pop(lost.table_id, None)
                    continue
                self._tries.pop(lost.table_id, None)
                told.append(lost)
        finally:
            await self._told(told)

    def _try_again(self, lost: Unreadable, err: Passing) -> None:
        """The word met a server error or the network: told again after the next of
        `RETRY_DELAYS`, as a chart upload is. Counted as told, a 5xx deleted the stored
        word, and the lobby kept its dead buttons for good; raised, a dropped connection
        held the server's tables as a long 429 did (`_later`). Once the tries are spent it
        is left to the next start, still owed in storage."""
        tries = self._tries.get(lost.table_id, 0) + 1
        if tries > len(RETRY_DELAYS):
            self._tries.pop(lost.table_id, None)
            log.warning("table %s: channel %s could not be told its table was not restored "
                        "in %d tries (%r): left to the next start", lost.table_id,
                        lost.channel_id, tries, err)
            return
        self._tries[lost.table_id] = tries
        delay = RETRY_DELAYS[tries - 1]
        log.warning("table %s: channel %s could not be told its table was not restored "
                    "(%r), trying again in %.0f s", lost.table_id, lost.channel_id, err, delay)
        self._later(lost, delay)

    def _later(self, lost: Unreadable, delay: float) -> None:
        """Tell the word again in `delay` seconds (or at the GUILD_CREATE that ends an
        outage begun meanwhile), owed in storage meanwhile: a 429 longer than the client's
        `max_ratelimit_timeout`, which discord.py raises rather than sleep out, or a
        passing failure (`_try_again`). Raised up through the server's description, it
        held the server's tables, which posted nothing until its next outage or start."""
        self._unreadable.setdefault(lost.guild_id, []).append(lost)

        async def again() -> None:
            owed = self._unreadable.get(lost.guild_id, [])
            if self.holds(lost.guild_id) or lost not in owed:
                return  # for the GUILD_CREATE that ends the outage, or told by it already
            owed.remove(lost)
            if not owed:
                del self._unreadable[lost.guild_id]
            await self._tell_each([lost])

        self.bot.service.scheduler.after(("unreadable", lost.table_id), delay, again)

    async def _told(self, told: list[Unreadable]) -> None:
        """These channels were told, or refused it for good: nothing more is owed them."""
        storage = self.bot.storage
        if storage is None or not told:
            return
        try:
            await storage.told_unreadable([lost.table_id for lost in told])
        except Exception:  # told now all the same; a restart may tell them again
            log.warning("could not forget that the channels of tables %s were owed their "
                        "word", [lost.table_id for lost in told], exc_info=True)

    async def _said_before(self, channel: discord.PartialMessageable, lost: Unreadable,
                           text: str) -> bool:
        """Whether an earlier start posted the word: it stores it as told only after, and
        one killed in between left it owed. The post's nonce gets that post back only "in
        the past few minutes" (`_nonce`); a start later than that looks for the bot's own
        post in the channel's messages since the word was owed, one request (Get Channel
        Messages, `after`, up to 100 of them). It needs Read Message History, which the
        bot's invite asks for since stop 50 (`permissions.INVITE`), and a server may still
        deny in a channel: without it, "no messages will be returned" (same
        page) and the word is posted again, as before. The others' messages come without
        their content (the bot has no MESSAGE_CONTENT intent: "Apps without the intent will
        receive empty values [...] with a few exceptions: Content in messages that an app
        sends", Message Content Intent,
        https://discord.com/developers/docs/events/gateway#message-content-intent)."""
        me = self.bot.user
        if lost.earlier is None or me is None:
            return False
        async with self.bot.budget.call():
            async for message in channel.history(limit=SAID_LOOKED, oldest_first=True,
                                                 after=lost.earlier - SAID_MARGIN):
                if message.author.id == me.id and message.content == text:
                    return True
        return False

    async def _tell(self, guild_id: int, lost: Unreadable) -> None:
        """The table's messages still named lose their controls and say it could not be
        restored (a click on them found the table gone, with nothing on screen to say why),
        or a post says it where none is left. A thread archived meanwhile refuses the edits:
        a post says it there, which wakes it, and the messages are edited then (left, they
        kept their buttons, and nobody was told). A thread a moderator locked refuses the
        post too: the edits are owed until someone reopens it (`OwedEdits.awake`)."""
        channel = self.bot.get_partial_messageable(lost.channel_id, guild_id=guild_id)
        text = t(lost.locale, "table.unreadable")
        asleep: list[int] = []

        async def edit(message_id: int) -> bool:
            """Whether the message says it now; False where it is gone, or asleep."""
            async with self.bot.budget.call():
                try:
                    await channel.get_partial_message(message_id).edit(
                        content=text, view=None, allowed_mentions=NO_PINGS)
                except discord.NotFound:
                    return False
                except discord.HTTPException as err:
                    if err.code not in (ARCHIVED_THREAD, THREAD_LOCKED):
                        raise
                    asleep.append(message_id)
                    return False
            return True

        if not any([await edit(message_id) for message_id in lost.message_ids]):
            try:
                if not await self._said_before(channel, lost, text):
                    async with self.bot.budget.call():
                        await channel.send(text, allowed_mentions=NO_PINGS,
                                           nonce=_nonce(lost))
            except discord.HTTPException as err:
                if not asleep:
                    raise
                log.info("table %s: thread %s refuses the word (%s): owed until it reopens",
                         lost.table_id, lost.channel_id, err.code)
            else:
                woken, asleep[:] = list(asleep), []
                for message_id in woken:  # the post woke the thread
                    await edit(message_id)
        for message_id in asleep:
            await self.bot.service.asleep.owe(guild_id, lost.channel_id, message_id,
                                              OwedEdit(text))

