"""The JSON shapes discord.py parses.

discord.py indexes many keys without defaults, and a missing one raises inside the
gateway parser and kills the client, so these payloads are complete rather than minimal.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from .snowflake import DISCORD_EPOCH_MS
from .state import (
    DM,
    GUILD_FORUM,
    GUILD_VOICE,
    NO_GUILD,
    PRIVATE_THREAD,
    VOICE_TYPES,
    Channel,
    Guild,
    InteractionRecord,
    StoredMessage,
    User,
    World,
)

# View channel, send messages, embed links, attach files, read history, add reactions,
# external emojis, connect, speak, use application commands: what @everyone has on a fresh
# server.
EVERYONE_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18)
    | (1 << 20) | (1 << 21) | (1 << 31)
)
ALL_PERMISSIONS = (1 << 53) - 1
ADMINISTRATOR = 1 << 3
# The bot's role: every permission but Administrator, which "Allows all permissions and
# bypasses channel permission overwrites" (Permissions, Bitwise Permission Flags,
# https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
BOT_ROLE_PERMISSIONS = ALL_PERMISSIONS & ~ADMINISTRATOR
# The bot's channel permissions tests can take away, with their bits from
# https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_MESSAGES_IN_THREADS = 1 << 38
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
MANAGE_THREADS = 1 << 34
CONNECT = 1 << 20
# Server-wide permissions behind the moderation events (Gateway Events, Guild Ban Add and
# Guild Audit Log Entry Create, https://discord.com/developers/docs/events/gateway-events).
BAN_MEMBERS = 1 << 2
VIEW_AUDIT_LOG = 1 << 7
GUILD_PERMISSIONS = {
    "ban_members": BAN_MEMBERS,
    "view_audit_log": VIEW_AUDIT_LOG,
}
# "Timed out members will temporarily lose all permissions except `VIEW_CHANNEL` and
# `READ_MESSAGE_HISTORY`. Owners and admin users with `ADMINISTRATOR` permissions are
# exempt" (Permissions For Timed Out Members,
# https://discord.com/developers/docs/topics/permissions#permissions-for-timed-out-members).
TIMED_OUT_PERMISSIONS = VIEW_CHANNEL | READ_MESSAGE_HISTORY
CHANNEL_PERMISSIONS = {
    "view_channel": VIEW_CHANNEL,
    "send_messages": SEND_MESSAGES,
    "send_messages_in_threads": SEND_MESSAGES_IN_THREADS,
    "embed_links": EMBED_LINKS,
    "attach_files": ATTACH_FILES,
    "read_message_history": READ_MESSAGE_HISTORY,
    "use_external_emojis": USE_EXTERNAL_EMOJIS,
    "manage_threads": MANAGE_THREADS,
    "connect": CONNECT,
}
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

USER_MENTION = re.compile(r"<@!?(\d+)>")


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.name,
        "discriminator": "0",
        "avatar": None,
        "bot": user.bot,
        "public_flags": 0,
    }


def bot_user_payload(user: User) -> dict[str, Any]:
    """The extra keys of ``ClientUser`` (login and READY)."""
    return {
        **user_payload(user),
        "verified": True,
        "mfa_enabled": False,
        "flags": 0,
        "locale": user.locale,
        "email": None,
    }


def member_payload(world: World, guild: Guild, user_id: int) -> dict[str, Any]:
    """A member; the bot's has its role (`role_payload`), the others only @everyone."""
    return {
        "user": user_payload(world.users[user_id]),
        "roles": [str(guild.bot_role_id), *(str(r) for r in sorted(guild.bot_roles))]
        if user_id == world.bot.id else [],
        "joined_at": iso(guild.members[user_id]),
        "nick": None,
        "avatar": None,
        "banner": None,
        "premium_since": None,
        "communication_disabled_until": iso(guild.timeouts.get(user_id)),
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
    }


def permissions_of(guild: Guild, user_id: int, now: datetime | None = None) -> int:
    """The member's server-wide permissions; at ``now``, a member in timeout keeps only
    `TIMED_OUT_PERMISSIONS` (the owner is exempt; the fake has no administrator role)."""
    if user_id == guild.owner_id:
        return ALL_PERMISSIONS
    bits = everyone_permissions(guild)
    until = guild.timeouts.get(user_id)
    if now is not None and until is not None and until > now:
        return bits & TIMED_OUT_PERMISSIONS
    return bits


def everyone_permissions(guild: Guild) -> int:
    """@everyone's permissions: a fresh server's unless a test set them."""
    if guild.everyone_permissions is not None:
        return guild.everyone_permissions
    return EVERYONE_PERMISSIONS


def bot_role_permissions(guild: Guild) -> int:
    """The permissions of the bot's role: every one but Administrator unless a test set
    `Guild.bot_permissions`."""
    if guild.bot_permissions is not None:
        return guild.bot_permissions
    return BOT_ROLE_PERMISSIONS


def bot_guild_permissions(guild: Guild) -> int:
    """What the bot may do server-wide: @everyone's permissions and its roles' together
    (« compute_base_permissions »: "permissions = role_everyone.permissions / for role in
    member.roles: permissions |= role.permissions", Permission Hierarchy,
    https://discord.com/developers/docs/topics/permissions#permission-hierarchy)."""
    bits = everyone_permissions(guild) | bot_role_permissions(guild)
    for role_id in guild.bot_roles:
        bits |= guild.roles[role_id][1]
    return bits


def bot_permissions(world: World, channel: Channel) -> int:
    """The bot's computed permissions in ``channel``: what interactions report as
    ``app_permissions`` ("Bitwise set of permissions the app has within the channel the
    interaction was sent from", interaction object,
    https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object)
    and what the REST routes enforce. A bot removed from the guild has none there (its
    interactions report `app_permissions`)."""
    if world.bot.id not in world.guilds[channel.guild_id].members:
        return 0
    if channel.bot_permissions is not None:
        return channel.bot_permissions
    if channel.parent_id is not None:  # "Threads generally inherit permissions from the
        return bot_permissions(world, world.channel(channel.parent_id))  # parent channel"
    return bot_guild_permissions(world.guilds[channel.guild_id])


def bot_reaches(world: World, channel: Channel) -> bool:
    """Whether the bot may reach the channel at all (else every channel route answers 403
    50001 Missing Access). View Channel first ("Denying a user or a role VIEW_CHANNEL on a
    channel implicitly denies other permissions on the channel", Implicit Permissions,
    https://discord.com/developers/docs/topics/permissions#implicit-permissions). In a
    voice or stage channel's text chat, Connect too: the message routes there "must _also_
    have the `CONNECT` permission" (Get Channel Messages, Get Channel Message,
    https://discord.com/developers/docs/resources/message#get-channel-messages), and
    "denying the `CONNECT` permission also implicitly denies other permissions" (Implicit
    Permissions); Discord answers the missing Connect as the missing View Channel, Missing
    Access (« Connect seems to behave like VIEW_CHANNEL on voice channels »,
    discord/discord-api-docs issue #1522, documented by pull request #4291). In a private
    thread, membership: "You must be invited to the thread to be able to view or
    participate in it, or be a moderator (`MANAGE_THREADS` permission)" (Threads,
    Permissions, https://discord.com/developers/docs/topics/threads#permissions), whatever
    the permissions it inherits from its channel."""
    granted = bot_permissions(world, channel)
    if not granted & VIEW_CHANNEL:
        return False
    if channel.type in VOICE_TYPES and not granted & CONNECT:
        return False
    return channel.type != PRIVATE_THREAD or world.bot.id in channel.members \
        or bool(granted & MANAGE_THREADS)


# What an app whose bot user is not in the guild may do there: "For apps without a bot user
# (or without the `bot` scope), the value of `app_permissions` will be the same as the
# permissions for `@everyone`, but limited to the permissions that can be used in interaction
# responses (currently `ATTACH_FILES`, `EMBED_LINKS`, `MENTION_EVERYONE`, and
# `USE_EXTERNAL_EMOJIS`)" (change log, June 29, 2022, « Calculated Permissions in Interaction
# Payloads », https://discord.com/developers/docs/change-log).
RESPONSE_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS


def app_permissions(world: World, channel: Channel) -> int:
    """What an interaction in ``channel`` reports as ``app_permissions``: the bot's
    permissions there, or where its user is not in the guild, @everyone's limited to
    `RESPONSE_PERMISSIONS` (the REST routes still refuse it everything: `bot_permissions`)."""
    if world.bot.id not in world.guilds[channel.guild_id].members:
        return everyone_permissions(world.guilds[channel.guild_id]) & RESPONSE_PERMISSIONS
    return bot_permissions(world, channel)


def role_payload(guild: Guild, *, bot: bool = False, role_id: int | None = None,
                 ) -> dict[str, Any]:
    """@everyone (its id is the guild's), with ``bot`` the role the bot's invitation gave
    it, or the server's role ``role_id`` (Role Object,
    https://discord.com/developers/docs/topics/permissions#role-object)."""
    if role_id is not None:
        name, permissions = guild.roles[role_id]
        shown, position = (role_id, name, permissions), 2
    elif bot:
        shown, position = (guild.bot_role_id, "Président", bot_role_permissions(guild)), 1
    else:
        shown, position = (guild.id, "@everyone", everyone_permissions(guild)), 0
    return {
        "id": str(shown[0]),
        "name": shown[1],
        "permissions": str(shown[2]),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def channel_payload(channel: Channel, bot_id: int | None = None) -> dict[str, Any]:
    """A channel or a thread. With ``bot_id`` a channel's `Channel.bot_permissions`
    come as the member overwrite on the bot that gives exactly them ("explicit permission
    overwrites for members and roles", Channel Object, and Overwrite Object, "either 0 (role)
    or 1 (member)", https://discord.com/developers/docs/resources/channel#overwrite-object):
    what discord.py computes the bot's permissions from (GUILD_CREATE, CHANNEL_UPDATE).
    Threads have no overwrites: they "generally inherit permissions from the parent channel"
    (Threads, Permissions, https://discord.com/developers/docs/topics/threads#permissions).
    A voice or stage channel has its bitrate and user limit, a forum its tags and its
    posts' defaults (Channel Object, the fields each type has)."""
    if channel.thread:
        return thread_payload(channel, bot_id)
    if channel.type == DM:  # Example DM Channel: its recipients, no guild, name nor position
        return {"id": str(channel.id), "type": DM, "last_message_id": None, "flags": 0,
                "recipients": [user_payload(channel.recipient)]
                if channel.recipient is not None else []}
    overwrites = [] if bot_id is None or channel.bot_permissions is None else [{
        "id": str(bot_id), "type": 1, "allow": str(channel.bot_permissions),
        "deny": str(ALL_PERMISSIONS & ~channel.bot_permissions)}]
    payload: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": overwrites,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "rate_limit_per_user": channel.rate_limit_per_user,
        "last_message_id": None,
        "flags": 0,
    }
    if channel.type in VOICE_TYPES:
        payload.update(bitrate=64000, user_limit=0, rtc_region=None)
        if channel.type == GUILD_VOICE:
            payload["video_quality_mode"] = 1
    elif channel.type == GUILD_FORUM:
        payload.update(available_tags=[], default_reaction_emoji=None,
                       default_thread_rate_limit_per_user=0, default_sort_order=None,
                       default_forum_layout=0, default_auto_archive_duration=1440)
    return payload


def thread_payload(channel: Channel, bot_id: int | None = None) -> dict[str, Any]:
    """A thread (announcement, public or private), archived and locked or not, as the
    channel object describes one (https://discord.com/developers/docs/resources/channel#channel-object
    and « Thread Metadata Structure » there); with ``bot_id``, the bot's own thread member
    where it is one ("a thread member object as a property on any returned threads the
    current [user] is a member of", Threads, Syncing for the current user,
    https://discord.com/developers/docs/topics/threads#syncing-for-the-current-user)."""
    assert channel.parent_id is not None and channel.owner_id is not None
    created = iso(datetime.fromtimestamp(
        ((channel.id >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC))
    metadata: dict[str, Any] = {
        "archived": channel.archived, "auto_archive_duration": channel.auto_archive_duration,
        "archive_timestamp": created, "locked": channel.locked, "create_timestamp": created}
    if channel.type == PRIVATE_THREAD:
        metadata["invitable"] = True
    payload: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "parent_id": str(channel.parent_id),
        "owner_id": str(channel.owner_id),
        "name": channel.name,
        "last_message_id": None,
        "rate_limit_per_user": channel.rate_limit_per_user,
        "message_count": 0,
        "member_count": len(channel.members),
        "flags": 0,
        "thread_metadata": metadata,
    }
    if bot_id is not None and bot_id in channel.members:
        payload["member"] = {"id": str(channel.id), "user_id": str(bot_id),
                             "join_timestamp": created, "flags": 0}
    return payload


def guild_payload(world: World, guild: Guild) -> dict[str, Any]:
    """The full GUILD_CREATE body, with every list ``Guild._from_data`` walks."""
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "application_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "widget_enabled": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "vanity_url_code": None,
        "preferred_locale": guild.locale,
        "features": [],
        "max_members": 500000,
        "incidents_data": None,
        "joined_at": iso(guild.members[world.bot.id]),
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "roles": [role_payload(guild), role_payload(guild, bot=True),
                  *(role_payload(guild, role_id=r) for r in sorted(guild.roles))],
        "emojis": [],
        "stickers": [],
        "channels": [channel_payload(world.channels[c], world.bot.id) for c in guild.channel_ids
                     if not world.channels[c].thread],
        # "all active threads in the guild that the current user is able to view" (Threads,
        # Gateway Events, https://discord.com/developers/docs/topics/threads#gateway-events).
        "threads": [thread_payload(thread, world.bot.id) for thread in
                    (world.channels[c] for c in guild.channel_ids)
                    if thread.thread and not thread.archived and bot_reaches(world, thread)],
        "members": [member_payload(world, guild, uid) for uid in guild.members],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def message_payload(world: World, message: StoredMessage) -> dict[str, Any]:
    """A message as REST returns it (gateway events add ``guild_id`` and ``member``)."""
    mentioned = [int(m) for m in USER_MENTION.findall(message.content)]
    payload: dict[str, Any] = {
        "id": str(message.id),
        "channel_id": str(message.channel_id),
        "author": user_payload(world.users[message.author_id]),
        "content": message.content,
        "timestamp": iso(message.created_at),
        "edited_timestamp": iso(message.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [user_payload(world.users[m]) for m in mentioned if m in world.users],
        "mention_roles": [],
        "attachments": message.attachments,
        "embeds": message.embeds,
        "components": message.components,
        "reactions": [],
        "pinned": message.pinned_at is not None,
        "type": message.type,
        "flags": message.flags,
    }
    if message.reference_id is not None:
        # « data showing the source of a crosspost, channel follow add, pin, or reply
        # message »; a pin's « have `message_id` and `channel_id`, and `guild_id` if it is in
        # a guild, which point to the message that was pinned » (Message Object, Message
        # Reference Content Attribution, developers/resources/message.mdx).
        payload["message_reference"] = {"type": 0, "message_id": str(message.reference_id),
                                        "channel_id": str(message.channel_id),
                                        "guild_id": str(message.guild_id)}
    if message.nonce is not None:
        # « nonce? | integer or string | used for validating a message was sent » (Message
        # Object), the one Create Message sent: « Value will appear in the Message Create
        # event » (its JSON/Form Params; discord/discord-api-docs at c98d64bc,
        # developers/resources/message.mdx). Its answer, and the message an enforced nonce
        # returns instead of a new one, carry it too, as Discord's do. The docs do not
        # say whether a later read (Get Channel Messages) drops it: the fake keeps it.
        payload["nonce"] = message.nonce
    if message.webhook_id is not None:
        payload["webhook_id"] = str(message.webhook_id)
        if message.webhook_id == world.application_id:  # the app's own (interactions)
            payload["application_id"] = str(world.application_id)
    interaction = world.interactions.get(message.interaction_id or 0)
    if interaction is not None:
        payload["interaction_metadata"] = {
            "id": str(interaction.id),
            "type": interaction.type,
            "user": user_payload(world.users[interaction.user_id]),
            # « "0" if the interaction is triggered from a DM with the app's bot user »
            # (NO_GUILD), else the guild's id (Authorizing Integration Owners Object).
            "authorizing_integration_owners": {"0": str(interaction.guild_id)},
        }
    return payload


def gateway_message_payload(world: World, message: StoredMessage) -> dict[str, Any]:
    """MESSAGE_CREATE's body: ``member`` holds "Member properties for this message's author"
    (Message Create, https://discord.com/developers/docs/events/gateway-events#message-create),
    so none for an app answering in a server its bot user is not in; a DM's has neither
    (« guild_id? […] ID of the guild the message was sent in », a DM being in none, and
    « member? […] partial guild member »: Message Create Extra Fields)."""
    if message.guild_id == NO_GUILD:
        return message_payload(world, message)
    guild = world.guilds[message.guild_id]
    payload = {**message_payload(world, message), "guild_id": str(guild.id)}
    if message.author_id in guild.members:
        member = member_payload(world, guild, message.author_id)
        del member["user"]
        payload["member"] = member
    return payload


def dm_interaction_payload(world: World, interaction: InteractionRecord) -> dict[str, Any]:
    """An interaction from a user's DM with the bot, as Discord sends it (Interaction Object,
    https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object;
    discord/discord-api-docs at c98d64bc, receiving-and-responding.mdx): no ``guild_id``,
    ``guild`` nor ``guild_locale`` (« if invoked in a guild »); « `member` is sent when the
    interaction is invoked in a guild, and `user` is sent when invoked in a DM »; the
    partial channel of type DM (1) with its recipient; ``context`` BOT_DM (1);
    ``authorizing_integration_owners`` « "0" if the interaction is triggered from a DM with
    the app's bot user » for the guild install; and ``app_permissions`` « includes
    `ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE` permissions for (G)DMs with other users,
    and additionally includes `USE_EXTERNAL_EMOJIS` for DMs with the app's bot user »."""
    user = world.users[interaction.user_id]
    channel = world.channels[interaction.channel_id]
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "channel_id": str(channel.id),
        "channel": channel_payload(channel),
        "user": user_payload(user),
        "token": interaction.token,
        "version": 1,
        "locale": user.locale,
        "app_permissions": str(RESPONSE_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": {"0": "0"},
        "context": 1,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if interaction.message_id is not None:
        payload["message"] = message_payload(world, world.messages[interaction.message_id])
    return payload


def interaction_payload(world: World, interaction: InteractionRecord) -> dict[str, Any]:
    """The INTERACTION_CREATE body; ``message`` is what DynamicItem dispatch rebuilds from.
    From a DM with the bot, `dm_interaction_payload`."""
    if world.channels[interaction.channel_id].type == DM:
        return dm_interaction_payload(world, interaction)
    guild = world.guilds[interaction.guild_id]
    user = world.users[interaction.user_id]
    member = member_payload(world, guild, user.id)
    member["permissions"] = str(permissions_of(guild, user.id, world.clock.now()))
    channel = channel_payload(world.channels[interaction.channel_id], world.bot.id)
    channel["permissions"] = member["permissions"]
    payload: dict[str, Any] = {
        "id": str(interaction.id),
        "application_id": str(world.application_id),
        "type": interaction.type,
        "data": interaction.data,
        "guild_id": str(guild.id),
        "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
        "channel_id": str(interaction.channel_id),
        "channel": channel,
        "member": member,
        "token": interaction.token,
        "version": 1,
        "locale": user.locale,
        "guild_locale": guild.locale,
        "app_permissions": str(app_permissions(world, world.channels[interaction.channel_id])),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild.id)},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    }
    if interaction.message_id is not None:
        payload["message"] = message_payload(world, world.messages[interaction.message_id])
    return payload
