"""The application commands the bot synced, and slash invocations built from them.

The fake only lets a user run what the bot actually synced, with option types taken from
the synced tree: a command the bot forgot to sync fails the test like it fails a user.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import command_limits, errors
from .clock import FakeClock
from .errors import UserActionError
from .payloads import (
    bot_permissions,
    channel_payload,
    member_payload,
    permissions_of,
    user_payload,
)
from .snowflake import Snowflakes
from .state import Guild, World

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
#: Interaction Context Types: "GUILD 0 Interaction can be used within servers", "BOT_DM 1
#: Interaction can be used within DMs with the app's bot user" (receiving-and-responding,
#: https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types).
GUILD, BOT_DM = 0, 1
STRING, INTEGER, BOOLEAN, USER, CHANNEL, NUMBER = 3, 4, 5, 6, 7, 10
CHAT_INPUT = 1


#: « Registering a Command »: "There is a global rate limit of 200 application command
#: creates per day, per guild"; Bulk Overwrite Global Application Commands: "Commands that
#: do not already exist will count toward daily application command create limits"
#: (developers/interactions/application-commands.mdx). Past it, JSON error code 30034
#: "Maximum number of daily application command creates has been reached (200)" (JSON
#: error codes, developers/topics/opcodes-and-status-codes.mdx). The docs say neither
#: whether the day is a calendar day or the last 24 hours, nor how global commands are
#: counted: the fake counts the last 24 hours on its clock, per guild and for the global
#: scope apart, and a bulk overwrite that would pass the limit changes nothing.
MAX_DAILY_CREATES = 200
DAY = 24 * 60 * 60.0


class CommandRegistry:
    """Global and per-guild commands, with ids kept stable across re-syncs like Discord's."""

    def __init__(self, snowflakes: Snowflakes, application_id: int, clock: FakeClock) -> None:
        self._snowflakes = snowflakes
        self._application_id = application_id
        self._clock = clock
        self._synced: dict[int | None, list[dict[str, Any]]] = {}
        self._ids: dict[tuple[int | None, str, int], int] = {}
        self._creates: dict[int | None, list[float]] = {}

    def sync(self, guild_id: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Replace a scope's commands (bulk overwrite) and return them as Discord does."""
        command_limits.check_commands(commands)
        self._count_creates(guild_id, commands)
        stored = []
        for command in commands:
            kind = command.get("type", CHAT_INPUT)
            key = (guild_id, command["name"], kind)
            command_id = self._ids.setdefault(key, self._snowflakes.next())
            entry: dict[str, Any] = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **command,
                "id": str(command_id),
                "application_id": str(self._application_id),
                "type": kind,
                "version": str(self._snowflakes.next()),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self._synced[guild_id] = stored
        return stored

    def _count_creates(self, guild_id: int | None, commands: list[dict[str, Any]]) -> None:
        """Count the commands the scope does not hold yet (by name and type), or refuse
        the whole overwrite with 30034 if they would pass the day's 200."""
        held = {(c["name"], c["type"]) for c in self._synced.get(guild_id, [])}
        new = sum(1 for c in commands if (c["name"], c.get("type", CHAT_INPUT)) not in held)
        now = self._clock.monotonic()
        recent = [t for t in self._creates.get(guild_id, []) if now - t < DAY]
        if len(recent) + new > MAX_DAILY_CREATES:
            self._creates[guild_id] = recent
            raise errors.max_daily_command_creates()
        self._creates[guild_id] = recent + [now] * new

    def listing(self, guild_id: int | None) -> list[dict[str, Any]]:
        return self._synced.get(guild_id, [])

    def find(self, guild_id: int | None, name: str) -> dict[str, Any] | None:
        """What a user in ``guild_id`` (None: in their DM with the bot) gets for ``/name``:
        a command whose contexts do not include where they are is not offered there
        (`offered`), and guild commands never in a DM.

        Guild commands do not hide global ones: an app "can have a global and guild
        CHAT_INPUT command with the same name" (Registering a Command,
        https://discord.com/developers/docs/interactions/application-commands#registering-a-command)
        and the client lists both, so a name synced in both scopes is shown twice and a
        test cannot tell which one its user picked: that fails the test.
        """
        found = [
            command
            for scope in dict.fromkeys((guild_id, None))
            for command in self._synced.get(scope, [])
            if command["name"] == name and command["type"] == CHAT_INPUT
            and offered(command, BOT_DM if guild_id is None else GUILD)
        ]
        if len(found) > 1:
            raise UserActionError(
                f"/{name} is listed twice in this guild (a guild command and a global one)"
            )
        return found[0] if found else None

    def names(self, guild_id: int | None) -> list[str]:
        """The names the command picker lists in ``guild_id`` (None: a DM with the bot)."""
        where = BOT_DM if guild_id is None else GUILD
        return sorted(c["name"] for scope in dict.fromkeys((guild_id, None))
                      for c in self._synced.get(scope, []) if offered(c, where))


def offered(command: Mapping[str, Any], context: int) -> bool:
    """Whether Discord offers and accepts ``command`` in ``context`` (GUILD or BOT_DM).

    « The interaction contexts for a command determines where in the Discord client it can
    be used » (Interaction Contexts); `contexts` is « Interaction context(s) where the
    command can be used, only for globally-scoped commands » and « Guild commands don't
    support the `BOT_DM` interaction context » (application-commands, Application Command
    Structure and Using Default Permissions,
    https://discord.com/developers/docs/interactions/application-commands#interaction-contexts;
    discord/discord-api-docs at c98d64bc, developers/interactions/application-commands.mdx).
    Without `contexts`, the deprecated `dm_permission` « Indicates whether the command is
    available in DMs with the app [...] By default, commands are visible ». discord.py's
    `guild_only`, `dm_only` and `allowed_contexts` are « verified by Discord server side »
    (their docstrings): nothing in the bot refuses a command sent from elsewhere, so a test
    that tries is refused here as Discord refuses it."""
    if "guild_id" in command:
        return context == GUILD
    contexts = command.get("contexts")
    if contexts is None:
        return context == GUILD or bool(command.get("dm_permission", True))
    return context in contexts


def build_command_data(
    world: World,
    guild: Guild | None,
    command: Mapping[str, Any],
    words: list[str],
    values: Mapping[str, object],
) -> dict[str, Any]:
    """The ``data`` of a type-2 interaction for ``/command sub ...`` with typed options.

    Values are checked as Discord's client checks them before sending: unknown or missing
    required options, a value outside ``choices`` or the min/max bounds are refused.
    """
    data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": CHAT_INPUT}
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    resolved: dict[str, dict[str, Any]] = {}
    node: Mapping[str, Any] = command
    target: list[dict[str, Any]] = []
    data["options"] = target
    shown = "/" + command["name"]
    for word in words:
        sub = next(
            (
                o
                for o in node.get("options") or []
                if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if sub is None:
            raise UserActionError(f"{shown} has no subcommand {word!r}; it has {_children(node)}")
        shown += " " + word
        entry: dict[str, Any] = {"type": sub["type"], "name": word, "options": []}
        target.append(entry)
        target = entry["options"]
        node = sub
    declared = {o["name"]: o for o in node.get("options") or []}
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in declared.values()):
        raise UserActionError(f"{shown} needs a subcommand: {_children(node)}")
    unknown = set(values) - set(declared)
    if unknown:
        raise UserActionError(f"{shown} has no option {sorted(unknown)}; it has {sorted(declared)}")
    for name, option in declared.items():
        if name in values:
            value = _convert(world, guild, option, values[name], resolved, f"{shown} {name}")
            target.append({"type": option["type"], "name": name, "value": value})
        elif option.get("required"):
            raise UserActionError(f"{shown} requires option {name!r}")
    if resolved:
        data["resolved"] = resolved
    return data


def _children(node: Mapping[str, Any]) -> list[str]:
    return [o["name"] for o in node.get("options") or []]


def _convert(
    world: World,
    guild: Guild | None,
    option: Mapping[str, Any],
    value: object,
    resolved: dict[str, dict[str, Any]],
    shown: str,
) -> object:
    kind = option["type"]
    if kind == BOOLEAN:
        if not isinstance(value, bool):
            raise UserActionError(f"{shown} takes true or false, not {value!r}")
        return value
    if kind in (USER, CHANNEL):
        snowflake = value if isinstance(value, int) else getattr(value, "id", None)
        if not isinstance(snowflake, int):
            raise UserActionError(f"{shown} takes a user or channel (or its id), not {value!r}")
        _resolve(world, guild, kind, snowflake, resolved, shown)
        return str(snowflake)
    if kind in (INTEGER, NUMBER):
        value = _choice(option, value)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise UserActionError(f"{shown} takes a number, not {value!r}")
        if kind == INTEGER and not float(value).is_integer():
            raise UserActionError(f"{shown} takes an integer, not {value!r}")
        low, high = option.get("min_value"), option.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise UserActionError(f"{shown} must be between {low} and {high}, not {value!r}")
        return int(value) if kind == INTEGER else value
    if kind == STRING:
        text = str(_choice(option, value))
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(text) <= high:
            raise UserActionError(f"{shown} must be {low} to {high} characters long")
        return text
    raise UserActionError(f"{shown}: option type {kind} is not supported by fakediscord")


def _choice(option: Mapping[str, Any], value: object) -> object:
    """Users pick choices by their shown name; tests may give the name or the value."""
    choices = option.get("choices")
    if not choices:
        return value
    for choice in choices:
        if value in (choice["name"], choice["value"]):
            return choice["value"]
    shown = [c["name"] for c in choices]
    raise UserActionError(f"option {option['name']!r} only offers {shown}, not {value!r}")


def _resolve(
    world: World,
    guild: Guild | None,
    kind: int,
    snowflake: int,
    resolved: dict[str, dict[str, Any]],
    shown: str,
) -> None:
    if kind == USER:
        user = world.users.get(snowflake)
        if user is None:
            raise UserActionError(f"{shown}: no user {snowflake}")
        resolved.setdefault("users", {})[str(snowflake)] = user_payload(user)
        if guild is not None and snowflake in guild.members:  # a DM resolves no member
            member = member_payload(world, guild, snowflake)
            del member["user"]
            member["permissions"] = str(permissions_of(guild, snowflake))
            resolved.setdefault("members", {})[str(snowflake)] = member
        return
    channel = world.channels.get(snowflake)
    if guild is None or channel is None or channel.guild_id != guild.id:
        where = "a DM" if guild is None else guild.name
        raise UserActionError(f"{shown}: no channel {snowflake} in {where}")
    payload = channel_payload(channel)
    payload["permissions"] = str(bot_permissions(world, channel))
    resolved.setdefault("channels", {})[str(snowflake)] = payload
