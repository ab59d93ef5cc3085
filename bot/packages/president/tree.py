"""The slash-command tree: every command interaction gets an answer, even a forged one.

discord.py trusts what Discord sends: an unknown subcommand ends in `CommandNotFound`, a user
option `abc` or above 2^63 in a `ValueError` or `OverflowError` raised while the options are
read, and an unresolved member in an `AttributeError` inside the command; all of them are only
logged and the user sees "This interaction failed". A string option's value is not checked
against the command's choices either. So the raw payload is checked here before discord.py
reads it (Discord's application command data structure: name, options with name, type and
value, and `resolved` users and members, see
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-application-command-data-structure),
and anything refused gets one ephemeral line in the user's language that changes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from bot.languages import own_locale
from bot.packages.controls import answer_privately, out_of_reach, refusal_text, too_late
from bot.tables.service import TableError

log = logging.getLogger(__name__)

SNOWFLAKE_DIGITS = 20  # a snowflake is an unsigned 64-bit integer
MAX_SNOWFLAKE = 2**63  # discord.py stores ids in signed 64-bit fields


class CheckedTree(app_commands.CommandTree[Any]):
    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """A command replayed too late to be answered runs nothing (`bot.replays`); one
        whose payload is not a valid call is refused."""
        if interaction.client.replays.late(interaction):
            return False
        if interaction.type is not discord.InteractionType.application_command:
            return True
        data: Any = interaction.data
        if not isinstance(data, dict) or not valid_call(self, data):
            await answer_privately(interaction, refusal_text(own_locale(interaction),
                                                           TableError("err.bad_command")))
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[Any],
                       error: app_commands.AppCommandError) -> None:
        """Refusals (`TableError`) are answered by the cog; anything else still answers:
        the database being away with « try again in a moment » (one warning line, no
        traceback: see `out_of_reach`), a bug with an internal error and its traceback."""
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            if not interaction.response.is_done():
                await answer_privately(interaction,
                                       refusal_text(own_locale(interaction), original))
            return
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return
        name = getattr(interaction.command, "qualified_name", "?")
        if too_late(original):  # nothing can answer it any more
            log.warning("/%s: answered too late for its token (%s)", name, original)
            return
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch
                      | app_commands.TransformerError):
            key = "err.bad_command"
        else:
            if out_of_reach(original, f"/{name}"):
                key = "err.storage_down"
            else:
                log.error("/%s failed", name, exc_info=original)
                key = "err.internal"
        await answer_privately(interaction,
                               refusal_text(own_locale(interaction), TableError(key)))


def valid_call(tree: app_commands.CommandTree[Any], data: dict[str, Any]) -> bool:
    """Whether the payload names a known command with options it declares, of their type,
    with a declared choice where it has choices, and users that are real resolved ids."""
    found = command_of(tree, data)
    if found is None:
        return False
    command, options = found
    parameters = {p.name: p for p in command.parameters}
    given: set[str] = set()
    resolved = data.get("resolved")
    for option in options:
        name = option.get("name") if isinstance(option, dict) else None
        parameter = parameters.get(name) if isinstance(name, str) else None
        if parameter is None or parameter.name in given:
            return False
        given.add(parameter.name)
        if option.get("type") != parameter.type.value:
            return False
        if not valid_value(parameter, option.get("value"), resolved):
            return False
    return all(p.name in given for p in command.parameters if p.required)


def command_of(tree: app_commands.CommandTree[Any], data: dict[str, Any],
               ) -> tuple[app_commands.Command[Any, ..., Any], list[Any]] | None:
    """The command a payload calls, walking its subcommand options, and that command's own
    options; None if no such command is registered."""
    name = data.get("name")
    if not isinstance(name, str):
        return None
    guild_id = data.get("guild_id")
    command: object = None
    if isinstance(guild_id, str) and guild_id.isascii() and guild_id.isdigit():
        command = tree.get_command(name, guild=discord.Object(int(guild_id)))
    if command is None:
        command = tree.get_command(name)
    options = data.get("options") or []
    while isinstance(command, app_commands.Group):
        if not isinstance(options, list) or len(options) != 1:
            return None
        sub = options[0]
        if not isinstance(sub, dict) or not isinstance(sub.get("name"), str):
            return None
        command = command.get_command(sub["name"])
        options = sub.get("options") or []
    if not isinstance(command, app_commands.Command) or not isinstance(options, list):
        return None
    return command, options


def valid_value(parameter: app_commands.Parameter, value: object, resolved: object) -> bool:
    if parameter.type is AppCommandOptionType.user:
        return resolved_user(value, resolved)
    if parameter.type is AppCommandOptionType.string:
        if not isinstance(value, str):
            return False
        return not parameter.choices or value in {c.value for c in parameter.choices}
    return False  # the commands take no other option types


def resolved_user(value: object, resolved: object) -> bool:
    """A user option's value is a snowflake that Discord resolved in `resolved.users`."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return False
    if len(value) > SNOWFLAKE_DIGITS or int(value) >= MAX_SNOWFLAKE:
        return False
    users = resolved.get("users") if isinstance(resolved, dict) else None
    return isinstance(users, dict) and isinstance(users.get(value), dict)
