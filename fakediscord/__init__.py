"""A local fake Discord that a real, unchanged discord.py client connects to.

It serves REST (``/api/v10``) and the gateway on 127.0.0.1, enforces the rules a mock
of ``Interaction`` would let slip (3-second acknowledgement, single acknowledgement,
15-minute tokens, component and message limits, ephemeral visibility) and lets tests
act as users. Shared by the end-to-end tests and the terminal sandbox.

Starting it and connecting a bot::

    async with FakeDiscord.running() as fake:      # serves, and points discord.py here
        bot = MyBot(..., guild_ready_timeout=0)    # else READY waits 2 real seconds
        await fake.connect(bot)                    # login, gateway, READY, GUILD_CREATE
        ...
        await fake.disconnect(bot)                 # a "process restart": state stays

or in pytest, with ``from fakediscord.pytest_plugin import fake`` in a conftest: the
``fake`` fixture also fails the test if Discord refused a call nobody expected.

Acting as users (each action waits for the bot to settle unless ``settle=False``)::

    alice = fake.add_user("alice", locale="fr")    # member of fake.guild, in fake.channel
    await alice.slash("president create", preset="classic", seats=4)
    table = alice.last_message()                   # a frozen Message snapshot
    await bob.click(table, "Join")                 # by label or custom_id
    await alice.select(alice.last_ephemeral(), ["K×2"])
    await alice.modal_submit(name="Chez Alice")    # the modal the bot opened
    alice.visible()                                # public messages + her ephemerals
    alice.dismiss(alice.last_ephemeral())          # gone from her screen; the bot is not told
    print(render_message(table))                   # text with numbered controls

Time and Discord's refusals::

    await alice.slash("slow", settle=False)
    fake.clock.advance(3.5)                        # no real waiting, ever
    ...                                            # let the bot answer
    await fake.settle()
    fake.expect_error(10062)                       # claim the refusal; others still fail

``fake.calls`` / ``fake.calls_since(fake.mark())`` list every REST call (method, route
template, fake time, caller, the user whose token was used, status);
``fake.inject_429(route)`` makes discord.py retry; ``fake.invalid_requests()`` counts the
401/403/429 answers of the last 10 minutes (Cloudflare bans an IP at 10,000).
``fake.inject_error(route, 503)`` (or ``errors.request_entity_too_large()``, any
``DiscordError``) and ``fake.inject_disconnect(route)`` fail the next calls to a route
(``uploads=True``: only those that upload files, as ``inject_429`` can too); a 500, 502, 504
or 524 makes discord.py retry with real sleeps unless the test moves them to the fake clock.
``fake.enable_rate_limits(RateLimitConfig(...))`` enforces per-route buckets (a channel's
message routes per channel, webhook routes per id + token) and the global limit (50/s,
interaction endpoints excluded) on the fake clock, with Discord's X-RateLimit-* headers
and 429 bodies; a 429 from them is an error the test must expect.
``fake.enable_latency(LatencyConfig(mean=0.08, jitter=0.04, seed=1))`` makes every REST
call (interaction callbacks included) take that long on the fake clock; ``settle`` moves the
clock past each call once nothing else can run, so calls in series cost the sum of their
delays and concurrent ones the longest, with no real sleep (80 ms ± 40 is our assumption:
Discord publishes no latency figure).

Permissions and old messages::

    fake.set_bot_permissions(fake.channel, send_messages=False)   # POST → 403 50013
    fake.set_bot_permissions(fake.channel, view_channel=False)    # any channel route → 50001
    fake.set_bot_permissions(fake.channel, attach_files=False)    # files posted or edited in → 50013
    fake.writer.old_edit_limit = 3     # edits of a message over an hour old, then 30046

Servers: ``fake.add_guild("Le Cercle", locale="fr")`` with ``fake.add_channel(guild, "cartes")``
(``kind=GUILD_VOICE``, ``GUILD_ANNOUNCEMENT``, ``GUILD_FORUM``… for other places; threads with
``fake.add_thread(parent, name, owner, private=…, auto_archive=…)``);
``add_guild(..., bot=False)`` is a server that added only the app's commands (its
interactions reach the bot, no channel route is allowed) until ``fake.invite_bot(guild)``;
``fake.remove_bot(guild)`` kicks the bot, ``fake.delete_channel(channel)`` deletes a channel;
``fake.start_outage(guild)`` and ``fake.end_outage(guild)`` make a server unavailable and
available again (GUILD_DELETE with ``unavailable``, then GUILD_CREATE; a bot connecting
during the outage gets the GUILD_DELETE instead of its GUILD_CREATE).

Moderators: ``fake.ban(guild, bob)`` and ``fake.kick(guild, bob)`` remove a member, the bot
told as Discord tells it (GUILD_BAN_ADD, GUILD_AUDIT_LOG_ENTRY_CREATE) only with the
moderation intent and the server-wide permissions they need
(``fake.set_bot_guild_permissions(guild, view_audit_log=True, ban_members=False)``);
``fake.set_everyone_permissions(guild, send_messages=False)`` changes @everyone's role;
``fake.give_bot_role(guild, fake.add_role(guild, "Croupier", send_messages=True))`` gives
the bot another role (``given=False`` takes it back, ``fake.delete_role`` deletes it); the
bot's permissions are @everyone's and its roles' together, each change sent as Discord sends
it (GUILD_ROLE_UPDATE, _CREATE, _DELETE, the bot's GUILD_MEMBER_UPDATE); ``fake.time_out(guild, bob, 600)`` times a member out: their interactions carry
``communication_disabled_until`` and their permissions shrink, and ``bob.slash`` refuses.
``fake.pin(message, modo)`` pins a message (its notice posted below it, type 6, and
CHANNEL_PINS_UPDATE; ``pinned=False`` unpins, the event alone), ``fake.rename_channel(channel,
"soirée")`` renames a channel or thread (CHANNEL_UPDATE, THREAD_UPDATE).

Threads: ``fake.add_thread(fake.channel, "partie", alice)`` makes a public thread, where
posting needs Send Messages in Threads rather than Send Messages
(``fake.set_bot_permissions(thread, send_messages_in_threads=False)``).

Known limitations: guild text channels and their public threads only (no DMs, private or
archived threads, thread members, reactions, typing, role
overwrites: members have @everyone's permissions and the bot its role's too, per channel
one member overwrite for the bot); users
cannot post plain messages; users pick only in string selects; no autocomplete, context
menus, or role/mentionable/attachment options; one application per fake; the gateway
neither compresses nor replays events missed during a drop; rate limits (off by default)
cover only the message and webhook routes' buckets and the global limit;
uploads keep only file names and sizes; error codes follow Discord's shape, but some
nested error code strings are approximations.
"""

from .calls import CallRecord
from .client import TestUser
from .clock import FakeClock, WallClock
from .errors import DiscordError, SettleTimeout, UserActionError
from .latency import LatencyConfig, Spread
from .ratelimits import RateLimitConfig, Window
from .render import Words, render_message, render_modal
from .server import FakeDiscord
from .snapshots import Button, Embed, EmbedField, Message, Modal, Select, SelectOption, TextInput
from .state import (
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_STAGE_VOICE,
    GUILD_TEXT,
    GUILD_VOICE,
    Channel,
    Guild,
    InteractionRecord,
)

__all__ = [
    "Button",
    "CallRecord",
    "Channel",
    "DiscordError",
    "Embed",
    "EmbedField",
    "FakeClock",
    "FakeDiscord",
    "GUILD_ANNOUNCEMENT",
    "GUILD_FORUM",
    "GUILD_STAGE_VOICE",
    "GUILD_TEXT",
    "GUILD_VOICE",
    "Guild",
    "InteractionRecord",
    "LatencyConfig",
    "Message",
    "Modal",
    "RateLimitConfig",
    "Select",
    "SelectOption",
    "SettleTimeout",
    "Spread",
    "TestUser",
    "TextInput",
    "UserActionError",
    "WallClock",
    "Window",
    "render_message",
    "render_modal",
    "Words",
]
