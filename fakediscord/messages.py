"""Creating, editing and deleting stored messages from the bot's payloads.

Every path that writes a message (channel endpoints, interaction responses, webhooks)
goes through here, so the limits are enforced and gateway events sent the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from . import errors, limits
from .gateway import INTENT_DIRECT_MESSAGES, INTENT_GUILD_MESSAGES, INTENT_GUILDS, Gateway
from .payloads import (
    ATTACHMENT_SIZE_LIMIT,
    USER_MENTION,
    bot_reaches,
    channel_payload,
    gateway_message_payload,
)
from .state import COMPONENTS_V2, DM, EPHEMERAL, LOADING, Channel, StoredMessage, World

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | COMPONENTS_V2
DEFAULT, CHANNEL_PINNED_MESSAGE, CHAT_INPUT_COMMAND = 0, 6, 20
OLD_MESSAGE_AGE = timedelta(hours=1)
# Create Message's `enforce_nonce`: "If true and nonce is present, it will be checked for
# uniqueness in the past few minutes. If another message was created by the same author
# with the same nonce, that message will be returned and no new message will be created"
# (JSON/Form Params, https://discord.com/developers/docs/resources/message#create-message).
# "A few minutes" is not published: the fake takes two, the short side, so that a bot
# relying on it for longer is found out.
NONCE_WINDOW = timedelta(minutes=2)
MAX_REQUEST_SIZE = 25 * 1024 * 1024


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request."""

    filename: str
    content_type: str
    size: int


@dataclass(frozen=True)
class Origin:
    """Who a new message comes from: the bot directly, or an interaction's webhook."""

    interaction_id: int | None = None
    ephemeral_to: int | None = None
    type: int = DEFAULT

    @property
    def webhook(self) -> bool:
        return self.interaction_id is not None


class MessageWriter:
    """Applies Discord's rules to every message write and tells the gateway about it."""

    def __init__(self, world: World, gateway: Gateway, old_edit_limit: int | None = None) -> None:
        self._world = world
        self._gateway = gateway
        # Discord refuses edits of messages older than an hour past a threshold it does not
        # publish (error 30046, "Maximum number of edits to messages older than 1 hour
        # reached", https://discord.com/developers/docs/topics/opcodes-and-status-codes);
        # here: after ``old_edit_limit`` of them per message (None: never).
        self.old_edit_limit = old_edit_limit
        self._old_edits: dict[int, int] = {}
        # Per message, the allowed_mentions of its latest create or edit (None: absent).
        self._allowed: dict[int, dict[str, Any] | None] = {}
        # Per author and nonce enforced (`NONCE_WINDOW`): the message it created.
        self._nonces: dict[tuple[int, str], int] = {}
        # Per message, the users its creation notified (`pinged`).
        self._pinged: dict[int, frozenset[int]] = {}

    def nonced(self, payload: dict[str, Any]) -> StoredMessage | None:
        """The bot's message a Create Message enforcing this payload's nonce returns
        instead of creating one: created with the same nonce within `NONCE_WINDOW`, and
        still there (a deleted one is not returned: our reading, the docs are silent)."""
        nonce = payload.get("nonce")
        if not payload.get("enforce_nonce") or nonce is None:
            return None
        world = self._world
        message = world.messages.get(self._nonces.get((world.bot.id, str(nonce)), 0))
        if message is None or world.clock.now() - message.created_at > NONCE_WINDOW:
            return None
        return message

    def pinged(self, message_id: int) -> frozenset[int]:
        """The users the message notified as it was created: those mentioned in its content
        that its ``allowed_mentions`` let through, all of them without one (Allowed Mentions
        Object, https://discord.com/developers/docs/resources/message#allowed-mentions-object).
        Never by an edit: Discord's docs say an edit rebuilds the message's ``mentions``
        array (Edit Message), nowhere that it notifies, and its clients notify a mention as
        a message arrives; the fake notifies none."""
        return self._pinged.get(message_id, frozenset())

    def may_ping(self, message_id: int) -> bool:
        """Whether mentions in the message's content became pings at its latest write of
        that content.

        Without ``allowed_mentions`` Discord parses every mention in the content, on a
        create and also on an edit ("If there is no explicit allowed_mentions in the edit
        request, the content will be parsed with default allowances", Edit Message,
        https://discord.com/developers/docs/resources/message#edit-message); with it, only
        the types in ``parse`` and the ids in ``users`` and ``roles`` count
        (https://discord.com/developers/docs/resources/message#allowed-mentions-object).
        """
        allowed = self._allowed.get(message_id)
        if allowed is None:
            return True
        return bool(allowed.get("parse") or allowed.get("users") or allowed.get("roles"))

    def create(
        self,
        channel: Channel,
        payload: dict[str, Any],
        uploads: list[Upload],
        origin: Origin = Origin(),
        *,
        loading: bool = False,
    ) -> StoredMessage:
        """Store a new message; ``loading`` is a deferred response ("Bot is thinking...")."""
        _check_uploads(uploads)
        world = self._world
        flags = int(payload.get("flags") or 0) & SETTABLE_FLAGS
        if origin.ephemeral_to is not None:
            flags |= EPHEMERAL
        message = StoredMessage(
            id=world.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=world.bot.id,
            created_at=world.clock.now(),
            content=str(payload.get("content") or ""),
            embeds=[_embed(e) for e in payload.get("embeds") or []],
            components=list(payload.get("components") or []),
            attachments=[self._attachment(channel, u, payload) for u in uploads],
            flags=flags | (LOADING if loading else 0),
            type=origin.type,
            ephemeral_to=origin.ephemeral_to,
            webhook_id=world.application_id if origin.webhook else None,
            interaction_id=origin.interaction_id,
            nonce=_nonce(payload.get("nonce")),
        )
        if loading:
            limits.check_request(payload)
        else:
            limits.check_message(_fields(message), world.emoji_ids, request=payload)
        world.add_message(message)
        self._allowed[message.id] = payload.get("allowed_mentions")
        if payload.get("enforce_nonce") and payload.get("nonce") is not None:
            self._nonces[(message.author_id, str(payload["nonce"]))] = message.id
        self._pinged[message.id] = _notified(message.content, payload.get("allowed_mentions"))
        if not message.ephemeral:
            # A DM's under DIRECT_MESSAGES (Gateway Intents, « DIRECT_MESSAGES (1 << 12)
            # - MESSAGE_CREATE », https://discord.com/developers/docs/events/gateway#list-of-intents).
            self._gateway.dispatch(
                "MESSAGE_CREATE",
                gateway_message_payload(world, message),
                intent=INTENT_DIRECT_MESSAGES if channel.type == DM else INTENT_GUILD_MESSAGES,
            )
        return message

    def edit(
        self, message: StoredMessage, payload: dict[str, Any], uploads: list[Upload]
    ) -> StoredMessage:
        """Apply a partial edit: absent keys are kept, ``null`` clears, as Discord does."""
        _check_uploads(uploads)
        self._count_old_edit(message)
        fields = _fields(message)
        for key in ("content", "embeds", "components"):
            if key in payload:
                fields[key] = payload[key] or ([] if key != "content" else "")
        if payload.get("flags") is not None:
            kept = message.flags & (EPHEMERAL | COMPONENTS_V2)
            fields["flags"] = kept | (int(payload["flags"]) & SETTABLE_FLAGS)
        if "attachments" in payload:
            keep = {str(a.get("id")) for a in payload["attachments"] or []}
            fields["attachments"] = [a for a in message.attachments if a["id"] in keep]
        channel = self._world.channels[message.channel_id]
        fields["attachments"] = fields["attachments"] + [
            self._attachment(channel, u, payload) for u in uploads
        ]
        limits.check_message(fields, self._world.emoji_ids, request=payload)
        was_loading = message.loading
        message.content = str(fields["content"])
        message.embeds = [_embed(e) for e in fields["embeds"]]
        message.components = list(fields["components"])
        message.attachments = fields["attachments"]
        message.flags = fields["flags"] & ~LOADING
        if not was_loading:
            message.edited_at = self._world.clock.now()
        # "When the content field is edited, the mentions array in the message object will
        # be reconstructed from scratch based on the new content" (Edit Message,
        # https://discord.com/developers/docs/resources/message#edit-message): an edit that
        # leaves the content alone (a file attached) keeps the mentions it had.
        if "content" in payload:
            self._allowed[message.id] = payload.get("allowed_mentions")
        if not message.ephemeral:
            self._gateway.dispatch(
                "MESSAGE_UPDATE",
                gateway_message_payload(self._world, message),
                intent=INTENT_GUILD_MESSAGES,
            )
        return message

    def archive_idle(self) -> None:
        """Archive the threads whose inactivity ran out (`World.archive_idle`), each with the
        THREAD_UPDATE a moderator's archiving sends; the fake checks at every call and every
        user action rather than on a timer, which the bot cannot tell apart."""
        for thread in self._world.archive_idle():
            self.thread_changed(thread)

    def unarchive(self, thread: Channel) -> None:
        """The thread is active again, and unarchiving is activity (`World.archive_idle`)."""
        thread.archived = False
        thread.active_since = self._world.clock.now()
        self.thread_changed(thread)

    def thread_changed(self, thread: Channel) -> None:
        """THREAD_UPDATE, to a bot that may view the thread: "Clients will not be informed
        of a thread through the gateway if they do not have permission to view that
        thread" (Threads, Permissions,
        https://discord.com/developers/docs/topics/threads#permissions)."""
        if bot_reaches(self._world, thread):
            self._gateway.dispatch("THREAD_UPDATE", channel_payload(thread, self._world.bot.id),
                                   intent=INTENT_GUILDS)

    def channel_changed(self, channel: Channel) -> None:
        """A channel's or thread's own fields changed (its name, its slowmode): THREAD_UPDATE
        for a thread (`thread_changed`), CHANNEL_UPDATE for a channel, « Sent when a
        channel is updated » with the channel object, under the GUILDS intent (Channel
        Update, https://discord.com/developers/docs/events/gateway-events#channel-update)."""
        if channel.thread:
            self.thread_changed(channel)
        else:
            self._gateway.dispatch("CHANNEL_UPDATE",
                                   channel_payload(channel, self._world.bot.id),
                                   intent=INTENT_GUILDS)

    def said(self, channel: Channel, author_id: int, content: str, *,
             webhook_id: int | None = None) -> StoredMessage:
        """A member's own message (channel chatter), or with ``webhook_id`` a channel
        webhook's post: stored, and MESSAGE_CREATE to every
        session with GUILD_MESSAGES (Gateway Intents, « GUILD_MESSAGES (1 << 9) -
        MESSAGE_CREATE, MESSAGE_UPDATE […] », https://discord.com/developers/docs/events/gateway#list-of-intents),
        its content emptied for a session without MESSAGE_CONTENT (`_chatter`)."""
        world = self._world
        message = StoredMessage(
            id=world.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=author_id,
            created_at=world.clock.now(),
            content=content,
            webhook_id=webhook_id,
        )
        limits.check_message(_fields(message), world.emoji_ids)
        world.add_message(message)
        self._chatter("MESSAGE_CREATE", message)
        return message

    def pinned(self, message: StoredMessage, by: int, *, pinned: bool) -> None:
        """A member pins or unpins ``message``. Pin and Unpin Message « Fire[] a Channel
        Pins Update Gateway event » (developers/resources/message.mdx), under the GUILDS
        intent, with the time « at which the most recent pinned message was pinned »
        (developers/events/gateway-events.mdx, Channel Pins Update). A pin also posts its
        system message, type 6 CHANNEL_PINNED_MESSAGE, whose reference « point[s] to the
        message that was pinned » (Message Object, « Pin messages »): a MESSAGE_CREATE
        under GUILD_MESSAGES, by whoever pinned, as a member's message is. Neither event
        is a MESSAGE_UPDATE of the pinned message: the docs name none."""
        world = self._world
        message.pinned_at = world.clock.now() if pinned else None
        if pinned:
            notice = StoredMessage(id=world.snowflakes.next(), channel_id=message.channel_id,
                                   guild_id=message.guild_id, author_id=by,
                                   created_at=world.clock.now(), type=CHANNEL_PINNED_MESSAGE,
                                   reference_id=message.id)
            world.add_message(notice)
            self._chatter("MESSAGE_CREATE", notice)
        pins = [m.pinned_at for m in world.messages.values()
                if m.channel_id == message.channel_id and m.pinned_at is not None]
        last = max(pins) if pins else None
        self._gateway.dispatch("CHANNEL_PINS_UPDATE", {
            "guild_id": str(message.guild_id), "channel_id": str(message.channel_id),
            "last_pin_timestamp": None if last is None else last.isoformat()},
            intent=INTENT_GUILDS)

    def said_again(self, message: StoredMessage, content: str) -> StoredMessage:
        """Its author edits a member's message: MESSAGE_UPDATE, as `said` sends it."""
        assert message.author_id != self._world.bot.id, "the bot edits through REST"
        fields = {**_fields(message), "content": content}
        limits.check_message(fields, self._world.emoji_ids)
        message.content = content
        message.edited_at = self._world.clock.now()
        self._chatter("MESSAGE_UPDATE", message)
        return message

    def _chatter(self, event: str, message: StoredMessage) -> None:
        """Send a member's message as Discord does: the message object with MESSAGE_CREATE's
        extra fields guild_id, member, mentions and channel_type (« Message Create Extra
        Fields », MESSAGE_UPDATE « with the same extra fields », its tts always false,
        https://discord.com/developers/docs/events/gateway-events#message-create). Without
        the privileged MESSAGE_CONTENT intent « An app will receive empty values in the
        content, embeds, attachments, and components fields while poll will be omitted »
        (Message Object, https://discord.com/developers/docs/resources/message#message-object),
        unless the message mentions the app (« Content in which the app is mentioned »,
        https://discord.com/developers/docs/events/gateway#message-content-intent)."""
        world = self._world
        channel = world.channels[message.channel_id]
        payload = {
            **gateway_message_payload(world, message),
            "channel_type": channel_payload(channel)["type"],
        }
        mentioned = {user["id"] for user in payload["mentions"]}
        redacted = None
        if str(world.bot.id) not in mentioned:
            redacted = {**payload, "content": "", "embeds": [], "attachments": [],
                        "components": []}
        self._gateway.dispatch(event, payload, intent=INTENT_GUILD_MESSAGES,
                               without_content=redacted)

    def _count_old_edit(self, message: StoredMessage) -> None:
        """Age is judged on the fake clock; a refused edit does not count."""
        if self.old_edit_limit is None or message.ephemeral:
            return
        if self._world.clock.now() - message.created_at <= OLD_MESSAGE_AGE:
            return
        done = self._old_edits.get(message.id, 0)
        if done >= self.old_edit_limit:
            raise errors.old_message_edits()
        self._old_edits[message.id] = done + 1

    def delete(self, message: StoredMessage) -> None:
        """Delete one message; sessions with GUILD_MESSAGES get MESSAGE_DELETE: its id,
        channel_id and guild_id (Gateway Intents, « GUILD_MESSAGES (1 << 9) […]
        MESSAGE_DELETE, MESSAGE_DELETE_BULK », and Message Delete Event Fields,
        https://discord.com/developers/docs/events/gateway#list-of-intents and
        https://discord.com/developers/docs/events/gateway-events#message-delete).
        Ephemeral messages are not channel messages: nothing is sent for them."""
        self._world.remove_message(message)
        if not message.ephemeral:
            self._gateway.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(message.channel_id),
                    "guild_id": str(message.guild_id),
                },
                intent=INTENT_GUILD_MESSAGES,
            )

    def delete_bulk(self, channel: Channel, messages: list[StoredMessage]) -> None:
        """Delete several messages of one channel at once (Bulk Delete Messages): one
        MESSAGE_DELETE_BULK with their ``ids``, channel_id and guild_id (Message Delete Bulk
        Event Fields, https://discord.com/developers/docs/events/gateway-events#message-delete-bulk),
        under the same GUILD_MESSAGES intent."""
        for message in messages:
            assert message.channel_id == channel.id and not message.ephemeral
            self._world.remove_message(message)
        self._gateway.dispatch(
            "MESSAGE_DELETE_BULK",
            {
                "ids": [str(message.id) for message in messages],
                "channel_id": str(channel.id),
                "guild_id": str(channel.guild_id),
            },
            intent=INTENT_GUILD_MESSAGES,
        )

    def _attachment(self, channel: Channel, upload: Upload, payload: dict[str, Any]
                    ) -> dict[str, Any]:
        """The stored attachment; its ``description`` (alt text) comes from the payload's
        ``attachments`` entry of the same file name, as discord.py sends it."""
        attachment_id = self._world.snowflakes.next()
        url = f"https://cdn.fakediscord.invalid/attachments/{channel.id}/{attachment_id}/{upload.filename}"
        stored = {
            "id": str(attachment_id),
            "filename": upload.filename,
            "size": upload.size,
            "url": url,
            "proxy_url": url,
            "content_type": upload.content_type,
        }
        for entry in payload.get("attachments") or []:
            if entry.get("filename") == upload.filename and entry.get("description"):
                stored["description"] = str(entry["description"])
        return stored


def _check_uploads(uploads: list[Upload]) -> None:
    """"The default limit is `10 MiB`" for each file (Uploading Files,
    https://discord.com/developers/docs/reference#uploading-files; the fake's servers have
    no boost) and "The maximum request size when sending a message is **25 MiB**" (Create
    Message, Limitations, https://discord.com/developers/docs/resources/message#create-message):
    past either, 413 40005."""
    if any(u.size > ATTACHMENT_SIZE_LIMIT for u in uploads) \
            or sum(u.size for u in uploads) > MAX_REQUEST_SIZE:
        raise errors.request_entity_too_large()


def _fields(message: StoredMessage) -> dict[str, Any]:
    return {
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": message.attachments,
        "flags": message.flags,
    }


def _embed(embed: dict[str, Any]) -> dict[str, Any]:
    return {"type": "rich", **embed}


def _notified(content: str, allowed: dict[str, Any] | None) -> frozenset[int]:
    """The users a new message with this content notifies (`MessageWriter.pinged`)."""
    mentioned = frozenset(int(m) for m in USER_MENTION.findall(content))
    if allowed is None or "users" in (allowed.get("parse") or []):
        return mentioned
    return mentioned & frozenset(int(u) for u in allowed.get("users") or [])


def _nonce(sent: object) -> int | str | None:
    """A Create Message's nonce as the message keeps it: « integer or string » (Message
    Object and Create Message's JSON/Form Params, developers/resources/message.mdx)."""
    return sent if isinstance(sent, int | str) and not isinstance(sent, bool) else None
