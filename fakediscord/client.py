"""Test users: people who type slash commands, click, pick and fill in modals.

Each action refuses what Discord's UI would not allow (a disabled button, a message the
user cannot see, an unsynced command) with :class:`UserActionError`, sends the
interaction to the bot, then by default waits for the bot to settle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .commands import build_command_data
from .errors import UserActionError
from .limits import (
    ACTION_ROW,
    BUTTON,
    LABEL,
    SELECTS,
    TEXT_INPUT,
)
from .snapshots import Message, Modal, Select, TextInput, snapshot
from .state import (
    APPLICATION_COMMAND,
    DM,
    GUILD_FORUM,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    Channel,
    Guild,
    InteractionRecord,
    StoredMessage,
    User,
)

if TYPE_CHECKING:
    from .server import FakeDiscord


class TestUser:
    """A human member acting through Discord's client, bound to one user id.

    ``channel`` is where :meth:`slash` runs and what :meth:`visible` shows when no
    channel is given; set it to move the user around.
    """

    __test__ = False  # not a pytest test class, despite the name

    def __init__(self, fake: FakeDiscord, user: User, channel: Channel) -> None:
        self._fake = fake
        self.user = user
        self.channel = channel

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    def __repr__(self) -> str:
        return f"<TestUser {self.name} id={self.id}>"

    def join(self, guild: Guild) -> None:
        """Become a member of ``guild`` (the bot gets GUILD_MEMBER_ADD if it asked for it)."""
        self._fake.add_member(guild, self)

    async def slash(
        self,
        command: str,
        /,
        *,
        channel: Channel | None = None,
        options: Mapping[str, object] | None = None,
        settle: bool = True,
        **values: object,
    ) -> InteractionRecord:
        """Run ``/command sub ...`` with options, e.g. ``slash("president create", preset="classic")``.

        Option names that clash with this method's own keywords go in ``options``.
        Choices may be given by shown name or by value; users and channels as objects.
        """
        fake = self._fake
        where = channel or self.channel
        guild = self._guild_of(where)
        until = None if guild is None else guild.timeouts.get(self.id)
        if guild is not None and until is not None and until > fake.clock.now() \
                and self.id != guild.owner_id:
            # Timed out, they lost USE_APPLICATION_COMMANDS ("Allows members to use
            # application commands", Permissions; Permissions For Timed Out Members,
            # https://discord.com/developers/docs/topics/permissions): no command to run.
            raise UserActionError(f"{self.name} is timed out in {guild.name} until {until}")
        self._may_enter(where)
        fake.writer.archive_idle()
        if where.archived:
            # "Users cannot edit messages, add reactions, use application commands, or join
            # archived threads" (Threads, Active & Archived Threads,
            # https://discord.com/developers/docs/topics/threads#active-archived-threads).
            raise UserActionError(f"#{where.name} is an archived thread: no command there")
        if where.type == GUILD_FORUM:
            # "Messages cannot be sent directly in forum channels" (Threads, Forums,
            # https://discord.com/developers/docs/topics/threads#forums): a forum shows its
            # posts, with no message box to type a command in; each post is a thread that has
            # one.
            raise UserActionError(f"#{where.name} is a forum: commands are typed in its posts")
        name, *words = command.split()
        scope = None if guild is None else guild.id
        synced = fake.commands.find(scope, name)
        if synced is None:
            known = fake.commands.names(scope)
            place = "a DM with the bot" if guild is None else guild.name
            raise UserActionError(f"/{name} is not synced for {place}, or not offered there "
                                  f"(its contexts); offered: {known}")
        merged = {**values, **(options or {})}
        data = build_command_data(fake.world, guild, synced, words, merged)
        record = fake.hub.start(APPLICATION_COMMAND, self.user, where, data, f"/{command}")
        return await self._after(record, settle)

    async def click(
        self, message: Message | int, target: str, *, settle: bool = True
    ) -> InteractionRecord:
        """Click the button whose custom_id, or else label, is ``target``."""
        stored = self._seen(message)
        button = snapshot(self._fake.world, stored).button(target)
        face = button.label or button.custom_id
        if button.disabled:
            raise UserActionError(f"button {face!r} on message {stored.id} is disabled")
        if button.custom_id is None:
            raise UserActionError(f"button {face!r} opens a link or a store page, no interaction")
        data = {"custom_id": button.custom_id, "component_type": BUTTON}
        return await self._component(stored, data, f"click {face!r}", settle)

    async def select(
        self,
        message: Message | int,
        choices: Sequence[str],
        *,
        select: str | None = None,
        settle: bool = True,
    ) -> InteractionRecord:
        """Pick options (by value, or else label) in the message's string select.

        ``select`` names the menu by placeholder or custom_id when the message has several.
        """
        stored = self._seen(message)
        menu = snapshot(self._fake.world, stored).select(select)
        if menu.disabled:
            raise UserActionError(f"select {menu.name!r} on message {stored.id} is disabled")
        values = menu.values_for(choices)
        data = {"custom_id": menu.custom_id, "component_type": menu.type, "values": values}
        return await self._component(stored, data, f"select {values} in {menu.name!r}", settle)

    async def click_shown(
        self, message: Message, target: str, *, settle: bool = True
    ) -> InteractionRecord:
        """Click a button as ``message`` showed it when it was read, not as it is now: a
        Discord client shows a message until its edit arrives, so a click may name a button
        the bot has replaced since."""
        stored = self._seen(message)
        button = message.button(target)
        if button.custom_id is None:
            raise UserActionError(f"button {button.label!r} opens a link, no interaction")
        data = {"custom_id": button.custom_id, "component_type": BUTTON}
        return await self._component(stored, data, f"click {button.label!r} as shown", settle)

    async def select_shown(
        self, message: Message, choices: Sequence[str], *, select: str | None = None,
        settle: bool = True,
    ) -> InteractionRecord:
        """Pick options in a menu as ``message`` showed it when it was read (see
        :meth:`click_shown`): the interaction names that menu even if the bot replaced it."""
        stored = self._seen(message)
        menu = message.select(select)
        values = menu.values_for(choices)
        data = {"custom_id": menu.custom_id, "component_type": menu.type, "values": values}
        return await self._component(stored, data, f"select {values} as shown", settle)

    @property
    def modal(self) -> Modal | None:
        """The modal the bot opened for this user and that is still open, if any."""
        record = self._fake.hub.open_modals.get(self.id)
        return None if record is None or record.modal is None else Modal.parse(record.modal)

    async def modal_submit(
        self, values: Mapping[str, str] | None = None, *, settle: bool = True, **fields: str
    ) -> InteractionRecord:
        """Fill the open modal's inputs (by custom_id, or else label) and submit it.

        Fields left out keep the value the bot pre-filled; required ones must end up
        non-empty and within their length bounds, as Discord's client enforces.
        """
        hub = self._fake.hub
        opened = hub.open_modals.get(self.id)
        if opened is None or opened.modal is None:
            raise UserActionError(f"{self.name} has no modal open")
        given = {**fields, **(values or {})}
        modal = Modal.parse(opened.modal)
        by_label = {i.label: i.custom_id for i in modal.inputs if isinstance(i, TextInput)}
        answers = {by_label.get(k, k): v for k, v in given.items()}
        known = {i.custom_id for i in modal.inputs}
        if set(answers) - known:
            raise UserActionError(
                f"modal {modal.title!r} has no field {sorted(set(answers) - known)}; it has {sorted(known)}"
            )
        components = [_submitted(c, answers) for c in opened.modal.get("components") or []]
        data = {"custom_id": opened.modal["custom_id"], "components": [c for c in components if c]}
        message = self._fake.world.messages.get(opened.message_id or 0)
        where = self._fake.world.channels[opened.channel_id]
        record = hub.start(
            MODAL_SUBMIT, self.user, where, data, f"submit modal {modal.title!r}", message
        )
        del hub.open_modals[self.id]
        return await self._after(record, settle)

    def dismiss(self, message: Message | int) -> None:
        """Click "Dismiss message" under one of this user's ephemeral messages.

        Discord tells the bot nothing: the bot's edits of it still succeed, but this user
        no longer sees it (:meth:`visible`, :meth:`last_ephemeral`) nor can act on it.
        See :meth:`fakediscord.state.World.dismiss` for the documentation behind this.
        """
        world = self._fake.world
        message_id = message if isinstance(message, int) else message.id
        stored = world.messages.get(message_id)
        if stored is not None:
            self._guild_of(world.channels[stored.channel_id])
        world.dismiss(self.id, message_id)

    def say(self, content: str, *, channel: Channel | None = None) -> Message:
        """Post a message of their own in the channel, as people chat: a bot with the
        GUILD_MESSAGES intent gets MESSAGE_CREATE (`MessageWriter.said`)."""
        where = channel or self.channel
        self._guild_of(where)
        self._may_enter(where)
        world = self._fake.world
        if where.type == GUILD_FORUM:
            raise UserActionError(f"#{where.name} is a forum: one posts in its posts")
        last = world.said_at.get((self.id, where.id))
        wait = where.rate_limit_per_user
        if wait and last is not None and (world.clock.now() - last).total_seconds() < wait:
            # "amount of seconds a user has to wait before sending another message" (Channel
            # Object, rate_limit_per_user): the client counts it down and sends nothing.
            raise UserActionError(f"{self.name} is in #{where.name}'s slowmode")
        if where.archived:
            if where.locked:
                raise UserActionError(f"#{where.name} is locked: no message there")
            # "Sending a message will automatically unarchive the thread" (Threads).
            self._fake.unarchive_thread(where)
        world.said_at[(self.id, where.id)] = world.clock.now()
        return snapshot(world, self._fake.writer.said(where, self.id, content))

    def edit_said(self, message: Message | int, content: str) -> Message:
        """Edit a message this user posted: MESSAGE_UPDATE (`MessageWriter.said_again`)."""
        stored = self._seen(message)
        if stored.author_id != self.id:
            raise UserActionError(f"{self.name} can only edit their own messages")
        return snapshot(self._fake.world, self._fake.writer.said_again(stored, content))

    def visible(self, channel: Channel | None = None) -> list[Message]:
        """What this user sees in the channel: public messages and their own ephemerals
        (except those they dismissed)."""
        world = self._fake.world
        where = channel or self.channel
        return [snapshot(world, m) for m in world.visible(self.id, where.id)]

    def last_message(self, channel: Channel | None = None) -> Message:
        """The newest message this user sees in the channel."""
        seen = self.visible(channel)
        if not seen:
            raise UserActionError(
                f"{self.name} sees no message in #{(channel or self.channel).name}"
            )
        return seen[-1]

    def last_ephemeral(self, channel: Channel | None = None) -> Message:
        """The newest message only this user can see in the channel."""
        mine = [m for m in self.visible(channel) if m.ephemeral]
        if not mine:
            raise UserActionError(
                f"{self.name} has no ephemeral message in #{(channel or self.channel).name}"
            )
        return mine[-1]

    @property
    def dm(self) -> Channel:
        """Their DM channel with the bot (`World.dm_channel`), opened from the bot's profile
        as a user opens one: ``slash("forget", channel=user.dm)``."""
        return self._fake.world.dm_channel(self.id)

    def _guild_of(self, channel: Channel) -> Guild | None:
        """The channel's guild, of which they must be a member; None for their own DM with
        the bot (another's they cannot reach)."""
        if channel.type == DM:
            if self.id not in channel.members:
                raise UserActionError(f"{self.name} is not in the DM {channel.name}")
            return None
        guild = self._fake.world.guilds[channel.guild_id]
        if self.id not in guild.members:
            raise UserActionError(f"{self.name} is not a member of {guild.name}")
        return guild

    def _may_enter(self, channel: Channel) -> None:
        """A private thread shows only to its members ("You must be invited to the thread
        to be able to view or participate in it", Threads, Permissions,
        https://discord.com/developers/docs/topics/threads#permissions); the fake's members
        are no moderators."""
        if channel.type == PRIVATE_THREAD and self.id not in channel.members:
            raise UserActionError(f"{self.name} is not in the private thread #{channel.name}")

    def _seen(self, message: Message | int) -> StoredMessage:
        world = self._fake.world
        message_id = message if isinstance(message, int) else message.id
        stored = world.messages.get(message_id)
        if stored is None:
            raise UserActionError(f"message {message_id} no longer exists")
        if stored.dismissed and stored.ephemeral_to == self.id:
            raise UserActionError(
                f"{self.name} dismissed message {message_id}: it is no longer on their screen"
            )
        if not world.can_see(self.id, stored):
            raise UserActionError(
                f"{self.name} cannot see message {message_id} (someone else's ephemeral)"
            )
        self._guild_of(world.channels[stored.channel_id])
        self._may_enter(world.channels[stored.channel_id])
        return stored

    async def _component(
        self, stored: StoredMessage, data: dict[str, Any], description: str, settle: bool
    ) -> InteractionRecord:
        where = self._fake.world.channels[stored.channel_id]
        record = self._fake.hub.start(
            MESSAGE_COMPONENT, self.user, where, data, description, stored
        )
        return await self._after(record, settle)

    async def _after(self, record: InteractionRecord, settle: bool) -> InteractionRecord:
        if settle:
            await self._fake.settle()
        return record


def _submitted(component: Mapping[str, Any], answers: Mapping[str, str]) -> dict[str, Any] | None:
    """The modal-submit echo of one top-level modal component, in the shape discord.py reads."""
    kind = component.get("type")
    if kind == LABEL:
        inner = _submitted(component["component"], answers)
        return None if inner is None else {"type": LABEL, "component": inner}
    if kind == TEXT_INPUT:
        value = answers.get(component["custom_id"], component.get("value") or "")
        if component.get("required", True) and not value:
            raise UserActionError(f"field {component['custom_id']!r} is required")
        # Discord's client holds what the player types to min_length and max_length ("Minimum
        # input length for a text input", Text Input Structure, components/reference.mdx),
        # an optional field left empty aside: « The non-required text input should only
        # enforce the minimum character limit when the input box has content »
        # (discord/discord-api-docs issue 4468, a bug report Discord closed).
        low, high = component.get("min_length") or 0, component.get("max_length") or 4000
        if value and not low <= len(value) <= high:
            raise UserActionError(
                f"field {component['custom_id']!r} takes {low} to {high} characters"
            )
        return {"type": TEXT_INPUT, "custom_id": component["custom_id"], "value": value}
    if kind in SELECTS:
        raw = answers.get(component["custom_id"])
        picked = [] if raw is None else Select.parse(component).values_for([raw])
        return {"type": kind, "custom_id": component["custom_id"], "values": picked}
    if kind == ACTION_ROW:
        children = [_submitted(c, answers) for c in component.get("components") or []]
        return {"type": ACTION_ROW, "components": [c for c in children if c]}
    return None
