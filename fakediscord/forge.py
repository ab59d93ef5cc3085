"""Forged interactions: what a modified client or a replayed request can make Discord deliver.

:class:`TestUser` only does what Discord's own client allows. A bot must also answer the
rest, since every field of an interaction is chosen by whoever sends it: a custom_id that is
not on the message or comes with the other component type, select values that were never
offered, a modal submit for a form that was never opened, options outside a command's
choices, user ids that are not snowflakes, permissions of an admin. The :class:`Forger`
sends such interactions through the same gateway, with the same records, so
:meth:`FakeDiscord.settle` and the call log judge the bot's answers as for any other.

The payload is Discord's interaction object
(https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure):
``data`` is sent as given, ``member.permissions`` is "total permissions of the member in the
channel" and may be overridden, and ``message`` is included for component interactions and
for modal submits opened from a component, as Discord does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .commands import SUB_COMMAND, SUB_COMMAND_GROUP, build_command_data
from .errors import UserActionError
from .payloads import interaction_payload
from .snapshots import Message
from .state import DM, Channel, InteractionRecord

if TYPE_CHECKING:
    from .client import TestUser
    from .server import FakeDiscord

# https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags
MANAGE_GUILD = 1 << 5


class Forger:
    """Sends hand-made interactions on behalf of test users."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake

    def command(self, user: TestUser, command: str, **values: object) -> dict[str, Any]:
        """The ``data`` Discord's client would send for ``/command sub`` with these options,
        to be altered before :meth:`send` (see :func:`leaf_options`)."""
        fake = self._fake
        guild = fake.world.guilds[user.channel.guild_id]
        name, *words = command.split()
        synced = fake.commands.find(guild.id, name)
        if synced is None:
            raise UserActionError(f"/{name} is not synced for {guild.name}")
        return build_command_data(fake.world, guild, synced, words, values)

    async def send(
        self,
        user: TestUser,
        kind: int,
        data: dict[str, Any],
        *,
        channel: Channel | None = None,
        message: Message | int | None = None,
        permissions: int | None = None,
        edit: Callable[[dict[str, Any]], None] | None = None,
        settle: bool = True,
    ) -> InteractionRecord:
        """Deliver an interaction of type ``kind`` (2 command, 3 component, 5 modal submit)
        with this ``data``, from ``channel`` (the user's by default), on ``message``.

        ``permissions`` replaces the member's permission bits (say, :data:`MANAGE_GUILD`
        for a server admin); ``edit`` may change the finished payload in any other way.
        The user must belong to the channel's guild (or be the DM's user, ``user.dm``) and
        see the message: Discord delivers nothing else. A command sent from a DM need not be
        one offered there: Discord checks a command's contexts « server side » (discord.py's
        `dm_only`), so such a payload should never arrive, and sending one tests the bot's
        answer all the same, as the bot answers a timed-out member's command.
        """
        fake = self._fake
        world = fake.world
        where = channel or user.channel
        if user.id not in (where.members if where.type == DM
                           else world.guilds[where.guild_id].members):
            raise UserActionError(f"{user.name} is not a member of the channel's guild")
        stored = None
        if message is not None:
            stored = world.messages.get(message if isinstance(message, int) else message.id)
            if stored is None or not world.can_see(user.id, stored):
                raise UserActionError(f"{user.name} cannot see message {message!r}")
        if not fake.gateway.connected:
            raise UserActionError("no bot is connected to the fake gateway")
        record = world.add_interaction(kind, user.id, where, data,
                                       f"forged type {kind} {str(data)[:120]}",
                                       None if stored is None else stored.id)
        payload = interaction_payload(world, record)
        if permissions is not None:
            payload["member"]["permissions"] = str(permissions)
            payload["channel"]["permissions"] = str(permissions)
        if edit is not None:
            edit(payload)
        fake.gateway.dispatch("INTERACTION_CREATE", payload)
        if settle:
            await fake.settle()
        return record


def leaf_options(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The option list of the innermost subcommand in a command's ``data``."""
    options: list[dict[str, Any]] = data.setdefault("options", [])
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        options = options[0].setdefault("options", [])
    return options
