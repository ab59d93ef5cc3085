"""The points chart a finished game's results message carries, where the bot may attach it.

Drawn in a worker thread (`Charts.draw`), once per results message and language; where the
channel refuses attachments the results show the chart as text
(`table_message.chart_text`), and the host hears once which permission it takes. The
results' own edit carries it where it is drawn within `IN_TIME` (`in_time`, stop 52: one
call, not two), and so does a click's answer drawing them (« Terminer », within
`ANSWER_IN_TIME`); else, or where that edit or answer failed for it (`not_carried`), it is
uploaded in an edit of its own (`attach`), as follows.

An upload that fails otherwise is not the host's to fix, and is never told them
(`err.cannot_attach` is only for a missing Attach Files). What Discord answers decides what
follows (HTTP Response Codes,
https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes):

- a 429 past the client's `max_ratelimit_timeout` (`discord.RateLimited`): "Your
  application should rely on the `Retry-After` header or `retry_after` field to determine
  when to retry the request" (Exceeding A Rate Limit,
  https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit): tried
  again then, as a postponed refresh is (`Publisher._postpone`), however often;
- a server error ("502 (GATEWAY UNAVAILABLE) [...] Wait a bit and retry", "5xx (SERVER
  ERROR) [...] these are rare"; discord.py has already retried a 500, 502, 504 and 524 five
  times over 25 s), a 429 that is no rate limit of Discord's (Cloudflare's, without
  `Via`: discord.py's sign of a ban, « Invalid Request Limit aka Cloudflare bans »,
  https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans),
  or the network (aiohttp's `ClientError`: a dropped connection, a reset discord.py did not
  retry; `TimeoutError`): tried again after `RETRY_DELAYS`, on the bot's scheduler;
- any other refusal (a 4xx: "Request entity too large" 40005, "File uploaded exceeds the
  maximum size" 50045, an invalid form body; JSON error codes,
  https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes)
  would be answered the same to the same file: not tried again;
- 404 (the message is gone): nothing to attach to; the table's next edit finds out and posts
  a fresh message, whose chart is then uploaded.

When the retries are spent, or a refusal will not go away, or the table moves on (a new
game, the lobby) while a retry waits or an upload is on its way, the results message gives
the chart as text (`Table.chart_unsent`; `Charts.moved_on`). That is this message's alone:
the bot may still attach files, and the next game's results try their own upload. An upload
on its way that goes through after the table moved on has its picture taken off again
(`Charts._take_off`): the message keeps the chart once, as the text it was retired with.
Which messages owe that is the table's (`Table.charts_off`, in its snapshot): a restart
before the upload ends takes the picture off too, not knowing whether it landed, and a
take-off that failed for a passing reason is tried again as an upload is, then at the
next start.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.languages import own_locale
from bot.packages.controls import answer_privately, opened_form, refusal_text
from bot.packages.game import chart
from bot.packages.permissions import ATTACH, may_attach, missing, needed_in, permission_name
from bot.packages.publisher.calls import passing
from bot.tables.refusals import TableError
from bot.tables.table import Table
from engine import Phase

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# Seconds before each new try of an upload that failed for a passing reason (a server
# error, the network): the results go without their chart meanwhile, and with its text
# once every try failed, about two and a half minutes after the first (each 5xx try also
# spends discord.py's own 25 s of retries).
RETRY_DELAYS = (5.0, 30.0, 120.0)
# Seconds of the bot's clock the results' edit waits for their chart to be drawn, to carry
# it in the same edit (`in_time`): about 0.11 s of CPU on the 2-core machine, 0.3 s while
# busy (docs/bot.md, « Card faces and the game's chart »). Past it the results go alone and
# the chart follows in an edit of its own (`attach`), as before.
IN_TIME = 2.0
# Seconds of the bot's clock from a click to its answer carrying the chart, at most
# (`Publisher.answer`, « Terminer »): Discord wants « an initial response within 3 seconds
# of receiving the event » (discord-api-docs, developers/interactions/
# receiving-and-responding.mdx, Responding to an Interaction); the rest is for the ending
# itself, a loaded loop and the upload's trip. Past it the answer goes without the chart,
# which follows in an edit of its own, as past `IN_TIME`.
ANSWER_IN_TIME = 1.0


def _retry_key(table_id: int) -> tuple[str, int]:
    return ("chart upload", table_id)


def _off_key(table_id: int, message_id: int) -> tuple[str, int, int]:
    return ("chart off", table_id, message_id)


def _retrieved(drawing: asyncio.Future[discord.File]) -> None:
    """A chart drawn too late for its results that nothing uploads (the table moved on, or
    closed): its failure, if any, is logged rather than left unretrieved."""
    if not drawing.cancelled() and (err := drawing.exception()) is not None:
        log.error("a chart drawn late failed", exc_info=err)


def _refused(err: Exception) -> bool:
    """Whether a failed edit surely changed nothing: Discord refused it (a 4xx, a 429) or
    discord.py never sent it (`RateLimited`). A 5xx does not say so: a 504 is a gateway
    that gave up waiting for the server behind it, which may have done the edit (RFC 9110,
    15.6.5), and neither does a dropped connection or a timeout."""
    return isinstance(err, discord.RateLimited) or (
        isinstance(err, discord.HTTPException) and err.status < 500)


class Charts:
    """Which results message carries its game's chart, and who was told it cannot.

    In memory only, as `Table.chart_unsent` is, but for the chart Discord acknowledged on
    the results on screen, which a stop keeps (`landed`, `bot.tables.landed`): its restart
    does not upload that chart again (`restored`). After a crash, or for an upload that
    failed or was given up, its first redraw of each restored table edits its results
    message (without the chart's text) and uploads its chart again (`attach`, nothing
    marked charted). Remembering a failed upload across the restart would only keep the
    text on screen during that new upload; if the upload fails again, the text is back once
    it is given up, and the next game's results try theirs anyway."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Per table: the results message that carries its game's chart, or gave it up.
        self._charted: dict[int, tuple[int, str]] = {}  # the message and the language drawn
        # Per table: the results message and language whose chart Discord acknowledged
        # (an upload's or a carrying edit's 200), forgotten as another edit of its
        # attachments starts. What a stop keeps (`landed`).
        self._landed: dict[int, tuple[int, str]] = {}
        # Per table: the message and language whose upload failed, and how often, while a
        # new try waits on the scheduler (`_retry_key`).
        self._failed: dict[int, tuple[tuple[int, str], int]] = {}
        # Per table: the message and language whose upload is on its way (`moved_on`).
        self._uploading: dict[int, tuple[int, str]] = {}
        # The take-offs this process tried (`take_off_owed`), by table and message, and how
        # often: on their way, waiting for a retry, or left to the next start.
        self._off_tries: dict[tuple[int, int], int] = {}
        # Tables whose host was told the chart cannot be attached (once per incident).
        self._told_attach: set[int] = set()
        self.rendering = 0  # charts being drawn in worker threads (the bot reports them as busy)
        # Per table: a chart still being drawn when its results' edit could wait no longer
        # (`in_time`), for `attach` to upload once drawn, rather than draw it again.
        self._late: dict[int, tuple[tuple[int, str], asyncio.Future[discord.File]]] = {}

    def forget(self, table_id: int) -> None:
        """A closed table's marks go with it (`Publisher.closed`), its given-up take-offs too
        (their tries spent, left to a start that never restores a closed table). A take-off
        on its way or waiting for its retry goes on: the picture still sits beside the
        retired text, and its count is dropped as it ends (`_take_off`)."""
        self._charted.pop(table_id, None)
        self._landed.pop(table_id, None)
        self._failed.pop(table_id, None)
        self._late.pop(table_id, None)
        self._told_attach.discard(table_id)
        self.bot.service.scheduler.cancel(_retry_key(table_id))
        for key in [key for key, tries in self._off_tries.items()
                    if key[0] == table_id and tries > len(RETRY_DELAYS)]:
            del self._off_tries[key]

    async def draw(self, shown: chart.PointsChart, filename: str) -> discord.File:
        """The chart as an attachment with its alt text, drawn in a worker thread (tens of
        milliseconds of CPU the loop must not wait for), counted in `rendering`."""
        self.rendering += 1
        try:
            png = await asyncio.to_thread(chart.render, shown)
        finally:
            self.rendering -= 1
        return discord.File(io.BytesIO(png), filename=filename, description=shown.alt)

    def _owed(self, table: Table) -> tuple[int, str] | None:
        """The results message and language whose chart is owed now: a finished game's
        results, where the bot may attach files, not yet charted in that language, no new try
        waiting for its time (`_failed`, kept or dropped as `attach` does)."""
        game, message_id = table.game, table.table_message_id
        if game is None or game.phase is not Phase.GAME_OVER or message_id is None \
                or table.attach_files is False:
            return None
        key = (message_id, table.locale)
        if self._charted.get(table.id) == key:
            return None
        scheduler = self.bot.service.scheduler
        failed = self._failed.get(table.id)
        if failed is not None and failed[0] != key:  # a newer message, or language
            del self._failed[table.id]
            scheduler.cancel(_retry_key(table.id))
        elif failed is not None and scheduler.deadline(_retry_key(table.id)) is not None:
            return None
        return key

    async def in_time(self, table: Table, wait: float | None = None
                      ) -> tuple[tuple[int, str], discord.File] | None:
        """The chart its results' edit can carry (`Publisher._table`), or a click's answer
        drawing them (`Publisher.answer`), drawn within `wait` seconds of the bot's clock
        (`IN_TIME` if None; a click waits less, `ANSWER_IN_TIME`): one call where the
        results and the chart took two. Edit Message takes files as a post does (« `files[n]` | Contents of the file being sent/edited », with
        `attachments`, « Attached files to keep and their metadata »; « Any provided files
        will be **appended** to the message », discord-api-docs,
        developers/resources/message.mdx, Edit Message): the results have none before.
        Only where the table knows it may attach files (`attach_files` True, learnt from an
        interaction): a 403 for a file would be taken for the whole channel refusing the
        bot; unknown (a restored table that heard nobody yet), `attach` finds out as before.
        None where no chart is owed or it was not drawn in time: the results go alone, and
        `attach` uploads the chart once drawn."""
        key = self._owed(table)
        if key is None or table.attach_files is not True or table.id in self._failed:
            return None
        late = self._late.pop(table.id, None)
        if late is not None and late[0] == key:
            drawing = late[1]
        else:
            shown = chart.points_chart(table, table.locale)
            if shown is None:
                return None
            drawing = asyncio.ensure_future(self.draw(shown, chart.FILENAME))
        clock = self.bot.service.clock
        wait = IN_TIME if wait is None else max(wait, 0.0)
        timer = asyncio.ensure_future(clock.sleep_until(clock.now() + wait))
        try:
            waited: set[asyncio.Future[Any]] = {drawing, timer}
            await asyncio.wait(waited, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        if not drawing.done():
            log.info("table %s: its chart was not drawn in %.1f s: the results go first",
                     table.id, wait)
            drawing.add_done_callback(_retrieved)  # never awaited if the table moves on
            self._late[table.id] = (key, drawing)
            return None
        self._landed.pop(table.id, None)  # carried by an edit about to start
        return key, drawing.result()

    def carried(self, table: Table, key: tuple[int, str]) -> None:
        """The results' edit carried their chart (`in_time`): charted, as an upload is."""
        if not table.closed:
            self._failed.pop(table.id, None)
            self._charted[table.id] = self._landed[table.id] = key
            if table.chart_unsent == key[0]:  # given up in another language: no text
                table.chart_unsent = None
                self.bot.service.refresh(table)

    def not_carried(self, table: Table, key: tuple[int, str],
                    err: discord.HTTPException | discord.RateLimited | aiohttp.ClientError
                    | TimeoutError) -> None:
        """The results' edit carrying the chart failed: the results are edited again
        without it (`Publisher._edit`), and the chart's upload failed as one of its own
        would have (`_upload_failed`: tried again, given as text, or, for a 403, Attach
        Files taken away since the table last heard an interaction), so that the `attach`
        following the edit makes no second try at once."""
        log.info("table %s: the results' edit with their chart failed (%r): edited without "
                 "it", table.id, err)
        self._upload_failed(table, key, self._failed.get(table.id), err)

    async def attach(self, table: Table) -> None:
        """At the end of a game its results message gets the points chart, once per language
        (the server's may change after: its words follow the message's), where the bot may
        attach it (else the results show it as text: `table_message.chart_text`). Marked
        charted only once uploaded, or given up (see the module's docstring); while a new try
        waits for its time, a refresh uploads nothing."""
        key = self._owed(table)
        if key is None:
            return
        message_id = key[0]
        failed = self._failed.get(table.id)  # a try of this very upload, none waiting
        late = self._late.pop(table.id, None)
        if late is not None and late[0] == key:
            image = await late[1]  # drawn past `in_time`'s wait: uploaded alone, as before
        else:
            shown = chart.points_chart(table, table.locale)
            if shown is None:
                return
            image = await self.draw(shown, chart.FILENAME)
        # A table may close while its upload is on its way (discord.py retries a 502 for 25 s;
        # a table whose bot was removed, or whose channel was deleted, closes with no call):
        # its marks went with it (`forget`), and none may come back, kept for good.
        self._uploading[table.id] = key
        self._landed.pop(table.id, None)
        try:
            await self._attachments(table, message_id, [image])
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                TimeoutError) as err:
            self._uploading.pop(table.id, None)
            if message_id in table.charts_off:
                if _refused(err):
                    self._taken_off(table, message_id)  # no picture landed
                else:  # no answer, or a 5xx: it may have landed
                    await self._take_off(table, message_id)
            if table.closed:
                log.info("table %s: closed while its chart was uploaded (%r)", table.id, err)
            elif self._charted.get(table.id) == key and not isinstance(err, discord.Forbidden):
                # Moved on from meanwhile, the chart given as text there (`moved_on`): no
                # retry reaches a message no longer on screen.
                log.info("table %s: moved on while its chart was uploaded (%r)", table.id, err)
            else:
                self._upload_failed(table, key, failed, err)
            return
        finally:
            self._uploading.pop(table.id, None)
        if message_id in table.charts_off:
            await self._take_off(table, message_id)
            return
        if not table.closed:
            self._failed.pop(table.id, None)
            self._charted[table.id] = self._landed[table.id] = key
            if table.chart_unsent == message_id:  # given up in another language: no text
                table.chart_unsent = None
                self.bot.service.refresh(table)

    def landed(self, table: Table) -> tuple[int, str] | None:
        """The chart Discord acknowledged on the table's results message now, in the
        table's language, none owed to be taken off (`Publisher.landed`)."""
        landed = self._landed.get(table.id)
        if landed is None or landed != (table.table_message_id, table.locale) \
                or landed[0] in table.charts_off:
            return None
        return landed

    def restored(self, table: Table, landed: tuple[int, str] | None) -> None:
        """A restored table whose stop kept its chart as landed on its results (`landed`):
        charted already, its restart uploads it no more."""
        if landed is not None and landed == (table.table_message_id, table.locale) \
                and landed[0] not in table.charts_off:
            self._charted[table.id] = self._landed[table.id] = landed

    async def take_off_owed(self, table: Table) -> None:
        """The pictures owed a take-off that this process has not tried (a restart's first
        redraw: `Table.charts_off`, stored before it stopped), nor has on its way."""
        uploading = self._uploading.get(table.id)
        for message_id in list(table.charts_off):
            if (table.id, message_id) not in self._off_tries \
                    and (uploading is None or uploading[0] != message_id):
                await self._take_off(table, message_id)

    async def _take_off(self, table: Table, message_id: int) -> None:
        """The upload went through to results the table had moved on from, retired with the
        chart as text meanwhile (`moved_on`), or may have (a restart before it ended, a
        dropped connection): the picture is taken off, the message keeping the chart once.
        The text, rather than the picture, because the retired text is all the table kept
        of that message, written once (`Table.retired`, forgotten once edited): giving the
        picture alone would take that text again without its chart, where taking the
        picture off needs only the message (Edit Message: "To remove or replace files you
        will have to supply the `attachments` field which specifies the files to retain on
        the message after edit",
        https://discord.com/developers/docs/resources/message#edit-message); a message
        without one is left as it was. A passing failure (`calls.passing`: a 5xx, a 429,
        the network) is tried again after `RETRY_DELAYS`, then left to the next start, still owed; any
        other refusal (the message gone, the channel refused) ends it."""
        key = (table.id, message_id)
        tries = self._off_tries[key] = self._off_tries.get(key, 0) + 1
        if (landed := self._landed.get(table.id)) is not None and landed[0] == message_id:
            del self._landed[table.id]
        try:
            await self._attachments(table, message_id, [])
        except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
                TimeoutError) as err:
            if not passing(err):
                log.info("table %s: no chart to take off message %s (%r)", table.id,
                         message_id, err)
                self._taken_off(table, message_id)
            elif tries > len(RETRY_DELAYS):
                if table.closed:  # no start restores it: nothing is left to try
                    self._off_tries.pop(key, None)  # gone already if it closed meanwhile
                log.warning("table %s: the chart uploaded to results moved on from stays "
                            "beside its text until the next start (%r)", table.id, err)
            else:
                log.warning("table %s: taking the chart off results moved on from failed "
                            "(%r), trying again in %.0f s", table.id, err,
                            RETRY_DELAYS[tries - 1])
                self._take_off_later(table, message_id, RETRY_DELAYS[tries - 1])
        else:
            log.info("table %s: the chart uploaded to results moved on from taken off, its "
                     "text kept", table.id)
            self._taken_off(table, message_id)

    async def _attachments(self, table: Table, message_id: int,
                           files: list[discord.File]) -> None:
        """Give the table's message these files (none: its picture taken off), as one call
        of the bot's budget."""
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        async with self.bot.budget.call():
            await channel.get_partial_message(message_id).edit(attachments=files)

    def _take_off_later(self, table: Table, message_id: int, delay: float) -> None:
        async def again() -> None:
            await self._take_off(table, message_id)

        self.bot.service.scheduler.after(_off_key(table.id, message_id), delay, again)

    def _taken_off(self, table: Table, message_id: int) -> None:
        """No picture is left to take off that message: no longer owed, in storage too."""
        self._off_tries.pop((table.id, message_id), None)
        if message_id in table.charts_off:
            table.charts_off.remove(message_id)
            self.bot.service.touch(table)

    def _upload_failed(self, table: Table, key: tuple[int, str],
                       failed: tuple[tuple[int, str], int] | None,
                       err: discord.HTTPException | discord.RateLimited
                       | aiohttp.ClientError | TimeoutError) -> None:
        """What follows an upload that failed: see the module's docstring."""
        if isinstance(err, discord.RateLimited):
            log.warning("table %s: chart upload rate limited for %.1f s", table.id,
                        err.retry_after)
            self._try_again(table, key, err.retry_after, failed[1] if failed else 0)
        elif isinstance(err, discord.Forbidden):
            # Taken away since the last interaction at the table (or a restored table has
            # heard none yet): the results show the chart as text from now on, and the
            # host hears why at their next action.
            log.warning("table %s: channel %s refused the chart (%s)", table.id,
                        table.channel_id, err.code)
            self._failed.pop(table.id, None)
            table.attach_files = False
            self.bot.service.refresh(table)
        elif isinstance(err, discord.NotFound):
            log.info("table %s: results message %s is gone, no chart to attach", table.id,
                     key[0])
            self._failed.pop(table.id, None)
            self._charted[table.id] = key
        elif isinstance(err, discord.HTTPException):
            if passing(err):
                self._failure(table, key, failed, f"{err.status} {err.code}")
            else:
                log.warning("table %s: Discord refused the chart (%s %s), shown as text",
                            table.id, err.status, err.code)
                self._give_up(table, key)
        else:  # the network: aiohttp's `ClientError`, a `TimeoutError`
            self._failure(table, key, failed, repr(err))

    def _failure(self, table: Table, key: tuple[int, str],
                 failed: tuple[tuple[int, str], int] | None, why: str) -> None:
        """An upload failed for a passing reason: tried again after the next of
        `RETRY_DELAYS`, or given up once they are spent."""
        tries = failed[1] + 1 if failed is not None else 1
        if tries > len(RETRY_DELAYS):
            log.warning("table %s: chart upload failed %d times (%s), shown as text",
                        table.id, tries, why)
            self._give_up(table, key)
            return
        delay = RETRY_DELAYS[tries - 1]
        log.warning("table %s: chart upload failed (%s), trying again in %.0f s", table.id,
                    why, delay)
        self._try_again(table, key, delay, tries)

    def _try_again(self, table: Table, key: tuple[int, str], delay: float,
                   tries: int) -> None:
        """A new try of the upload in `delay` seconds: a refresh of the table, which draws
        its latest state and attaches the chart if it is still owed."""
        self._failed[table.id] = (key, tries)
        service = self.bot.service

        async def again() -> None:
            service.refresh(table)

        service.scheduler.after(_retry_key(table.id), delay, again)

    def _give_up(self, table: Table, key: tuple[int, str]) -> None:
        """This results message gives its chart as text: nobody is told to grant anything."""
        self._failed.pop(table.id, None)
        self._charted[table.id] = key
        table.chart_unsent = key[0]
        self.bot.service.refresh(table)

    def moved_on(self, table: Table) -> None:
        """The table is about to leave its results message for a new one (a new game, the
        lobby: `Publisher.keep`), whose text it then keeps. An upload to it still waiting for
        a retry will not be tried (a retry uploads only to the results on screen), and one
        still on its way (discord.py tries a 502 for 25 s) would not be tried again if it
        failed: the chart is given as text there instead, in what the message keeps. An
        upload on its way that goes through after all has its picture taken off
        (`_take_off`): the chart once, as text, rather than the risk of neither."""
        failed = self._failed.get(table.id)
        uploading = self._uploading.get(table.id)
        if failed is not None and failed[0][0] == table.table_message_id:
            key = failed[0]
            del self._failed[table.id]
            self.bot.service.scheduler.cancel(_retry_key(table.id))
        elif uploading is not None and uploading[0] == table.table_message_id:
            key = uploading
            table.charts_off.append(key[0])  # stored with the change that moves on
        else:
            return
        log.warning("table %s: the game moved on before its chart's upload went through, "
                    "shown as text", table.id)
        self._charted[table.id] = key
        table.chart_unsent = key[0]

    def channel_changed(self, table: Table, allowed: bool) -> None:
        """The gateway told whether the bot may attach files in the table's channel
        (`permissions.may_attach_cached`). Learnt only from interactions, a permission
        taken away with nobody acting since cost the chart's upload a refused call (a 403,
        toward Cloudflare's ban), and one given back left the results as text until
        someone acted (play-test 37). The host is still told at their next action
        (`learn`). Only a table that learnt it already (`attach_files` not None) follows
        the gateway: a restored table hears its server's permissions as the bot starts,
        and taking them as learnt then held a finished game's results, which the restart
        redraws, waiting on their chart (an older version's tables were left blank:
        play-test 15's upgrades)."""
        if table.closed or table.attach_files is None:
            return
        was, table.attach_files = table.attach_files, allowed
        if allowed:
            self._told_attach.discard(table.id)  # told again if it goes again
        if allowed and was is False:
            self._charted.pop(table.id, None)
            self.bot.service.refresh(table)

    async def learn(self, interaction: discord.Interaction[Host], table: Table, *,
                    blocked: bool) -> None:
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
        if table.id in self._told_attach or blocked \
                or missing(interaction.app_permissions, needed) is not None \
                or not table.is_host(interaction.user.id) or opened_form(interaction):
            return
        self._told_attach.add(table.id)
        await answer_privately(interaction, refusal_text(own_locale(interaction), TableError(
            "err.cannot_attach", permission=permission_name(interaction.locale, ATTACH))))

