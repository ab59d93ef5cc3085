"""The « Donner une raison » offers taken back when their break ends (stop 51's leftovers).

After a « Pause » click, its caller's private answer offers a form for the break's reason
(`game.break_reason`). Once the break ended (« Continuer », its five minutes up, the host
making it theirs, the game or the table over), the offer kept its button, whose click only
said it was too late (`err.pause_reason_late`). An ephemeral message is edited only through
its interaction's token, and « Interaction tokens are valid for **15 minutes** »
(discord-api-docs, developers/interactions/receiving-and-responding.mdx, Followup Messages):
within them the offer is now edited into « this break is over » without its button; an
older one keeps it, and the refusal. Kept in memory only: a restart forgets them, as
`Hands` forgets its farewells, and their click is refused as before."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.packages.publisher.tokened import TokenKept
from bot.tables.pause import Pause
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Offer:
    """An offer shown: the message its follow-up made (edited through the click's token),
    the break it names (its caller and start, as its button carries them), its reader's
    language, and when its token was minted on the service's clock."""

    message: discord.WebhookMessage
    by: int
    since: int
    locale: str
    created: float

    def names(self, pause: Pause | None) -> bool:
        return pause is not None and pause.by == self.by and int(pause.since) == self.since


class Offers:
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._shown: TokenKept[Offer] = TokenKept()

    def keep(self, table: Table, offer: Offer) -> None:
        self._shown.keep(table.id, offer)

    async def flush(self, table: Table) -> None:
        """Take back the offers whose break is no longer the one they name (after every
        change of the table, with its hands: nothing to do, no call, on all but one)."""
        over = self._shown.take(
            table.id, self.bot.service.clock.now(),
            due=lambda o: table.closed or not o.names(table.pause), stays=lambda o: True)
        await asyncio.gather(*(self._withdraw(o) for o in over))

    async def _withdraw(self, offer: Offer) -> None:
        """In the language heard last from its reader, not the one it was sent in: a
        player who chose another since (`/president my-language`, here or on another
        process's server) read this one line in the language they had just left, beside
        their hand redrawn in the new one."""
        locale = self.bot.service.locale_of(offer.by, offer.locale)
        try:
            await offer.message.edit(content=t(locale, "pause.offer_over"), view=None)
        except discord.HTTPException as err:  # dismissed, or its token refused: it stays
            log.info("break offer %s not taken back: %s", offer.message.id, err)

    def forget(self, table_id: int) -> None:
        self._shown.forget(table_id)
