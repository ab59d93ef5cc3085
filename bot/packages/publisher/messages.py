"""The table's own messages on Discord: its lobby, its table message, and their closing.

The table service calls `flush` through its coalescer, so bursts of actions cost one edit.
Each target remembers the fingerprint of what it last showed, so an edit that would change
nothing is never sent. `Publisher` also assembles the parts of the package it draws with
(`bot.packages.publisher`): each holds its own state, and none imports it back.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import t
from bot.packages.game.lines import drop_unworded
from bot.packages.game.table_message import closed_lines, retired_text, table_screen
from bot.packages.lobby.display import lobby_screen
from bot.packages.publisher import calls, charts, opened
from bot.packages.publisher.acks import Acks
from bot.packages.publisher.blocked import BlockedTables
from bot.packages.publisher.buried import Buried
from bot.packages.publisher.calls import ARCHIVED_THREAD, NO_PINGS, THREAD_LOCKED
from bot.packages.publisher.charts import Charts
from bot.packages.publisher.hands import Hands
from bot.packages.publisher.listed import ListedAnswers
from bot.packages.publisher.nonces import PostNonces
from bot.packages.publisher.offers import Offers
from bot.packages.publisher.owed_edits import OwedEdits
from bot.packages.publisher.recount import Recount
from bot.packages.publisher.reminders import Reminders
from bot.packages.publisher.servers import UndescribedServers
from bot.packages.saving import redraw, saved
from bot.packages.screen import Screen, shown_by
from bot.tables.budget import BudgetClosed
from bot.tables.landed import Landed, token_key
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# "Maximum number of edits to messages older than 1 hour reached. Try again later" (JSON error
# codes, https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes);
# Discord does not publish how many, so a table message is replaced before it is an hour old.
OLD_MESSAGE_EDITS = 30046
# "Unknown channel" (same table): the table's channel was deleted.
UNKNOWN_CHANNEL = 10003
FRESH_TABLE_AGE = 55 * 60.0
# How long a table waits to redraw after Discord failed a call for a passing reason
# (`_try_later`): discord.py has tried a 500, 502, 504 or 524 for 25 s already, a 503 not
# at all; Discord says of a 502 « Wait a bit and retry » (HTTP Response Codes).
PASSING_RETRY = 5.0


@dataclass
class _Drawing:
    """The redraws of one table message on their way (`Publisher.drawing`)."""

    running: int = 0
    overlapped: bool = False  # two were on their way at once
    skipped: bool = False  # the refresh left the message to them (`Publisher._answering`)
    back: asyncio.Event = field(default_factory=asyncio.Event)  # set once none is


class Publisher:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._shown: dict[tuple[int, str], str] = {}
        # Per message: what Discord acknowledged it shows. Unlike `_shown` (what the bot
        # means it to show, set as an answer goes), only this is kept by a stop (`landed`).
        self.acks = Acks()
        self.blocked = BlockedTables(bot, self._redraw)
        self.hands = Hands(bot)
        self.offers = Offers(bot)
        self.listed = ListedAnswers(bot)
        self.charts = Charts(bot)
        self.owed_edits = OwedEdits(bot, self.acks)
        self.servers = UndescribedServers(bot)
        self.reminders = Reminders(bot, self._send)
        self.buried = Buried(bot)
        self.recount = Recount(bot, self.buried)
        self.nonces = PostNonces()
        # Per table, while its messages' redraw runs: set as it ends (`closed` waits on it).
        self._flushing: dict[int, asyncio.Event] = {}
        # Per table message (table id, kind): its redraws on their way, whether two of
        # them overlapped, and when the last is back (`drawing`, `closed` waits for it).
        self._drawing: dict[tuple[int, str], _Drawing] = {}
        # The messages whose retiring edit is waiting or on its way (`_retiring_message`).
        self._retiring: set[int] = set()

    async def flush(self, table: Table) -> None:
        if table.closed or self.blocked.blocks(table.id) or self.servers.holds(table.guild_id):
            return
        # One at a time per table (the coalescer's key), none once it has closed (above).
        self._flushing[table.id] = done = asyncio.Event()
        try:
            await self._flush(table)
        finally:
            del self._flushing[table.id]
            done.set()

    async def _flush(self, table: Table) -> None:
        try:
            # Render only once the budget has room: what is then sent is the latest state,
            # and nothing once the table has closed meanwhile (its channel deleted, say).
            await self.bot.budget.wait_free()
            if table.closed:
                return
            await self.recount.read(table)  # once, a restored table's first redraw
            await self._lobby(table)
            await self._table(table)
            await self._point_owed(table)
            await self.charts.take_off_owed(table)
            await self.reminders.flush(table)
        except discord.RateLimited as err:
            self._postpone(table, err)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as err:
            if not calls.passing(err):
                raise
            self._try_later(table, err)
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

    def _try_later(self, table: Table, err: calls.Passing) -> None:
        """A post or an edit failed for a passing reason (`calls.passing`: a 5xx past
        discord.py's own retries, a dropped connection, a timeout). It logged an error and
        counted as shown: a table whose last change met a 503 kept its stale message, the
        move before it, for good (play-test 37). Nothing of it is marked shown, and the
        table is redrawn `PASSING_RETRY` seconds later, in its latest state."""
        log.warning("table %s: Discord failed a call (%s), redrawn in %.0f s", table.id,
                    calls.described(err), PASSING_RETRY)
        service = self.bot.service

        async def again() -> None:
            service.refresh(table)

        service.scheduler.after(("passing", table.id), PASSING_RETRY, again)

    def turn(self, table: Table) -> None:
        if not table.closed:
            self.hands.turn(table)

    async def flush_hands(self, table: Table) -> None:
        """In the lobby too: a hand left open when the game ended says where its player now
        is (`hand.lobby_lines`), not the game's last state, and leavers' hands say goodbye."""
        if not table.closed:
            await asyncio.gather(self.hands.flush(table), self.offers.flush(table),
                                 self.listed.flush(table))

    async def closed(self, table: Table) -> None:
        """The table is gone: its messages say so, with the final standings where a game
        had any, and lose their controls, and so do the hands still open on it.

        After the redraw on its way when the table closed, if any: ending later (a 502
        retried, a 429 slept out), it marked what it had shown, or a channel that refused
        it, once the table's bookkeeping was gone (`_forget`), and those marks were kept
        for good. Its edits land before the closing's too, never over them."""
        running = self._flushing.get(table.id)
        if running is not None:
            await running.wait()
        await self._drawn(table)
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
        self.acks.forget(table_id)
        self.blocked.forget(table_id)
        self.charts.forget(table_id)
        self.hands.forget(table_id)
        self.offers.forget(table_id)
        self.listed.forget(table_id)
        self.buried.forget(table_id)
        self.recount.forget(table_id)
        self.nonces.forget(table_id)

    async def _closed(self, table: Table) -> None:
        text = "\n".join(closed_lines(table))
        for message_id in (table.lobby_message_id, table.table_message_id):
            if message_id is None:
                continue
            shown: str | None = text
            if message_id == table.table_message_id and table.moving_on:
                # Results the table had left, which the redraw posting what follows them
                # had not yet retired: the table closed within the second that redraw
                # waits for (« Terminer », « Rejouer », « Manche suivante », a leaver or a
                # kick sending it to its lobby, then the last human gone, `/president end`
                # or a ban). The closing wrote over them, under the new round's title or
                # none, and the standings were gone from the channel (play-test, review).
                # Retired as that redraw would have retired them, their text kept
                # (`Table.retired`, their chart's text too where its upload was on its way:
                # `Charts.moved_on`), they end on the closing.
                shown = self._retired(table, table.retired, "lobby.closed")
            if self.blocked.blocks(table.id) and table.parent_id is not None:
                # A thread the bot may not post in now (a moderator closed it: archived and
                # locked), where nothing is sent: its messages are owed their closing for
                # when it is reopened (`OwedEdits.awake`). They kept their buttons, which
                # only said the table was gone.
                await self.owed_edits.owe(table, message_id, shown)
            else:
                try:
                    await self._edit(table, message_id,
                                     Screen(shown) if shown is not None else None, shown)
                except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                        TimeoutError) as err:
                    if not calls.passing(err):
                        raise
                    # Nothing is tried again at a closed table: its bookkeeping goes.
                    log.warning("table %s: message %s not shown closed (%s)", table.id,
                                message_id, calls.described(err))
        table.table_message_id = None
        await self.reminders.closed(table)
        await self.hands.closed(table)
        await self.offers.flush(table)

    async def acted(self, interaction: discord.Interaction[Host], table: Table) -> None:
        """Someone acted at the table: their interaction tells what the bot may do in its
        channel now, the only word of it that costs no call (`Charts.learn`,
        `BlockedTables.acted`)."""
        await self.charts.learn(interaction, table, blocked=self.blocked.blocks(table.id))
        await self.blocked.acted(interaction, table)

    def _redraw(self, table: Table) -> None:
        """Every message of the table is drawn afresh, whatever it last showed."""
        self._shown = {key: shown for key, shown in self._shown.items() if key[0] != table.id}
        self.bot.service.refresh(table)

    # ------------------------------------------------------------------ bookkeeping

    def shown(self, table: Table, kind: str, screen: Screen) -> None:
        """An interaction response already shows this screen on the table's `kind` message
        (said within `drawing`)."""
        self._shown[(table.id, kind)] = screen.fingerprint

    def landed(self, table: Table) -> Landed:
        """What the table's messages show as far as Discord acknowledged it: its lobby and
        table message, its hands, its results' chart. A stop keeps it once nothing more
        can be sent (`PresidentBot.close`), for its restart (`restored`)."""
        landed = Landed(chart=self.charts.landed(table))
        for message_id in (table.lobby_message_id, table.table_message_id):
            if message_id is not None and (shown := self.acks.get(message_id)) is not None:
                landed.messages[message_id] = shown
        for link in table.hands.values():
            if (shown := self.hands.acks.get(link.token)) is not None:
                landed.hands[token_key(link.token)] = shown
        return landed

    def _take_landed(self, table: Table) -> None:
        """A restored table's messages known to show what the stop kept (`landed`): each
        stays as it is where the restart draws it the same. Taken once."""
        landed, table.landed = table.landed, None
        if landed is None:
            return
        for kind, message_id in (("lobby", table.lobby_message_id),
                                 ("table", table.table_message_id)):
            shown = landed.messages.get(message_id) if message_id is not None else None
            if message_id is not None and shown is not None:
                self._shown[(table.id, kind)] = shown
                self.acks.posted(message_id, table.id, shown)
        for link in table.hands.values():
            shown = landed.hands.get(token_key(link.token))
            if shown is not None:
                link.fingerprint = shown
                self.hands.acks.posted(link.token, table.id, shown)
        self.charts.restored(table, landed.chart)

    @contextmanager
    def drawing(self, table: Table, kind: str) -> Iterator[None]:
        """Around a redraw of the table's `kind` message: an interaction's answer, or the
        refresh's edit. Two on their way at once may land on Discord in another order than
        their answers come back, so the one heard last is not surely the one shown: four
        friends leaving at once left a lobby listing one of them seated until its next
        change (play-test 23). Once the last of overlapping redraws is back, what the
        message shows is taken as unknown, and the refresh draws the table as it is."""
        key = (table.id, kind)
        drawing = self._drawing.get(key)
        if drawing is None:
            drawing = self._drawing[key] = _Drawing()
        else:
            drawing.overlapped = True
        drawing.running += 1
        try:
            yield
        finally:
            drawing.running -= 1
            if not drawing.running:
                del self._drawing[key]
                drawing.back.set()
                if drawing.overlapped:
                    self._shown.pop(key, None)
                if drawing.overlapped or drawing.skipped:
                    self.bot.service.refresh(table)

    async def answer(self, interaction: discord.Interaction[Host], table: Table, kind: str,
                     draw: Callable[[], Screen], *, clicked: float | None = None) -> bool:
        """Answer a click on the table's `kind` message, once its change is saved
        (`saving.saved`), by redrawing it (one call, type 7) as `draw` gives it then. The
        wait for the save is within `drawing`, as the redraw is: the refresh leaves the
        message to this answer meanwhile (it edited it first, a second channel edit, and
        drew a finished game's chart twice, stop 61). A message being retired
        (`_retiring_message`) is left to its retiring: the click is only acknowledged
        (type 6), its change shown by the message that follows. Whether it was answered.

        A click that drew a finished game's results (« Terminer »; `clicked`: when its
        handler began, on the bot's clock) carries their chart where it is drawn within
        `charts.ANSWER_IN_TIME` of it (`IN_TIME` at most): one call where the answer and
        the upload took two. The response takes files as Edit Message does
        (« attachments? | array of partial attachment objects », « See Uploading Files »,
        Interaction Callback Data Structure; « This endpoint also supports file
        attachments similar to the webhook endpoints », Create Interaction Response:
        discord-api-docs, developers/interactions/receiving-and-responding.mdx). Drawn
        later, the answer goes without it, in time, and `Charts.attach` uploads it once
        drawn, as before."""
        with self.drawing(table, kind):
            if not await saved(interaction, table):
                return False
            message = interaction.message
            if message is not None and message.id in self._retiring:
                if not interaction.response.is_done():
                    await interaction.response.defer()
                return True
            screen = draw()
            chart = None
            if clicked is not None:
                left = clicked + charts.ANSWER_IN_TIME - self.bot.service.clock.now()
                chart = await self.charts.in_time(table, min(charts.IN_TIME, left))
            with self.acks.edit(message.id if message is not None else None,
                                table.id) as sent:
                await self._respond(interaction, table, screen, chart)
                sent.shown = screen.fingerprint
            self.shown(table, kind, screen)
        return True

    async def _respond(self, interaction: discord.Interaction[Host], table: Table,
                       screen: Screen,
                       chart: tuple[tuple[int, str], discord.File] | None) -> None:
        """The click's type 7 answer (an edit of its original response where it was deferred
        while its change was saved, `saving.saved`), with the results' chart if any. Refused for it (a 4xx
        but the interaction's own « Unknown interaction », past its deadline: a file too
        large), the answer goes again without it, which Discord allows since none was
        made, and the failure is the upload's (`Charts.not_carried`), as for an edit."""
        kwargs = screen.kwargs()
        if chart is None:
            await redraw(interaction, **kwargs)
            return
        try:
            await redraw(interaction, attachments=[chart[1]], **kwargs)
        except discord.HTTPException as err:
            if isinstance(err, discord.NotFound) or not 400 <= err.status < 500:
                raise
            self.charts.not_carried(table, chart[0], err)
            await redraw(interaction, **kwargs)
        else:
            self.charts.carried(table, chart[0])

    @asynccontextmanager
    async def _retiring_message(self, table: Table, kind: str,
                                message_id: int) -> AsyncIterator[None]:
        """Around the edit that retires the table's `kind` message (its buttons gone, below
        it « the table goes on »): it waits for the redraws of that message on their way,
        and no click's answer redraws it from then on (`answer`). Untracked, a click's
        answer landing after it, « Terminer » at a round's end as `/president replay` dealt
        the next game, gave the old results their buttons back for good: no refresh reaches
        a message the table has left (stop 47). Each redraw waited for is one call, bounded
        by discord.py's rate-limit patience, as for the closing (`_drawn`)."""
        self._retiring.add(message_id)
        try:
            while (drawing := self._drawing.get((table.id, kind))) is not None:
                await drawing.back.wait()
            yield
        finally:
            self._retiring.discard(message_id)

    def _answering(self, table: Table, kind: str) -> bool:
        """Whether a redraw of the table's `kind` message is on its way (a click's answer):
        the refresh then leaves the message to it, and runs again once it is back, to draw
        whatever it did not show. Editing it at once as well cost a lobby click two channel
        edits besides its answer, the second because the two had overlapped (`drawing`),
        against the channel's limit of edits."""
        drawing = self._drawing.get((table.id, kind))
        if drawing is None:
            return False
        drawing.skipped = True
        return True

    async def _drawn(self, table: Table) -> None:
        """Until no redraw of the table's messages is on its way: the closing's edits go
        after them. An interaction's answer redrawing the lobby (a friend's « Quitter » as
        the last one left leaves too) otherwise could land over the closing, its buttons
        kept on the closed table for good (play-test 23). Each is one call, which
        discord.py gives up on past its rate-limit patience."""
        while waiting := [d for key, d in self._drawing.items() if key[0] == table.id]:
            await waiting[0].back.wait()

    def keep(self, table: Table) -> None:
        """`Display.keep`. Results whose chart's upload waits for a retry keep the chart as
        text: no retry reaches a message the table has moved on from (`Charts.moved_on`)."""
        self.charts.moved_on(table)
        table.keep_retired(retired_text(table, self.bot.service.clock.now()))

    def restored(self, table: Table) -> None:
        """A table restored from storage: its hands' links are as they were saved, and
        each gets its last edit as its token runs out (`Hands.restored`). Its stored
        lines this version cannot word are dropped (`drop_unworded`). What buries its live
        message is read at its first redraw (`Recount.read`). What its messages showed as
        the bot stopped is taken (`_take_landed`): none of them is edited to show it again."""
        self._take_landed(table)
        self.hands.restored(table)
        self.buried.restored(table)
        dropped = drop_unworded(table)
        if dropped:
            log.warning("table %s: %d stored line(s) this version cannot word dropped (%s)",
                        table.id, len(dropped), ", ".join(sorted(set(dropped))))

    # ------------------------------------------------------------------ messages

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def _send(self, table: Table, screen: Screen,
                    mentions: discord.AllowedMentions = NO_PINGS,
                    nonce: str | None = None, *, passing: bool = False,
                    kind: str | None = None) -> int | None:
        """Post in the table's channel: the message's id, or None if Discord refused it.
        With `passing`, a server error or a 429 (`calls.passing`) is raised rather than
        logged, for the caller to try again, as the network's errors and discord.py's
        `RateLimited` always are. `kind`: the table's own message posted (« table »,
        « lobby »), whose retry after a passing failure sends the same nonce (`nonces`)."""
        if self.blocked.blocks(table.id):
            return None
        kwargs = screen.kwargs()
        retry = False
        if nonce is None and kind is not None:
            nonce, retry = self.nonces.take(table.id, kind)
        if nonce is not None:  # discord.py enforces it (`reminders.reminder_nonce`)
            kwargs["nonce"] = nonce
        try:
            async with self.bot.budget.call():
                message = await self._channel(table).send(allowed_mentions=mentions, **kwargs)
        except (aiohttp.ClientError, TimeoutError):
            self._lost(table, kind, nonce)  # maybe made: `_flush` tries again
            raise
        except discord.Forbidden as err:
            self.blocked.refused(table, err)
            return None
        except discord.HTTPException as err:
            if err.code == UNKNOWN_CHANNEL:
                self.blocked.gone(table)
            elif err.code in (THREAD_LOCKED, ARCHIVED_THREAD):
                # Locked, or archived and locked (a moderator closed it): no post reopens it.
                self.blocked.refused(table, err)
            elif calls.passing(err):
                self._lost(table, kind, nonce)
                if passing:
                    raise
                # Maybe posted all the same (a 5xx does not say Discord did nothing): the
                # table tries again as for an edit (`_try_later`), as it posted afresh at
                # its next change before.
                self._try_later(table, err)
            else:
                log.exception("could not post in channel %s", table.channel_id)
            return None
        if retry and shown_by(message) != screen.fingerprint:
            # Discord returned the message the failed try made, as it was drawn then (its
            # text, embed or buttons may have changed since: `shown_by`): it
            # is the table's, brought up to date (a failure of this edit owes the nonce
            # again, for the next try to get it back once more).
            try:
                if not await self._edit(table, message.id, screen, None):
                    return None
            except BaseException:
                self._lost(table, kind, nonce)
                raise
        else:
            self.acks.posted(message.id, table.id, screen.fingerprint)
        if self.bot.service.asleep.owes(table.channel_id):  # the post woke the thread
            await self.owed_edits.wake(table.guild_id, table.channel_id)
        return message.id

    def _lost(self, table: Table, kind: str | None, nonce: str | None) -> None:
        """A post of the table's `kind` message failed for a passing reason: its retry
        sends the same `nonce` (`PostNonces`)."""
        if kind is not None and nonce is not None:
            self.nonces.lost(table.id, kind, nonce)

    async def _post(self, table: Table, kind: str, screen: Screen) -> int | None:
        """Post the table's new `kind` message (a new round's table message, a lobby), or
        take over the one a crash kept from being stored, which a restart found in the
        channel (`Recount.stray`): edited into `screen`, it is the table's again, and no
        second message with its buttons is posted beside it. One gone or no longer
        editable meanwhile is posted anew; strays above it become pointers to it. A new
        table's first lobby goes into its `/president create` response while the command's
        token lives (`opened`): found at any depth, its loading message finished."""
        if kind == "lobby" and table.opening is not None:
            drawn = await opened.lobby_in_response(self.bot, table, screen)
            if drawn is not None:
                self.acks.posted(drawn, table.id, screen.fingerprint)
                return drawn
        found = self.recount.stray(table, kind)
        if found is not None:
            above, adopted = found
            if await self._edit(table, adopted, screen, None):
                log.info("table %s: took over its %s message %s, posted before a crash and "
                         "never stored", table.id, kind, adopted)
                table.pointers_owed.extend((old, adopted) for old in above)
                return adopted
        return await self._send(table, screen, kind=kind)

    async def _edit(self, table: Table, message_id: int, screen: Screen | None,
                    asleep: str | None,
                    chart: tuple[tuple[int, str], discord.File] | None = None) -> bool:
        """Edit a message (`screen` None: only remove its controls); False if it is gone,
        too old to edit any more or in an archived thread (a fresh one is then posted). An
        archived thread's refusal owes the message `asleep` (None: only its controls go),
        what it is to show once the thread wakes: for a message a fresh one replaces, not
        `screen` but its last state, without buttons (`OwedEdits.wake`). `chart`: the
        results' chart, carried by the same edit (`Charts.in_time`); where that edit fails
        but for the message (gone, too old, in an archived or locked thread), it is made
        again without the chart, whose failure is the upload's (`Charts.not_carried`):
        the results never wait on their picture."""
        if self.blocked.blocks(table.id):
            return True
        kwargs: dict[str, Any] = screen.kwargs() if screen is not None else {"view": None}
        if chart is not None:
            kwargs["attachments"] = [chart[1]]
        try:
            with self.acks.edit(message_id, table.id) as sent:
                async with self.bot.budget.call():
                    await self._channel(table).get_partial_message(message_id).edit(
                        allowed_mentions=NO_PINGS, **kwargs)
                sent.shown = screen.fingerprint if screen is not None else None
        except discord.NotFound as err:
            if err.code == UNKNOWN_CHANNEL:
                # The channel went with the message (deleted as the edit was on its way):
                # posting a fresh message there would be one more refused call.
                self.blocked.gone(table)
                return True
            # Gone; or the results' edit with their chart retried a 5xx until its table
            # closed (its channel deleted): nothing to post then.
            return chart is not None and table.closed
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                TimeoutError) as err:
            if chart is not None and getattr(err, "code", None) not in (
                    OLD_MESSAGE_EDITS, ARCHIVED_THREAD, THREAD_LOCKED):
                if table.closed:  # while the edit was on its way: nothing more to send
                    return True
                self.charts.not_carried(table, chart[0], err)
                return await self._edit(table, message_id, screen, asleep)
            if not isinstance(err, discord.HTTPException) or calls.passing(err):
                raise  # tried again, not marked shown (`_flush`)
            if isinstance(err, discord.Forbidden):
                self.blocked.refused(table, err)
            elif err.code == OLD_MESSAGE_EDITS:
                log.info("message %s is too old to edit: posting a fresh one", message_id)
                return False
            elif err.code == ARCHIVED_THREAD:
                log.info("thread %s is archived: posting afresh wakes it", table.channel_id)
                await self.owed_edits.owe(table, message_id, asleep)
                return False
            elif err.code == THREAD_LOCKED:
                self.blocked.refused(table, err)
            else:
                log.exception("could not edit message %s", message_id)
        else:
            if chart is not None:
                self.charts.carried(table, chart[0])
            # The thread is awake (a moderator reopened it): the edits it owes go too, but
            # this message's, which the edit just made replaces.
            if self.bot.service.asleep.owes(table.channel_id):
                await self.owed_edits.wake(table.guild_id, table.channel_id,
                                           edited=message_id)
        return True

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
            table.lobby_message_id = await self._post(table, "lobby", screen)
            # Owed until posted, as a new round's table message (`_table`): a restart then
            # posts it below the results, rather than edit the old one far above them.
            table.post_lobby = False
            self._shown[key] = screen.fingerprint
        elif self.buried.due(table, "lobby") and not self._answering(table, "lobby") \
                and await self._bring_down(table, "lobby", screen):
            pass  # buried under the channel's chatter (`Buried`): posted anew, stored
        elif self._shown.get(key) != screen.fingerprint and not self._answering(table, "lobby"):
            # During a game the lobby has no buttons and none is posted (above): refused by
            # an archived thread, it is owed its text (the table's post wakes the thread),
            # and it stays above the table. A fresh one came below the table (a restart's
            # first redraw in an archived thread). Refused for any other reason (a channel
            # gone), the post finds out what becomes of the table, as before.
            asleep = screen.content if table.running else t(table.locale, "table.moved_on")
            with self.drawing(table, "lobby"):
                if not await self._edit(table, table.lobby_message_id, screen, asleep) and \
                        not (table.running and self.bot.service.asleep.owes(table.channel_id)):
                    # Let go of (`Table.let_go`): a restart finding it with its buttons (an
                    # archived thread's) must not take it for a post a crash lost.
                    table.let_go(table.lobby_message_id)
                    table.lobby_message_id = await self._send(table, screen, kind="lobby")
                self._shown[key] = screen.fingerprint
        else:
            return
        self.bot.service.touch(table)

    async def _retire_lobby(self, table: Table) -> None:
        """The lobby message, if any, points below where the table goes on."""
        if table.lobby_message_id is not None:
            moved_on = t(table.locale, "table.moved_on")
            async with self._retiring_message(table, "lobby", table.lobby_message_id):
                await self._edit(table, table.lobby_message_id, Screen(moved_on), moved_on)
            table.let_go(table.lobby_message_id)
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
            async with self._retiring_message(table, "table", table.table_message_id):
                await self._edit(table, table.table_message_id,
                                 Screen(text) if text is not None else None, text)
            table.let_go(table.table_message_id)
            table.table_message_id = None
            table.keep_retired(None)
            self._shown.pop((table.id, "table"), None)

    @staticmethod
    def _retired(table: Table, text: str | None, note: str = "table.moved_on") -> str | None:
        """What a table message shows once the game is over for it: its ``text`` (as kept,
        `Table.retired`) ending with `note`, without buttons; None where no text was kept
        (only its buttons go)."""
        return f"{text}\n\n{t(table.locale, note)}" if text else None

    async def _bring_down(self, table: Table, kind: str, screen: Screen) -> bool:
        """The table's `kind` message (its table message or lobby), buried under the
        channel's chatter (`Buried`), is posted anew at the bottom, and the old one becomes
        a short pointer to it, without buttons.

        Posted first, so that the table always has a live message, and the pointer can link
        to it. Edited rather than deleted: a delete costs a call as the edit does (Discord
        publishes neither limit: « rate limits should not be hard coded », Rate Limits,
        https://discord.com/developers/docs/topics/rate-limits), a click on its way to the
        old message would fail where it is now answered (as any click on a message being
        retired, `answer`), and what players answered in the chat keeps what they answered
        to. Whether the post went through or not, the table waits `EVERY` before trying
        again; a refused post keeps the old message as it was."""
        old = table.table_message_id if kind == "table" else table.lobby_message_id
        assert old is not None
        self.buried.returned(table)
        async with self._retiring_message(table, kind, old):
            new = await self._send(table, screen, kind=kind)
            if new is None:
                return False
            if kind == "table":
                table.table_message_id = new
            else:
                table.lobby_message_id = new
            self.shown(table, kind, screen)
            # Stored before the old one is edited, with the edit owed: a restart edits the
            # new one, and makes the old one's edit if it had not landed (`_point_owed`).
            table.pointers_owed.append((old, new))
            self.bot.service.touch(table)
            await self._point(table, old, new)
        return True

    async def _point(self, table: Table, old: int, new: int) -> None:
        """The message brought down becomes a pointer to the `new` one, no longer owed (the
        table's next snapshot says so: no write of its own, see `Table.pointers_owed`)."""
        # Discord's message link, as its clients copy it (discord.py's `jump_url`).
        link = self._channel(table).get_partial_message(new).jump_url
        pointer = t(table.locale, "table.brought_down", link=link)
        await self._edit(table, old, Screen(pointer), pointer)
        table.pointers_owed.remove((old, new))

    async def _point_owed(self, table: Table) -> None:
        """Pointers a bring-down stored as owed but did not edit: the process stopped in
        between (a crash; a stop drains its redraws). One flush at a time per table, so none
        is on its way now. Stored as done, as a restart's other owed messages are: edited
        twice at worst, to the same text."""
        if table.pointers_owed:
            for old, new in list(table.pointers_owed):
                await self._point(table, old, new)
            self.bot.service.touch(table)

    async def _table(self, table: Table) -> None:
        if table.game is None:
            return
        screen = table_screen(table, self.bot.service.clock.now())
        key = (table.id, "table")
        posted = edited = False
        if table.post_table or table.table_message_id is None:
            await self._retire_table_message(table)
            table.table_message_id = await self._post(table, "table", screen)
            # Owed until posted: a snapshot taken meanwhile (a bot's move) still owes it, so a
            # restart then posts it rather than write the new round over the last's results.
            table.post_table = False
            posted = True
        elif self.buried.due(table, "table") and not self._answering(table, "table") \
                and await self._bring_down(table, "table", screen):
            # Buried under the channel's chatter (`Buried`): posted anew at the bottom, with
            # what changed, or as it was at the quiet moment's redraw.
            posted = True
        elif self._shown.get(key) != screen.fingerprint:
            if self._answering(table, "table"):
                return  # drawn once the answer is back, with the finished game's chart
            if self._aged(table.table_message_id):
                # Retired as the state reads now, which the fresh message goes on from: what
                # it last showed may be newer than anything stored (a restart's first
                # redraw), and a player who saw it must not see it taken back.
                table.keep_retired(screen.retired)
                await self._retire_table_message(table)
                table.table_message_id = await self._send(table, screen, kind="table")
                posted = True
            else:
                # A finished game's results carry their chart where it is drawn in time
                # (`Charts.in_time`): one edit, not two; else `attach` below uploads it.
                chart = await self.charts.in_time(table)
                with self.drawing(table, "table"):
                    if not await self._edit(table, table.table_message_id, screen,
                                            self._retired(table, screen.retired), chart):
                        table.let_go(table.table_message_id)  # as the lobby's, above
                        table.table_message_id = await self._send(table, screen, kind="table")
                        posted = True
                    self.shown(table, "table", screen)
                edited = True
        if not edited:
            self.shown(table, "table", screen)
        # Even when a click's own response already drew this screen (the host's « Terminer »
        # between rounds ends the game there), the finished game's chart is still owed
        # where that answer could not carry it (`answer`: drawn too late, refused).
        if posted:  # stored as done: a restart edits it rather than post it again
            self.bot.service.touch(table)
        await self.charts.attach(table)
