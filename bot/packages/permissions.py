"""The channel permissions the bot needs to run a table, read from an interaction.

A table lives in public messages the bot posts (`POST /channels/{id}/messages`) and edits:
Discord refuses the post without SEND_MESSAGES ("When operating on a guild channel, the
current user must have the SEND_MESSAGES permission", Create Message,
https://discord.com/developers/docs/resources/message#create-message) and every channel route
without VIEW_CHANNEL (implicit permissions,
https://discord.com/developers/docs/topics/permissions#implicit-permissions). Those public
messages carry no embeds or replies, so Embed Links is not needed, nor is Read Message
History to run a table (the invite asks for it all the same: `INVITE`; a start reads the
chatter below a restored table with it where it has it, and does without:
`may_read_history`), nor Use External Emojis for card faces: "The USE_EXTERNAL_EMOJIS permission is not required
to use app emojis" (Application-Owned Emoji,
https://discord.com/developers/docs/resources/emoji#emoji-object-applicationowned-emoji).
One file goes there: the points chart the results message gets at the end of a game, which
needs ATTACH_FILES ("Allows for uploading images and files", Permissions, Bitwise Permission
Flags,
https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags),
itself lost with the right to post: "Denying `SEND_MESSAGES` implicitly denies [...]
`ATTACH_FILES`, and `EMBED_LINKS`" (Implicit Permissions). It is optional: without it the
results give the chart's values as text, and so do `/president stats` and `history`, whose
private answers attach charts too. Each interaction says what
the bot may do in its channel (`app_permissions`, "Bitwise set of permissions the app has
within the channel the interaction was sent from",
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object),
so a refusal can be told before any call is wasted: Discord counts every 403 toward the
10,000 invalid requests per 10 minutes after which Cloudflare bans the bot's address
(https://discord.com/developers/docs/topics/rate-limits#invalid-request-limit-aka-cloudflare-bans).
In a thread Send Messages counts for nothing: "The `SEND_MESSAGES` permission has no effect in
threads; users must have `SEND_MESSAGES_IN_THREADS` to talk in a thread" (Threads, Permissions,
https://discord.com/developers/docs/topics/threads#permissions). A voice or stage channel's
text chat takes Connect besides: its message routes "must _also_ have the `CONNECT`
permission" (Get Channel Messages,
https://discord.com/developers/docs/resources/message#get-channel-messages), and "denying the
`CONNECT` permission also implicitly denies other permissions" (Implicit Permissions); Discord
answers a post there without it 403 Missing Access, as without View Channel
(discord/discord-api-docs issue #1522). A private thread takes membership: "You must be
invited to the thread to be able to view or participate in it, or be a moderator
(`MANAGE_THREADS` permission)" (Threads, Permissions), which no permission bit tells.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import t
from bot.tables.service import TableError

# In the order a moderator should fix them: without View Channel nothing else counts.
REQUIRED = ("view_channel", "send_messages")
IN_THREADS = ("view_channel", "send_messages_in_threads")
IN_VOICE = ("view_channel", "connect", "send_messages")
# Optional: only the end-of-game chart needs it (`may_attach`).
ATTACH = "attach_files"
#: What the invitation asks for: the needed permissions, in channels and threads, the
#: optional one, and Read Message History (stop 50). A start that finds the word owed to a
#: table it could not restore, said by an earlier start killed before it stored it as told,
#: looks for its own post before posting it again, past the few minutes Create Message's
#: nonce covers (`publisher.servers._said_before`); without the permission "no messages
#: will be returned" (Get Channel Messages,
#: https://discord.com/developers/docs/resources/message#get-channel-messages) and the word
#: was posted twice. A fresh server's @everyone has it, so the bot had it nearly everywhere;
#: asked for, it holds where a server trimmed @everyone. It reads no one's words: without
#: the MESSAGE_CONTENT intent others' messages come with empty content (Message Content
#: Intent, https://discord.com/developers/docs/events/gateway#message-content-intent).
INVITE = discord.Permissions(view_channel=True, send_messages=True,
                             send_messages_in_threads=True, attach_files=True,
                             read_message_history=True)
THREADS = frozenset({discord.ChannelType.public_thread, discord.ChannelType.private_thread,
                     discord.ChannelType.news_thread})
VOICE = frozenset({discord.ChannelType.voice, discord.ChannelType.stage_voice})


def needed_in(channel: object) -> tuple[str, ...]:
    """The permissions a table needs in a channel of that type (a thread, a voice or stage
    channel's text chat, any other)."""
    kind = getattr(channel, "type", None)
    if kind in THREADS:
        return IN_THREADS
    return IN_VOICE if kind in VOICE else REQUIRED


def outside(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a private thread the bot is not in, and may not
    moderate: it may answer there (the interaction's own messages) but post nothing. The
    gateway syncs a private thread only to its members and moderators, and tells the bot
    when it is added (Threads, Gaining Access to Private Threads,
    https://discord.com/developers/docs/topics/threads#gaining-access-to-private-threads):
    discord.py then holds the thread with the bot's membership (`Thread.me`), which the
    `/president` cog clears when the bot is removed (`on_thread_remove`). An archived
    thread (a click there: no command is offered in one) is none it holds: it may be the
    bot's, and is not refused."""
    channel = interaction.channel
    if getattr(channel, "type", None) is not discord.ChannelType.private_thread \
            or interaction.app_permissions.manage_threads or interaction.guild is None:
        return False
    cached = interaction.guild.get_thread(interaction.channel_id or 0)
    if cached is None:  # discord.py keeps no archived thread, whose membership it cannot tell
        return not getattr(channel, "archived", False)
    return cached.me is None


def locked(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction comes from a thread a moderator locked, where the bot, without
    Manage Threads, may neither post nor edit: "Users (including bot users) without the
    `MANAGE_THREADS` permission [...] won't be able to create or update messages in locked
    threads" (Threads, Locked Threads,
    https://discord.com/developers/docs/topics/threads#locked-threads). The interaction's
    channel carries the thread's `thread_metadata.locked`; its `app_permissions` say nothing
    of it. Archived and locked, no post reopens it even with Manage Threads (« Sending a
    message will automatically unarchive the thread, unless the thread has been locked by a
    moderator », Threads, Active & Archived Threads)."""
    channel = interaction.channel
    return isinstance(channel, discord.Thread) and channel.locked and (
        channel.archived or not interaction.app_permissions.manage_threads)


def may_post(bot: discord.Client, guild_id: int | None, channel_id: int,
             parent_id: int | None, *, thread_locked: bool | None = None) -> bool | None:
    """Whether the gateway's cache says the bot may post in a table's channel (a thread
    when ``parent_id`` is set), None where it cannot tell. With the GUILDS intent the cache
    follows every change that decides it: the channels' overwrites (CHANNEL_UPDATE), the
    roles (GUILD_ROLE_UPDATE), the threads (THREAD_UPDATE) (List of Intents,
    https://discord.com/developers/docs/events/gateway#list-of-intents), and the bot's own
    member, whose GUILD_MEMBER_UPDATE "is sent for current-user updates regardless of
    whether the `GUILD_MEMBERS` intent is set" (Caveats, same page). A thread has no
    overwrites: it inherits its parent's, Send Messages in Threads standing for Send
    Messages (Threads, Permissions). Its lock is ``thread_locked`` (from a THREAD_UPDATE)
    or the cached thread's; discord.py keeps no archived thread, whose lock it cannot
    tell."""
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    channel = guild.get_channel(parent_id or channel_id) if guild is not None else None
    if guild is None or channel is None or guild.me is None:
        return None
    thread = parent_id is not None
    permissions = channel.permissions_for(guild.me)
    if missing(permissions, IN_THREADS if thread else needed_in(channel)) is not None:
        return False
    if not thread:
        return True
    cached = guild.get_thread(channel_id)
    if cached is not None and cached.is_private() and cached.me is None \
            and not permissions.manage_threads:
        return False  # no longer in it (`outside`)
    if thread_locked is None:
        if cached is None:
            return None
        thread_locked = cached.locked
    return not thread_locked or permissions.manage_threads


def may_read_history(bot: discord.Client, guild_id: int | None, channel_id: int,
                     parent_id: int | None) -> bool | None:
    """Whether the gateway's cache says the bot may read a table's channel's messages (Read
    Message History; a thread's are its parent's, Threads, Permissions), None where it cannot
    tell. The invite asks for it (`INVITE`), a channel's overwrites may deny it: a restart's
    recount of the chatter below a table (`Recount.read`) asks here first, and does
    without where it is denied. A
    channel missing from a server the gateway described was deleted while the bot was down
    (or is hidden from it): nothing is read there, the table's first post finds out."""
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    if guild is None or guild.me is None:
        return None
    channel = guild.get_channel(parent_id or channel_id)
    if channel is None:
        return False
    return channel.permissions_for(guild.me).read_message_history


def may_attach_cached(bot: discord.Client, guild_id: int | None, channel_id: int,
                      parent_id: int | None) -> bool | None:
    """Whether the gateway's cache says the bot may attach a file in a table's channel (a
    thread's are its parent's permissions, Threads, Permissions), None where it cannot
    tell. It follows the changes `may_post` follows: a moderator taking Attach Files
    away, or giving it back, is heard at once, not at the next interaction."""
    guild = bot.get_guild(guild_id) if guild_id is not None else None
    channel = guild.get_channel(parent_id or channel_id) if guild is not None else None
    if guild is None or channel is None or guild.me is None:
        return None
    return may_attach(channel.permissions_for(guild.me),
                      IN_THREADS if parent_id is not None else needed_in(channel))


def missing(permissions: discord.Permissions, needed: tuple[str, ...] = REQUIRED) -> str | None:
    """The first of the ``needed`` permissions (`needed_in`) the bot lacks, or None."""
    return next((name for name in needed if not getattr(permissions, name)), None)


def may_attach(permissions: discord.Permissions, needed: tuple[str, ...] = REQUIRED) -> bool:
    """Whether the bot may upload a file to the channel, which takes the ``needed``."""
    return bool(getattr(permissions, ATTACH)) and missing(permissions, needed) is None


def permission_name(locale: object, name: str) -> str:
    """The permission as Discord's settings show it in the user's language."""
    return t(locale, f"perm.{name}")


def absent(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot's user is not in the interaction's server. A server may authorize
    the app's commands alone ("Application commands do not depend on a bot user in the
    guild", Authorizing Your Application,
    https://discord.com/developers/docs/interactions/application-commands#authorizing-your-application):
    its members' commands and clicks reach the bot, which may post nothing there, and which
    its `app_permissions` would wrongly blame on a channel's permissions. discord.py keeps
    every server the bot is in, unavailable ones too (GUILDS intent): one it lacks is not
    the bot's."""
    return interaction.guild_id is not None and \
        interaction.client.get_guild(interaction.guild_id) is None


def not_in_server(interaction: discord.Interaction[Any]) -> TableError:
    """The refusal where the bot is `absent`, with the link that invites it to this server
    with the permissions it needs (docs/deploy.md)."""
    assert interaction.guild_id is not None
    link = discord.utils.oauth_url(interaction.application_id, permissions=INVITE,
                                   scopes=("bot", "applications.commands"),
                                   guild=discord.Object(interaction.guild_id),
                                   disable_guild_select=True)
    return TableError("err.not_in_server", link=link)


def hindrance(interaction: discord.Interaction[Any]) -> TableError | None:
    """Why the bot could not post the table where the interaction comes from, said to its
    host (`Publisher.acted`), or None where it may."""
    name = missing(interaction.app_permissions, needed_in(interaction.channel))
    if name is not None:
        return TableError("err.cannot_post", permission=permission_name(interaction.locale, name))
    if outside(interaction):
        return TableError("err.private_thread_left", bot=interaction.client.user.mention
                          if interaction.client.user is not None else "")
    if locked(interaction):
        closed = isinstance(interaction.channel, discord.Thread) and interaction.channel.archived
        return TableError("err.thread_closed" if closed else "err.thread_locked")
    return None


def require(interaction: discord.Interaction[Any]) -> None:
    """Refuse, in the user's language and naming the permission (or the thread's lock, or
    the private thread the bot is not in), an action that would open or start a table the
    bot cannot post in. An archived thread needs no refusal: Discord offers no command there
    ("Users cannot [...] use application commands [...] in archived threads") and the bot's
    first post unarchives it (Threads, Active & Archived Threads,
    https://discord.com/developers/docs/topics/threads#active-archived-threads); a locked
    one it does not (`locked`)."""
    if absent(interaction):
        raise not_in_server(interaction)
    name = missing(interaction.app_permissions, needed_in(interaction.channel))
    if name is not None:
        raise TableError("err.missing_permission",
                         permission=permission_name(interaction.locale, name))
    if outside(interaction):
        raise TableError("err.private_thread", bot=interaction.client.user.mention
                         if interaction.client.user is not None else "")
    if locked(interaction):
        raise TableError("err.thread_locked_here")
