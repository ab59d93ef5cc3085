"""The private answer of one listed for the next game, told when they move up to a bot's
seat (stop 51's leftovers).

At a game with no end, a latecomer takes a bot's seat at the next deal, or, with none left,
goes on the list for the next game (« lobby.listed_no_end », `Seating.join`). When someone
ahead of them leaves the list, they move up to a bot's seat: the table's lines and their
« Ma main » said so, and they were told nothing. Discord allows little here: an ephemeral
message answers an interaction, and none is under way; a mention in a public message
pings them in front of the channel, for a change nobody need act on yet; a direct
message may be refused (« Cannot send messages to this user », 50007, the user's privacy
settings). So the answer they read is edited, silently, through its interaction's token,
« valid for **15 minutes** » (discord-api-docs, developers/interactions/
receiving-and-responding.mdx, Followup Messages), into « you moved up »: no ping, no post
in the channel, nothing sent to anyone else. Past those minutes nothing private reaches
them; the table's « En attente de la prochaine manche » line names them, and their first
turn's reminder pings them as it pings every player (`Reminders`). In memory only, as
`Hands`' farewells: a restart forgets them."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import button_names, t
from bot.packages.publisher.tokened import TokenKept
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Listed:
    """The « Rejoindre » or `/president join` that put `user_id` on the list for the next
    game, its answer in `locale`, its token minted at `created` on the service's clock."""

    interaction: discord.Interaction[Any]
    user_id: int
    locale: str
    created: float


class ListedAnswers:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._kept: TokenKept[Listed] = TokenKept()

    def keep(self, table: Table, listed: Listed) -> None:
        self._kept.keep(table.id, listed)

    async def flush(self, table: Table) -> None:
        """After every change of the table, with its hands: each kept answer whose reader
        is now among those who sit at the next deal is edited once and let go; one whose
        reader left the list, or whose token ran out, is let go unedited."""
        waiting = [p.user_id for p in table.queue]
        sitters = waiting[:table.round_sitters()] if table.no_end and not table.closed else []
        up = self._kept.take(
            table.id, self.bot.service.clock.now(), due=lambda k: k.user_id in sitters,
            stays=lambda k: k.user_id in waiting and not table.closed)
        await asyncio.gather(*(self._tell(table, k) for k in up))

    async def _tell(self, table: Table, listed: Listed) -> None:
        text = t(listed.locale, "lobby.moved_up_no_end", **button_names(table.locale))
        try:
            await listed.interaction.edit_original_response(content=text)
        except discord.HTTPException as err:  # dismissed, or its token refused
            log.info("listed answer of %s not edited: %s", listed.user_id, err)

    def forget(self, table_id: int) -> None:
        self._kept.forget(table_id)
