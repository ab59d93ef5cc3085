"""The `/president` command group. Each command finds the channel's table and delegates to
the feature that owns the action; refusals become one ephemeral line in the user's language."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import join_names, public_locale, t
from bot.i18n.translator import ls
from bot.packages.controls import here, refusal_text, tell_vanished
from bot.packages.game.prompts import kick_prompt, stop_prompt
from bot.packages.game.views import show_hand
from bot.packages.lobby.display import lobby_screen
from bot.packages.lobby.views import display_name, join, leave
from bot.packages.moderation import gone, timed_out
from bot.packages.permissions import (
    absent,
    may_attach_cached,
    may_post,
    not_in_server,
    require,
)
from bot.packages.president.rules import rules_embed
from bot.packages.president.sweep import Sweeper
from bot.packages.privacy import views as privacy_views
from bot.packages.publisher.calls import NO_PINGS
from bot.packages.publisher.charts import RETRY_DELAYS
from bot.packages.settings.views import open_settings
from bot.packages.stats import display as stats_display
from bot.packages.text import clipped, player_name, shown_text
from bot.storage.failures import describe, transient
from bot.storage.records import KeptHouse
from bot.tables import house
from bot.tables.breaks import REASON_LENGTH
from bot.tables.clock import done_by
from bot.tables.deadlines import OWN_PAUSE_SECONDS
from bot.tables.service import TableError
from bot.tables.table import Table
from bot.tables.tokens import Opening
from engine import PRESETS, Rules
from engine.bots import LEVELS

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]

log = logging.getLogger(__name__)

# A gateway gap shorter than this leaves no line in the tables' history (`on_resumed`).
GAP_TOLD_FROM = 60.0

# How long `/president rules`, answered without a deferral, waits for the channel's house
# rules before showing the preset's (Discord wants an answer within 3 s).
HOUSE_READ_SECONDS = 1.0
PRESET_CHOICES = [app_commands.Choice(name=ls(f"preset.{p}"), value=p) for p in PRESETS]
LEVEL_CHOICES = [app_commands.Choice(name=ls(f"level.{level}"), value=level)
                 for level in LEVELS]
LANGUAGES = ("fr", "en", "auto")
LANGUAGE_CHOICES = [app_commands.Choice(name=ls(f"lang.{code}"), value=code)
                    for code in LANGUAGES]


def community(interaction: discord.Interaction[Any]) -> bool:
    """Whether the server chose its locale: only Community servers can."""
    guild = interaction.guild
    return guild is not None and "COMMUNITY" in guild.features


def automated(table: Table, user_id: int) -> bool:
    """Whether the autopilot plays the user's seat at the table's game now (not a leaver's
    bot, which only finishes a round)."""
    seat = table.seat_of(user_id)
    return table.game is not None and seat is not None and table.game.automated(seat) \
        and seat not in table.left_seats


# Tables live in server channels: Discord offers the commands nowhere else, so no DM gets a
# misleading « no table in this channel ». The command's `contexts` is [GUILD] (0), see
# https://discord.com/developers/docs/interactions/application-commands#application-command-object
# and « Interaction Context Types » in receiving-and-responding.
@app_commands.guild_only()
class President(commands.GroupCog, group_name=ls("cmd.president"),
                group_description=ls("cmd.president.desc")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Per server: opening a table (which reads the server's language) and changing the
        # language (which redraws the open tables) take turns. Interleaved, a table opened
        # as an admin switched to French kept the English it had read before.
        self._language_turns: dict[int, asyncio.Lock] = {}
        self._checking_members: set[int] = set()  # servers whose check is under way
        # Servers asked in full while a retry of a few (`_ask_again`) was under way: asked
        # in full once it ends, else those banned during an outage ending then kept their seat.
        self._full_check_owed: set[int] = set()
        # The start-up sweep of deleted places' house rows, once per server per process.
        self.sweeper = Sweeper(bot)
        super().__init__()

    def _language_turn(self, guild_id: int) -> asyncio.Lock:
        return self._language_turns.setdefault(guild_id, asyncio.Lock())

    # ------------------------------------------------------------------ helpers

    def _table(self, interaction: Interaction) -> Table:
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is None:
            raise self._elsewhere(interaction)
        return table

    def _elsewhere(self, interaction: Interaction) -> TableError:
        """No table here. A player who typed the command in another channel than their
        table's, or in a thread under it, is told where the table is rather than invited to
        open another; only this server's channels are named (another's mean nothing here).
        In a server the bot is not in, no table can be opened: it says so."""
        if absent(interaction):
            return not_in_server(interaction)
        registry = self.bot.service.registry
        mine = registry.of_player(interaction.guild_id, interaction.user.id)
        if mine:
            channels = join_names(interaction.locale, [f"<#{t.channel_id}>" for t in mine])
            return TableError("err.no_table_yours", channels=channels)
        parent = getattr(interaction.channel, "parent_id", None)
        if registry.in_channel(parent) is not None:
            return TableError("err.no_table_thread", channel=f"<#{parent}>")
        return TableError("err.no_table")

    async def _dealt(self, interaction: Interaction, table: Table) -> None:
        """A game the host started by command: their own hand is the answer (a seated
        host's first need), else a word that it started."""
        if table.plays(interaction.user.id):
            await show_hand(interaction, table, update=False)
        else:
            await self._ok(interaction, "done.started")

    async def _ok(self, interaction: Interaction, key: str, **params: object) -> None:
        await interaction.response.send_message(t(interaction.locale, key, **params),
                                                ephemeral=True)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """During a shutdown no change can be stored any more: say so instead of failing.
        A member in timeout, whom Discord offers no command, is refused one that arrives all
        the same (an older client, a forged payload): Discord's own rule (`moderation`).
        Discord offers and accepts the group in servers only (`contexts` [GUILD], checked on
        its side); one that arrives from a DM all the same is told where the commands work,
        and of `/forget`, the one a DM offers (`privacy.direct`), rather than failing on a
        guild it does not have."""
        refusal = TableError("err.restarting") if self.bot.stopping else \
            TableError("err.server_only") if interaction.guild_id is None else \
            timed_out(interaction, self.bot.service.clock.now())
        if refusal is not None:
            await interaction.response.send_message(
                refusal_text(interaction.locale, refusal), ephemeral=True)
            return False
        self.bot.service.heard(interaction.user.id, str(interaction.locale))
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A refusal (`TableError`) gets its line here. Anything else is left to the tree's
        `CheckedTree.on_error`, which discord.py calls next: raising it again here would
        make discord.py call this handler twice and leave the error in its task
        (« Task exception was never retrieved », a second traceback in the log)."""
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # already answered by interaction_check
        original = getattr(error, "original", error)
        if not isinstance(original, TableError):
            return
        text = refusal_text(interaction.locale,
                            TableError(here(interaction, original.key), **original.params))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        await tell_vanished(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction,
                                        command: object) -> None:
        """A command used at a table is someone acting there (see `Publisher.acted`). Any
        command tells its user of their tables whose channel was deleted (`vanished`)."""
        await tell_vanished(interaction)
        if interaction.channel_id is None:
            return
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is not None and not table.closed:
            await self.bot.publisher.acted(interaction, table)

    # ------------------------------------------------------------------ the server changes

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

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name=ls("cmd.create"), description=ls("cmd.create.desc"))
    @app_commands.rename(preset=ls("cmd.create.preset"))
    @app_commands.describe(preset=ls("cmd.create.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(self, interaction: Interaction, preset: str | None = None) -> None:
        """The table starts from its channel's house rules (`bot.tables.house`): with no
        preset given, the last kept there, whatever their preset; with one, that preset's
        as the channel keeps them, else its defaults (« Revenir au préréglage » in the
        lobby goes back to them)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError("err.channel_only")
        if preset is not None and preset not in PRESETS:
            raise TableError("err.bad_choice")
        if self.bot.service.registry.in_channel(interaction.channel_id) is not None:
            raise TableError("err.table_exists")
        require(interaction)
        # Opening a table writes to the database: acknowledge first, whatever the load.
        await interaction.response.defer(thinking=True)
        try:
            table = await self._open(interaction, interaction.guild_id,
                                     interaction.channel_id, preset)
        except TableError as err:
            await self._withdraw(interaction, refusal_text(
                interaction.locale, TableError(here(interaction, err.key), **err.params)))
            return
        except Exception:
            # A bug: logged with its traceback, and answered privately all the same (the
            # tree's answer would be a follow-up replacing the public deferral, for all to
            # see).
            log.exception("/president create failed")
            await self._withdraw(interaction, refusal_text(interaction.locale,
                                                           TableError("err.internal")))
            return
        screen = lobby_screen(table)
        message = await interaction.followup.send(allowed_mentions=NO_PINGS, wait=True,
                                                  **screen.kwargs())
        table.lobby_message_id = message.id
        table.opening = None  # its token is no longer needed: dropped from the snapshot
        self.bot.publisher.shown(table, "lobby", screen)
        self.bot.service.touch(table)

    async def _open(self, interaction: Interaction, guild_id: int, channel_id: int,
                    preset: str | None) -> Table:
        """Open the table, in the server's language, on its channel's house rules; a
        database that stays locked or down refuses it (`err.storage_busy`) rather than
        leaving the deferral unanswered."""
        parent_id = getattr(interaction.channel, "parent_id", None)
        async with self._language_turn(guild_id):
            chosen: str | None = None
            stored: KeptHouse | None = None
            storage = self.bot.storage
            if storage is not None:
                try:
                    chosen = (await storage.get_guild_settings(guild_id)).language
                    place, thread = house.places_of(channel_id, parent_id)
                    stored = await storage.house(place, preset, thread_id=thread)
                except Exception as err:
                    if not transient(err):
                        raise
                    log.warning("server %s: could not read its language and house rules "
                                "(%s)", guild_id, describe(err))
            rules, settings, noted = house.read_house(
                None if stored is None else stored.rules,
                None if stored is None else stored.settings, preset,
                own_thread=stored is not None and stored.own_thread)
            try:
                table = await self.bot.service.create(
                    channel_id, guild_id, interaction.user.id, display_name(interaction),
                    str(interaction.locale), post=False, rules=rules, house=noted,
                    parent_id=parent_id, opened_by=interaction.id, settings=settings,
                    opening=Opening(int(interaction.application_id), interaction.token,
                                    self.bot.service.clock.now()))
            except Exception as err:
                # A refused connection or an unresolvable host arrives as a bare OSError,
                # not a SQLAlchemyError: the shared classifier knows every such shape.
                if not transient(err):
                    raise
                log.warning("channel %s: could not open a table (%s)", channel_id,
                            describe(err))
                raise TableError("err.storage_busy") from None
            # The creator's hand keeps their own locale; the public messages speak the
            # server's.
            table.locale = public_locale(chosen, interaction.guild_locale,
                                         community(interaction), interaction.locale)
            return table

    async def _withdraw(self, interaction: Interaction, text: str) -> None:
        """Answer a refusal after a public deferral: its « thinking… » message goes, and the
        refusal comes privately (a first follow-up would replace the deferral, publicly)."""
        await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("cmd.join"), description=ls("cmd.join.desc"))
    async def join(self, interaction: Interaction) -> None:
        await join(interaction, self._table(interaction), from_lobby=False)

    @app_commands.command(name=ls("cmd.leave"), description=ls("cmd.leave.desc"))
    async def leave(self, interaction: Interaction) -> None:
        await leave(interaction, self._table(interaction), from_lobby=False)

    @app_commands.command(name=ls("cmd.addbot"), description=ls("cmd.addbot.desc"))
    @app_commands.rename(level=ls("cmd.addbot.level"))
    @app_commands.describe(level=ls("cmd.addbot.level.desc"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str | None = None) -> None:
        table = self._table(interaction)
        await self.bot.service.add_bot(table, interaction.user.id, level)
        bot = table.seats[-1]
        await self._ok(interaction, "lobby.bot_added", name=bot.name,
                       level=t(interaction.locale, f"level.{bot.level}"))

    @app_commands.command(name=ls("cmd.kick"), description=ls("cmd.kick.desc"))
    @app_commands.rename(member=ls("cmd.kick.member"))
    @app_commands.describe(member=ls("cmd.kick.member.desc"))
    async def kick(self, interaction: Interaction, member: discord.User) -> None:
        name = player_name(str(getattr(member, "display_name", None) or member.name))
        table = self._table(interaction)
        self.bot.service.verify_kick(table, interaction.user.id, member.id, name)
        prompt = kick_prompt(table, interaction.user.id, member.id, name, interaction.locale)
        if prompt is not None:  # it would end the game for everyone: asked first
            await interaction.response.send_message(ephemeral=True, **prompt.kwargs())
            return
        await self.bot.service.kick(table, interaction.user.id, member.id, name)
        await self._ok(interaction, "lobby.kicked", name=name)

    @app_commands.command(name=ls("cmd.start"), description=ls("cmd.start.desc"))
    async def start(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        require(interaction)
        await self.bot.service.games.start(table, interaction.user.id)
        await self._dealt(interaction, table)

    @app_commands.command(name=ls("cmd.settings"), description=ls("cmd.settings.desc"))
    async def settings(self, interaction: Interaction) -> None:
        await open_settings(interaction, self._table(interaction))

    @app_commands.command(name=ls("cmd.rules"), description=ls("cmd.rules.desc"))
    @app_commands.rename(preset=ls("cmd.rules.preset"))
    @app_commands.describe(preset=ls("cmd.rules.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: Interaction, preset: str | None = None) -> None:
        """Readable before anyone opens a table: with no table in the channel, a preset's
        rules (classic unless one is asked for); at a table, its own rules, or the preset
        asked for, said not to be the table's."""
        if preset is not None and preset not in PRESETS:
            raise TableError("err.bad_choice")
        registry = self.bot.service.registry
        table = registry.in_channel(interaction.channel_id)
        locale = str(interaction.locale)
        if table is None and preset is None and not absent(interaction):
            # Asked away from the table they play at (another channel, a thread under
            # it): that table's rules, as every other command points them there. They
            # were shown classic's, or the channel's house rules, and invited to open a
            # table (play-test 38).
            mine = registry.of_player(interaction.guild_id, interaction.user.id)
            if len(mine) == 1:
                await interaction.response.send_message(embed=rules_embed(
                    locale, mine[0], None, elsewhere=t(
                        locale, here(interaction, "rules.your_table"),
                        channel=f"<#{mine[0].channel_id}>")), ephemeral=True)
                return
        house_rules = await self._house_rules(interaction) \
            if table is None and preset is None else None
        await interaction.response.send_message(
            embed=rules_embed(locale, table, preset,
                              no_table=here(interaction, "rules.no_table"), house=house_rules,
                              house_note=here(interaction, "rules.house")),
            ephemeral=True)

    async def _house_rules(self, interaction: Interaction) -> Rules | None:
        """The rules a table opened in this channel would start from, where it keeps
        house rules (read back as `create` reads them: a preset's own where they are
        that preset's unchanged, or all that could be read); None where it keeps none. The
        answer is not deferred, so a database slower than `HOUSE_READ_SECONDS` of the bot's clock, or failing,
        leaves the default preset's rules, as before house rules."""
        storage = self.bot.storage
        if storage is None or interaction.channel_id is None:
            return None
        channel, thread = house.places_of(interaction.channel_id,
                                          getattr(interaction.channel, "parent_id", None))
        clock = self.bot.service.clock
        read = asyncio.ensure_future(storage.house_rules(channel, thread_id=thread))
        if not await done_by(clock, clock.now() + HOUSE_READ_SECONDS, read):
            log.warning("channel %s: its house rules took over %s s to read", channel,
                        HOUSE_READ_SECONDS)
            return None
        try:
            stored = read.result()
        except Exception as err:
            if not transient(err):
                raise
            log.warning("channel %s: could not read its house rules (%s)", channel,
                        describe(err))
            return None
        return None if stored is None else house.read(stored, None)[0]

    @app_commands.command(name=ls("cmd.end"), description=ls("cmd.end.desc"))
    async def end(self, interaction: Interaction) -> None:
        """Mid-game the host is asked first (the button does it): a stopped game is lost to
        everyone at the table. A finished game or a lobby needs no asking."""
        table = self._table(interaction)
        if table.under_way:
            if not self.bot.service.may_host(table, interaction.user.id):
                raise self.bot.service.host_refusal(table, interaction.user.id)
            prompt = stop_prompt(table, interaction.locale)
            await interaction.response.send_message(ephemeral=True, **prompt.kwargs())
            return
        await self.bot.service.games.end(table, interaction.user.id)
        await self._ok(interaction, "lobby.ended" if table.closed else "end.lobby")

    @app_commands.command(name=ls("cmd.replay"), description=ls("cmd.replay.desc"))
    async def replay(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        require(interaction)
        await self.bot.service.games.replay(table, interaction.user.id)
        await self._dealt(interaction, table)

    @app_commands.command(name=ls("cmd.language"), description=ls("cmd.language.desc"))
    @app_commands.rename(language=ls("cmd.language.language"))
    @app_commands.describe(language=ls("cmd.language.language.desc"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: Interaction, language: str) -> None:
        """Server admins (Manage Server, from the member's permissions in the interaction)
        choose the language of every table's public messages on the server, and open tables
        switch at once; the host of this channel's table, of that table only."""
        if interaction.guild_id is None:
            raise TableError("err.channel_only")
        if language not in LANGUAGES:
            raise TableError("err.bad_choice")
        chosen = None if language == "auto" else language
        if not interaction.permissions.manage_guild:
            await self._table_language(interaction, interaction.guild_id, chosen)
            return
        storage = self.bot.storage
        if storage is None:
            raise TableError("err.language_unavailable")
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._language_turn(interaction.guild_id):
            await storage.set_guild_language(interaction.guild_id, chosen)
            for table in self.bot.service.registry.in_guild(interaction.guild_id):
                host = next((p for p in table.seats if p.user_id == table.host_id), None)
                table.locale = public_locale(chosen, interaction.guild_locale,
                                             community(interaction),
                                             host.locale if host is not None else table.locale)
                self.bot.service.touch(table)
                self.bot.service.refresh(table)
        locale = interaction.locale
        text = t(locale, "language.auto") if chosen is None else \
            t(locale, "language.set", language=t(locale, f"language.name.{chosen}"))
        await interaction.followup.send(text, ephemeral=True)

    async def _table_language(self, interaction: Interaction, guild_id: int,
                              chosen: str | None) -> None:
        """A host's choice: their table's public messages only (`None`: the server's)."""
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is None or not table.is_host(interaction.user.id):
            raise TableError("err.language_forbidden")
        await interaction.response.defer(ephemeral=True, thinking=True)
        server = None
        if chosen is None and self.bot.storage is not None:
            server = (await self.bot.storage.get_guild_settings(guild_id)).language
        host = next((p for p in table.seats if p.user_id == table.host_id), None)
        table.locale = chosen or public_locale(server, interaction.guild_locale,
                                               community(interaction),
                                               host.locale if host is not None else table.locale)
        self.bot.service.touch(table)
        self.bot.service.refresh(table)
        locale = interaction.locale
        text = t(locale, "language.table_auto") if chosen is None else \
            t(locale, "language.table_set", language=t(locale, f"language.name.{chosen}"))
        await interaction.followup.send(text, ephemeral=True)

    # ------------------------------------------------------------------ game

    @app_commands.command(name=ls("cmd.hand"), description=ls("cmd.hand.desc"))
    async def hand(self, interaction: Interaction) -> None:
        await show_hand(interaction, self._table(interaction), update=False)

    @app_commands.command(name=ls("cmd.pause"), description=ls("cmd.pause.desc"))
    @app_commands.rename(reason=ls("cmd.pause.reason"))
    @app_commands.describe(reason=ls("cmd.pause.reason.desc"))
    async def pause(self, interaction: Interaction,
                    reason: app_commands.Range[str, 1, REASON_LENGTH] | None = None) -> None:
        """The host's break, or a seated player's own short one (`bot.tables.breaks`),
        with a reason shown at the table: on one
        line, cut to REASON_LENGTH as a modified client may send more, made safe to show."""
        table = self._table(interaction)
        said = shown_text(clipped(" ".join((reason or "").split()), REASON_LENGTH))
        own = await self.bot.service.breaks.pause(table, interaction.user.id, said)
        await self._ok(interaction, "done.paused_own" if own else "done.paused",
                       button=t(table.locale, "btn.play_on"), minutes=OWN_PAUSE_SECONDS // 60)

    @app_commands.command(name=ls("cmd.play_on"), description=ls("cmd.play_on.desc"))
    async def play_on(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        await self.bot.service.breaks.play_on(table, interaction.user.id)
        await self._ok(interaction, "done.played_on")

    @app_commands.command(name=ls("cmd.resume"), description=ls("cmd.resume.desc"))
    async def resume(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        try:
            await self.bot.service.moves.resume(table, interaction.user.id)
        except TableError as err:
            if err.key != "err.not_automated":
                raise
            raise self._automated_elsewhere(interaction, table) or err from None
        await show_hand(interaction, table, update=False)

    def _automated_elsewhere(self, interaction: Interaction,
                             here_: Table) -> TableError | None:
        """A player at two tables of the server, typing `/president resume` at the one
        they play by hand, was told « nobody is playing for you » while the autopilot
        played for them at the other (play-test 34): the refusal names where it does."""
        elsewhere = [f"<#{table.channel_id}>"
                     for table in self.bot.service.registry.of_player(interaction.guild_id,
                                                                      interaction.user.id)
                     if table is not here_ and automated(table, interaction.user.id)]
        if not elsewhere:
            return None
        return TableError("err.not_automated_elsewhere",
                          channels=join_names(interaction.locale, elsewhere))

    # ------------------------------------------------------------------ statistics

    @app_commands.command(name=ls("cmd.stats"), description=ls("cmd.stats.desc"))
    @app_commands.rename(member=ls("cmd.stats.member"))
    @app_commands.describe(member=ls("cmd.stats.member.desc"))
    async def stats(self, interaction: Interaction, member: discord.User | None = None) -> None:
        await stats_display.stats(interaction, member or interaction.user)

    @app_commands.command(name=ls("cmd.leaderboard"), description=ls("cmd.leaderboard.desc"))
    @app_commands.rename(preset=ls("cmd.leaderboard.preset"))
    @app_commands.describe(preset=ls("cmd.leaderboard.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def leaderboard(self, interaction: Interaction, preset: str | None = None) -> None:
        """Without a preset, the one the channel's table plays: someone who just finished
        a presi game asks for « the » leaderboard and means presi's, not classic's. In a
        thread under a table's channel (where a tournament's players talk between games),
        that table's: play-test 34 read classic's there, under a presi table. Where no
        table is open, the channel's house rules' (play-test 33), else the preset of its
        last game (`stats.display`)."""
        registry = self.bot.service.registry
        table = registry.in_channel(interaction.channel_id) or \
            registry.in_channel(getattr(interaction.channel, "parent_id", None))
        await stats_display.leaderboard(
            interaction, preset or (table.rules.preset_id if table is not None else None))

    @app_commands.command(name=ls("cmd.history"), description=ls("cmd.history.desc"))
    async def history(self, interaction: Interaction) -> None:
        await stats_display.history(interaction)

    # ------------------------------------------------------------------ privacy

    @app_commands.command(name=ls("cmd.privacy"), description=ls("cmd.privacy.desc"))
    async def privacy(self, interaction: Interaction) -> None:
        await privacy_views.privacy(interaction)

    @app_commands.command(name=ls("cmd.forget"), description=ls("cmd.forget.desc"))
    async def forget(self, interaction: Interaction) -> None:
        await privacy_views.forget(interaction)

    @app_commands.command(name=ls("cmd.forget_server"), description=ls("cmd.forget_server.desc"))
    async def forget_server(self, interaction: Interaction) -> None:
        await privacy_views.forget_server(interaction)
