"""The interaction lifecycle and its rules: deadlines, single acknowledgement, tokens.

Everything here is judged on the fake clock: the first response must arrive within
``ack_deadline`` seconds of the interaction's creation, and the token that follow-ups
and edits use dies after ``token_lifetime``.

Files in responses, follow-ups and their edits are accepted whatever the bot's channel
permissions: Discord's docs do not say these need ATTACH_FILES. They only name it among "the
permissions that can be used in interaction responses" (change log, June 29, 2022,
« Calculated Permissions in Interaction Payloads »), the same entry that makes
``app_permissions`` report it, and say of the later change to how a bot's permissions apply
to interaction responses that "`ATTACH_FILES` and `EMBED_LINKS` would be affected but this is
no longer the case" (« Changes to Bot Permissions for Interactions and Webhooks »,
https://discord.com/developers/docs/change-log). The fake stays permissive there; the bot
reads ``app_permissions`` and sends no file it lacks ATTACH_FILES for anyway.
"""

from __future__ import annotations

from typing import Any

from . import errors, limits
from .errors import UserActionError
from .gateway import Gateway
from .messages import CHAT_INPUT_COMMAND, MessageWriter, Origin, Upload
from .payloads import interaction_payload, message_payload
from .state import (
    APPLICATION_COMMAND,
    EPHEMERAL,
    MODAL_SUBMIT,
    Channel,
    InteractionRecord,
    StoredMessage,
    User,
    World,
)

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9


class InteractionHub:
    """Creates interactions for test users and judges every response the bot makes."""

    def __init__(
        self,
        world: World,
        writer: MessageWriter,
        gateway: Gateway,
        *,
        ack_deadline: float,
        token_lifetime: float,
    ) -> None:
        self._world = world
        self._writer = writer
        self._gateway = gateway
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime
        self.open_modals: dict[int, InteractionRecord] = {}

    def start(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        description: str,
        message: StoredMessage | None = None,
    ) -> InteractionRecord:
        """Record an interaction and send INTERACTION_CREATE to the connected bot, or queue
        it for one whose gateway connection is down (`Gateway.reachable`)."""
        if not self._gateway.reachable:
            raise UserActionError(f"{description}: no bot is connected to the fake gateway")
        world = self._world
        self._writer.archive_idle()
        record = world.add_interaction(kind, user.id, channel, data, description,
                                       None if message is None else message.id)
        self._gateway.dispatch("INTERACTION_CREATE", interaction_payload(world, record),
                               once=True)
        return record

    def unanswered(self) -> list[InteractionRecord]:
        """Interactions the bot has not tried to answer and no settle has given up on;
        not those still waiting for a bot whose gateway connection is down
        (`Gateway.undelivered`), nor those a RESUME delivered past the deadline of their
        first answer: the bot cannot answer what it has not received, nor what it received
        too late (their users were shown « This interaction failed »)."""
        waiting = self._world.waiting
        for done in [key for key, i in waiting.items() if i.attempted or i.abandoned]:
            del waiting[done]
        held, replayed = self._gateway.undelivered, self._gateway.replayed
        now = self._world.clock.monotonic()
        return [i for i in waiting.values() if i.id not in held and not (
            i.id in replayed and now - i.created_at > self.ack_deadline)]

    def callback(
        self, interaction_id: int, token: str, body: dict[str, Any], uploads: list[Upload]
    ) -> dict[str, Any]:
        """``POST /interactions/{id}/{token}/callback``: the one allowed first response."""
        record = self._world.interactions.get(interaction_id)
        if record is None or record.token != token:
            raise errors.unknown_interaction()
        record.attempted = True
        record.answered_at = self._world.clock.monotonic()
        if record.acknowledged:
            raise errors.already_acknowledged()
        if self._world.clock.monotonic() - record.created_at > self.ack_deadline:
            raise errors.unknown_interaction()
        kind = body.get("type")
        data = body.get("data") or {}
        record.response = data
        channel = self._world.channels[record.channel_id]
        message: StoredMessage | None = None
        if kind == DEFERRED_CHANNEL_MESSAGE:
            _check_deferred_flags(data)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            message = self._writer.create(
                channel,
                data,
                uploads,
                self._origin(record, ephemeral=bool(int(data.get("flags") or 0) & EPHEMERAL)),
                loading=kind == DEFERRED_CHANNEL_MESSAGE,
            )
        elif kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            message = self._component_message(record, kind)
            if kind == UPDATE_MESSAGE:
                self._writer.edit(message, data, uploads)
        elif kind == MODAL and record.type != MODAL_SUBMIT:
            limits.check_modal(data, self._world.emoji_ids)
            record.modal = data
            self.open_modals[record.user_id] = record
        else:
            raise _invalid_type(kind, record)
        record.response_type = kind
        record.original_message_id = None if message is None else message.id
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "activity_instance_id": None,
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": message is not None and message.ephemeral,
            }
        }
        if message is not None and kind != DEFERRED_UPDATE:
            answer["resource"] = {"type": kind, "message": message_payload(self._world, message)}
        return answer

    def followup(
        self, application_id: int, token: str, payload: dict[str, Any], uploads: list[Upload]
    ) -> StoredMessage:
        """``POST /webhooks/{app}/{token}``; the first one after a deferral fills it in.

        Accepted after any first response, a MODAL one included: "Interaction `tokens` are
        valid for **15 minutes** and can be used to send followup messages", and "you want
        to send followup messages to a user after responding to an interaction"
        (discord-api-docs, developers/interactions/receiving-and-responding.mdx, Responding
        to an Interaction and Followup Messages); the callback types restrict MODAL only as
        an answer ("Not available for `MODAL_SUBMIT` and `PING` interactions"), never what
        follows it. The followup is a new message in the channel, under the open modal."""
        record = self._live(application_id, token)
        if not record.acknowledged:
            raise errors.unknown_webhook()
        original = self._world.messages.get(record.original_message_id or 0)
        if original is not None and original.loading:
            return self._writer.edit(original, payload, uploads)
        ephemeral = bool(int(payload.get("flags") or 0) & EPHEMERAL)
        channel = self._world.channels[record.channel_id]
        message = self._writer.create(
            channel, payload, uploads, self._origin(record, ephemeral=ephemeral)
        )
        record.followup_ids.append(message.id)
        return message

    def webhook_message(self, application_id: int, token: str, reference: str) -> StoredMessage:
        """The message ``@original`` or an id names, if this token may touch it."""
        record = self._live(application_id, token)
        if reference == "@original":
            message = self._world.messages.get(record.original_message_id or 0)
        else:
            message = self._world.messages.get(int(reference)) if reference.isdigit() else None
            if message is not None and not self._may_touch(record, message):
                message = None
        if message is None:
            raise errors.unknown_message()
        return message

    def _live(self, application_id: int, token: str) -> InteractionRecord:
        record = self._world.interaction_by_token(token)
        if record is None or application_id != self._world.application_id:
            raise errors.unknown_webhook()
        if self._world.clock.monotonic() - record.created_at > self.token_lifetime:
            raise errors.invalid_webhook_token()
        return record

    def _may_touch(self, record: InteractionRecord, message: StoredMessage) -> bool:
        if message.channel_id != record.channel_id or message.webhook_id is None:
            return False
        return message.ephemeral_to in (None, record.user_id)

    def _origin(self, record: InteractionRecord, *, ephemeral: bool) -> Origin:
        kind = CHAT_INPUT_COMMAND if record.type == APPLICATION_COMMAND else 0
        return Origin(
            interaction_id=record.id,
            ephemeral_to=record.user_id if ephemeral else None,
            type=kind,
        )

    def _component_message(self, record: InteractionRecord, kind: int) -> StoredMessage:
        message = self._world.messages.get(record.message_id or 0)
        if message is None:
            raise _invalid_type(kind, record)
        return message


def _check_deferred_flags(data: dict[str, Any]) -> None:
    """"If you create a callback with the type `DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE` the
    only valid message flag you may use is `EPHEMERAL`. If you'd like to create a component
    based message with `IS_COMPONENTS_V2` you must do that with the edit original response
    endpoint, not this one" (Interaction Callback Data Structure,
    developers/interactions/receiving-and-responding.mdx)."""
    flags = int(data.get("flags") or 0)
    if flags & ~EPHEMERAL:
        form = limits.FormErrors()
        form.add(("data", "flags"), "INTERACTION_RESPONSE_FLAGS_INVALID",
                 "Only the EPHEMERAL flag may be set on a deferred response")
        raise errors.invalid_form_body(form.tree)


def _invalid_type(kind: object, record: InteractionRecord) -> errors.DiscordError:
    form = limits.FormErrors()
    form.add(
        ("type",),
        "INTERACTION_RESPONSE_TYPE_INVALID",
        f"Interaction response type {kind} is not valid for interaction type {record.type}",
    )
    return errors.invalid_form_body(form.tree)
