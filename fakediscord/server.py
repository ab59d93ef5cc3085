"""The fake Discord itself: one object that serves REST and the gateway on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from .calls import INVALID_REQUEST_WINDOW, CallLog, CallRecord, Failure, RateLimit
from .client import TestUser
from .clock import FakeClock
from .commands import CommandRegistry
from .errors import DiscordError, SettleTimeout, UserActionError
from .gateway import (
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MODERATION,
    INTENT_GUILDS,
    SHARD_SHIFT,
    Gateway,
    GatewayLimits,
)
from .interactions import InteractionHub
from .latency import Latency, LatencyConfig
from .messages import MessageWriter
from .payloads import (
    BAN_MEMBERS,
    CHANNEL_PERMISSIONS,
    GUILD_PERMISSIONS,
    VIEW_AUDIT_LOG,
    bot_guild_permissions,
    bot_permissions,
    bot_reaches,
    bot_role_permissions,
    channel_payload,
    everyone_permissions,
    guild_payload,
    member_payload,
    role_payload,
    user_payload,
)
from .ratelimits import RateLimitConfig, RateLimiter
from .rest import API, GATEWAY_PATH, Rest
from .settle import IDLE_POLLS, Activity, loop_is_idle, wait_until_idle
from .snapshots import Message, snapshot
from .snowflake import Snowflakes
from .state import (
    ANNOUNCEMENT_THREAD,
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_TYPES,
    Channel,
    Guild,
    InteractionRecord,
    StoredMessage,
    World,
)
from .timeouts import Timeout, Timeouts


class FakeDiscord:
    """A Discord that discord.py talks to unchanged, with hooks for tests.

    Typical use::

        async with FakeDiscord.running() as fake:        # serves and patches discord.py
            alice = fake.add_user("alice", locale="fr")
            await fake.connect(bot)                       # login + gateway, waits for READY
            await alice.slash("president create", preset="classic")
            print(render_message(alice.last_message()))
            fake.assert_no_errors()

    State (users, guilds, messages, synced commands) lives here, not in the bot
    connection, so a new client can connect after another closed and find it all.
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_name: str = "Président",
        ack_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        quiet: float = 0.005,
        clock: FakeClock | None = None,
        old_edit_limit: int | None = 5,
        rate_limits: RateLimitConfig | None = None,
        latency: LatencyConfig | None = None,
        gateway_limits: GatewayLimits | None = None,
        home: tuple[int, int] | None = None,
    ) -> None:
        """`home`: the ids of the default guild and its channel, for a fake whose ids must
        outlive a run (the sandbox's tables come back after a restart); else minted."""
        self.clock = clock or FakeClock()
        self.quiet = quiet
        self.token = token
        self.world = World(self.clock, Snowflakes(self.clock), bot_name)
        self.activity = Activity()
        self.log = CallLog()
        # Off unless asked: most tests make bursts of calls at one fake instant.
        self.limiter = RateLimiter(self.clock, rate_limits)
        self.latency = Latency(self.clock, latency)
        self._idle_polls = 0  # settle's count of idle polls before jumping past a latency
        self._idle_since = 0.0
        self.gateway = Gateway(self.world, self.activity, self.clock, token, gateway_limits)
        self._live_before_zombie = 0  # live connections when `zombie_gateway` was called
        self.writer = MessageWriter(self.world, self.gateway, old_edit_limit)
        self._webhooks: dict[tuple[int, str], int] = {}  # channel and name: its id (`webhook_says`)
        self.commands = CommandRegistry(self.world.snowflakes, self.world.application_id,
                                        self.world.clock)
        self.hub = InteractionHub(
            self.world,
            self.writer,
            self.gateway,
            ack_deadline=ack_deadline,
            token_lifetime=token_lifetime,
        )
        self._rest = Rest(
            self.world,
            self.gateway,
            self.writer,
            self.hub,
            self.commands,
            self.log,
            self.activity,
            token,
            self.limiter,
            self.latency,
        )
        self.emojis = self._rest.emojis  # the application's emojis, kept across restarts
        self.timeouts = Timeouts(self.log, self.clock, bot_name)
        self._runner: web.AppRunner | None = None
        self._clients: dict[discord.Client, asyncio.Task[None]] = {}
        self._watched: list[object] = []
        self.base_url = ""
        guild_id, channel_id = home if home is not None else (None, None)
        self.guild = self.world.add_guild("Fake Guild", "en-US", guild_id=guild_id)
        self.channel = self.world.add_channel(self.guild, "general", channel_id=channel_id)

    # -- lifecycle ---------------------------------------------------------------------

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls, *, patch: bool = True, **options: Any) -> AsyncIterator[FakeDiscord]:
        """Start a fake (and by default point discord.py at it); stop it on exit."""
        fake = cls(**options)
        await fake.start()
        # Stopped while discord.py still points here: a bot left connected by a failing test
        # would otherwise send its last calls to the real Discord (no network: gaierror).
        with fake.patch_discord() if patch else contextlib.nullcontext():
            try:
                yield fake
            finally:
                await fake.stop()

    async def start(self) -> None:
        """Serve on 127.0.0.1 on a free port chosen by the OS."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._runner = web.AppRunner(self._rest.application(), handle_signals=False)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        port = sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        self.gateway.url = f"ws://127.0.0.1:{port}{GATEWAY_PATH}"

    async def stop(self) -> None:
        """Close the bots connected through :meth:`connect`, then the server."""
        for client in list(self._clients):
            await self.disconnect(client)
        await self.gateway.close()
        self.clock.release()  # calls still on their way arrive now: nothing waits forever
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_url(self) -> str:
        return self.base_url + API

    @contextlib.contextmanager
    def patch_discord(self) -> Iterator[None]:
        """Point discord.py's REST base and gateway URL here, restoring them afterwards.

        Interaction callbacks and webhooks build their URLs from the same ``Route.BASE``,
        so they follow. Never call ``discord.http._set_api_version`` meanwhile: it resets it.
        """
        route, websocket = discord.http.Route, discord.gateway.DiscordWebSocket
        saved = route.BASE, websocket.DEFAULT_GATEWAY
        route.BASE = self.api_url
        websocket.DEFAULT_GATEWAY = yarl.URL(self.gateway.url)
        try:
            yield
        finally:
            route.BASE, websocket.DEFAULT_GATEWAY = saved

    async def connect(
        self,
        client: discord.Client,
        *,
        timeout: float = 60.0,
        advance: Callable[[float], None] | None = None,
    ) -> None:
        """Log ``client`` in, open its gateway in a task, and wait until it is ready.

        ``timeout`` is real seconds, a guard against a hang only: a bot's start (its
        database's migrations, its commands' sync) took over 10 s on a machine at load 15,
        where play-test 39 failed with the old 10 s (stop 61).

        Build clients with ``guild_ready_timeout=0``: discord.py otherwise waits two real
        seconds after the last GUILD_CREATE before it reports ready.

        A client may have a ``busy`` attribute (a bool or property): :meth:`settle` then
        also waits while it is true. That is how a bot reports work the event loop cannot
        see, such as a query running in a database thread.

        The gateway paces IDENTIFYs as Discord does (:class:`~fakediscord.gateway.GatewayLimits`:
        one session start per rate limit key per 5 seconds). A client connected soon after
        another (a restarted bot) starts when its first shard may IDENTIFY: the fake clock
        moves there first, as the restart takes that long. A sharded client's later shards
        wait between IDENTIFYs themselves (discord.py's ``before_identify_hook``, on a clock
        of the client's): with ``advance`` (what moves that clock and the fake's, e.g. the
        bot's linked clock's ``advance``), each IDENTIFY the fake answers while shards are
        left to start moves time by the identify window, so those waits end without real
        sleeps; the fake still refuses any IDENTIFY that comes too early.
        """
        if self.api_url != discord.http.Route.BASE:
            raise RuntimeError("discord.py is not pointed at this fake: use fake.patch_discord()")
        gateway = self.gateway
        self.until_identify(_first_shard(client), advance)
        self.watch(client)
        self.timeouts.watch(client)
        await client.login(self.token)
        task = asyncio.create_task(client.connect(reconnect=False))
        self._clients[client] = task
        ready = asyncio.create_task(self._until_ready(client))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        answered = len(gateway.identifies) + len(gateway.refused)
        started = len(gateway.identifies)
        done: set[asyncio.Task[None]] = set()
        while not done and loop.time() < deadline:
            poll = 0.001 if advance is not None else deadline - loop.time()
            done, _ = await asyncio.wait(
                {task, ready}, timeout=poll, return_when=asyncio.FIRST_COMPLETED
            )
            if advance is None or done:
                continue
            now_answered = len(gateway.identifies) + len(gateway.refused)
            if now_answered > answered:
                answered = now_answered
                if len(gateway.identifies) - started < _shards_to_start(client):
                    advance(gateway.limits.identify_window)
        if ready not in done:
            ready.cancel()
            if task in done:
                task.result()
            raise TimeoutError(f"{client!r} did not become ready within {timeout}s")

    def until_identify(
        self, shard_id: int = 0, advance: Callable[[float], None] | None = None
    ) -> None:
        """Move the fake clock (with ``advance`` if given) to when ``shard_id`` may IDENTIFY,
        if that is later: a bot (re)started some other way than :meth:`connect` (a process)
        takes that long to come up, or the gateway refuses its IDENTIFY as too early."""
        wait = self.gateway.identify_allowed_at(shard_id) - self.clock.monotonic()
        if wait > 0:
            (advance or self.clock.advance)(wait)

    def watch(self, client: object) -> None:
        """Make :meth:`settle` also wait while ``client.busy`` is true (see :meth:`connect`),
        for a client started some other way than :meth:`connect`."""
        if client not in self._watched:
            self._watched.append(client)

    async def _until_ready(self, client: discord.Client) -> None:
        # With guild_ready_timeout=0, READY can fire before the GUILD_CREATEs are parsed.
        await client.wait_until_ready()
        # A sharded client hears only of its shards' guilds.
        count = client.shard_count or 1
        if isinstance(client, discord.AutoShardedClient):
            shards = set(client.shard_ids or range(count))
        else:
            shards = {client.shard_id or 0}
        joined = [
            g.id
            for g in self.world.guilds.values()
            if self.world.bot.id in g.members and (g.id >> SHARD_SHIFT) % count in shards
            and g.available
        ]
        while any((g := client.get_guild(i)) is None or g.unavailable for i in joined):
            await asyncio.sleep(0.001)

    async def disconnect(self, client: discord.Client) -> None:
        """Close a client connected with :meth:`connect`, like stopping the bot process."""
        task = self._clients.pop(client)
        sessions = self.gateway.attached()
        # A bot may finish its work as it closes (its pending refreshes): with latency on,
        # those calls travel on the fake clock, which settle() moves on meanwhile.
        closing = asyncio.ensure_future(client.close())
        while not closing.done():
            if self.latency.waiting:
                await self.settle(require_answers=False)
            else:
                await asyncio.wait({closing}, timeout=0.001)
        await closing
        with contextlib.suppress(discord.ConnectionClosed):
            await task
        # Wait for the fake's side of the websocket to be gone too, so that nothing sent
        # from now on (an interaction for the next bot) can reach the stopped one.
        while self.gateway.closing():
            await asyncio.sleep(0.001)
        self.gateway.end_detached(sessions)
        await self.settle(require_answers=False)

    async def drop_gateway(self) -> None:
        """Cut every gateway websocket as a network blip would; discord.py then RESUMEs,
        and gets the events dispatched meanwhile (`Gateway._resume`)."""
        await self.gateway.drop()
        await self.settle(require_answers=False)

    async def gateway_down(self, timeout: float = 10.0) -> None:
        """The bot's gateway connection is gone until :meth:`gateway_up` (`Gateway.down`):
        REST still answers, and what happens meanwhile (clicks, deleted messages, members
        leaving) waits in the sessions. Returns once every client that was connected has
        reconnected and waits to IDENTIFY or RESUME; ``timeout`` (real seconds) only bounds
        a failing test."""
        await self.gateway.down()
        await self._until(self.gateway.back, "the clients to come back", timeout)
        await self.settle(require_answers=False)

    async def gateway_up(self, *, resumable: bool = True, timeout: float = 10.0) -> None:
        """The connection is back (`Gateway.up`): each client RESUMEs and is sent what it
        missed, or (not ``resumable``) is told its session is invalid and IDENTIFYs again.
        Returns once they are all connected and the bot has settled."""
        self.gateway.up(resumable=resumable)
        await self._until(self.gateway.back, "the clients to reconnect", timeout)
        await self.settle(require_answers=False)

    def zombie_gateway(self, *, events_flow: bool = False) -> None:
        """Every gateway connection goes zombie (`Gateway.zombie`): open, but no Heartbeat
        ACK and (unless ``events_flow``) no event gets through. Nothing ends it but the
        client: see :meth:`zombies_replaced`."""
        self._live_before_zombie = self.gateway.live()
        self.gateway.zombie(events_flow=events_flow)

    async def heartbeats_sent(self, count: int = 2, timeout: float = 10.0) -> None:
        """Return once every live connection's client has sent ``count`` more heartbeats,
        then settle. discord.py's keep-alive thread judges the connection just before each
        heartbeat it sends, so after a clock ``advance`` this is the wait for it to have
        looked at the new time (two, as the first may have been on its way already) and
        had its ACK, if the connection gives one. A few of `Gateway.heartbeat_interval`
        of real time; ``timeout`` only bounds a failing test."""
        before = self.gateway.heartbeats()

        def sent() -> bool:
            now = self.gateway.heartbeats()
            return all(now.get(key, beats + count) >= beats + count
                       for key, beats in before.items())

        await self._until(sent, "the clients' heartbeats", timeout)
        await self.settle(require_answers=False)

    async def zombies_replaced(self, timeout: float = 10.0) -> None:
        """Return once every client whose connection :meth:`zombie_gateway` zombied has
        closed it and is connected again (resumed, or identified anew), and the bot has
        settled. discord.py's keep-alive thread looks once per heartbeat interval of the
        wall clock (`Gateway.heartbeat_interval`, shortened by a test); ``timeout`` (real
        seconds) only bounds a failing test."""
        gateway = self.gateway
        await self._until(
            lambda: gateway.zombies == 0 and gateway.live() >= self._live_before_zombie,
            "the zombied connections to be replaced", timeout)
        await self.settle(require_answers=False)

    async def _until(self, condition: Callable[[], bool], what: str, timeout: float) -> None:
        """Poll ``condition`` each turn of the loop (a millisecond apart), for at most
        ``timeout`` real seconds: the wall clock only bounds a failing test."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not condition():
            if loop.time() > deadline:
                raise SettleTimeout(f"timed out waiting for {what}")
            await asyncio.sleep(0.001)

    # -- the world ---------------------------------------------------------------------

    def add_user(
        self, name: str, *, locale: str = "en-US", guilds: list[Guild] | None = None,
        bot: bool = False,
    ) -> TestUser:
        """A new member (of the default guild unless ``guilds`` says otherwise); with
        ``bot``, another app's bot user (its `say` is that bot posting, as it would through
        REST: the same MESSAGE_CREATE, its author's ``bot`` true)."""
        account = self.world.add_user(name, locale)
        account.bot = bot
        user = TestUser(self, account, self.channel)
        joined = guilds if guilds is not None else [self.guild]
        for guild in joined:
            self.add_member(guild, user)
        first = next((c for g in joined for c in g.channel_ids), None)
        if first is not None:
            user.channel = self.world.channels[first]
        return user

    def webhook_says(self, channel: Channel, name: str, content: str) -> Message:
        """A channel webhook named ``name`` (an integration's feed, or a proxy such as
        PluralKit reposting a member's words) posts in ``channel``: MESSAGE_CREATE with its
        ``webhook_id``, its author « the webhook's id, username, and avatar » rather than a
        user (Message Object, author, https://discord.com/developers/docs/resources/message#message-object),
        no ``application_id`` (the webhook is no app's), and no ``member`` (« Missing for
        ephemeral messages and messages from webhooks », Message Create Extra Fields,
        https://discord.com/developers/docs/events/gateway-events#message-create). One
        webhook per channel and name, made at its first post."""
        key = (channel.id, name)
        webhook_id = self._webhooks.get(key)
        if webhook_id is None:
            account = self.world.add_user(name, "en-US")
            account.bot = True
            webhook_id = self._webhooks[key] = account.id
        said = self.writer.said(channel, webhook_id, content, webhook_id=webhook_id)
        return snapshot(self.world, said)

    def add_member(self, guild: Guild, user: TestUser) -> None:
        """Make ``user`` join ``guild``; a bot with the members intent hears about it."""
        if user.id in guild.bans:
            raise UserActionError(f"{user.name} is banned from {guild.name}")
        guild.members[user.id] = self.clock.now()
        member = member_payload(self.world, guild, user.id)
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD", {**member, "guild_id": str(guild.id)}, intent=INTENT_GUILD_MEMBERS
        )

    def add_guild(self, name: str, *, locale: str = "en-US", bot: bool = True) -> Guild:
        """A new guild with the bot in it; add channels with :meth:`add_channel`.

        With ``bot=False`` the guild authorized only the app's commands, not its bot user:
        "Application commands do not depend on a bot user in the guild [...] your app must
        be authorized with the `applications.commands` scope which can be used
        independently" (Authorizing Your Application,
        https://discord.com/developers/docs/interactions/application-commands#authorizing-your-application).
        Its members' commands and clicks reach the bot, which gets no GUILD_CREATE and may
        call no channel route there (403 Missing Access) until :meth:`invite_bot`."""
        guild = self.world.add_guild(name, locale, bot=bot)
        if bot:
            self.gateway.dispatch(
                "GUILD_CREATE", guild_payload(self.world, guild), intent=INTENT_GUILDS
            )
        return guild

    def add_channel(self, guild: Guild, name: str, *, kind: int = GUILD_TEXT) -> Channel:
        """A new channel of type ``kind`` (text unless said: `GUILD_VOICE`,
        `GUILD_ANNOUNCEMENT`, `GUILD_STAGE_VOICE`, `GUILD_FORUM`); a connected bot gets
        CHANNEL_CREATE."""
        assert kind not in THREAD_TYPES, "threads are added with add_thread"
        channel = self.world.add_channel(guild, name, kind=kind)
        self.gateway.dispatch("CHANNEL_CREATE", channel_payload(channel, self.world.bot.id),
                              intent=INTENT_GUILDS)
        return channel

    def add_thread(self, parent: Channel, name: str, owner: TestUser, *,
                   private: bool = False, auto_archive: int = 1440) -> Channel:
        """A thread of ``parent`` started by ``owner``, archived after ``auto_archive``
        minutes without activity (60, 1440, 4320 or 10080). Its type follows its channel's:
        "`GUILD_TEXT` channels create `PUBLIC_THREAD` and `GUILD_ANNOUNCEMENT` channels
        create `ANNOUNCEMENT_THREAD`", and private threads "can only be created in
        `GUILD_TEXT` channels" (Threads, Public & Private Threads,
        https://discord.com/developers/docs/topics/threads#public-private-threads); a forum's
        posts are public threads (« a temporary sub-channel within a GUILD_TEXT or
        GUILD_FORUM channel », Channel Types). A connected bot that may view it gets
        THREAD_CREATE (« Thread Create »: "Sent when a thread is created, relevant to the
        current user, or when the current user is added to a thread",
        https://discord.com/developers/docs/events/gateway-events#thread-create): of a
        private thread, only a moderator (`add_bot_to_thread`)."""
        assert auto_archive in (60, 1440, 4320, 10080), "not a duration Discord offers"
        if private:
            assert parent.type == GUILD_TEXT, "private threads are only made in text channels"
            kind = PRIVATE_THREAD
        elif parent.type == GUILD_ANNOUNCEMENT:
            kind = ANNOUNCEMENT_THREAD
        else:
            assert parent.type in (GUILD_TEXT, GUILD_FORUM), "no thread in this channel"
            kind = PUBLIC_THREAD
        guild = self.world.guilds[parent.guild_id]
        thread = self.world.add_channel(guild, name, parent_id=parent.id, owner_id=owner.id,
                                        kind=kind)
        thread.auto_archive_duration = auto_archive
        if bot_reaches(self.world, thread):
            payload = {**channel_payload(thread, self.world.bot.id), "newly_created": True}
            self.gateway.dispatch("THREAD_CREATE", payload, intent=INTENT_GUILDS)
        return thread

    def add_to_thread(self, thread: Channel, user: TestUser) -> None:
        """A member of a private thread adds ``user`` to it (by mentioning them, say)."""
        assert thread.type == PRIVATE_THREAD, "anyone who sees its channel is in a public one"
        thread.members.add(user.id)

    def add_bot_to_thread(self, thread: Channel) -> None:
        """Someone adds the bot to a private thread (by mentioning it). "Whenever a user is
        added to a private thread, the Gateway also sends a Thread Create event", then "A
        Thread Members Update Gateway Event is always sent when the current user is added
        to or removed from a thread" (Threads, Gaining Access to Private Threads and
        Syncing for the current user,
        https://discord.com/developers/docs/topics/threads#thread-access)."""
        assert thread.type == PRIVATE_THREAD, "the bot sees a public thread already"
        bot_id = self.world.bot.id
        thread.members.add(bot_id)
        self.gateway.dispatch("THREAD_CREATE", channel_payload(thread, bot_id),
                              intent=INTENT_GUILDS)
        self._members_update(thread, added=True)

    def remove_bot_from_thread(self, thread: Channel) -> None:
        """Someone removes the bot from a private thread: THREAD_MEMBERS_UPDATE, "always
        sent when the current user is added to or removed from a thread" (as above). Unless
        it may manage threads, it no longer sees the thread: nothing more of it reaches the
        bot, and every channel route there answers 403 Missing Access."""
        assert thread.type == PRIVATE_THREAD
        thread.members.discard(self.world.bot.id)
        self._members_update(thread, added=False)

    def _members_update(self, thread: Channel, *, added: bool) -> None:
        bot_id = str(self.world.bot.id)
        change: dict[str, Any] = {"added_members": [{
            "id": str(thread.id), "user_id": bot_id, "flags": 0,
            "join_timestamp": self.clock.now().isoformat()}]} if added else {
            "removed_member_ids": [bot_id]}
        self.gateway.dispatch("THREAD_MEMBERS_UPDATE", {
            "id": str(thread.id), "guild_id": str(thread.guild_id),
            "member_count": len(thread.members), **change})

    def set_slowmode(self, channel: Channel, seconds: int) -> None:
        """A moderator sets the channel's or thread's slowmode (``rate_limit_per_user``):
        "amount of seconds a user has to wait before sending another message (0-21600);
        bots, as well as users with the permission `BYPASS_SLOWMODE`, are unaffected"
        (Channel Object, https://discord.com/developers/docs/resources/channel#channel-object).
        Members then post once per slowmode (`TestUser.say`); the bot's routes ignore it."""
        assert 0 <= seconds <= 21600
        channel.rate_limit_per_user = seconds
        self.writer.channel_changed(channel)

    def archive_idle_threads(self) -> None:
        """Archive now the threads whose inactivity has run out (`World.archive_idle`); the
        fake also does it at every call and user action."""
        self.writer.archive_idle()

    def unarchive_thread(self, thread: Channel) -> None:
        """A member unarchives the thread (a moderator, if it is locked: "Threads that have
        `locked` set to true can only be unarchived by a user with the `MANAGE_THREADS`
        permission", Threads, Active & Archived Threads); the bot gets THREAD_UPDATE."""
        assert thread.thread and thread.archived
        self.writer.unarchive(thread)

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """A moderator archives a thread, and with ``locked`` locks it too; the bot gets
        THREAD_UPDATE. "Users cannot edit messages, add reactions, use application commands,
        or join archived threads [...] Sending a message will automatically unarchive the
        thread, unless the thread has been locked by a moderator" (Threads, Active & Archived
        Threads, https://discord.com/developers/docs/topics/threads#active-archived-threads);
        the REST routes enforce it (:meth:`Rest._in_archived`)."""
        assert thread.thread, "only threads are archived"
        thread.archived, thread.locked = True, locked
        self.writer.thread_changed(thread)

    def lock_thread(self, thread: Channel, *, locked: bool = True) -> None:
        """A moderator locks a thread (or with ``locked=False`` unlocks it), leaving it
        active; the bot gets THREAD_UPDATE. "Users (including bot users) without the
        `MANAGE_THREADS` permission [...] won't be able to create or update messages in
        locked threads" (Threads, Locked Threads,
        https://discord.com/developers/docs/topics/threads#locked-threads)."""
        assert thread.thread, "only threads are locked"
        thread.locked = locked
        self.writer.thread_changed(thread)

    def delete_channel(self, channel: Channel) -> None:
        """A moderator deletes a channel or a thread, and with a channel its threads. The bot
        gets CHANNEL_DELETE, or THREAD_DELETE with "just the `id`, `guild_id`, `parent_id`,
        and `type` fields" (Channel Delete, Thread Delete,
        https://discord.com/developers/docs/events/gateway-events#thread-delete); nothing
        for the threads of a deleted channel (discord.py reports those itself, from its
        cache), nor of a thread it may not view (`MessageWriter.thread_changed`). Every later
        call on them is 404 Unknown Channel, on their messages through an interaction token
        404 Unknown Message."""
        payload = channel_payload(channel)
        seen = bot_reaches(self.world, channel)
        self.world.remove_channel(channel)
        if not channel.thread:
            self.gateway.dispatch("CHANNEL_DELETE", payload, intent=INTENT_GUILDS)
        else:
            fields = ("id", "guild_id", "parent_id", "type")
            if seen:
                self.gateway.dispatch("THREAD_DELETE", {k: payload[k] for k in fields},
                                      intent=INTENT_GUILDS)

    def pin(self, message: Message | int, by: TestUser, *, pinned: bool = True) -> None:
        """``by`` (a moderator) pins a message of a channel or thread, or with
        ``pinned=False`` unpins it: CHANNEL_PINS_UPDATE, and for a pin its system message
        in the channel (`MessageWriter.pinned`)."""
        stored = self._stored(message)
        assert not stored.ephemeral, "only a channel's messages are pinned"
        assert (stored.pinned_at is None) is pinned, "pinned already" if pinned else "not pinned"
        self.writer.pinned(stored, by.id, pinned=pinned)

    def rename_channel(self, channel: Channel, name: str) -> None:
        """A moderator renames a channel (CHANNEL_UPDATE) or a thread (THREAD_UPDATE): « Sent
        when a channel is updated », with the new channel object (Channel Update, Thread
        Update, developers/events/gateway-events.mdx)."""
        assert 1 <= len(name) <= 100  # « the name of the channel (1-100 characters) »
        channel.name = name
        self.writer.channel_changed(channel)

    def delete_message(self, message: Message | int) -> None:
        """A moderator deletes a channel message (the bot's lobby or table message, say): the
        bot gets MESSAGE_DELETE if it asked for GUILD_MESSAGES (`MessageWriter.delete`)."""
        self.writer.delete(self._stored(message))

    def delete_messages(self, channel: Channel, messages: Sequence[Message | int]) -> None:
        """A moderator (or a moderation bot) deletes several messages of ``channel`` at once:
        one MESSAGE_DELETE_BULK (`MessageWriter.delete_bulk`)."""
        self.writer.delete_bulk(channel, [self._stored(m) for m in messages])

    def _stored(self, message: Message | int) -> StoredMessage:
        message_id = message if isinstance(message, int) else message.id
        stored = self.world.messages.get(message_id)
        assert stored is not None, f"no message {message_id}"
        return stored

    def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from ``guild``: GUILD_DELETE without ``unavailable`` ("If the
        `unavailable` field is not set, the user was removed from the guild", Guild Delete,
        https://discord.com/developers/docs/events/gateway-events#guild-delete); its
        channels then answer 403 Missing Access (:meth:`Rest._require`)."""
        del guild.members[self.world.bot.id]
        self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)}, intent=INTENT_GUILDS)

    def invite_bot(self, guild: Guild) -> None:
        """The bot is invited back into ``guild``: GUILD_CREATE, as for any guild it joins."""
        guild.members[self.world.bot.id] = self.clock.now()
        self.gateway.dispatch("GUILD_CREATE", guild_payload(self.world, guild),
                              intent=INTENT_GUILDS)

    def start_outage(self, guild: Guild) -> None:
        """Discord loses ``guild`` for a while: GUILD_DELETE with ``unavailable`` ("true if
        this guild is unavailable due to an outage", Guild Delete,
        https://discord.com/developers/docs/events/gateway-events#guild-delete), and a bot
        that connects meanwhile gets that GUILD_DELETE instead of the guild's GUILD_CREATE.
        Until :meth:`end_outage` no other event of the guild reaches the bot (its
        interactions included: do not click there meanwhile); the fake's routes keep
        answering, so a test sees from :attr:`calls` whether the bot sent anything there."""
        guild.available = False
        self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id), "unavailable": True},
                              intent=INTENT_GUILDS)

    def end_outage(self, guild: Guild) -> None:
        """``guild`` is back: GUILD_CREATE, sent "when a guild becomes available again to the
        client" (Guild Create, same page), with ``unavailable`` false, which is what
        discord.py reports as ``on_guild_available``."""
        guild.available = True
        self.gateway.dispatch("GUILD_CREATE", guild_payload(self.world, guild),
                              intent=INTENT_GUILDS)

    def set_bot_permissions(self, channel: Channel, **allowed: bool) -> None:
        """Grant (True) or take away (False) the bot's permissions in ``channel``, named as
        in :data:`CHANNEL_PERMISSIONS` (``send_messages=False``), as the bot's member
        overwrite in a text channel (`payloads.channel_payload`). The REST routes enforce them and interactions in the channel
        report them as ``app_permissions``; other permissions stay as they were."""
        bits = bot_permissions(self.world, channel)
        for name, on in allowed.items():
            if name not in CHANNEL_PERMISSIONS:
                raise ValueError(f"unknown permission {name!r}: {sorted(CHANNEL_PERMISSIONS)}")
            flag = CHANNEL_PERMISSIONS[name]
            bits = bits | flag if on else bits & ~flag
        channel.bot_permissions = bits
        if not channel.thread:
            # The overwrite changed: CHANNEL_UPDATE ("Sent when a channel is updated. The
            # inner payload is a channel object", Channel Update,
            # https://discord.com/developers/docs/events/gateway-events#channel-update), under
            # the GUILDS intent (List of Intents,
            # https://discord.com/developers/docs/events/gateway#list-of-intents). A thread
            # has no overwrites of its own: its permissions here are a shortcut of the fake,
            # which Discord would tell nobody of.
            self.gateway.dispatch("CHANNEL_UPDATE", channel_payload(channel, self.world.bot.id),
                                  intent=INTENT_GUILDS)

    def set_bot_guild_permissions(self, guild: Guild, **allowed: bool) -> None:
        """Grant (True) or take away (False) the bot's server-wide permissions named in
        :data:`GUILD_PERMISSIONS` or :data:`CHANNEL_PERMISSIONS`, as its role would (a
        channel without an overwrite for the bot follows it); the others stay as they
        were."""
        guild.bot_permissions = _changed(bot_role_permissions(guild), allowed)
        self._role_updated(guild, bot=True)

    def set_everyone_permissions(self, guild: Guild, **allowed: bool) -> None:
        """Grant or take away @everyone's permissions (named as for
        :meth:`set_bot_guild_permissions`): the bot has them too, whatever its role."""
        guild.everyone_permissions = _changed(everyone_permissions(guild), allowed)
        self._role_updated(guild, bot=False)

    def add_role(self, guild: Guild, name: str, **allowed: bool) -> int:
        """A new role granting the permissions named as for :meth:`set_bot_guild_permissions`
        (« Guild Role Create », under the GUILDS intent,
        https://discord.com/developers/docs/events/gateway-events#guild-role-create)."""
        role_id = self.world.snowflakes.next()
        guild.roles[role_id] = (name, _changed(0, allowed))
        self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id),
                                                    "role": role_payload(guild, role_id=role_id)},
                              intent=INTENT_GUILDS)
        return role_id

    def give_bot_role(self, guild: Guild, role_id: int, given: bool = True) -> None:
        """An admin gives the bot the role (or takes it away): the bot's member changes,
        which "is sent for current-user updates regardless of whether the `GUILD_MEMBERS`
        intent is set" (Gateway, Caveats,
        https://discord.com/developers/docs/events/gateway#caveats)."""
        if given:
            guild.bot_roles.add(role_id)
        else:
            guild.bot_roles.discard(role_id)
        member = member_payload(self.world, guild, self.world.bot.id)
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", {**member, "guild_id": str(guild.id)})

    def delete_role(self, guild: Guild, role_id: int) -> None:
        """An admin deletes the role, from whoever held it (« Guild Role Delete », with
        `guild_id` and `role_id`, under the GUILDS intent,
        https://discord.com/developers/docs/events/gateway-events#guild-role-delete)."""
        del guild.roles[role_id]
        guild.bot_roles.discard(role_id)
        self.gateway.dispatch("GUILD_ROLE_DELETE", {"guild_id": str(guild.id),
                                                    "role_id": str(role_id)},
                              intent=INTENT_GUILDS)

    def _role_updated(self, guild: Guild, *, bot: bool) -> None:
        # « Guild Role Update », "Sent when a guild role is updated", with `guild_id` and
        # `role` (https://discord.com/developers/docs/events/gateway-events#guild-role-update),
        # under the GUILDS intent.
        self.gateway.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id),
                                                    "role": role_payload(guild, bot=bot)},
                              intent=INTENT_GUILDS)

    def ban(self, guild: Guild, user: TestUser, *, by: TestUser | None = None) -> None:
        """A moderator bans ``user`` from ``guild``: they are no longer a member (no command,
        click or message of theirs reaches it) and may not join again. The bot hears of it
        only if it asked for GUILD_MODERATION and may ban members or view the audit log:
        "Sent when a user is banned from a guild. This event is only sent to bots with the
        `BAN_MEMBERS` or `VIEW_AUDIT_LOG` permission" (Guild Ban Add,
        https://discord.com/developers/docs/events/gateway-events#guild-ban-add), and the
        audit log's entry (MEMBER_BAN_ADD, 22) only with VIEW_AUDIT_LOG (Guild Audit Log Entry
        Create, same page; Audit Log Events,
        https://discord.com/developers/docs/resources/audit-log#audit-log-entry-object-audit-log-events);
        the member's removal, GUILD_MEMBER_REMOVE, only with the privileged GUILD_MEMBERS."""
        guild.bans.add(user.id)
        self._member_removed(guild, user, by, action=22)
        if bot_guild_permissions(guild) & (BAN_MEMBERS | VIEW_AUDIT_LOG):
            self.gateway.dispatch("GUILD_BAN_ADD", {"guild_id": str(guild.id),
                                                    "user": user_payload(user.user)},
                                  intent=INTENT_GUILD_MODERATION)

    def kick(self, guild: Guild, user: TestUser, *, by: TestUser | None = None) -> None:
        """A moderator kicks ``user`` from ``guild``: no ban event, only the audit log's
        entry (MEMBER_KICK, 20) where the bot may view it, and GUILD_MEMBER_REMOVE (see
        :meth:`ban`)."""
        self._member_removed(guild, user, by, action=20)

    def leave(self, guild: Guild, user: TestUser) -> None:
        """``user`` leaves ``guild`` of their own accord: no ban, no audit log entry (a
        member leaving is none of the Audit Log Events,
        https://discord.com/developers/docs/resources/audit-log#audit-log-entry-object-audit-log-events),
        only GUILD_MEMBER_REMOVE, « Sent when a user is removed from a guild
        (leave/kick/ban) », under the privileged GUILD_MEMBERS intent (Guild Member Remove,
        https://discord.com/developers/docs/events/gateway-events#guild-member-remove). Get
        Guild Member then answers 404 Unknown Member (:meth:`Rest._get_member`)."""
        self._member_gone(guild, user)

    def _member_gone(self, guild: Guild, user: TestUser) -> None:
        del guild.members[user.id]
        guild.timeouts.pop(user.id, None)
        self.gateway.dispatch("GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id),
                                                      "user": user_payload(user.user)},
                              intent=INTENT_GUILD_MEMBERS)

    def _member_removed(self, guild: Guild, user: TestUser, by: TestUser | None,
                        action: int) -> None:
        self._member_gone(guild, user)
        if bot_guild_permissions(guild) & VIEW_AUDIT_LOG:
            entry = {"id": str(self.world.snowflakes.next()), "guild_id": str(guild.id),
                     "action_type": action, "target_id": str(user.id),
                     "user_id": str(by.id if by is not None else guild.owner_id),
                     "changes": [], "reason": None}
            self.gateway.dispatch("GUILD_AUDIT_LOG_ENTRY_CREATE", entry,
                                  intent=INTENT_GUILD_MODERATION)

    def time_out(self, guild: Guild, user: TestUser, seconds: float) -> None:
        """A moderator times ``user`` out for ``seconds`` (Modify Guild Member's
        ``communication_disabled_until``, https://discord.com/developers/docs/resources/guild#modify-guild-member):
        interactions report it in their member object, their permissions shrink to View
        Channel and Read Message History (`payloads.permissions_of`), so their client offers
        no application command (`TestUser.slash` refuses); the docs say nothing of message
        components, whose clicks the fake still delivers."""
        guild.timeouts[user.id] = self.clock.now() + timedelta(seconds=seconds)
        member = member_payload(self.world, guild, user.id)
        self.gateway.dispatch("GUILD_MEMBER_UPDATE", {**member, "guild_id": str(guild.id)},
                              intent=INTENT_GUILD_MEMBERS)

    def messages(self, channel: Channel | None = None) -> list[Message]:
        """Every message in the channel, everyone's ephemerals included (a god's view)."""
        where = channel or self.channel
        return [snapshot(self.world, m) for m in self.world.in_channel(where.id)]

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self.world.interactions.values())

    # -- waiting -----------------------------------------------------------------------

    async def settle(
        self, *, timeout: float = 30.0, quiet: float | None = None, require_answers: bool = True
    ) -> None:
        """Wait until the bot has no pending work.

        Returns once no REST request is in flight, no gateway event is waiting to be sent,
        no task of the event loop can run, no connected client says it is ``busy`` (work
        outside the loop, see :meth:`connect`), all of that for several turns of the loop
        and ``quiet`` real seconds (default: the fake's ``quiet``), and (with
        ``require_answers``) every interaction got a response attempt, even a refused one.
        Raises :class:`SettleTimeout` after ``timeout`` real seconds, naming what the bot
        never answered (each is reported once); the timeout only bounds a failing test, so
        it is generous for busy machines.

        The fake clock does not move while settling, except with latency on
        (:meth:`enable_latency`): a call on its way is pending work, and when nothing else
        can run (the loop idle for several polls, no gateway frame, no busy client) the clock
        jumps to the next call's arrival, as a discrete-event simulation would. Calls made in
        series then move it by the sum of their delays, concurrent calls by the longest.
        The bot's own timers are not woken by these jumps, only by the test's ``advance``.
        """

        def unanswered() -> list[str]:
            return [
                f"{i.description} by {self.world.users[i.user_id].name}"
                for i in self.hub.unanswered()
            ]

        def abandon() -> None:
            for interaction in self.hub.unanswered():
                interaction.abandoned = True

        def clients_busy() -> bool:
            return any(getattr(client, "busy", False) for client in self._watched)

        def busy_or_travelling() -> bool:
            """Clients busy, or calls on their way (then move the fake clock past the
            next one once nothing else can run; a wall clock's sleep just ends)."""
            if clients_busy():
                self._idle_polls = 0
                return True
            if not self.latency.waiting:
                self._idle_polls = 0
                return False
            wake = self.clock.next_wake()
            if wake is not None and not self.gateway.busy() and loop_is_idle():
                # Consecutive idle polls only: a request served in between resets the count.
                if self._idle_since != self.activity.last_change:
                    self._idle_since, self._idle_polls = self.activity.last_change, 0
                self._idle_polls += 1
                if self._idle_polls >= IDLE_POLLS:
                    self._idle_polls = 0
                    self.clock.advance_to(wake)
            else:
                self._idle_polls = 0
            return True

        await wait_until_idle(
            self.activity,
            self.gateway.busy,
            busy_or_travelling,
            unanswered,
            abandon,
            quiet=self.quiet if quiet is None else quiet,
            timeout=timeout,
            require_answers=require_answers,
        )

    # -- calls and errors --------------------------------------------------------------

    @property
    def calls(self) -> list[CallRecord]:
        """Every REST call so far, in arrival order."""
        return list(self.log.records)

    def mark(self) -> int:
        """A position in :attr:`calls`, for :meth:`calls_since`."""
        return len(self.log.records)

    def calls_since(self, mark: int, route: str | None = None) -> list[CallRecord]:
        """Calls after ``mark``, optionally only those of one route template."""
        return [c for c in self.log.records[mark:] if route is None or c.route == route]

    def inject_429(
        self,
        route: str,
        *,
        method: str | None = None,
        times: int = 1,
        retry_after: float = 0.0,
        is_global: bool = False,
        user: TestUser | None = None,
        uploads: bool = False,
    ) -> None:
        """Answer the next ``times`` calls to ``route`` (a template such as
        ``/channels/{channel_id}/messages``) with a 429, to test the bot's retries. With
        ``user``, only the calls made with that user's interaction tokens: Discord counts
        webhook routes per "webhook_id + webhook_token" (Rate Limits,
        https://discord.com/developers/docs/topics/rate-limits), so one player's hand can
        be limited while the others' are not. With ``uploads``, only the calls that upload
        files (a multipart body: Uploading Files,
        https://discord.com/developers/docs/reference#uploading-files)."""
        name = None if user is None else user.name
        self.log.add_rate_limit(RateLimit(method, route, times, retry_after, is_global, name,
                                          uploads))

    def inject_error(
        self,
        route: str,
        error: DiscordError | int,
        *,
        method: str | None = None,
        times: int = 1,
        uploads: bool = False,
        handled: bool = False,
    ) -> None:
        """Answer the next ``times`` calls to ``route`` with ``error``: one of Discord's
        (`fakediscord.errors`, e.g. ``request_entity_too_large()``), or a bare HTTP status,
        answered as Discord answers one ("502: Bad Gateway", code 0). With ``uploads``, only
        calls that upload files. Discord's HTTP Response Codes
        (https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes)
        say of a 502 "Wait a bit and retry", of other 5xx "these are rare". discord.py
        itself retries a 500, 502, 504 or 524 five times, sleeping 1, 3, 5, 7 and 9 s with
        `asyncio.sleep` on the wall clock: a test injecting those puts discord.http's
        sleeps on the fake clock (tests/bot/e2e.py, `http_waits_on_the_fake_clock`) and
        injects five per call; a 503 is raised at once (`DiscordServerError`). Injected
        answers are not errors the test must expect.

        With ``handled``, each call is carried out first and the error answered after it.
        Those docs do not say a 5xx leaves the call undone, and a 504 is a gateway that gave
        up waiting for the server behind it ("did not receive a timely response from an
        upstream server", RFC 9110, 15.6.5 504 Gateway Timeout), which may still do the
        work: the sender cannot tell."""
        if isinstance(error, int):
            error = DiscordError(error, 0, f"{error}: {HTTPStatus(error).phrase}")
        self.log.add_failure(Failure(method, route, times, error.status, error.body(), uploads,
                                     handled))

    def inject_disconnect(
        self, route: str, *, method: str | None = None, times: int = 1, uploads: bool = False,
        handled: bool = False,
    ) -> None:
        """Drop the connection of the next ``times`` calls to ``route`` without answering
        (a network failure: discord.py raises aiohttp's `ServerDisconnectedError`); with
        ``uploads``, only calls that upload files. With ``handled``, each call is carried out
        first, its answer lost on the way back (the network, not Discord): the sender cannot
        tell it from a call that never arrived."""
        self.log.add_failure(Failure(method, route, times, None, None, uploads, handled))

    def inject_timeout(self, route: str, *, method: str | None = None, times: int = 1) -> None:
        """Time out the next ``times`` calls to ``route`` in the connected client itself, as
        aiohttp's `ClientTimeout` would, at once and before they are sent: the client
        raises `TimeoutError` (:mod:`fakediscord.timeouts`), and no sleep is needed."""
        self.timeouts.add(Timeout(method, route, times))

    def enable_rate_limits(self, config: RateLimitConfig | None = None) -> None:
        """Enforce Discord's per-route buckets and global limit (``RateLimitConfig()``:
        Discord's global 50/s, common per-route numbers) on the fake clock from now on."""
        self.limiter.enable(config or RateLimitConfig())

    def enable_latency(self, config: LatencyConfig | None = None) -> None:
        """Make every REST call take time from now on (``LatencyConfig()``: 80 ms ± 40 ms
        per call, our assumption: Discord publishes no figure; see
        :mod:`fakediscord.latency`), measured on the fake clock: in tests :meth:`settle`
        moves the clock past each call once nothing else can run, so no test sleeps."""
        self.latency.enable(config or LatencyConfig())

    def disable_latency(self) -> None:
        """Back to answers at once, for calls that arrive from now on."""
        self.latency.enable(None)

    def invalid_requests(self, window: float = INVALID_REQUEST_WINDOW) -> int:
        """401, 403 and 429 answers in the last ``window`` seconds of the fake clock: what
        Cloudflare counts toward its ban at 10,000 per 10 minutes (see ``calls``)."""
        return self.log.invalid_requests(self.clock.monotonic() - window)

    @property
    def errors(self) -> list[CallRecord]:
        """Refused calls (status >= 400, injected 429s aside) not yet expected by the test."""
        return self.log.errors()

    def expect_error(self, code: int) -> CallRecord:
        """Claim one refused call with Discord error ``code`` (e.g. 10062), or fail."""
        return self.log.expect_error(code)

    def expect_rate_limited(self) -> CallRecord:
        """Claim one 429 of the rate limits (:meth:`enable_rate_limits`), or fail."""
        return self.log.expect_status(429)

    def assert_no_errors(self) -> None:
        """Fail if the fake refused anything the test did not expect."""
        found = self.errors
        if found:
            raise AssertionError(
                "Discord refused the bot's calls:\n" + "\n".join(f"  {c}" for c in found)
            )


def _changed(bits: int, allowed: dict[str, bool]) -> int:
    """``bits`` with the permissions named in ``allowed`` granted (True) or taken (False)."""
    known = {**GUILD_PERMISSIONS, **CHANNEL_PERMISSIONS}
    for name, on in allowed.items():
        if name not in known:
            raise ValueError(f"unknown permission {name!r}: {sorted(known)}")
        bits = bits | known[name] if on else bits & ~known[name]
    return bits


def _first_shard(client: discord.Client) -> int:
    """The shard ``client`` IDENTIFYs first (discord.py starts its shards in order)."""
    if isinstance(client, discord.AutoShardedClient):
        return (client.shard_ids or [0])[0]
    return client.shard_id or 0


def _shards_to_start(client: discord.Client) -> int:
    """How many sessions ``client`` starts; an auto-sharded client knows once it asked."""
    if isinstance(client, discord.AutoShardedClient):
        return len(client.shard_ids or range(client.shard_count or 1))
    return 1
