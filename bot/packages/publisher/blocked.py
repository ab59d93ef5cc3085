"""Tables whose channel does not let the bot post now, and the word their host is owed.

A channel that refuses (a permission taken, a thread locked) costs one refused call per
incident: the table stops posting there until someone acts at it (`BlockedTables.acted`)
or the gateway says the bot may post again (`BlockedTables.channel_changed`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.languages import own_locale
from bot.packages.controls import answer_privately, here, opened_form, refusal_text
from bot.packages.permissions import hindrance
from bot.tables.refusals import TableError
from bot.tables.table import Table
from bot.tables.tokens import HandLink

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


class BlockedTables:
    """Which tables post nothing now, and whose host was told. `redraw` is the publisher's:
    a table that picks up again has every message redrawn, a gone one posted afresh."""

    def __init__(self, bot: Host, redraw: Callable[[Table], None]) -> None:
        self.bot = bot
        self._redraw = redraw
        # Tables whose channel refused a post or an edit (403, or a locked thread), or that
        # the gateway said refuses (`channel_changed`), with whether their host was told:
        # nothing more is sent to that channel until someone acts at the table again or
        # the gateway says the bot may post there again.
        self._blocked: dict[int, bool] = {}
        # Per blocked table whose host was told: the interaction that told them, whose token
        # tells them, privately, that the table picks up again (`channel_changed`); and the
        # tables whose host is owed that word at their next action, that token expired.
        self._told_by: dict[int, tuple[int, HandLink]] = {}
        self._owed_resume: set[int] = set()

    def blocks(self, table_id: int) -> bool:
        """Whether nothing is to be sent to the table's channel now."""
        return table_id in self._blocked

    def forget(self, table_id: int) -> None:
        """A closed table's marks go with it (`Publisher.closed`)."""
        self._blocked.pop(table_id, None)
        self._told_by.pop(table_id, None)
        self._owed_resume.discard(table_id)

    async def acted(self, interaction: discord.Interaction[Host], table: Table) -> None:
        """Someone acted at a table whose channel refused the bot: if the interaction says
        the bot may post there again, redraw everything (posting a fresh table message when
        the old one is gone); else tell the host, once per incident, which permission is
        missing. Retrying only here keeps a channel that refuses to one failed call per
        incident, not one per timer or bot move."""
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
        self._told_by[table.id] = (interaction.user.id, HandLink(
            int(interaction.application_id), interaction.token, self.bot.service.clock.now(),
            "", str(interaction.locale)))
        # Worded as the refusals are (« ⚠️ » first, as the missing permission refuses
        # /president create): whatever the click answered, the table shows nothing of it.
        await answer_privately(interaction, refusal_text(
            own_locale(interaction), TableError(here(interaction, why.key), **why.params)))

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
        told_by = self._told_by.get(table.id)
        self._resume(table)
        if told_by is None:
            return
        host_id, link = told_by
        if not link.valid(self.bot.service.clock.now()):
            self._owed_resume.add(table.id)
            return
        # The interaction's follow-up webhook, as discord.py builds it (`Interaction.followup`):
        # only an application's webhook may send an ephemeral message.
        webhook = discord.Webhook.from_state(
            {"id": link.application_id, "type": 3, "token": link.token}, self.bot._connection)

        # In the language their client speaks now: a host who switched Discord to English
        # since they were told read « La table reprend » in French (play-test 37).
        locale = self.bot.service.locale_of(host_id, link.locale)

        async def tell() -> None:
            try:
                await webhook.send(t(locale, "table.resumed"), ephemeral=True)
            except discord.HTTPException as err:
                log.info("table %s: could not tell its host it picks up again (%s)",
                         table.id, err.status)

        # A task of its own: discord.py sleeps a 429 on that token out inside the send,
        # and the server's tables checked after this one (`ServerChanges._recheck`) must not wait.
        self.bot.service.scheduler.after((table.id, "resumed"), 0, tell)

    def _resume(self, table: Table) -> None:
        """Post the table again: every message redrawn, a gone one posted afresh."""
        del self._blocked[table.id]
        self._told_by.pop(table.id, None)
        self._redraw(table)

    def refused(self, table: Table, err: discord.HTTPException) -> None:
        log.warning("table %s: channel %s refused the bot (%s %s); posting stops until "
                    "someone acts or the channel changes", table.id, table.channel_id,
                    err.status, err.code)
        self._blocked.setdefault(table.id, False)
        self._owed_resume.discard(table.id)

    def gone(self, table: Table) -> None:
        """Discord no longer knows the table's channel: it was deleted while the bot was not
        told (down, or a thread it did not hold), or as a call was on its way there. The
        table ends as on the deletion event;
        until then nothing more is sent there."""
        log.info("table %s: channel %s no longer exists", table.id, table.channel_id)
        self._blocked[table.id] = True
        service = self.bot.service
        # Named where the cache still holds it: a call meeting a channel deleted as it was
        # on its way may end the table before the deletion's event (play-test 37).
        name = getattr(self.bot.get_channel(table.channel_id), "name", None)

        async def vanish() -> None:
            await service.unreachable.channel_deleted(table.channel_id, name)

        service.scheduler.after((table.id, "channel gone"), 0, vanish)
