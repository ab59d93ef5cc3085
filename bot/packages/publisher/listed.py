"""The private answer of one on a game's list, told when what it said changes: moving up to
a bot's seat (stop 51's leftovers), or losing the seat it promised (stop 53).

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
`Hands`' farewells: a restart forgets them.

The change may go the other way (stop 53): one told they take a seat a leaver freed
(« no_end_freed ») loses it when that leaver comes back before the round's end and takes it
back (`Seating._take_back`); the table and their « Ma main » said so, the answer did not.
Every answer at a game with no end is kept with what it said (`turnover.list_outcome`), and
edited whenever that changes: a seat, the list, or the lobby."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import button_names, t
from bot.packages.publisher.tokened import TokenKept
from bot.tables import turnover
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


#: What an answer says, by `turnover.list_outcome`: a seat at the next deal, the list for the
#: next game, or the lobby the round's end sends the table to.
KIND = {"no_end": "seat", "no_end_freed": "seat", "no_end_listed": "list",
        "to_lobby": "lobby"}

#: The edit for a change of kind, (was, now): what they read now, and why it changed.
CHANGED = {("list", "seat"): "lobby.moved_up_no_end",
           ("seat", "list"): "lobby.seat_taken_back_no_end",
           ("seat", "lobby"): "lobby.listed_to_lobby",
           ("list", "lobby"): "lobby.listed_to_lobby",
           ("lobby", "list"): "lobby.listed_no_end"}

#: From the lobby back to a seat the game goes on after all: the answer a join gives now.
SEATED = {"no_end": "lobby.queued_no_end", "no_end_freed": "lobby.queued_no_end_freed"}


@dataclass(frozen=True)
class Listed:
    """The « Rejoindre » or `/president join` that put `user_id` on the list of a game with
    no end, its answer in `locale` saying `told` (`turnover.list_outcome`), its token minted at
    `created` on the service's clock."""

    interaction: discord.Interaction[Any]
    user_id: int
    locale: str
    created: float
    told: str


class ListedAnswers:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._kept: TokenKept[Listed] = TokenKept()

    def keep(self, table: Table, listed: Listed) -> None:
        self._kept.keep(table.id, listed)

    async def flush(self, table: Table) -> None:
        """After every change of the table, with its hands: each kept answer whose reader's
        place on the list now says something else (`turnover.list_outcome`: a seat, the list,
        the lobby) is edited once, and kept for a later change; one whose reader left the
        list (or sat), whose game is over, or whose token ran out, is let go unedited."""
        def now(k: Listed) -> str | None:
            return None if table.closed else turnover.list_outcome(table, k.user_id)

        def moved(k: Listed) -> bool:
            outcome = now(k)
            return outcome is not None and KIND[outcome] != KIND[k.told]

        changed = self._kept.take(table.id, self.bot.service.clock.now(), due=moved,
                                  stays=lambda k: now(k) is not None)
        told = [replace(k, told=now(k) or k.told) for k in changed]
        for k in told:  # still on the list: kept to be told of a later change
            self._kept.keep(table.id, k)
        await asyncio.gather(*(self._tell(table, was.told, k) for was, k in zip(
            changed, told, strict=True)))

    async def _tell(self, table: Table, was: str, listed: Listed) -> None:
        """Edit the answer, which said `was`, into what its reader's place says now
        (`listed.told`)."""
        key = CHANGED.get((KIND[was], KIND[listed.told])) or SEATED[listed.told]
        text = t(listed.locale, key, **button_names(table.locale))
        try:
            await listed.interaction.edit_original_response(content=text)
        except discord.HTTPException as err:  # dismissed, or its token refused
            log.info("listed answer of %s not edited: %s", listed.user_id, err)

    def forget(self, table_id: int) -> None:
        self._kept.forget(table_id)
