"""Everything the fake Discord remembers: users, guilds, channels, messages, interactions.

It outlives bot connections on purpose: a restarted bot finds its old messages, and
users can still click them.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from . import errors
from .clock import FakeClock
from .snowflake import Snowflakes

EPHEMERAL = 1 << 6
LOADING = 1 << 7
COMPONENTS_V2 = 1 << 15

APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
MODAL_SUBMIT = 5

# Channel types (Channel Object, Channel Types,
# https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
GUILD_TEXT = 0
DM = 1  # "a direct message between users": here, between a user and the bot
GUILD_VOICE = 2
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_STAGE_VOICE = 13
GUILD_FORUM = 15
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})
# Channels with a voice side, whose text chat also needs CONNECT (`payloads.bot_permissions`).
VOICE_TYPES = frozenset({GUILD_VOICE, GUILD_STAGE_VOICE})
# The `guild_id` a DM channel (and its messages and interactions) holds: it is in no guild,
# and every payload built from it leaves the guild out (`payloads.interaction_payload`).
NO_GUILD = 0


@dataclass
class User:
    """A Discord account: a test user or the bot itself."""

    id: int
    name: str
    locale: str = "en-US"
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Channel:
    """A guild channel of ``type`` (text, voice, announcement, stage, forum), a DM with the
    bot (`World.dm_channel`: in `NO_GUILD`, ``members`` its two ends), or with
    ``parent_id`` a thread of one (active unless ``archived``, and ``locked`` by a moderator
    or not); ``bot_permissions`` replaces what the bot's roles give it there (None: the
    parent's for a thread, else the guild's), as a channel overwrite would.

    A thread archives itself after ``auto_archive_duration`` minutes without activity,
    counted from ``active_since`` (`World.archive_idle`); a private thread is seen only by
    its ``members`` and by moderators. ``rate_limit_per_user`` is its slowmode, in seconds."""

    id: int
    guild_id: int
    name: str
    position: int
    bot_permissions: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None  # a thread's: who started it
    archived: bool = False
    locked: bool = False
    type: int = GUILD_TEXT
    rate_limit_per_user: int = 0
    auto_archive_duration: int = 1440
    active_since: datetime | None = None
    members: set[int] = field(default_factory=set)
    recipient: User | None = None  # a DM's user, beside the bot

    @property
    def thread(self) -> bool:
        return self.type in THREAD_TYPES


@dataclass
class Guild:
    """A server; ``members`` maps user ids to when they joined (the bot is always one).

    ``owner_id`` is a user the tests never act as (the bot is not the owner: Discord gives
    an owner every permission whatever the channel's overwrites say). ``bot_role_id`` is the
    role the bot's invitation gave it, whose permissions ``bot_permissions`` sets (None:
    every one but Administrator, which likewise "bypasses channel permission overwrites",
    https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags);
    ``everyone_permissions`` are @everyone's (None: those of a fresh server); ``roles``
    the server's other roles (id → name and permissions), ``bot_roles`` those of them the
    bot holds;
    ``timeouts`` maps the members a moderator timed out to when their timeout ends; ``bans``
    holds the users banned from it; ``available`` is false during an outage
    (`FakeDiscord.start_outage`)."""

    id: int
    name: str
    locale: str
    owner_id: int
    bot_role_id: int
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, datetime] = field(default_factory=dict)
    bot_permissions: int | None = None
    everyone_permissions: int | None = None
    roles: dict[int, tuple[str, int]] = field(default_factory=dict)
    bot_roles: set[int] = field(default_factory=set)
    timeouts: dict[int, datetime] = field(default_factory=dict)
    bans: set[int] = field(default_factory=set)
    available: bool = True


@dataclass
class StoredMessage:
    """A message as Discord stores it; ``ephemeral_to`` is the only user who may see it.

    ``dismissed_at`` is when that user dismissed it (None: never; see :meth:`World.dismiss`).
    """

    id: int
    channel_id: int
    guild_id: int
    author_id: int
    created_at: datetime
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_at: datetime | None = None
    ephemeral_to: int | None = None
    webhook_id: int | None = None
    interaction_id: int | None = None
    dismissed_at: datetime | None = None
    pinned_at: datetime | None = None  # None: not pinned
    # A system message's `message_reference`: the message it is about (a pin's).
    reference_id: int | None = None
    # The nonce its Create Message carried, as sent (`payloads.message_payload`).
    nonce: int | str | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def dismissed(self) -> bool:
        return self.dismissed_at is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)


@dataclass
class InteractionRecord:
    """One interaction a test user caused, and what the bot did with it.

    Returned by every test-client action so a test can check how the bot answered
    (``response_type`` 4, 5, 6, 7 or 9) and which messages it produced.
    """

    id: int
    token: str
    type: int
    user_id: int
    guild_id: int
    channel_id: int
    created_at: float
    data: dict[str, Any]
    description: str
    message_id: int | None = None
    response_type: int | None = None
    attempted: bool = False
    abandoned: bool = False
    # When the bot's callback arrived, on the fake clock (the load benchmark's ack time).
    answered_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    # The ``data`` of the bot's first response, as sent: later edits of the message it
    # created or updated do not change it, so a test can tell what this answer showed.
    response: dict[str, Any] | None = None

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


class World:
    """The registry of everything, plus the rules of who may see what."""

    def __init__(self, clock: FakeClock, snowflakes: Snowflakes, bot_name: str) -> None:
        self.clock = clock
        self.snowflakes = snowflakes
        self.application_id = snowflakes.next()
        self.bot = User(id=self.application_id, name=bot_name, bot=True)
        self.users: dict[int, User] = {self.bot.id: self.bot}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        # The same messages by channel: what a user sees is read after every action, and
        # scanning every message of a long run for it was most of the fake's own cost.
        self._by_channel: dict[int, dict[int, StoredMessage]] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        # Those not yet attempted nor abandoned, and some that since were (pruned when read):
        # a settle asks after every user action, and a long run holds many thousands.
        self.waiting: dict[int, InteractionRecord] = {}
        # The application's emojis (fakediscord.emojis keeps them): the custom emojis its
        # buttons and select options may show.
        self.emoji_ids: set[int] = set()
        self._by_token: dict[str, InteractionRecord] = {}
        # When each member last posted in each channel, for its slowmode.
        self.said_at: dict[tuple[int, int], datetime] = {}

    def add_user(self, name: str, locale: str, user_id: int | None = None) -> User:
        """A new account; ``user_id`` gives it a known id (one that outlives a run)."""
        user = User(id=self.snowflakes.next() if user_id is None else user_id, name=name,
                    locale=locale)
        self.users[user.id] = user
        return user

    def dm_channel(self, user_id: int) -> Channel:
        """The DM channel between ``user_id`` and the bot, made the first time it is asked
        for: "a direct message between users" (Channel Types, DM 1), its ``recipients`` the
        other user (Channel Object, Example DM Channel,
        https://discord.com/developers/docs/resources/channel#channel-object), in no guild
        (`NO_GUILD`). Only the user and the bot see it (`members`)."""
        for channel in self.channels.values():
            if channel.type == DM and channel.members == {user_id, self.bot.id}:
                return channel
        channel = Channel(id=self.snowflakes.next(), guild_id=NO_GUILD,
                          name="@" + self.users[user_id].name, position=0, type=DM,
                          members={user_id, self.bot.id}, recipient=self.users[user_id])
        self.channels[channel.id] = channel
        return channel

    def add_guild(self, name: str, locale: str, *, bot: bool = True,
                  guild_id: int | None = None) -> Guild:
        """A server, with the bot's user as a member unless ``bot`` is False; ``guild_id``
        gives it a known id."""
        guild = Guild(id=self.snowflakes.next() if guild_id is None else guild_id, name=name,
                      locale=locale,
                      owner_id=self.snowflakes.next(), bot_role_id=self.snowflakes.next())
        if bot:
            guild.members[self.bot.id] = self.clock.now()
        self.guilds[guild.id] = guild
        return guild

    def add_channel(self, guild: Guild, name: str, parent_id: int | None = None,
                    owner_id: int | None = None, channel_id: int | None = None,
                    kind: int = GUILD_TEXT) -> Channel:
        """A channel of type ``kind``; a thread (``parent_id`` given) is active from now,
        with its owner as its first member."""
        channel = Channel(
            id=self.snowflakes.next() if channel_id is None else channel_id,
            guild_id=guild.id, name=name,
            position=len(guild.channel_ids), parent_id=parent_id, owner_id=owner_id,
            type=kind,
        )
        if channel.thread:
            channel.active_since = self.clock.now()
            channel.members = {owner_id} if owner_id is not None else set()
        guild.channel_ids.append(channel.id)
        self.channels[channel.id] = channel
        return channel

    def archive_idle(self) -> list[Channel]:
        """Archive the threads left without activity for their ``auto_archive_duration``
        (« Threads automatically archive after a period of inactivity [...] "Activity" is
        defined as sending a message, unarchiving a thread, or changing the auto-archive
        time », Threads, Active & Archived Threads,
        https://discord.com/developers/docs/topics/threads#active-archived-threads): the
        ones archived now. An edit is no activity."""
        now = self.clock.now()
        archived = []
        for channel in self.channels.values():
            since = channel.active_since
            if channel.thread and not channel.archived and since is not None \
                    and now - since >= timedelta(minutes=channel.auto_archive_duration):
                channel.archived = True
                archived.append(channel)
        return archived

    def remove_channel(self, channel: Channel) -> None:
        """Delete a channel with its messages, and a text channel's threads with theirs."""
        gone = [c for c in self.channels.values() if c.parent_id == channel.id] + [channel]
        guild = self.guilds[channel.guild_id]
        for deleted in gone:
            for message in self._by_channel.pop(deleted.id, {}).values():
                del self.messages[message.id]
            guild.channel_ids.remove(deleted.id)
            del self.channels[deleted.id]

    def channel(self, channel_id: int) -> Channel:
        try:
            return self.channels[channel_id]
        except KeyError:
            raise errors.unknown_channel() from None

    def public_message(self, channel_id: int, message_id: int) -> StoredMessage:
        """A message reachable through channel endpoints: ephemeral ones never are."""
        message = self.messages.get(message_id)
        if message is None or message.channel_id != channel_id or message.ephemeral:
            raise errors.unknown_message()
        return message

    def can_see(self, user_id: int, message: StoredMessage) -> bool:
        """Whether Discord lets ``user_id`` see the message at all: an ephemeral one only
        its user ("this message is only visible to the user who invoked the Interaction",
        EPHEMERAL in Message Flags,
        https://discord.com/developers/docs/resources/message#message-object-message-flags).
        Dismissal does not change this: it is the user's client hiding the message (see
        :meth:`shows`)."""
        return message.ephemeral_to is None or message.ephemeral_to == user_id

    def shows(self, user_id: int, message: StoredMessage) -> bool:
        """Whether ``user_id``'s client shows the message: one they may see and have not
        dismissed."""
        return self.can_see(user_id, message) and not message.dismissed

    def add_message(self, message: StoredMessage) -> None:
        """Store a new message; one everybody sees in a thread is activity there
        (`archive_idle`)."""
        channel = self.channels.get(message.channel_id)
        if channel is not None and channel.thread and not message.ephemeral:
            channel.active_since = message.created_at
        self.messages[message.id] = message
        self._by_channel.setdefault(message.channel_id, {})[message.id] = message

    def remove_message(self, message: StoredMessage) -> None:
        del self.messages[message.id]
        del self._by_channel[message.channel_id][message.id]

    def in_channel(self, channel_id: int) -> list[StoredMessage]:
        """Every message of a channel, everyone's ephemerals included, oldest first."""
        return sorted(self._by_channel.get(channel_id, {}).values(), key=lambda m: m.id)

    def visible(self, user_id: int, channel_id: int) -> list[StoredMessage]:
        """What ``user_id`` sees in a channel, oldest first, as Discord's client shows it
        (dismissed ephemerals left out)."""
        return [m for m in self.in_channel(channel_id) if self.shows(user_id, m)]

    def dismiss(self, user_id: int, message_id: int) -> StoredMessage:
        """``user_id`` clicks "Dismiss message" under one of their ephemeral messages.

        What Discord documents: an ephemeral message "is only visible to the user who
        invoked the Interaction" (EPHEMERAL in Message Flags,
        https://discord.com/developers/docs/resources/message#message-object-message-flags),
        and the bot edits or deletes it through the interaction token, "valid for 15
        minutes" (Followup Messages, Edit Original Interaction Response, Edit Followup
        Message,
        https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages;
        "Delete Ephemeral Messages", change log of October 20, 2022). The reference never
        mentions dismissal; a Discord engineer does: "ephemeral messages are already
        temporary and can be dismissed by the user" (jhgg, discord/discord-api-docs issue
        #2919). No endpoint or gateway event exists for a dismissal, so the bot is told
        nothing: the message
        stays stored, the bot's edits and deletes through the token still succeed, only the
        user's client stops showing it (:meth:`visible`, and the test client refuses to act
        on it). As issue 8 §6 states it: "edits still succeed, the player sees nothing";
        here an edit does not bring the message back, and nothing undoes a dismissal.

        Dismissing a public message, someone else's ephemeral or one already dismissed is
        a mistake of the test: :class:`~fakediscord.errors.UserActionError`.
        """
        message = self.messages.get(message_id)
        if message is None:
            raise errors.UserActionError(f"message {message_id} no longer exists")
        user = self.users[user_id].name
        if not message.ephemeral:
            raise errors.UserActionError(
                f"{user} cannot dismiss message {message_id}: only ephemeral messages can be"
            )
        if message.ephemeral_to != user_id:
            raise errors.UserActionError(
                f"{user} cannot dismiss message {message_id} (someone else's ephemeral)"
            )
        if message.dismissed:
            raise errors.UserActionError(f"{user} already dismissed message {message_id}")
        message.dismissed_at = self.clock.now()
        return message

    def add_interaction(self, kind: int, user_id: int, channel: Channel, data: dict[str, Any],
                        description: str, message_id: int | None) -> InteractionRecord:
        """Record a new interaction with a fresh id and token, waiting for its answer."""
        interaction = InteractionRecord(
            id=self.snowflakes.next(),
            token="fake-" + secrets.token_urlsafe(32),
            type=kind,
            user_id=user_id,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            created_at=self.clock.monotonic(),
            data=data,
            description=description,
            message_id=message_id,
        )
        self.interactions[interaction.id] = interaction
        self.waiting[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        return interaction

    def carry_interaction(self, interaction: InteractionRecord) -> None:
        """An interaction answered before this fake existed (another run's, whose token
        a stored table still holds): its webhook answers edits as Discord's does, within
        the token's life."""
        self.interactions[interaction.id] = interaction
        self._by_token[interaction.token] = interaction

    def interaction_by_token(self, token: str) -> InteractionRecord | None:
        return self._by_token.get(token)
