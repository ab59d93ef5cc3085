"""A new table's first lobby, drawn at a restart into the `/president create` response a
crash left unfinished.

`/president create` defers (« … réfléchit… », a public loading message), stores the table,
then fills the deferral in with the lobby through a follow-up (« the loading message will be
edited instead », discord-api-docs, developers/interactions/receiving-and-responding.mdx,
Create Followup Message). A process that dies in between leaves the loading message on
screen for good; one that dies after the follow-up but before the lobby's id is stored
leaves a lobby the table does not know. Either way the command's response is the lobby's
place: « Edit Original Interaction Response » (`PATCH
/webhooks/<application_id>/<interaction_token>/messages/@original`, same page) reaches it
with the interaction's token, whatever the channel said since, while « Interaction tokens
are valid for **15 minutes** » (same page, Followup Messages). So the table keeps that token
until the lobby's id is stored (`Table.opening`), and a restart within its life edits the
response into the lobby: one call, outside the global limit (« webhook_id + webhook_token »
is its own bucket, Rate Limits), the loading message gone. Past it, or refused (the response
deleted by a moderator), the lobby is posted as before, after the restart's read below the
command's interaction (`Recount.read`) took over a follow-up that landed.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.packages.publisher.calls import NO_PINGS
from bot.packages.screen import Screen
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

ORIGINAL: Any = "@original"


def usable(table: Table, now: float) -> bool:
    """Whether the table's opening command can still reach its response: a lobby to post,
    within its token's life (`TOKEN_LIFETIME`, a little less than Discord's 15 minutes)."""
    return table.opening is not None and table.lobby_message_id is None \
        and now < table.opening.expires


async def lobby_in_response(bot: Host, table: Table, screen: Screen) -> int | None:
    """The opening command's response edited into the lobby `screen`: its id, or None where
    there is none to edit (no token kept, or past its life) or Discord refused the edit.
    The token is used once, and let go of whatever came of it."""
    opening, table.opening = table.opening, None
    if opening is None or bot.service.clock.now() >= opening.expires:
        return None
    webhook = discord.Webhook.partial(opening.application_id, opening.token, client=bot)
    try:
        message = await webhook.edit_message(ORIGINAL, allowed_mentions=NO_PINGS,
                                             **screen.kwargs())
    except (discord.HTTPException, discord.RateLimited, aiohttp.ClientError,
            TimeoutError) as err:
        log.info("table %s: could not draw its lobby into /president create's response "
                 "(%r): posted anew", table.id, err)
        return None
    log.info("table %s: its lobby drawn into /president create's response %s, which a "
             "restart found unfinished or unstored", table.id, message.id)
    return message.id
