"""The points chart a finished game's results message carries, where the bot may attach it.

Drawn in a worker thread (`Charts.draw`), once per results message and language; where the
channel refuses attachments the results show the chart as text
(`table_message.chart_text`), and the host hears once which permission it takes.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.packages.controls import answer_privately, opened_form, refusal_text
from bot.packages.game import chart
from bot.packages.permissions import ATTACH, may_attach, missing, needed_in, permission_name
from bot.tables.refusals import TableError
from bot.tables.table import Table
from engine import Phase

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


class Charts:
    """Which results message carries its game's chart, and who was told it cannot."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Per table: the results message that carries its game's chart.
        self._charted: dict[int, tuple[int, str]] = {}  # the message and the language drawn
        # Tables whose host was told the chart cannot be attached (once per incident).
        self._told_attach: set[int] = set()
        self.rendering = 0  # charts being drawn in worker threads (the bot reports them as busy)

    def forget(self, table_id: int) -> None:
        """A closed table's marks go with it (`Publisher.closed`)."""
        self._charted.pop(table_id, None)
        self._told_attach.discard(table_id)

    async def draw(self, shown: chart.PointsChart, filename: str) -> discord.File:
        """The chart as an attachment with its alt text, drawn in a worker thread (tens of
        milliseconds of CPU the loop must not wait for), counted in `rendering`."""
        self.rendering += 1
        try:
            png = await asyncio.to_thread(chart.render, shown)
        finally:
            self.rendering -= 1
        return discord.File(io.BytesIO(png), filename=filename, description=shown.alt)

    async def attach(self, table: Table) -> None:
        """At the end of a game its results message gets the points chart, once per language
        (the server's may change after: its words follow the message's), where the bot may
        attach it (else the results show it as text: `table_message.chart_text`)."""
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
            channel = self.bot.get_partial_messageable(table.channel_id,
                                                       guild_id=table.guild_id)
            async with self.bot.budget.call():
                await channel.get_partial_message(message_id).edit(attachments=[image])
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
        await answer_privately(interaction, refusal_text(interaction.locale, TableError(
            "err.cannot_attach", permission=permission_name(interaction.locale, ATTACH))))

