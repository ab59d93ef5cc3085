"""The server changes the gateway tells the bot of: channels, threads, roles and members
changing or going, messages deleted, servers lost and described again, the connection
dropping and coming back. Each reaches the owner of what it changes (the tables' service,
the publisher); kept apart from the `/president` commands (`cog`), which answer players,
not Discord.

A server's description (its GUILD_CREATE, a READY) runs here too: the tables waiting for
it post again, its players who left meanwhile leave their seats, and its deleted places'
house rows go (`Sweeper`)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.packages.moderation import gone
from bot.packages.permissions import may_attach_cached, may_post
from bot.packages.president.sweep import Sweeper
from bot.packages.publisher.charts import RETRY_DELAYS

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# A gateway gap shorter than this leaves no line in the tables' history (`on_resumed`).
GAP_TOLD_FROM = 60.0


class ServerChanges(commands.Cog):
    """The gateway's listeners; no command."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self._checking_members: set[int] = set()  # servers whose check is under way
        # Servers asked in full while a retry of a few (`_ask_again`) was under way: asked
        # in full once it ends, else those banned during an outage ending then kept their seat.
        self._full_check_owed: set[int] = set()
        # The start-up sweep of deleted places' house rows, once per server per process.
        self.sweeper = Sweeper(bot)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted (CHANNEL_DELETE, Channel Delete,
        https://discord.com/developers/docs/events/gateway-events#channel-delete): its
        table ends and its house rows go (`UnreachableTables.channel_deleted`). discord.py
        also reports the threads of it that its cache holds as deleted, from the cache: the
        gateway sends nothing for them."""
        await self.bot.service.unreachable.channel_deleted(channel.id, channel.name)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted (THREAD_DELETE, Thread Delete, "just the `id`, `guild_id`,
        `parent_id`, and `type` fields",
        https://discord.com/developers/docs/events/gateway-events#thread-delete): its table
        ends and its house rows go. Raw: a thread the cache does not hold (an archived
        one) may hold a table, or rows."""
        thread = payload.thread
        await self.bot.service.unreachable.channel_deleted(
            payload.thread_id, thread.name if thread is not None else None)

    async def _recheck(self, guild_id: int, channel_id: int | None = None, *,
                       held: bool = False) -> None:
        """The server's tables (those in `channel_id` and its threads, if given) learn from
        the gateway's cache whether the bot may still post there
        (`BlockedTables.channel_changed`); `held` ones, whose posts waited for it, are redrawn
        where it may. Its active threads that owe edits and where it now may post get them
        (`_awake_threads`)."""
        for table in self.bot.service.registry.in_guild(guild_id):
            if channel_id is None or channel_id in (table.channel_id, table.parent_id):
                allowed = may_post(self.bot, table.guild_id, table.channel_id, table.parent_id)
                if allowed is not None:
                    await self.bot.publisher.blocked.channel_changed(table, allowed)
                attach = may_attach_cached(self.bot, table.guild_id, table.channel_id,
                                           table.parent_id)
                if attach is not None:
                    self.bot.publisher.charts.channel_changed(table, attach)
                if held and allowed is not False:
                    self.bot.service.refresh(table)
        await self._awake_threads(guild_id, channel_id)

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """A channel changed (its overwrites, say)."""
        await self._recheck(after.guild.id, after.id)

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions changed (GUILD_ROLE_UPDATE, under the GUILDS intent): the
        bot's own, or @everyone's, decide where it may post on the whole server."""
        await self._recheck(after.guild.id)

    @commands.Cog.listener()
    async def on_guild_role_delete(self, role: discord.Role) -> None:
        """A role the bot held may have been what let it post."""
        await self._recheck(role.guild.id)

    @commands.Cog.listener()
    async def on_member_update(self, before: discord.Member, after: discord.Member) -> None:
        """The bot's own member gained or lost a role: its GUILD_MEMBER_UPDATE "is sent for
        current-user updates regardless of whether the `GUILD_MEMBERS` intent is set"
        (Gateway, Caveats, https://discord.com/developers/docs/events/gateway#caveats)."""
        if after.id == after.guild.me.id and before.roles != after.roles:
            await self._recheck(after.guild.id)

    @commands.Cog.listener()
    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """Raw: a thread locked (or unlocked) while archived is one the cache does not hold.
        Its lock comes with it ("whether the thread is locked", Thread Metadata Structure,
        https://discord.com/developers/docs/resources/channel#thread-metadata-object).
        Unarchived where the bot may post, the edits it owes go (`OwedEdits.awake`), a
        closed table's too."""
        table = self.bot.service.registry.in_channel(payload.thread_id)
        if table is None and not self.bot.service.asleep.owes(payload.thread_id):
            return
        metadata = payload.data.get("thread_metadata", {})
        locked, archived = bool(metadata.get("locked")), bool(metadata.get("archived"))
        # Archived and locked: a moderator closed it. A post no longer reopens it (« Sending
        # a message will automatically unarchive the thread, unless the thread has been
        # locked by a moderator », Threads, Active & Archived Threads): it waits, as where
        # the bot may not post, until someone reopens it.
        allowed = False if locked and archived else may_post(
            self.bot, payload.guild_id, payload.thread_id, payload.parent_id,
            thread_locked=locked)
        if table is not None and allowed is not None:
            await self.bot.publisher.blocked.channel_changed(table, allowed)
        if not archived and allowed is not False:
            await self.bot.publisher.owed_edits.awake(payload.guild_id, payload.thread_id)

    @commands.Cog.listener()
    async def on_thread_remove(self, thread: discord.Thread) -> None:
        """The bot was removed from a thread. discord.py reports it and keeps the thread,
        with the bot's membership (`Thread.me`), in its cache: cleared here, as a private
        thread is the bot's only while it is a member or a moderator
        (`permissions.outside`); a table there stops before a call is refused."""
        thread.me = None
        await self._recheck(thread.guild.id, thread.id)

    @commands.Cog.listener()
    async def on_thread_join(self, thread: discord.Thread) -> None:
        """The bot was added to a thread (a private one's members mentioned it): a table
        there that had stopped picks up again."""
        await self._recheck(thread.guild.id, thread.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Raw: the bot keeps no message cache (`PresidentBot`), and a table's message may
        predate this process. Chatter deleted below the table's message no longer buries it
        (`Buried.deleted`)."""
        self.bot.publisher.buried.deleted(payload.channel_id, (payload.message_id,))
        await self.bot.service.messages_deleted(payload.channel_id, {payload.message_id})

    @commands.Cog.listener()
    async def on_raw_bulk_message_delete(self,
                                         payload: discord.RawBulkMessageDeleteEvent) -> None:
        self.bot.publisher.buried.deleted(payload.channel_id, payload.message_ids)
        await self.bot.service.messages_deleted(payload.channel_id, payload.message_ids)

    @commands.Cog.listener()
    async def on_member_ban(self, guild: discord.Guild,
                            user: discord.User | discord.Member) -> None:
        """A player banned from the server leaves its tables (`TableService.member_gone`).
        Discord sends the ban only to a bot that may ban members or view the audit log
        (Guild Ban Add, https://discord.com/developers/docs/events/gateway-events#guild-ban-add):
        elsewhere the table learns nothing, and the banned player's turns run out as an
        absent player's do (docs/deploy.md, « Moderation »)."""
        self.bot.members.left(guild.id, user.id)
        await self.bot.service.member_gone(guild.id, user.id)

    @commands.Cog.listener()
    async def on_audit_log_entry_create(self, entry: discord.AuditLogEntry) -> None:
        """Where the bot may view the audit log, a kick is told there and nowhere else (its
        GUILD_MEMBER_REMOVE needs the privileged members intent): the kicked player leaves
        the server's tables as a banned one does. Every other entry is none of the bot's."""
        target = entry.target
        if entry.action in (discord.AuditLogAction.kick, discord.AuditLogAction.ban) \
                and isinstance(target, discord.Member | discord.User | discord.Object):
            self.bot.members.left(entry.guild.id, target.id)
            await self.bot.service.member_gone(entry.guild.id, target.id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was kicked or banned from a server (not an outage: discord.py reports
        that as `on_guild_unavailable`)."""
        await self.bot.service.unreachable.removed_from_guild(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """The gateway has described a server (its GUILD_CREATE, at start or after an
        outage): its tables whose posts waited for that (`UndescribedServers.unseen`) learn from the
        cache whether they may post, and are redrawn where they may."""
        await self._described(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A GUILD_CREATE that does not say the server was unavailable: discord.py reports
        it as a join, but it describes the server all the same."""
        await self._described(guild.id)

    @commands.Cog.listener()
    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        """An outage (GUILD_DELETE with `unavailable`, Guild Delete,
        https://discord.com/developers/docs/events/gateway-events#guild-delete): what
        changes there meanwhile reaches the bot only in the GUILD_CREATE that ends it, so
        the server's tables post nothing until then, and a channel locked or a permission
        taken during the outage costs no refused call; nobody can play there either, so
        the tables' clocks wait (`Outages.server_lost`)."""
        self.bot.publisher.servers.unseen({guild.id})
        await self.bot.service.outages.server_lost(guild.id)
        held = len(self.bot.service.registry.in_guild(guild.id))
        log.info("server %s unavailable (outage): %d table(s) wait until it is back",
                 guild.id, held)

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        """The gateway connection dropped (a flaky network, a gateway incident, Discord's
        Reconnect): until it is back no click reaches the bot, and one made meanwhile
        arrives too late to be answered (`bot.replays`). The players can no more act than
        in an outage, so the tables' clocks wait the same way (`Outages.server_lost`): no
        turn times out, no autopilot takes a seat, no host is replaced for a gap in the
        bot's connection. A sharded client's shards say which (`on_shard_disconnect`)."""
        if not isinstance(self.bot, discord.AutoShardedClient):
            await self._connection_lost(lambda guild_id: True)

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        await self._connection_lost(self._on_shard(shard_id))

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        """The connection is back and the events of the gap were replayed (RESUMED,
        Resuming, https://discord.com/developers/docs/events/gateway#resuming): the clocks
        run on. A connection that needed a new session instead describes each server
        anew, which does it (`_described`)."""
        if not isinstance(self.bot, discord.AutoShardedClient):
            await self._connection_back(lambda guild_id: True)

    @commands.Cog.listener()
    async def on_shard_resumed(self, shard_id: int) -> None:
        await self._connection_back(self._on_shard(shard_id))

    def _on_shard(self, shard_id: int) -> Callable[[int], bool]:
        """Whether a server is the shard's: "shard_id = (guild_id >> 22) % num_shards"
        (Sharding, https://discord.com/developers/docs/events/gateway#sharding)."""
        count = self.bot.shard_count or 1
        return lambda guild_id: (guild_id >> 22) % count == shard_id

    def _guilds_with_tables(self, which: Callable[[int], bool]) -> list[int]:
        return sorted({table.guild_id for table in self.bot.service.registry.tables()
                       if table.guild_id is not None and which(table.guild_id)})

    async def _connection_lost(self, which: Callable[[int], bool]) -> None:
        if self.bot.is_closed():  # stopping: the next start counts the time away (`adopt`)
            return
        for guild_id in self._guilds_with_tables(which):
            await self._step(guild_id, "connection_lost", self.bot.service.outages.server_lost)

    async def _connection_back(self, which: Callable[[int], bool]) -> None:
        """A server still in an outage, or whose tables wait to be described, stays as it
        is: its GUILD_CREATE ends that (`_described`)."""
        for guild_id in self._guilds_with_tables(which):
            guild = self.bot.get_guild(guild_id)
            if guild is None or guild.unavailable or self.bot.publisher.servers.holds(guild_id):
                continue
            await self._step(guild_id, "connection_back", lambda gid: (
                self.bot.service.outages.server_back(gid, told_from=GAP_TOLD_FROM)))

    async def _described(self, guild_id: int) -> None:
        """Each step of a server's description stands alone: one that fails for a reason
        no step foresaw (a bug, a storage error) is logged and the others run, so the
        server is released all the same (`servers.seen`) and, at a start, so are the
        servers described after it (`_ready`), where the error went up through the loop
        and their tables posted nothing until the next outage or start.

        A server whose tables were not held is rechecked all the same: described anew while
        the bot runs, its session was invalid after a gap in the gateway connection and the
        bot IDENTIFYed again ("If the `d` field is set to `false` ... send an Identify",
        Resuming, https://discord.com/developers/docs/events/gateway#resuming), and the
        events of the gap (an overwrite changed, Send Messages taken or given back) are lost
        with that session: its GUILD_CREATE is the only word of them. Unchanged tables are
        left as they are (`BlockedTables.channel_changed`)."""
        await self._step(guild_id, "server_back", self.bot.service.outages.server_back)
        await self._step(guild_id, "tell_unreadable", self.bot.publisher.servers.tell_unreadable)
        if self.bot.publisher.servers.seen(guild_id):
            await self._step(guild_id, "recheck", self._recheck_held)
        else:
            await self._step(guild_id, "recheck", self._recheck)
        await self._step(guild_id, "check_members", self._check_members)
        await self._step(guild_id, "sweep", self._sweep)

    async def _sweep(self, guild_id: int) -> None:
        """The house rows of the server's places deleted while the bot was away
        (`Sweeper`), once its channels and active threads are known: at its first
        description in this process."""
        guild = self.bot.get_guild(guild_id)
        if guild is not None and not guild.unavailable:
            await self.sweeper.described(guild)

    async def _step(self, guild_id: int, name: str,
                    step: Callable[[int], Awaitable[None]]) -> None:
        try:
            await step(guild_id)
        except Exception:
            log.exception("describing server %s: %s failed; the rest goes on", guild_id, name)

    async def _recheck_held(self, guild_id: int) -> None:
        await self._recheck(guild_id, held=True)

    async def _awake_threads(self, guild_id: int, changed: int | None = None) -> None:
        """The server's threads (those of the `changed` channel, or that thread, if given)
        that owe edits (`bot.tables.asleep`) and are active where the bot may post get
        them. Unarchived while the bot was away, their THREAD_UPDATE missed: its
        GUILD_CREATE lists them among its active threads ("All active threads in the guild
        that current user has permission to view", Guild Create,
        https://discord.com/developers/docs/events/gateway-events#guild-create), so
        discord.py's cache holds them. Unarchived where the bot could not post (Send
        Messages in Threads taken away, say), their THREAD_UPDATE sent nothing: the change
        that lets it post again does (`_recheck`), else a closed table's messages kept
        their buttons until a restart."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return
        for channel_id in self.bot.service.asleep.channels(guild_id):
            thread = guild.get_thread(channel_id)
            if thread is not None and changed in (None, thread.id, thread.parent_id) \
                    and not thread.archived and may_post(
                        self.bot, guild_id, thread.id, thread.parent_id) is not False:
                await self.bot.publisher.owed_edits.awake(guild_id, channel_id)

    async def _check_members(self, guild_id: int, only: Collection[int] | None = None,
                             tries: int = 0) -> None:
        """After a start or an outage, the server's seated and waiting players who left it
        unheard (`moderation.gone`) leave its tables as a banned one does (one on the list
        would be seated at « Rejouer », then time out turn after turn). `only`: those whose
        check failed the `tries`-th time (`_ask_again`), if still at a table."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return
        if guild_id in self._checking_members:
            if only is None:  # one under way may ask only a few: everyone is asked after it
                self._full_check_owed.add(guild_id)
            return
        if only is None:  # everyone is asked: a retry of those who failed before is moot
            self.bot.service.scheduler.cancel(("member check", guild_id))
        self._checking_members.add(guild_id)
        unsure: list[int] = []
        try:
            present = sorted({p.user_id for table in self.bot.service.registry.in_guild(guild_id)
                              if not table.closed for p in [*table.seats, *table.queue]
                              if p.user_id is not None and (only is None or p.user_id in only)})
            async for user_id in gone(guild, present, self.bot.budget, unsure):
                await self.bot.service.member_gone(guild_id, user_id)
        finally:
            self._checking_members.discard(guild_id)
        if guild_id in self._full_check_owed:
            self._full_check_owed.discard(guild_id)
            if only is not None:  # (a full check just ran otherwise)
                await self._check_members(guild_id)
                return
        if unsure:
            self._ask_again(guild_id, unsure, tries)

    def _ask_again(self, guild_id: int, user_ids: list[int], tries: int) -> None:
        """Ask again after the next of `RETRY_DELAYS` (on the bot's clock, as a chart upload
        is tried again) whether those whose check failed for a passing reason (a 5xx, a
        dropped connection, a timeout: HTTP Response Codes,
        https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes)
        are still members. Kept seated and never asked again, one banned while the bot was
        down kept their seat, their turns timing out, until the next outage or start, which
        the tries once spent are left to. A server in an outage by then is asked in full
        when it ends (`_described`)."""
        if tries >= len(RETRY_DELAYS):
            log.warning("server %s: could not tell whether %s are still members in %d tries: "
                        "left to the next outage or start", guild_id, user_ids, tries + 1)
            return

        async def again() -> None:
            guild = self.bot.get_guild(guild_id)
            if guild is None or guild.unavailable or \
                    self.bot.publisher.servers.holds(guild_id):
                return
            await self._step(guild_id, "check_members", lambda gid: self._check_members(
                gid, set(user_ids), tries + 1))

        self.bot.service.scheduler.after(("member check", guild_id), RETRY_DELAYS[tries], again)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Tables restored from storage in a server the bot was removed from while it was
        down: Discord no longer lists that server among the bot's, unavailable ones included.
        The others' servers are described by their GUILD_CREATE (`on_guild_available`), or
        stay held while in an outage, until it ends."""
        await self._ready(lambda guild_id: True)

    @commands.Cog.listener()
    async def on_shard_ready(self, shard_id: int) -> None:
        """One shard of a sharded process has received its servers (as at READY, for that
        shard's). A server's shard is "shard_id = (guild_id >> 22) % num_shards"
        (Sharding, https://discord.com/developers/docs/events/gateway#sharding)."""
        count = self.bot.shard_count or 1
        await self._ready(lambda guild_id: (guild_id >> 22) % count == shard_id)

    async def _ready(self, which: Callable[[int], bool]) -> None:
        """A server the cache holds, available, is released here too: discord.py drops the
        `on_guild_available` of a GUILD_CREATE parsed just as it stops waiting for them
        (`ConnectionState._delay_ready`), though the cache has it. So is a server whose
        threads owe edits (`bot.tables.asleep`), though none of its tables is open."""
        tables = {table.guild_id for table in self.bot.service.registry.tables()}
        for guild_id in tables | self.bot.publisher.servers.unreadable_guilds \
                | self.bot.service.asleep.guilds():
            if guild_id is None or not which(guild_id):
                continue
            guild = self.bot.get_guild(guild_id)
            if guild is None:
                if guild_id in tables:
                    self.bot.publisher.servers.seen(guild_id)
                    await self.bot.service.unreachable.removed_from_guild(guild_id)
            elif not guild.unavailable:
                await self._described(guild_id)
        # The servers described with no table, nor word owed, whose `on_guild_available`
        # discord.py dropped (see above), are swept too (each once per process).
        for guild in self.bot.guilds:
            if which(guild.id) and not guild.unavailable:
                await self._step(guild.id, "sweep", self._sweep)
