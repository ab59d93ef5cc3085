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

The table's public messages (its lobby and table message, drawn by the refresh) follow the
same rule (`PublicSaves`, stop 62): they show a state only once it is committed.
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


class PublicSaves:
    """The table's public redraws wait for its commit too (stop 62). The refresh drew the
    lobby and the table message from the state in memory at once: a crash before the commit
    took back what everyone had been shown (a move, a seat), where its clicker's own answer
    had waited (`saved`). A redraw now waits, at most `STORE_BUDGET` of the bot's clock as
    an answer does, for the table's state as it is to be committed; past it nothing is
    drawn, and the refresh is asked again once the commit lands, as a deferred answer is
    told once saved. Nothing is waited for where nothing changed since the last commit
    seen (`table.seq`, which every stored change moves), and a commit that has nothing to
    write costs one turn of the loop, not the clock."""

    def __init__(self, service: TableService) -> None:
        self._service = service
        # Per table: the `Table.seq` last seen committed, and the commit that a redraw
        # stopped waiting for (past the budget), whose end asks for the refresh again.
        self._stored: dict[int, int] = {}
        self._late: dict[int, asyncio.Future[None]] = {}

    async def saved(self, table: Table) -> bool:
        """Whether the table's state as it is now is committed, waited for within
        `STORE_BUDGET`; False past it (the refresh comes again once it is)."""
        clock = self._service.clock
        ends = clock.now() + STORE_BUDGET
        while self._stored.get(table.id) != (seq := table.seq):
            stored = self._late.get(table.id)
            if stored is None or stored.done():
                stored = asyncio.ensure_future(self._service.committed(table))
                await asyncio.sleep(0)  # nothing on its way: done within this turn
            if not stored.done() and not await within(clock, stored, ends - clock.now()):
                self._wake(table, stored)
                return False
            # Every change up to `seq` was submitted before the commit ended (it waits for
            # all the table's writes): stored. A change made since goes round again.
            self._stored[table.id] = seq
        return True

    def _wake(self, table: Table, stored: asyncio.Future[None]) -> None:
        if self._late.get(table.id) is stored:
            return
        self._late[table.id] = stored

        def landed(done: asyncio.Future[None]) -> None:
            if self._late.get(table.id) is done:
                del self._late[table.id]
            if done.cancelled():
                return
            if (err := done.exception()) is not None:
                log.error("table %s: its commit failed", table.id, exc_info=err)
                return
            self._service.refresh(table)

        stored.add_done_callback(landed)

    def forget(self, table_id: int) -> None:
        """A closed table's marks go with it."""
        self._stored.pop(table_id, None)
        self._late.pop(table_id, None)


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
