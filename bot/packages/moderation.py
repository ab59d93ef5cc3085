"""What a moderator's timeout means at a table.

A member in timeout keeps only the right to read: "Timed out members will temporarily lose
all permissions except `VIEW_CHANNEL` and `READ_MESSAGE_HISTORY`. Owners and admin users with
`ADMINISTRATOR` permissions are exempt" (Permissions For Timed Out Members,
https://discord.com/developers/docs/topics/permissions#permissions-for-timed-out-members).
That takes Use Application Commands away, so Discord offers them no `/president` command.
The docs say nothing of message components, and a client may still deliver their clicks on
a table's buttons and their hand. The bot holds them to the rule Discord holds its commands
to: a click at a table plays, joins or leaves in public messages, what the timeout forbids,
and a member able to play by buttons but not by commands would meet half a rule that depends
on their client. So while ``communication_disabled_until`` (the interaction's member object,
https://discord.com/developers/docs/resources/guild#guild-member-object) is in the future,
their clicks and forms at a table are refused, privately and in their language, saying when
they may play again, and change nothing; their seat waits as an absent player's does (each turn played when its timer runs out, or
by the autopilot where the rules call it; `/president resume` once the timeout is over).
The controls of no table follow the same rule (stop 61): `/president history`'s pages and
charts, which only read, were still turned by a member Discord no longer offers the command
that drew them. An erasure's buttons stay open: erasing one's data is no play, and Discord
leaves a member in timeout `/forget` in a DM with the bot.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord

from bot.packages.publisher.calls import passing
from bot.tables.budget import BudgetClosed, CallBudget
from bot.tables.refusals import TableError

log = logging.getLogger(__name__)

# « Unknown member » (JSON Error Codes,
# https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
UNKNOWN_MEMBER = 10007


def timed_out(interaction: discord.Interaction[Any], now: float,
              key: str = "err.timed_out") -> TableError | None:
    """The refusal (``key``) for a member in timeout at ``now`` (the bot's clock), else
    None."""
    member = interaction.user
    if not isinstance(member, discord.Member) or member.timed_out_until is None:
        return None
    if member.timed_out_until <= datetime.fromtimestamp(now, UTC):
        return None
    guild = interaction.guild
    if interaction.permissions.administrator or (guild is not None and
                                                 guild.owner_id == member.id):
        return None
    return TableError(key, until=int(member.timed_out_until.timestamp()))


async def gone(guild: discord.Guild, user_ids: Iterable[int], budget: CallBudget,
               unsure: list[int]) -> AsyncIterator[int]:
    """Those of ``user_ids`` who are no longer members of ``guild``, asked of Discord one by
    one (Get Guild Member, https://discord.com/developers/docs/resources/guild#get-guild-member,
    which needs no permission nor privileged intent).

    The bot hears bans and kicks live only where the server lets it (docs/deploy.md,
    « Moderation »), and never while it is down or the server in an outage: their events
    are not replayed. A seated player banned, kicked or gone meanwhile would keep their
    seat, each of their turns waiting for its timer. One call per seated person, on the
    bot's budget of global calls, once per start or outage: a few for most servers.
    Any other failure says nothing of the member, who keeps their seat; one that passes
    (`calls.passing`: a 5xx, a dropped connection, a timeout; a long 429) adds them to
    ``unsure``, for the caller to ask again."""
    for user_id in user_ids:
        try:
            async with budget.call():
                await guild.fetch_member(user_id)
        except BudgetClosed:
            return
        except discord.NotFound as error:
            if error.code == UNKNOWN_MEMBER:
                yield user_id
        except discord.RateLimited as error:
            unsure.append(user_id)
            log.warning("could not tell whether %s is still a member of server %s: rate "
                        "limited for %.1f s", user_id, guild.id, error.retry_after)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            # A dropped connection, a timeout or a long 429 too: raised, it went up through
            # the server's description (`ServerChanges._described`), and at a start through the loop
            # that describes the others (`ServerChanges._ready`), which stayed held, posting nothing.
            if passing(error):
                unsure.append(user_id)
            log.warning("could not tell whether %s is still a member of server %s: %r",
                        user_id, guild.id, error)
