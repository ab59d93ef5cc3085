"""Puts tables on Discord: lobby and table messages, and every player's ephemeral hand.

The table service calls `flush` through its coalescer, so bursts of actions cost one edit.
Each target remembers the fingerprint of what it last showed, so an edit that would change
nothing is never sent; the acting player's own hand is answered by their interaction and
recorded here with `shown_hand`, so the flush does not edit it a second time.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.graphemes import cut
from bot.i18n import CATALOGUES, t
from bot.packages.controls import answer_privately, here, refusal_text
from bot.packages.game import chart
from bot.packages.game.hand import hand_screen
from bot.packages.game.lines import entry_text
from bot.packages.game.table_message import closed_lines, retired_text, table_screen
from bot.packages.lobby.display import lobby_screen
from bot.packages.permissions import (
    ATTACH,
    hindrance,
    may_attach,
    missing,
    needed_in,
    permission_name,
)
from bot.packages.screen import Screen
from bot.tables.asleep import OwedEdit
from bot.tables.budget import BudgetClosed
from bot.tables.refusals import TableError
from bot.tables.restore import Unreadable
from bot.tables.table import HandLink, LogEntry, Table
from engine import Phase

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
# "Maximum number of edits to messages older than 1 hour reached. Try again later" (JSON error
# codes, https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
# Discord does not publish how many, so a table message is replaced before it is an hour old.
OLD_MESSAGE_EDITS = 30046
# "Unknown channel" (same table): the table's channel was deleted.
UNKNOWN_CHANNEL = 10003
# "Tried to perform an operation on an archived thread, such as editing a message" (same
# table). A post is no such operation: "Sending a message will automatically unarchive the
# thread, unless the thread has been locked by a moderator" (Threads, Active & Archived
# Threads, https://discord.com/developers/docs/topics/threads#active-archived-threads).
ARCHIVED_THREAD = 50083
# "Thread is locked" (same table): "Users (including bot users) without the MANAGE_THREADS
# permission [...] won't be able to create or update messages in locked threads" (Threads,
# Locked Threads, https://discord.com/developers/docs/topics/threads#locked-threads).
THREAD_LOCKED = 160005
FRESH_TABLE_AGE = 55 * 60.0
# How long before a hand's token runs out its last edit says it stops following the game.
LAPSE_AHEAD = 20.0
# The message an interaction token answered with: for a hand, the hand itself.
ORIGINAL: Any = "@original"


LANE = "hand"


def lane(table_id: int, user_id: int) -> tuple[str, int, int]:
    """The refresh coalescer's key for one player's hand at a table (`Publisher._hand`)."""
    return (LANE, table_id, user_id)


def opened_form(interaction: discord.Interaction[Host]) -> bool:
    """Whether the interaction was answered with a form (MODAL). Discord accepts a followup
    then, but it lands in the channel under the open form, where the host, busy typing, does
    not see it: a permission notice waits for the form's submission, whose answer shows it
    (or for the host's next action if they close the form)."""
    return interaction.response.type is discord.InteractionResponseType.modal


class Publisher:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._shown: dict[tuple[int, str], str] = {}
        # Tables whose channel refused a post or an edit (403, or a locked thread), or that
        # the gateway said refuses (`channel_changed`), with whether their host was told:
        # nothing more is sent to that channel until someone acts at the table again or
        # the gateway says the bot may post there again.
        self._blocked: dict[int, bool] = {}
        # Per blocked table whose host was told: the interaction that told them, whose token
        # tells them, privately, that the table picks up again (`channel_changed`); and the
        # tables whose host is owed that word at their next action, that token expired.
        self._told_by: dict[int, HandLink] = {}
        self._owed_resume: set[int] = set()
        # Per table: the results message that carries its game's chart.
        self._charted: dict[int, tuple[int, str]] = {}  # the message and the language drawn
        # Tables whose host was told the chart cannot be attached (once per incident).
        self._told_attach: set[int] = set()
        self.rendering = 0  # charts being drawn in worker threads (the bot reports them as busy)
        # The servers of the tables restored at start, until the gateway has described them
        # (their GUILD_CREATE), and servers in an outage until it ends: a channel locked or
        # closed to the bot meanwhile would refuse the tables' first edits, so nothing is
        # sent there before (`unseen`, `seen`).
        self._unseen: set[int] = set()
        # Per server: the tables found unreadable at start, whose channels are told once the
        # gateway has described the server (`unreadable`, `tell_unreadable`).
        self._unreadable: dict[int, list[Unreadable]] = {}

    # ------------------------------------------------------------------ service hooks

    def unseen(self, guild_ids: set[int]) -> None:
        """Hold the channel posts of these servers' tables until `seen`."""
        self._unseen |= guild_ids

    def seen(self, guild_id: int) -> bool:
        """The gateway has described this server: its tables may post again, once told
        whether their channel lets them. Whether it was held."""
        held = guild_id in self._unseen
        self._unseen.discard(guild_id)
        return held

    def unreadable(self, lost: Unreadable) -> None:
        """A table closed at start because its stored state could not be read: its channel
        is told once its server has been described (`tell_unreadable`)."""
        self._unreadable.setdefault(lost.guild_id, []).append(lost)

    @property
    def unreadable_guilds(self) -> set[int]:
        """The servers whose channels are still owed the word of an unreadable table."""
        return set(self._unreadable)

    async def tell_unreadable(self, guild_id: int) -> None:
        """Tell each channel of the server whose table could not be restored (`_tell`)."""
        for lost in self._unreadable.pop(guild_id, []):
            try:
                await self._tell(guild_id, lost)
            except discord.HTTPException as err:
                log.warning("table %s: channel %s could not be told its table was not "
                            "restored (%s)", lost.table_id, lost.channel_id, err)
            except BudgetClosed:
                return

    async def _tell(self, guild_id: int, lost: Unreadable) -> None:
        """The table's messages still named lose their controls and say it could not be
        restored (a click on them found the table gone, with nothing on screen to say why),
        or a post says it where none is left. A thread archived meanwhile refuses the edits:
        a post says it there, which wakes it, and the messages are edited then (left, they
        kept their buttons, and nobody was told). A thread a moderator locked refuses the
        post too: the edits are owed until someone reopens it (`awake`)."""
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
                async with self.bot.budget.call():
                    await channel.send(text, allowed_mentions=NO_PINGS)
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

    async def flush(self, table: Table) -> None:
        if table.closed or table.id in self._blocked or table.guild_id in self._unseen:
            return
        try:
            # Render only once the budget has room: what is then sent is the latest state,
            # and nothing once the table has closed meanwhile (its channel deleted, say).
            await self.bot.budget.wait_free()
            if table.closed:
                return
            await self._lobby(table)
            await self._table(table)
        except discord.RateLimited as err:
            self._postpone(table, err)
        except BudgetClosed:
            # The bot is stopping with no place left under Discord's limit: the restart
            # posts this table afresh (see bot/tables/budget.py).
            log.debug("table %s: refresh dropped, the bot is stopping", table.id)

    def _postpone(self, table: Table, err: discord.RateLimited) -> None:
        """discord.py gave up on a 429 longer than the client's `max_ratelimit_timeout`
        rather than hold this table's refresh (and every change after it) for that long.
        What was not sent is not marked shown, so the refresh asked for here, once the limit
        is over, sends the latest state."""
        log.warning("table %s: rate limited for %.1f s, refresh postponed", table.id,
                    err.retry_after)
        service = self.bot.service

        async def again() -> None:
            service.refresh(table)

        service.scheduler.after(("rate limited", table.id), err.retry_after, again)

    async def flush_hands(self, table: Table) -> None:
        """In the lobby too: a hand left open when the game ended says where its player now
        is (`hand.lobby_lines`), not the game's last state, and leavers' hands say goodbye."""
        if not table.closed:
            await self._hands(table)

    async def closed(self, table: Table) -> None:
        """The table is gone: its messages say so, with the final standings where a game
        had any, and lose their controls, and so do the hands still open on it."""
        try:
            await self._closed(table)
        except BudgetClosed:
            log.debug("table %s: closing not shown, the bot is stopping", table.id)
        finally:
            self._forget(table.id)

    def _forget(self, table_id: int) -> None:
        """A closed table's bookkeeping goes with it: kept, it would grow with every table
        the process ever ran, over weeks of evenings."""
        self._shown = {key: shown for key, shown in self._shown.items() if key[0] != table_id}
        self._blocked.pop(table_id, None)
        self._told_by.pop(table_id, None)
        self._owed_resume.discard(table_id)
        self._charted.pop(table_id, None)
        self._told_attach.discard(table_id)
        self.bot.service.coalescer.forget_where(
            lambda key: isinstance(key, tuple) and key[:2] == (LANE, table_id))

    async def _closed(self, table: Table) -> None:
        text = "\n".join(closed_lines(table))
        for message_id in (table.lobby_message_id, table.table_message_id):
            if message_id is None:
                continue
            if table.id in self._blocked and table.parent_id is not None:
                # A thread the bot may not post in now (a moderator closed it: archived and
                # locked), where nothing is sent: its messages are owed their closing for
                # when it is reopened (`awake`). They kept their buttons, which only said
                # the table was gone.
                await self._owe(table, message_id, text)
            else:
                await self._edit(table, message_id, Screen(text), text)
        table.table_message_id = None
        links = [*table.hands.items(), *((f.user_id, f.link) for f in table.farewells)]
        table.farewells.clear()
        # A table closed for idleness has only hands older than their 15-minute tokens:
        # editing them would be refused with 401s, which count toward Cloudflare's ban
        # (discord-api-docs, topics/rate-limits.md, "Invalid Request Limit"); a click on
        # such a hand is told the table is gone.
        now = self.bot.service.clock.now()
        # Side by side, as refreshes are (`_hands`): one token held on a 429 holds no other.
        await asyncio.gather(*(
            self._edit_hand(user_id, link, Screen(t(link.locale or table.locale,
                                                    "hand.closed")))
            for user_id, link in links if link.valid(now)))

    async def acted(self, interaction: discord.Interaction[Host], table: Table) -> None:
        """Someone acted at a table whose channel refused the bot: if the interaction says
        the bot may post there again, redraw everything (posting a fresh table message when
        the old one is gone); else tell the host, once per incident, which permission is
        missing. Retrying only here keeps a channel that refuses to one failed call per
        incident, not one per timer or bot move."""
        await self._attachable(interaction, table)
        if table.id in self._owed_resume and table.is_host(interaction.user.id) \
                and not opened_form(interaction):
            self._owed_resume.discard(table.id)
            await answer_privately(interaction, t(interaction.locale, "table.resumed"))
        told = self._blocked.get(table.id)
        if told is None:
            return
        # A locked thread, or a private one the bot was removed from, refuses as a missing
        # permission does, though none is missing: retrying there at every click cost a
        # refused call each, and the host never heard.
        why = hindrance(interaction)
        if why is None:
            self._resume(table)
            return
        if told or not table.is_host(interaction.user.id) or opened_form(interaction):
            return
        self._blocked[table.id] = True
        self._told_by[table.id] = HandLink(int(interaction.application_id), interaction.token,
                                           self.bot.service.clock.now(), "",
                                           str(interaction.locale))
        # Worded as the refusals are (« ⚠️ » first, as the missing permission refuses
        # /president create): whatever the click answered, the table shows nothing of it.
        await answer_privately(interaction, refusal_text(
            interaction.locale, TableError(here(interaction, why.key), **why.params)))

    async def channel_changed(self, table: Table, may_post: bool) -> None:
        """The gateway told a change of the table's channel or thread (an overwrite, a lock;
        `permissions.may_post` read it): where the bot may no longer post, the table stops
        before a call is refused, its host told at their next action as after a refused call;
        where it may again, the table picks up at once, and a host who was told it stopped
        is told, privately, through the interaction that told them (or at their next action
        once its token has expired). Events missed while the bot was down leave it to the
        refused calls and `acted`, as before."""
        if table.closed:
            return
        if not may_post:
            self._owed_resume.discard(table.id)
            if table.id not in self._blocked:
                log.info("table %s: channel %s no longer lets the bot post; posting stops",
                         table.id, table.channel_id)
                self._blocked[table.id] = False
            return
        if table.id not in self._blocked:
            return
        link = self._told_by.get(table.id)
        self._resume(table)
        if link is None:
            return
        if not link.valid(self.bot.service.clock.now()):
            self._owed_resume.add(table.id)
            return
        # The interaction's follow-up webhook, as discord.py builds it (`Interaction.followup`):
        # only an application's webhook may send an ephemeral message.
        webhook = discord.Webhook.from_state(
            {"id": link.application_id, "type": 3, "token": link.token}, self.bot._connection)

        async def tell() -> None:
            try:
                await webhook.send(t(link.locale, "table.resumed"), ephemeral=True)
            except discord.HTTPException as err:
                log.info("table %s: could not tell its host it picks up again (%s)",
                         table.id, err.status)

        # A task of its own: discord.py sleeps a 429 on that token out inside the send,
        # and the server's tables checked after this one (`cog._recheck`) must not wait.
        self.bot.service.scheduler.after((table.id, "resumed"), 0, tell)

    def _resume(self, table: Table) -> None:
        """Post the table again: every message redrawn, a gone one posted afresh."""
        del self._blocked[table.id]
        self._told_by.pop(table.id, None)
        self._shown = {key: shown for key, shown in self._shown.items() if key[0] != table.id}
        self.bot.service.refresh(table)

    async def _attachable(self, interaction: discord.Interaction[Host], table: Table) -> None:
        """Learn from the interaction whether the chart may be attached in the table's
        channel, so that no upload is ever refused (a 403 counts toward Cloudflare's ban).
        When it may again, the results' text gives way to the chart; while it may not, the
        host is told once, privately, which permission it takes (unless the bot cannot post
        at all: `err.cannot_post` says so)."""
        needed = needed_in(interaction.channel)
        allowed = may_attach(interaction.app_permissions, needed)
        was, table.attach_files = table.attach_files, allowed
        if allowed:
            self._told_attach.discard(table.id)
            if was is False:
                self._charted.pop(table.id, None)
                self.bot.service.refresh(table)
            return
        if table.id in self._told_attach or table.id in self._blocked \
                or missing(interaction.app_permissions, needed) is not None \
                or not table.is_host(interaction.user.id) or opened_form(interaction):
            return
        self._told_attach.add(table.id)
        await answer_privately(interaction, refusal_text(interaction.locale, TableError(
            "err.cannot_attach", permission=permission_name(interaction.locale, ATTACH))))

    def _refused(self, table: Table, err: discord.HTTPException) -> None:
        log.warning("table %s: channel %s refused the bot (%s %s); posting stops until "
                    "someone acts or the channel changes", table.id, table.channel_id,
                    err.status, err.code)
        self._blocked.setdefault(table.id, False)
        self._owed_resume.discard(table.id)

    async def _edit_hand(self, user_id: int, link: HandLink, screen: Screen) -> bool:
        """Redraw a hand through its player's latest interaction; False if Discord refused,
        or if the link expired before the edit could be sent.

        The link was valid when the edit was decided, but discord.py may hold the edit on
        the token's rate limit (it sleeps out a 429's retry_after, or an exhausted bucket,
        then sends): sent after the token's 15 minutes, the edit would be refused with 401
        « Invalid Webhook Token », which counts toward Cloudflare's ban (discord-api-docs,
        topics/rate-limits.md, "Invalid Request Limit"). An edit still waiting when the link
        expires is dropped instead, and the hand handled as expired: the table asks its
        player to press « Ma main »."""
        webhook = discord.Webhook.partial(link.application_id, link.token, client=self.bot)
        edit = asyncio.ensure_future(webhook.edit_message(
            ORIGINAL, content=cut(screen.content, 2000), view=screen.view))
        expiry = asyncio.ensure_future(self.bot.service.clock.sleep_until(link.expires))
        try:
            await asyncio.wait({edit, expiry}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            expiry.cancel()
            late = not edit.done()
            if late:
                edit.cancel()
        if late:
            await asyncio.wait({edit})  # until it has stopped: no request left on its way
            log.info("hand of %s: its token expired while the edit waited", user_id)
            return False
        try:
            edit.result()
        except discord.RateLimited as err:  # a long 429: the next refresh tries again
            log.warning("hand of %s rate limited for %.1f s", user_id, err.retry_after)
            return True
        except discord.HTTPException as err:
            log.info("hand of %s no longer editable (%s)", user_id, err.status)
            return False
        link.fingerprint = screen.fingerprint
        return True

    # ------------------------------------------------------------------ bookkeeping

    def shown(self, table: Table, kind: str, screen: Screen) -> None:
        """An interaction response already shows this screen on the table's `kind` message."""
        self._shown[(table.id, kind)] = screen.fingerprint

    def keep(self, table: Table) -> None:
        """`Display.keep`."""
        table.keep_retired(retired_text(table, self.bot.service.clock.now()))

    def shown_hand(self, table: Table, interaction: discord.Interaction[Host],
                   screen: Screen, *, new_message: bool) -> HandLink:
        """This interaction's original response is now the user's hand: refresh through it.
        `new_message`: a message of its own, not the hand the interaction was clicked on,
        which no refresh may edit before it is sent (`HandLink.answered`)."""
        clicked = interaction.message.id if interaction.message is not None else None
        link = HandLink(int(interaction.application_id), interaction.token,
                        self.bot.service.clock.now(), screen.fingerprint,
                        str(interaction.locale), answered=not new_message,
                        message_id=None if new_message else clicked)
        self.bot.service.remember_hand(table, interaction.user.id, link,
                                       new_message=new_message)
        self._lapse_at_expiry(table, interaction.user.id, link)
        return link

    def restored(self, table: Table) -> None:
        """A table restored from storage: its hands' links are as they were saved, and
        each gets its last edit as its token runs out (`_lapse_at_expiry`). Its stored
        lines this version cannot word are dropped (`_unworded`)."""
        for user_id, link in table.hands.items():
            self._lapse_at_expiry(table, user_id, link)
        dropped = _unworded(table)
        if dropped:
            log.warning("table %s: %d stored line(s) this version cannot word dropped (%s)",
                        table.id, len(dropped), ", ".join(sorted(set(dropped))))

    def _lapse_at_expiry(self, table: Table, user_id: int, link: HandLink) -> None:
        """A hand nobody touched for the life of its token stops being refreshed, and
        said nothing of it: a player back after 20 minutes read « c'est à alice de jouer »
        while it was their turn (play-test 14). Its last edit, as the token runs out,
        says so and how to get it back (its « Actualiser » answers with a fresh token).
        One call per idle hand every 14 minutes; any later interaction replaces the link,
        and this with it."""
        async def lapse() -> None:
            now = self.bot.service.clock.now()
            player = table.player(user_id)
            if table.closed or player is None or table.hands.get(user_id) is not link \
                    or not link.valid(now) or not link.answered:
                return
            locale = link.locale or player.locale
            notice = t(locale, "hand.lapsing", refresh=t(locale, "btn.refresh"),
                       hand=t(table.locale, "btn.my_hand"))
            link.frozen = True
            self.bot.service.refresh(table)  # the table message asks for « Ma main »
            await self._edit_hand(user_id, link, hand_screen(table, user_id, locale,
                                                             notice=notice, now=now))

        self.bot.service.scheduler.at((table.id, "lapse", user_id),
                                      link.expires - LAPSE_AHEAD, lapse)

    # ------------------------------------------------------------------ messages

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _send(self, table: Table, screen: Screen) -> int | None:
        if table.id in self._blocked:
            return None
        try:
            async with self.bot.budget.call():
                message = await self._channel(table).send(allowed_mentions=NO_PINGS,
                                                          **screen.kwargs())
        except discord.Forbidden as err:
            self._refused(table, err)
            return None
        except discord.HTTPException as err:
            if err.code == UNKNOWN_CHANNEL:
                self._channel_gone(table)
            elif err.code in (THREAD_LOCKED, ARCHIVED_THREAD):
                # Locked, or archived and locked (a moderator closed it): no post reopens it.
                self._refused(table, err)
            else:
                log.exception("could not post in channel %s", table.channel_id)
            return None
        if self.bot.service.asleep.owes(table.channel_id):  # the post woke the thread
            await self._wake(table.guild_id, table.channel_id)
        return message.id

    def _channel_gone(self, table: Table) -> None:
        """Discord no longer knows the table's channel: it was deleted while the bot was not
        told (down, or a thread it did not hold). The table ends as on the deletion event;
        until then nothing more is sent there."""
        log.info("table %s: channel %s no longer exists", table.id, table.channel_id)
        self._blocked[table.id] = True
        service = self.bot.service

        async def vanish() -> None:
            await service.channel_deleted(table.channel_id)

        service.scheduler.after((table.id, "channel gone"), 0, vanish)

    async def _edit(self, table: Table, message_id: int, screen: Screen | None,
                    asleep: str | None) -> bool:
        """Edit a message (`screen` None: only remove its controls); False if it is gone,
        too old to edit any more or in an archived thread (a fresh one is then posted). An
        archived thread's refusal owes the message `asleep` (None: only its controls go),
        what it is to show once the thread wakes: for a message a fresh one replaces, not
        `screen` but its last state, without buttons (`_wake`)."""
        if table.id in self._blocked:
            return True
        kwargs = screen.kwargs() if screen is not None else {"view": None}
        try:
            async with self.bot.budget.call():
                await self._channel(table).get_partial_message(message_id).edit(
                    allowed_mentions=NO_PINGS, **kwargs)
        except discord.NotFound:
            return False
        except discord.Forbidden as err:
            self._refused(table, err)
        except discord.HTTPException as err:
            if err.code == OLD_MESSAGE_EDITS:
                log.info("message %s is too old to edit: posting a fresh one", message_id)
                return False
            if err.code == ARCHIVED_THREAD:
                log.info("thread %s is archived: posting afresh wakes it", table.channel_id)
                await self._owe(table, message_id, asleep)
                return False
            if err.code == THREAD_LOCKED:
                self._refused(table, err)
                return True
            log.exception("could not edit message %s", message_id)
        else:
            # The thread is awake (a moderator reopened it): the edits it owes go too, but
            # this message's, which the edit just made replaces.
            if self.bot.service.asleep.owes(table.channel_id):
                await self._wake(table.guild_id, table.channel_id, edited=message_id)
        return True

    async def _owe(self, table: Table, message_id: int, text: str | None) -> None:
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
            await self._wake(guild_id, channel_id)
        except BudgetClosed:
            log.debug("thread %s: owed edits left to the restart, the bot is stopping",
                      channel_id)

    async def _wake(self, guild_id: int | None, channel_id: int,
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
        try:
            for message_id, edit in (await asleep.take(channel_id)).items():
                if message_id == edited or await self._owed_edit(guild_id, channel_id,
                                                                 message_id, edit):
                    settled.append(message_id)
        finally:
            await asleep.paid(settled)

    async def _owed_edit(self, guild_id: int | None, channel_id: int, message_id: int,
                         edit: OwedEdit) -> bool:
        """Send one owed edit, whatever became of its table: whether it is settled (sent,
        or never to be: the message deleted, say), not owed again (the thread archived
        again already, or a long rate limit)."""
        kwargs = Screen(edit.text).kwargs() if edit.text is not None else {"view": None}
        try:
            async with self.bot.budget.call():
                await self.bot.get_partial_messageable(channel_id, guild_id=guild_id) \
                    .get_partial_message(message_id).edit(allowed_mentions=NO_PINGS, **kwargs)
        except discord.RateLimited as err:
            log.warning("thread %s: owed edit rate limited for %.1f s", channel_id,
                        err.retry_after)
            self._awake_after(guild_id, channel_id, err.retry_after)
        except discord.HTTPException as err:
            if err.code != ARCHIVED_THREAD:
                log.info("message %s could not get its owed edit (%s %s)", message_id,
                         err.status, err.code)
                return True
        else:
            return True
        # Archived again already, or held back: owed again, for the thread's next waking.
        await self.bot.service.asleep.owe(guild_id or 0, channel_id, message_id, edit)
        return False

    def _awake_after(self, guild_id: int | None, channel_id: int, delay: float) -> None:
        """Send what the thread owes once a long 429 is over: a closed table's messages
        have no edit of the table's to carry them, nor, the thread being open, another
        THREAD_UPDATE, and kept their buttons until a restart. Archived again by then, it
        refuses them once, and they wait for its waking."""
        async def again() -> None:
            await self.awake(guild_id, channel_id)

        self.bot.service.scheduler.after(("owed edits", channel_id), delay, again)

    def _aged(self, message_id: int) -> bool:
        """Whether the message is nearly an hour old (its id says when it was posted)."""
        posted = discord.utils.snowflake_time(message_id).timestamp()
        return self.bot.service.clock.now() - posted >= FRESH_TABLE_AGE

    async def _lobby(self, table: Table) -> None:
        screen = lobby_screen(table)
        key = (table.id, "lobby")
        if table.lobby_message_id is not None and self._shown.get(key) != screen.fingerprint \
                and self._aged(table.lobby_message_id):
            # Discord limits the edits of a message over an hour old (`OLD_MESSAGE_EDITS`):
            # like the table message, a lobby kept open that long gives way to a fresh one.
            # During a game none is posted: the table message lists for the next game, and
            # the lobby comes back afresh with the next game's lobby.
            await self._retire_lobby(table)
            self.bot.service.touch(table)
        if table.post_lobby or table.lobby_message_id is None:
            if table.running:
                table.post_lobby = False
                return
            await self._retire_table_message(table)
            await self._retire_lobby(table)  # the last game's, far up the channel
            table.lobby_message_id = await self._send(table, screen)
            # Owed until posted, as a new round's table message (`_table`): a restart then
            # posts it below the results, rather than edit the old one far above them.
            table.post_lobby = False
        elif self._shown.get(key) != screen.fingerprint:
            # During a game the lobby has no buttons and none is posted (above): refused by
            # an archived thread, it is owed its text (the table's post wakes the thread),
            # and it stays above the table. A fresh one came below the table (a restart's
            # first redraw in an archived thread). Refused for any other reason (a channel
            # gone), the post finds out what becomes of the table, as before.
            asleep = screen.content if table.running else t(table.locale, "table.moved_on")
            if not await self._edit(table, table.lobby_message_id, screen, asleep) and not (
                    table.running and self.bot.service.asleep.owes(table.channel_id)):
                table.lobby_message_id = await self._send(table, screen)
        else:
            return
        self._shown[key] = screen.fingerprint
        self.bot.service.touch(table)

    async def _retire_lobby(self, table: Table) -> None:
        """The lobby message, if any, points below where the table goes on."""
        if table.lobby_message_id is not None:
            moved_on = t(table.locale, "table.moved_on")
            await self._edit(table, table.lobby_message_id, Screen(moved_on), moved_on)
            table.lobby_message_id = None

    async def _retire_table_message(self, table: Table, note: str = "table.moved_on") -> None:
        """The game is over for this message: drop its buttons and, as they are gone, its
        instructions, ending with `note` instead (where the table went on). Its text comes
        from the table's snapshot after a restart; one from before it was kept there loses
        only its buttons. Both are forgotten only once edited: a crash meanwhile leaves the
        restart the message to retire and its text. The text is the state's the table had
        when the new message became owed (`TableService._keep`), not what the bot last drew:
        an edit on its way when the process died may have shown more."""
        if table.table_message_id is not None:
            text = self._retired(table, table.retired, note)
            await self._edit(table, table.table_message_id,
                             Screen(text) if text is not None else None, text)
            table.table_message_id = None
            table.keep_retired(None)
            self._shown.pop((table.id, "table"), None)

    @staticmethod
    def _retired(table: Table, text: str | None, note: str = "table.moved_on") -> str | None:
        """What a table message shows once the game is over for it: its ``text`` (as kept,
        `Table.retired`) ending with `note`, without buttons; None where no text was kept
        (only its buttons go)."""
        return f"{text}\n\n{t(table.locale, note)}" if text else None

    async def _table(self, table: Table) -> None:
        if table.game is None:
            return
        screen = table_screen(table, self.bot.service.clock.now())
        key = (table.id, "table")
        posted = False
        if table.post_table or table.table_message_id is None:
            await self._retire_table_message(table)
            table.table_message_id = await self._send(table, screen)
            # Owed until posted: a snapshot taken meanwhile (a bot's move) still owes it, so a
            # restart then posts it rather than write the new round over the last's results.
            table.post_table = False
            posted = True
        elif self._shown.get(key) != screen.fingerprint:
            if self._aged(table.table_message_id):
                # Retired as the state reads now, which the fresh message goes on from: what
                # it last showed may be newer than anything stored (a restart's first
                # redraw), and a player who saw it must not see it taken back.
                table.keep_retired(screen.retired)
                await self._retire_table_message(table)
                table.table_message_id = await self._send(table, screen)
                posted = True
            elif not await self._edit(table, table.table_message_id, screen,
                                      self._retired(table, screen.retired)):
                table.table_message_id = await self._send(table, screen)
                posted = True
        # Even when a click's own response already drew this screen (the host's « Terminer »
        # between rounds ends the game there), the finished game's chart is still owed.
        self.shown(table, "table", screen)
        if posted:  # stored as done: a restart edits it rather than post it again
            self.bot.service.touch(table)
        await self._chart(table)

    async def draw(self, shown: chart.PointsChart, filename: str) -> discord.File:
        """The chart as an attachment with its alt text, drawn in a worker thread (tens of
        milliseconds of CPU the loop must not wait for), counted in `rendering`."""
        self.rendering += 1
        try:
            png = await asyncio.to_thread(chart.render, shown)
        finally:
            self.rendering -= 1
        return discord.File(io.BytesIO(png), filename=filename, description=shown.alt)

    async def _chart(self, table: Table) -> None:
        """At the end of a game its results message gets the points chart, once per language
        (the server's may change after: its words follow the message's), where the bot may
        attach it (else the results show it as text: `chart_text`)."""
        game, message_id = table.game, table.table_message_id
        if game is None or game.phase is not Phase.GAME_OVER or message_id is None \
                or self._charted.get(table.id) == (message_id, table.locale) \
                or table.attach_files is False:
            return
        shown = chart.points_chart(table, table.locale)
        if shown is None:
            return
        self._charted[table.id] = (message_id, table.locale)
        image = await self.draw(shown, chart.FILENAME)
        try:
            async with self.bot.budget.call():
                await self._channel(table).get_partial_message(message_id).edit(
                    attachments=[image])
        except discord.Forbidden as err:
            # Taken away since the last interaction at the table (or a restored table has
            # heard none yet): the results show the chart as text from now on, and the
            # host hears why at their next action.
            log.warning("table %s: channel %s refused the chart (%s)", table.id,
                        table.channel_id, err.code)
            table.attach_files = False
            self.bot.service.refresh(table)
        except discord.HTTPException as err:
            log.warning("could not attach the chart to message %s: %s", message_id, err)

    async def _hands(self, table: Table) -> None:
        """Every hand that changed goes to its player's own lane (`_hand`), coalesced as
        the table's messages are. Hand edits go through interaction tokens, outside the
        global limit and the budget, each token its own bucket ("webhook_id +
        webhook_token", Rate Limits, https://discord.com/developers/docs/topics/rate-limits):
        a 429 on one says nothing of the others. Yet discord.py sleeps a webhook's 429 out
        inside the awaited edit, and while the table's hands were edited together, one
        limited hand held every other hand of the table until it was over. Now a lane still
        sending gets what is drawn here once it is done, and the others go on."""
        now = self.bot.service.clock.now()
        table.farewells = [f for f in table.farewells if f.link.valid(now)]
        # A farewell to a hand whose message is not sent yet (« Ma main » pressed while its
        # save goes on) waits: edited before, Discord answers 10008 Unknown Message and the
        # hand keeps its controls. Its answer asks for a refresh (`show_hand`).
        drawn: dict[int, tuple[HandLink, Screen] | None] = {
            f.user_id: None for f in table.farewells if f.link.answered}
        # The queue too: proletario's last place goes there between rounds, and their hand
        # must stop showing the cards of the round before.
        for player in [*table.humans(), *table.queue]:
            user_id = player.user_id
            link = table.hands.get(user_id) if user_id is not None else None
            if user_id is None or link is None or not link.valid(now) or not link.answered \
                    or link.frozen:
                continue  # (an unanswered hand is drawn afresh when sent: show_hand)
            try:
                screen = hand_screen(table, user_id, player.locale, now=now)
            except Exception:  # one unrenderable hand must not starve the others
                log.exception("could not render the hand of %s", user_id)
                continue
            # A lane still sending may land something else than what its link last showed.
            if screen.fingerprint != link.fingerprint \
                    or not self.bot.service.coalescer.idle(lane(table.id, user_id)):
                drawn[user_id] = (link, screen)
        for user_id, hand in drawn.items():
            self._to_lane(table, user_id, hand)

    def _to_lane(self, table: Table, user_id: int, hand: tuple[HandLink, Screen] | None) -> None:
        """The player's lane runs with `hand`, which replaces a drawing still waiting there:
        only the latest state of a hand matters."""
        async def flush() -> None:
            await self._hand(table, user_id, hand)

        self.bot.service.coalescer.request(lane(table.id, user_id), flush)

    async def _hand(self, table: Table, user_id: int,
                    hand: tuple[HandLink, Screen] | None) -> None:
        """One player's lane: their farewells, and their hand as `_hands` last drew it
        through the link it was drawn for. One run at a time per player, so no edit of
        theirs overtakes an older one; a run that waits out a 429 holds only them."""
        if table.closed:
            return
        now = self.bot.service.clock.now()
        farewells = [f for f in table.farewells
                     if f.user_id == user_id and f.link.answered and f.link.valid(now)]
        table.farewells = [f for f in table.farewells if not any(f is g for g in farewells)]
        edits: list[Awaitable[object]] = [
            self._edit_hand(user_id, farewell.link, Screen(t(
                farewell.link.locale or table.locale, farewell.key)))
            for farewell in farewells]
        if hand is not None:
            link, screen = hand
            # A newer link was answered with a newer state: the next refresh draws it.
            if table.hands.get(user_id) is link and link.valid(now) and not link.frozen \
                    and screen.fingerprint != link.fingerprint:
                edits.append(self._redraw_hand(table, user_id, link, screen))
        await asyncio.gather(*edits)

    async def _redraw_hand(self, table: Table, user_id: int, link: HandLink,
                           screen: Screen) -> None:
        """Edit one hand; a hand Discord no longer lets the bot edit is forgotten (unless
        the player opened a newer one meanwhile). A newer one opened on the same message
        meanwhile (a click on this hand; a message not yet known may be the same) was
        answered with its state, which this older edit may have landed over: it is
        drawn again."""
        edited = await self._edit_hand(user_id, link, screen)
        current = table.hands.get(user_id)
        if current is link:
            if not edited:
                del table.hands[user_id]
            return
        landed = link.fingerprint == screen.fingerprint
        if current is not None and landed and (
                None in (current.message_id, link.message_id)
                or current.message_id == link.message_id):
            current.fingerprint = ""
            self.bot.service.refresh(table)


def _wordable(table: Table, entry: LogEntry) -> bool:
    """Whether this version words the stored line in both languages: a key it does not know
    (a newer version's, after a rollback) or whose placeholders changed since it was stored
    failed every redraw of its table, which then never showed again (play-test 15)."""
    try:
        for locale in CATALOGUES:
            entry_text(locale, table, entry)
    except (KeyError, IndexError, TypeError, ValueError):
        return False
    return True


def _unworded(table: Table) -> list[str]:
    """Drop the table's stored lines (history, notice, exchange notes) it cannot word; the
    keys dropped."""
    dropped = [e.key for e in table.log if not _wordable(table, e)]
    table.log = [e for e in table.log if _wordable(table, e)]
    if table.notice is not None and not _wordable(table, table.notice):
        dropped.append(table.notice.key)
        table.notice = None
    for seat, notes in table.exchange_notes.items():
        dropped += [e.key for e in notes if not _wordable(table, e)]
        table.exchange_notes[seat] = [e for e in notes if _wordable(table, e)]
    return dropped
