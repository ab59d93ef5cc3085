"""Who of a server's rated players is still one of its members, for the leaderboard.

The bot cannot be told when a member leaves: GUILD_MEMBER_REMOVE comes only with the
GUILD_MEMBERS intent (« If using Gateway Intents, the GUILD_MEMBERS intent will be required
to receive this event », Guild Member Remove,
https://discord.com/developers/docs/events/gateway-events#guild-member-remove), which is
privileged (« Privileged Intents », https://discord.com/developers/docs/events/gateway#privileged-intents:
GUILD_PRESENCES, GUILD_MEMBERS, MESSAGE_CONTENT; a verified app must be approved for it),
and so is the member list: List Guild Members « requires the GUILD_MEMBERS Privileged
Intent » (https://discord.com/developers/docs/resources/guild#list-guild-members), as does
the gateway's Request Guild Members for a whole list. The bot asks for none
(`bot.client`: GUILDS, GUILD_MESSAGES, GUILD_MODERATION). Discord's own advice for such an
app, « You might not need a privileged intent »
(https://discord.com/developers/docs/gateway/you-might-not-need-a-privileged-intent): « Get
Guild Member: Fetch a single member by their user ID. If you know who you're looking for,
you don't need to enumerate every member. » The leaderboard knows whom it shows: at most
its ten rows. So each row whose membership is not known is asked (Get Guild Member,
https://discord.com/developers/docs/resources/guild#get-guild-member, on the bot's budget of
global calls, `moderation.gone`), a 404 Unknown Member (10007) meaning gone; the answer is
kept for `FRESH` seconds, so a board looked at again within the hour costs nothing.

Known without a call: whoever acts in the server is a member (any command or click,
`PresidentBot.on_interaction`: the evening's players, the one asking for the leaderboard),
and a ban or kick the bot hears (`on_member_ban`, the audit log) makes one gone. A member
who left and came back is shown again once the hour has passed, or at once when they ask
for the leaderboard or otherwise act in the server.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.packages.moderation import gone
from bot.tables.budget import CallBudget
from bot.tables.clock import Clock

#: How long an answer about a member holds, in seconds: a leaderboard looked at again
#: within it asks Discord nothing; one who left is off the board by then at the latest.
FRESH = 3600.0
#: At most this many members asked per leaderboard: each row found gone lets the next one
#: up, which is asked in turn; past it, rows not asked are shown as members.
ASKED_MOST = 30
#: The answers kept are swept of the stale ones when they pass this many, then twice
#: as many as remain: memory bounded by the members seen within `FRESH`.
SWEEP_FROM = 1024


class Members:
    """What the bot knows of who is a member of which server, with when it learnt it."""

    def __init__(self, clock: Clock, fresh: float = FRESH) -> None:
        self.clock = clock
        self.fresh = fresh
        self._known: dict[tuple[int, int], tuple[bool, float]] = {}
        self._sweep_at = SWEEP_FROM
        self.asked = 0  # Get Guild Member calls made for the leaderboard, for the figures

    def __len__(self) -> int:
        """The answers kept, stale ones not yet swept included: for the figures."""
        return len(self._known)

    def _set(self, guild_id: int, user_id: int, member: bool) -> None:
        self._known[guild_id, user_id] = (member, self.clock.now())
        if len(self._known) >= self._sweep_at:
            horizon = self.clock.now() - self.fresh
            self._known = {key: value for key, value in self._known.items()
                           if value[1] > horizon}
            self._sweep_at = max(SWEEP_FROM, 2 * len(self._known))

    def present(self, guild_id: int, user_id: int) -> None:
        """They acted on the server just now: a member."""
        self._set(guild_id, user_id, True)

    def left(self, guild_id: int, user_id: int) -> None:
        """Banned, kicked, or answered 404 Unknown Member: not a member now."""
        self._set(guild_id, user_id, False)

    def known(self, guild_id: int, user_id: int) -> bool | None:
        """Whether they are a member, as last learnt within `fresh`; None: not known."""
        found = self._known.get((guild_id, user_id))
        if found is None or found[1] <= self.clock.now() - self.fresh:
            return None
        return found[0]

    def gone_from(self, guild_id: int) -> set[int]:
        """The users known, within `fresh`, to be no longer members of the server."""
        horizon = self.clock.now() - self.fresh
        return {user for (guild, user), (member, at) in self._known.items()
                if guild == guild_id and not member and at > horizon}

    async def ask(self, guild: discord.Guild, user_ids: Iterable[int],
                  budget: CallBudget) -> None:
        """Ask Discord about each of them, one call each (`moderation.gone`); one whose
        answer failed (a 5xx, a long 429) stays unknown and is shown, as a member."""
        asked = list(user_ids)
        unsure: list[int] = []
        left = {user async for user in gone(guild, asked, budget, unsure)}
        self.asked += len(asked)
        for user in asked:
            if user in left:
                self.left(guild.id, user)
            elif user not in unsure:
                self.present(guild.id, user)
