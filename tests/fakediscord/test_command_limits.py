"""Command trees Discord refuses at a bulk overwrite, as the fake does since stop 46:
option names unique among siblings (localized ones too), known locales, autocomplete
without choices, string lengths, subcommand nesting, choice types, and the number of
commands a scope holds; since stop 47, the commands it may create a day."""

from __future__ import annotations

from typing import Any

import pytest

from fakediscord import DiscordError
from fakediscord.clock import FakeClock
from fakediscord.command_limits import check_commands
from fakediscord.commands import CommandRegistry
from fakediscord.snowflake import Snowflakes


def _refused(commands: list[dict[str, Any]]) -> str:
    with pytest.raises(DiscordError) as caught:
        check_commands(commands)
    assert caught.value.code == 50035 and caught.value.status == 400
    return str(caught.value.errors)


def _option(name: str, kind: int = 3, **more: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": name, **more}


def _command(*options: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": 1, "name": "president", "description": "Play", "options": list(options),
            **more}


def _sub(name: str, *options: dict[str, Any], kind: int = 1, **more: Any) -> dict[str, Any]:
    return _option(name, kind, options=list(options), **more)


@pytest.mark.parametrize(("command", "code"), [
    (_command(_option("seat"), _option("seat")), "DUPLICATE_NAME"),
    (_command(_option("seat"), _option("place", name_localizations={"fr": "seat"})),
     "DUPLICATE_NAME"),                                            # a sibling's default name
    (_command(_option("seat", name_localizations={"fr": "place"}),
              _option("spot", name_localizations={"fr": "place"})), "DUPLICATE_NAME"),
    (_command(name_localizations={"en": "president"}), "BASE_TYPE_CHOICES"),
    (_command(_option("p", choices=[{"name": "c", "value": "c",
                                     "name_localizations": {"xx": "c"}}])),
     "BASE_TYPE_CHOICES"),
    (_command(_option("p", autocomplete=True, choices=[{"name": "c", "value": "c"}])),
     "AUTOCOMPLETE"),
    (_command(_option("p", min_length=6001)), "NUMBER_TYPE_MAX"),
    (_command(_option("p", max_length=0)), "NUMBER_TYPE_MAX"),
    (_command(_sub("join"), _option("seat")), "OPTIONS_TYPE_INVALID"),
    (_command(_sub("rules", _sub("deck", kind=2), kind=2)), "OPTIONS_TYPE_INVALID"),
    (_command(_sub("rules", _option("deck"), kind=2)), "OPTIONS_TYPE_INVALID"),
    (_command(_sub("join", _sub("now"))), "OPTIONS_TYPE_INVALID"),
    (_command(_option("who", 6, choices=[{"name": "a", "value": "1"}])), "CHOICES_INVALID"),
    (_command(_option("n", 4, choices=[{"name": "a", "value": "1"}])), "CHOICE_VALUE_INVALID"),
    (_command(_option("n", 4, choices=[{"name": "a", "value": 2 ** 53}])), "NUMBER_TYPE_MAX"),
])
def test_command_trees_discord_would_refuse(command: dict[str, Any], code: str) -> None:
    assert code in _refused([command])


def test_command_trees_discord_takes() -> None:
    check_commands([
        _command(_sub("join", _option("seat", name_localizations={"fr": "place"})),
                 _sub("rules", _sub("show", _option("seat", 4, min_value=1, choices=[
                     {"name": "one", "value": 1}])), kind=2),
                 name_localizations={"fr": "president", "en-GB": "president"}),
        {"type": 2, "name": "Show Stats", "description": ""},      # a user command
        _command(_option("p", min_length=0, max_length=6000), name="rules"),
    ])


def test_a_scope_holds_at_most_100_slash_and_15_user_or_message_commands() -> None:
    slash = [_command(name=f"c{i}") for i in range(100)]
    users = [{"type": 2, "name": f"User {i}", "description": ""} for i in range(15)]
    check_commands(slash + users)
    for over in (slash + users + [_command(name="c100")],
                 slash + users + [{"type": 2, "name": "User 15", "description": ""}],
                 [{"type": 3, "name": f"Message {i}", "description": ""} for i in range(16)]):
        with pytest.raises(DiscordError) as caught:
            check_commands(over)
        assert (caught.value.status, caught.value.code) == (400, 30032)


def test_a_scope_creates_at_most_200_commands_a_day() -> None:
    """Only commands a scope does not hold yet count (a re-sync of the same tree is free),
    a refused overwrite changes nothing, and creates older than 24 hours stop counting
    (stop 47)."""
    clock = FakeClock()
    registry = CommandRegistry(Snowflakes(clock), 1, clock)
    guild = 7
    for batch in range(2):
        tree = [_command(name=f"c{batch}-{i}") for i in range(100)]
        registry.sync(guild, tree)
        registry.sync(guild, tree)
    kept = registry.listing(guild)
    with pytest.raises(DiscordError) as caught:
        registry.sync(guild, [_command(name="late")])
    assert (caught.value.status, caught.value.code) == (400, 30034)
    assert registry.listing(guild) == kept
    registry.sync(None, [_command(name="late")])          # the global scope counts apart
    registry.sync(8, [_command(name="late")])             # and so does another guild
    clock.advance(24 * 60 * 60)
    registry.sync(guild, [_command(name="late")])
