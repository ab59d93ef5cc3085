"""The start-up sweep of deleted places' house rows (docs/bot.md, « Deleted places, swept
(stop 56) »).

A channel or thread deleted while the bot runs forgets its house rows at once
(`UnreachableTables.channel_deleted`, stop 55); one deleted while the bot was down, with no
table there to meet 404 Unknown Channel, kept them until its server was erased, and so did
a thread's rows from before 0014 (no `parent_id`) when its channel went. Once a server is
described (its GUILD_CREATE: « channels », « Channels in the guild », and « threads »,
« All active threads in the guild that current user has permission to view », Guild
Create, https://discord.com/developers/docs/events/gateway-events#guild-create), its rows
are compared with what discord.py's cache holds of it:

- a place listed there, or holding an open table (whose own calls meet the 404 if it is
  gone, `BlockedTables.gone`), is left alone;
- a thread's rows whose channel (`parent_id`, since 0014) is no longer listed are gone for
  sure (a thread goes with its channel; « channels » is not limited to those the bot may
  view, where « threads » is): forgotten with no call;
- any other place not listed is a deleted channel or thread, or an archived thread
  (« archived threads are not synced up-front via the gateway », Threads, Active &
  Archived Threads, https://discord.com/developers/docs/topics/threads#active-archived-threads),
  or a thread the bot may not view: a Get Channel (GET /channels/{channel.id}, « Get a
  channel by ID », https://discord.com/developers/docs/resources/channel#get-channel) tells
  them apart. 404 with code 10003, Unknown channel (JSON Error Codes,
  https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes):
  forgotten as a deletion heard is. An answer (an archived thread's) or 403 (out of reach,
  maybe there): kept and marked checked (0015's `checked_at`), a thread's older rows
  learning their channel from the answer. Anything else: kept, asked again next start.

The calls are few and spread out: at most `PER_GUILD` per server per start, never-checked
places first, then those checked longest ago, none checked in the last `RECHECK_SECONDS`;
one at a time for the whole process, `SPACING` seconds of the bot's clock apart, each
holding a place in the bot's global budget (`CallBudget`). Each is on its own route
(/channels/{channel_id} is a major parameter), and a 403 counts toward Cloudflare's
invalid-request limit (« 401, 403, or 429 », Rate Limits, Invalid Request Limit,
https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans):
hence a week before a place out of reach is asked about again. Scores, ratings and games
are never touched: only `house_rules` rows go.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import discord

from bot.packages.permissions import THREADS
from bot.packages.publisher.messages import UNKNOWN_CHANNEL
from bot.storage.records import HousePlace
from bot.tables.budget import BudgetClosed

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# Get Channel calls one server's sweep may make per start.
PER_GUILD = 5
# Seconds of the bot's clock between two of the sweep's calls, whatever their server.
SPACING = 1.0
# A place found there (or out of reach) is not asked about again before this long.
RECHECK_SECONDS = 7 * 24 * 3600.0
# Channel types of threads as a payload says them: ANNOUNCEMENT_THREAD, PUBLIC_THREAD,
# PRIVATE_THREAD, 10 to 12 (Channel Object, Channel Types,
# https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
THREAD_TYPES = frozenset(kind.value for kind in THREADS)


@dataclass(frozen=True, slots=True)
class Sorted:
    """A server's house places not listed in its GUILD_CREATE: those gone for sure, and
    those to ask Discord about, in the order asked."""

    gone: list[int]
    asked: list[int]


def never_first(place: HousePlace) -> tuple[bool, datetime | None, int]:
    """Never-checked places first, then those checked longest ago."""
    return place.checked_at is not None, place.checked_at, place.channel_id


def sort_places(places: Iterable[HousePlace], channels: Collection[int],
                threads: Collection[int], tables: Collection[int], now: datetime) -> Sorted:
    """`channels` and `threads`: the server's, as its description lists them; `tables`: the
    places holding an open table. See the module's docstring."""
    gone: list[int] = []
    unknown: list[HousePlace] = []
    since = now - timedelta(seconds=RECHECK_SECONDS)
    for place in places:
        where = place.channel_id
        if where in channels or where in threads or where in tables:
            continue
        if place.parent_id is not None and place.parent_id not in channels:
            gone.append(where)
        elif place.checked_at is None or place.checked_at <= since:
            unknown.append(place)
    unknown.sort(key=never_first)
    return Sorted(gone, [place.channel_id for place in unknown[:PER_GUILD]])


class Sweeper:
    """Sweeps each server once per process, as it is first described (`described`); its
    questions wait in one queue, asked `SPACING` apart on the service's scheduler (which a
    stop closes)."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._swept: set[int] = set()
        self._queue: deque[int] = deque()

    async def described(self, guild: discord.Guild) -> None:
        """The server's channels and active threads are in discord.py's cache: its places
        gone for sure are forgotten now, the others queued (once per process)."""
        storage = self.bot.storage
        if storage is None or guild.id in self._swept:
            return
        self._swept.add(guild.id)
        try:
            places = await storage.house_places(guild.id)
        except Exception:
            # A courtesy, as the deletion's own forgetting is: the rows stay until the next
            # start, or the server's erasure.
            log.warning("sweep: server %s's house rows not read", guild.id, exc_info=True)
            return
        if not places:
            return
        service = self.bot.service
        tables = {table.channel_id for table in service.registry.in_guild(guild.id)
                  if not table.closed}
        found = sort_places(places, {channel.id for channel in guild.channels},
                            {thread.id for thread in guild.threads}, tables,
                            datetime.fromtimestamp(service.clock.now(), UTC))
        if found.gone:
            log.info("server %s: forgetting the house rows of %d thread(s) of deleted "
                     "channels", guild.id, len(found.gone))
            await service.unreachable.forget(found.gone)
        if found.asked:
            idle = not self._queue
            self._queue.extend(found.asked)
            if idle:
                service.scheduler.after(("place sweep",), SPACING, self._ask_next)

    async def _ask_next(self) -> None:
        if not self._queue:
            return
        try:
            await self._ask(self._queue.popleft())
        finally:
            if self._queue:
                self.bot.service.scheduler.after(("place sweep",), SPACING, self._ask_next)

    async def _ask(self, channel_id: int) -> None:
        """One Get Channel, and what its answer says of the place's rows."""
        storage = self.bot.storage
        assert storage is not None
        parent: int | None = None
        try:
            async with self.bot.budget.call():
                payload = await self.bot.http.get_channel(channel_id)
        except discord.NotFound as err:
            if err.code == UNKNOWN_CHANNEL:
                await self.bot.service.unreachable.channel_deleted(channel_id)
            return
        except discord.Forbidden:
            pass  # out of reach, maybe there: kept, and not asked about for a while
        except (discord.HTTPException, BudgetClosed, OSError) as err:
            log.info("sweep: channel %s not checked (%r), asked again next start",
                     channel_id, err)
            return
        else:
            said = payload.get("parent_id")  # a thread's channel, a channel's category
            if payload.get("type") in THREAD_TYPES and isinstance(said, str | int):
                parent = int(said)
        try:
            await storage.place_checked(channel_id, parent)
        except Exception:
            log.warning("sweep: channel %s's check not stored, asked again next start",
                        channel_id, exc_info=True)
