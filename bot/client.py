"""The bot process: one `commands.Bot` holding the table service, storage and the publisher."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import Any

import discord
from discord.ext import commands

from bot.chatter import leave_chatter_unread
from bot.config import Config
from bot.i18n.translator import CatalogueTranslator
from bot.languages import LOCALES, Languages
from bot.metrics import Metrics
from bot.packages import controls
from bot.packages.cards.emojis import faces as card_faces
from bot.packages.game import hint as game_hint
from bot.packages.game import views as game_views
from bot.packages.host import Host
from bot.packages.lobby import views as lobby_views
from bot.packages.president.cog import President
from bot.packages.president.listeners import ServerChanges
from bot.packages.president.tree import CheckedTree
from bot.packages.privacy.direct import DirectCommands
from bot.packages.publisher.messages import Publisher
from bot.packages.settings import views as settings_views
from bot.packages.stats.members import Members
from bot.replays import Replays
from bot.storage.db import ensure_sqlite_dir, upgrade_to_head
from bot.storage.repository import Storage
from bot.storage.shardlock import ShardLocks
from bot.storage.writer import SnapshotWriter
from bot.tables.asleep import KEEP_SECONDS as ASLEEP_KEEP_SECONDS
from bot.tables.budget import CallBudget
from bot.tables.clock import Clock, SystemClock
from bot.tables.persistence import StorageStore
from bot.tables.restore import KEEP_SECONDS as UNREADABLE_KEEP_SECONDS
from bot.tables.restore import Unreadable, restore_tables
from bot.tables.service import TableService
from bot.tables.timers import STOP_PATIENCE
from bot.tables.vanished import KEEP_SECONDS as VANISHED_KEEP_SECONDS

log = logging.getLogger(__name__)

#: JSON error code 30034, "Maximum number of daily application command creates has been
#: reached (200)" (opcodes-and-status-codes, JSON Error Codes).
DAILY_COMMAND_CREATES = 30034

# discord.py sleeps through a 429 (or a bucket's reset) up to this long and raises
# RateLimited past it (30 s is the least it accepts): a refresh waiting minutes would hold
# its table's every later change; the publisher postpones it instead.
MAX_RATELIMIT_WAIT = 30.0

# Discord starts at most `max_concurrency` sessions per 5 seconds, one per rate limit key
# `shard_id % max_concurrency` (discord-api-docs, developers/events/gateway.mdx,
# "Identifying" and "Sharding" > "Max Concurrency"); an IDENTIFY sooner gets an Invalid
# Session. The bot assumes max_concurrency 1, every bot's unless Discord raised it, and
# spaces all its IDENTIFYs by this much: right for any max_concurrency.
IDENTIFY_INTERVAL = 5.0

# Seconds of the bot's clock between two checks that this process still holds its shards'
# locks (`ShardLocks.keep`): how long a lost lock can go unnoticed, for one `SELECT 1`.
LOCK_CHECK_INTERVAL = 30.0

# Seconds of the bot's clock between two readings of the players' chosen languages by a
# sharded process (`reload_languages`): how long a choice made on a server another process
# runs may take to reach this one's servers, for one small SELECT.
LANGUAGES_RELOAD_INTERVAL = 60.0

# Importing the feature views registers their click handlers.
FEATURES = (game_views, game_hint, lobby_views, settings_views)


class PresidentBot(Host):
    """The bot process's client: the `Host` every feature package is given."""

    def __init__(self, config: Config, *, clock: Clock | None = None,
                 with_storage: bool = True, shutdown_wait: float = STOP_PATIENCE,
                 **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # MESSAGE_DELETE and MESSAGE_DELETE_BULK, to repost a table message a moderator
        # deleted (`TableService.messages_deleted`): « GUILD_MESSAGES (1 << 9) -
        # MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE, MESSAGE_DELETE_BULK », not among
        # the privileged intents (Gateway Intents, List of Intents and Privileged Intents,
        # https://discord.com/developers/docs/events/gateway#list-of-intents). Message
        # content is privileged and not asked for: the bot reads no message.
        intents.guild_messages = True
        # GUILD_BAN_ADD and GUILD_AUDIT_LOG_ENTRY_CREATE, so that a player banned or kicked
        # from the server leaves its tables (`TableService.member_gone`): « GUILD_MODERATION
        # (1 << 2) - GUILD_AUDIT_LOG_ENTRY_CREATE, GUILD_BAN_ADD, GUILD_BAN_REMOVE », not
        # privileged (same list), unlike GUILD_MEMBERS, whose GUILD_MEMBER_REMOVE would tell
        # every member leaving. Discord sends them only where the bot may ban members or
        # view the audit log (Guild Ban Add, Guild Audit Log Entry Create,
        # https://discord.com/developers/docs/events/gateway-events): elsewhere the intent
        # brings nothing.
        intents.moderation = True
        # The bot reads no message, and the raw delete events need no cache: keeping the
        # channels' last 1,000 messages would only cost memory.
        options.setdefault("max_messages", None)
        if config.shard_count is not None or config.shard_auto:
            if not isinstance(self, discord.AutoShardedClient):
                raise TypeError("a sharded Config needs ShardedPresidentBot (see create_bot)")
            if config.shard_count is not None:
                options.update(shard_count=config.shard_count,
                               shard_ids=list(config.shard_ids or ()))
        options.setdefault("max_ratelimit_timeout", MAX_RATELIMIT_WAIT)
        clock = clock or SystemClock()
        # Observes every Discord call of the client's HTTP session (bot.metrics).
        metrics = Metrics(clock.now)
        options.setdefault("http_trace", metrics.trace_config())
        # Nothing the bot writes may ping anyone, edits included: discord.py sends the
        # client's allowed_mentions with every message, response and edit.
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, tree_cls=CheckedTree,
                         allowed_mentions=discord.AllowedMentions.none(), **options)
        self.config = config
        self.service = TableService(clock, bot_pause=config.bot_pause,
                                    search_workers=config.search_workers)
        self.replays = Replays(self.service.clock)
        self.languages = Languages()
        self.members = Members(self.service.clock)
        self.metrics = metrics
        # Channel posts and edits, bound by Discord's global limit (interactions are not).
        self.budget = CallBudget(self.service.clock)
        metrics.watch(self.service, self.budget)
        self.publisher = Publisher(self)
        self.service.display = self.publisher
        # The intent's other events, every message of every channel, are left unread but
        # for what buries a table's message (`bot.packages.publisher.buried`).
        leave_chatter_unread(self, self.service.registry.channels, self.heard_chatter,
                             self.publisher.buried.posted_own)
        self.with_storage = with_storage
        self.shutdown_wait = shutdown_wait
        self.storage: Storage | None = None
        self.writer: SnapshotWriter | None = None
        self.shard_locks: ShardLocks | None = None
        # Set when another process took one of this process's shards: it stopped, and
        # `python -m bot` exits with status 1 so that its supervisor starts it again.
        self.shards_lost = False
        self._stopped: asyncio.Event | None = None  # set once `close` has run
        self.faces_sync: asyncio.Task[None] | None = None
        self.last_identify: float | None = None  # on the bot's clock
        self.identify_lock = asyncio.Lock()

    def heard_chatter(self, channel_id: int, message_id: int) -> None:
        """Someone else posted in a channel (`bot.chatter`): told to the publisher in place
        now, which the load benchmark replaces with its own."""
        self.publisher.buried.heard(channel_id, message_id)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait until this process's previous IDENTIFY is `IDENTIFY_INTERVAL` old, on the
        bot's clock. discord.py's default sleeps 5 wall-clock seconds before every IDENTIFY
        but the first; on the bot's clock, tests move through the wait (the fake refuses
        an IDENTIFY sooner, as Discord does)."""
        clock = self.service.clock
        async with self.identify_lock:
            if self.last_identify is not None:
                await clock.sleep_until(self.last_identify + IDENTIFY_INTERVAL)
            self.last_identify = clock.now()

    async def setup_hook(self) -> None:
        if self.config.metrics_port is not None:
            # First, so a process waiting for its shards' locks is already visible.
            await self.metrics.serve(self.config.metrics_port)
        await self.tree.set_translator(CatalogueTranslator())
        self.add_dynamic_items(controls.Control)
        await self.add_cog(President(self))
        await self.add_cog(ServerChanges(self))
        await self.add_cog(DirectCommands(self))
        if self.with_storage:
            await self.open_storage()
        await self.sync_commands()
        # In the background: cards are text until the faces are there (or if they fail).
        self.faces_sync = asyncio.create_task(self.sync_faces())

    async def sync_faces(self) -> None:
        """Find or upload the card faces, then redraw the tables restored at start: they were
        drawn before the faces were known, and their messages and hands would show text cards
        until their next change (a blind exchange waiting on a player, for minutes)."""
        restored = self.service.registry.tables()
        # Their hands wait for the faces (`Hands.restored`), unless they are to be uploaded.
        await card_faces.sync(self, self.budget, uploading=self.publisher.hands.release)
        self.publisher.hands.release()
        if card_faces.emojis:
            for table in restored:
                self.service.refresh(table)

    async def open_storage(self) -> None:
        url = self.config.database_url
        ensure_sqlite_dir(url)
        await upgrade_to_head(url)
        clock = self.service.clock

        def now() -> datetime:
            """Stored dates (games, rounds, ratings) on the bot's clock, as its timers."""
            return datetime.fromtimestamp(clock.now(), UTC)

        config = self.config
        self.storage = await Storage.open(url, pool_size=config.database_pool_size,
                                          max_overflow=config.database_max_overflow,
                                          now=now,
                                          connect_timeout=config.database_connect_timeout,
                                          command_timeout=config.database_command_timeout,
                                          pool_timeout=config.database_pool_timeout)

        def sleep(seconds: float) -> Awaitable[None]:
            return clock.sleep_until(clock.now() + seconds)

        self.writer = SnapshotWriter(self.storage, sleep=sleep, now=clock.now,
                                     on_written=self.snapshot_written)
        self.service.store = StorageStore(self.storage, self.writer, sleep=sleep)
        self.languages.load(await self.storage.player_languages(),
                            await self.storage.client_locales())
        shards = await self.owned_shards()
        if shards is not None:
            self.watch_languages()
        # Held until exit (see close): another process running these shards would restore
        # and post the same tables. Unsharded, the bot runs shard 0 of 1.
        self.shard_locks = await ShardLocks.acquire(
            url, shards[0] if shards else (0,),
            idle_timeout=self.config.shard_lock_idle_timeout)
        self.watch_shard_locks()
        shard_ids, shard_count = shards if shards else (None, None)
        started = time.perf_counter()
        began = datetime.fromtimestamp(clock.now(), UTC)  # on storage's clock (`now`)
        restored = await restore_tables(self.service, self.storage,
                                        shard_ids=shard_ids, shard_count=shard_count,
                                        prepare=self.publisher.restored)
        # Before anything else is awaited: the restored tables' first redraws are on their way.
        self.publisher.servers.unseen({table.guild_id for table in self.service.registry.tables()
                                       if table.guild_id is not None})
        self.restored_languages()
        # Found unreadable now, or at a start that stopped before telling their channels.
        since = datetime.fromtimestamp(clock.now() - UNREADABLE_KEEP_SECONDS, UTC)
        owed = await self.storage.unreadable_since(since, shard_ids=shard_ids,
                                                   shard_count=shard_count)
        self.publisher.servers.unreadable(Unreadable.owed(record, began) for record in owed)
        self.metrics.restore.set(time.perf_counter() - started)
        log.info("restored %d table(s)", restored)
        since = datetime.fromtimestamp(clock.now() - VANISHED_KEEP_SECONDS, UTC)
        self.service.vanished.load(await self.storage.vanished_since(
            since, shard_ids=shard_ids, shard_count=shard_count))
        since = datetime.fromtimestamp(clock.now() - ASLEEP_KEEP_SECONDS, UTC)
        self.service.asleep.load(await self.storage.asleep_since(
            since, shard_ids=shard_ids, shard_count=shard_count))

    def watch_shard_locks(self) -> None:
        """Check the shard locks `LOCK_CHECK_INTERVAL` from now, on the bot's clock (tests
        move through it); nothing to watch on SQLite. The scheduler's close ends the watch."""
        if self.shard_locks is not None:
            self.service.scheduler.after(("shard locks",), LOCK_CHECK_INTERVAL,
                                         self.check_shard_locks)

    def watch_languages(self) -> None:
        """Read the players' languages again `LANGUAGES_RELOAD_INTERVAL` from now: a
        sharded process's, whose players may choose on another process's server."""
        self.service.scheduler.after(("languages",), LANGUAGES_RELOAD_INTERVAL,
                                     self.reload_languages)

    async def reload_languages(self) -> None:
        """Take every stored choice anew (one erased by `/forget` elsewhere goes too); the
        database away, keep those held and try again at the next reading. The next reading
        is set first: one failing by a bug (logged by the scheduler; the table missing
        during a rollback below 0019, say) must not end them all."""
        assert self.storage is not None
        self.watch_languages()
        try:
            changed = await self.languages.read(self.storage.player_languages,
                                                self.storage.client_locales)
        except Exception as err:
            if not controls.out_of_reach(err, "the players' languages"):
                raise
            return
        # A choice made or given up elsewhere reaches the player's seats and open hands
        # here at once, as `/president my-language` redraws them where it was typed.
        for user_id, locale in changed.items():
            self.follow_stored(user_id, locale)

    def restored_languages(self) -> None:
        """The restored seats and hands take the languages their players' stored choices
        say now, before the tables' first redraws: a seat keeps the language of its
        snapshot, which predates a choice made, or given up, on another process's server
        while this one was stopped, or one stored just before a stop that left the seat's
        new language unsaved."""
        for table in self.service.registry.tables():
            people = {p.user_id for p in [*table.seats, *table.queue] if p.user_id is not None}
            for user_id in sorted(people | table.hands.keys()):
                self.follow_stored(user_id)

    def follow_stored(self, user_id: int, given_up: discord.Locale | None = None) -> None:
        """The user's seats and hands here speak what is stored now: their choice if any,
        else Discord's locale, as `given_up` says it (`Languages.read`) or, not known
        there, as their seats kept it while the choice applied (`Player.client`: a choice
        given up while this process was stopped, or made before 0020 kept the locale with
        it); neither known, the snapshot's language stays until their next interaction.
        The Discord locale goes along, kept with the seats for a later giving up."""
        kept = self.service.kept_client(user_id)
        language = self.languages.chosen(user_id)
        if language is not None:
            sent = self.languages.sent(user_id)
            locale: str | None = str(LOCALES[language])
            client = str(sent) if sent is not None else kept
        else:
            locale = client = str(given_up) if given_up is not None else kept
        if locale is not None:
            self.service.heard(user_id, locale, client if client is not None else locale)

    async def check_shard_locks(self) -> None:
        """Go on while this process holds its shards' locks (taken back if their session
        ended); stop, as a SIGTERM would, once another process holds one: two processes
        playing a table would both post it and answer its clicks."""
        assert self.shard_locks is not None
        if await self.shard_locks.keep():
            self.watch_shard_locks()
            return
        self.shards_lost = True
        await self.close()

    def snapshot_written(self, lag: float) -> None:
        """A snapshot was stored `lag` seconds after the oldest change it carries (what a
        crash just before would have lost); the load benchmark records each one too."""
        self.metrics.snapshot_lag.observe(lag)

    async def owned_shards(self) -> tuple[tuple[int, ...], int] | None:
        """This process's shards and their total, None when unsharded. With SHARD_COUNT=auto
        the total is Discord's recommendation, asked here because the tables to restore
        depend on it; discord.py then connects with that count instead of asking again."""
        if self.config.shard_auto:
            self.shard_count, _, _ = await self.http.get_bot_gateway()
            return tuple(range(self.shard_count)), self.shard_count
        if self.config.shard_count is None or self.config.shard_ids is None:
            return None
        return self.config.shard_ids, self.config.shard_count

    @property
    def stopping(self) -> bool:
        """Whether the bot is shutting down past the point where a change could be stored:
        changes made now would be lost, so clicks are refused until the next start."""
        return self.writer is not None and self.writer.closed

    @property
    def busy(self) -> bool:
        """Whether work is running outside the event loop (a query in the database's thread
        or socket, the shard locks' check included, a bot's decision in a worker process or
        thread, a chart in a thread). Everything else the bot does is a task of the loop; the
        fake Discord's `settle` waits on both."""
        return ((self.storage is not None and self.storage.busy) or self.service.thinker.running > 0
                or self.publisher.charts.rendering > 0
                or (self.shard_locks is not None and self.shard_locks.busy))

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Every event is shown to `replays` first, in the order the gateway sent them:
        what it tells of an interaction must be known before any of its handlers runs. So
        is the language its user chose (`Languages.apply`), for the same reason, and when it
        came (`controls.heard`): the clock its token's life is counted on."""
        self.replays.heard(event_name, *args)
        if event_name == "interaction" and args and isinstance(args[0], discord.Interaction):
            self.languages.apply(args[0])
            args[0].extras[controls.HEARD] = self.service.clock.now()
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Whoever acts in a server is one of its members now: « `member` is sent
        when the interaction is invoked in a guild » (Interaction Object,
        https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object).
        Noted for the leaderboard (`stats.members`), which then asks Discord nothing about
        the players of the evening's games: eight of them at three tables cost it up to
        seven Get Guild Member calls, one per row it had not heard of in the hour."""
        if interaction.guild_id is not None and isinstance(interaction.user, discord.Member):
            self.members.present(interaction.guild_id, interaction.user.id)
        await controls.refuse_forged(interaction)
        await controls.submit_form(interaction)

    async def sync_commands(self) -> None:
        if self.config.dev_guild_id is not None:
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self._sync_tree(guild)
        else:
            await self._sync_tree(None)
            # Discord lists a guild's commands beside the global ones ("Your app can have a
            # global and guild CHAT_INPUT command with the same name",
            # https://discord.com/developers/docs/interactions/application-commands#registering-a-command):
            # a development guild synced earlier would show every command twice. The tree
            # holds no command for these guilds, so syncing them overwrites theirs with none.
            for guild_id in self.config.clear_guild_ids:
                await self._sync_tree(discord.Object(guild_id))

    async def _sync_tree(self, guild: discord.abc.Snowflake | None) -> None:
        """One scope's bulk overwrite. Past « 200 application command creates per day, per
        guild » (Registering a Command, application-commands) Discord answers 30034 and,
        the overwrite refused, keeps the commands it had: a start that stopped there kept
        the bot down for the rest of the day, where the commands of its last start serve."""
        try:
            await self.tree.sync(guild=guild)
        except discord.HTTPException as exc:
            if exc.code != DAILY_COMMAND_CREATES:
                raise
            log.warning("command sync refused (%s), the commands Discord holds stay: %s",
                        exc.code, exc.text)

    async def close(self) -> None:
        """Stop: once, whoever asks again meanwhile (discord.py's gateway task does, as the
        connection closes: `Client.connect`) waiting for it. Run twice, the second ran on
        while the first had its connection closed and was keeping what its tables show
        (`keep_shown`), and could close the storage under it."""
        if self._stopped is not None:
            await self._stopped.wait()
            return
        self._stopped = asyncio.Event()
        try:
            await self._stop()
        finally:
            self._stopped.set()

    async def _stop(self) -> None:
        if self.faces_sync is not None:
            self.faces_sync.cancel()
        self.budget.close()
        await self.service.coalescer.drain(self.shutdown_wait)
        # Results are retried while the database is down; a stop must not wait for ever.
        # An unrecorded result is recorded again by the next start (see Outages.adopt).
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.service.drain(), timeout=10)
        await self.service.scheduler.close(self.shutdown_wait)
        # The timers that ran until now (bots' moves) may have changed tables again.
        await self.service.coalescer.drain(self.shutdown_wait)
        # No timer is left to ask a bot for a move. In a thread: it waits for the workers to
        # exit (a worker still starting, seconds on a loaded host), which the loop must not.
        await asyncio.to_thread(self.service.thinker.workers.close)
        if self.writer is not None:
            # Every table's latest state, its hands' links included: a hand opened again
            # with no move since is saved only with the next move (HandLinks.remember),
            # and the restart would follow the one its player no longer looks at.
            stored: dict[int, int] = {}
            if not self.writer.closed:  # (a second close finds it closed)
                for table in self.service.registry.tables():
                    self.service.touch(table)
                    stored[table.id] = table.seq
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.writer.close(), timeout=10)
            # Nothing more reaches Discord from here on: what its answers said each message
            # shows is then final, and kept for the restart (`keep_shown`).
            await super().close()
            await self.keep_shown(stored)
        # Known until here: the stop's last redraws showed the hands with their faces, as
        # the restart draws them (cleared first, they lost them until the restart's redraw).
        card_faces.clear()
        if self.storage is not None:
            await self.storage.close()
        # Last: a process waiting for these shards restores from the snapshots just stored.
        if self.shard_locks is not None:
            await self.shard_locks.release()
        await self.metrics.close()
        await super().close()

    async def keep_shown(self, stored: dict[int, int]) -> None:
        """What each table's messages show, as Discord acknowledged it (`Publisher.landed`),
        kept beside the state just stored for it (`stored`: its `seq`): the restart edits
        none of them to show it again, nor uploads a chart a results message carries. Only
        here, once the connection is closed, so that no edit can follow what is kept
        (docs/bot.md « Restarts, fewer calls (stop 53) »); a crash keeps nothing, and its
        restart draws everything again."""
        if self.storage is None or self.shards_lost:  # another process may be drawing them
            return
        rows = [(table.id, stored[table.id], landed.to_dict(stored[table.id]))
                for table in self.service.registry.tables()
                if table.id in stored and not table.closed
                and (landed := self.publisher.landed(table))]
        try:
            await asyncio.wait_for(self.storage.keep_shown(rows), timeout=10)
        except Exception as err:  # the restart draws everything again, as after a crash
            log.warning("what the tables show was not kept for the restart (%r)", err)


class ShardedPresidentBot(PresidentBot, commands.AutoShardedBot):
    """The same bot on `discord.AutoShardedClient`: one gateway connection per shard of
    `config.shard_ids`, so several processes can share the guilds (docs/deploy.md)."""


def create_bot(config: Config, **options: Any) -> PresidentBot:
    """The bot class the configuration asks for: sharded when SHARD_COUNT is set."""
    sharded = config.shard_count is not None or config.shard_auto
    cls = ShardedPresidentBot if sharded else PresidentBot
    return cls(config, **options)
