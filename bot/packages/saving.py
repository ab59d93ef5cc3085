"""Save first, answer after: a click that changed a table is answered only once the
table's new state is committed, so that a crash in between never leaves its player told of
a state the restart does not bring back (docs/deploy.md, « What survives a redeploy »).

Discord drops an interaction not answered within 3 seconds: « you must send an initial
response within 3 seconds of receiving the event. If the 3 second deadline is exceeded, the
token will be invalidated » (discord-api-docs, developers/interactions/receiving-and-
responding.mdx, Responding to an Interaction). The commit is waited for `STORE_BUDGET` of
the bot's clock at most; past it the interaction is deferred (DEFERRED_UPDATE_MESSAGE where
the answer redraws the clicked message, « ACK an interaction and edit the original message
later; the user does not see a loading state »; DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
privately, where it is a new message: same page, Interaction Callback Type), and the answer
edits the original response, or fills the loading message, once the state is saved.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.packages.controls import token_alive
from bot.tables.clock import Clock
from bot.tables.service import TableService
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# Seconds (on the bot's clock) a change may wait for its snapshot before the click is
# acknowledged without its answer. Discord drops interactions not answered within 3 s; the
# rest of the window is for a loaded loop and the defer's own trip: with 2 s, the load
# benchmark at 500 tables (storage lagging 13 s) had acks past 3 s (docs/deploy.md).
STORE_BUDGET = 0.5


async def within(clock: Clock, work: asyncio.Future[Any], seconds: float) -> bool:
    """Wait, at most `seconds` of `clock`, for `work`; whether it is done."""
    late = asyncio.ensure_future(clock.sleep_until(clock.now() + seconds))
    try:
        await asyncio.wait({work, late}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        late.cancel()
    return work.done()


async def commit_within_budget(service: TableService, table: Table) -> asyncio.Future[None]:
    """Wait, at most STORE_BUDGET of the bot's clock, for the table's latest state to be
    committed; the commit, done or still running."""
    stored = asyncio.ensure_future(service.committed(table))
    await within(service.clock, stored, STORE_BUDGET)
    return stored


async def saved(interaction: discord.Interaction[Host], table: Table, *,
                new_message: bool = False) -> bool:
    """Wait until the table's latest state is committed, the interaction deferred past
    `STORE_BUDGET` (`new_message`: its answer is a new private message, else it redraws
    the clicked message). Whether the answer may still go: a commit that waited past the
    token's 15 minutes (the database away) can answer nothing (`controls.token_alive`); the
    messages the change touched follow it through their refresh."""
    stored = await commit_within_budget(interaction.client.service, table)
    if not stored.done() and not interaction.response.is_done():
        if new_message:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    await stored
    if token_alive(interaction):
        return True
    log.warning("interaction %s on table %s: stored after its token's 15 minutes, unanswered",
                interaction.id, table.id)
    return False


async def redraw(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """Redraw the clicked message: the interaction's answer, or an edit of its original
    response where it was deferred while the change was saved (`saved`)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


async def tell(interaction: discord.Interaction[Any], **kwargs: Any) -> None:
    """A new private message: the interaction's answer, or the followup that fills the
    « thinking » one it was deferred with while the change was saved (`saved`)."""
    if interaction.response.is_done():
        # A followup takes a view or none at all: `view=None` (a `Screen` without
        # controls) is refused by discord.py's `Webhook.send`.
        await interaction.followup.send(ephemeral=True, **{
            key: value for key, value in kwargs.items() if key != "view" or value is not None})
    else:
        await interaction.response.send_message(ephemeral=True, **kwargs)
