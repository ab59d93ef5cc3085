"""Discord's rules for the application commands a bot registers with a bulk overwrite.

Read against discord-api-docs, developers/interactions/application-commands.mdx
(https://discord.com/developers/docs/interactions/application-commands): « Application
Command Naming », the command, option and choice structures, « Registering a Command »,
« Subcommands and Subcommand Groups » and « Localization »; the locales are the table of
developers/reference.mdx (https://discord.com/developers/docs/reference#locales). Each
broken rule is reported at its field path, in Discord's 50035 shape (`limits.FormErrors`).
The docs quote no inner error code for some of these rules; the fake names them in
Discord's style, and a bot sees the same 400 50035 either way.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from . import errors
from .limits import FormErrors, Path

MAX_COMMAND_NAME = 32
MAX_COMMAND_DESCRIPTION = 100
MAX_COMMAND_OPTIONS = 25
MAX_COMMAND_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_COMMAND_TEXT = 8000
#: A string option's min_length: "minimum of `0`, maximum of `6000`"; max_length: "minimum
#: of `1`, maximum of `6000`".
MAX_STRING_OPTION_LENGTH = 6000
#: INTEGER: "Any integer between -2^53+1 and 2^53-1"; NUMBER: "Any double between -2^53
#: and 2^53" (Application Command Option Type).
MAX_SAFE_NUMBER = 2 ** 53
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
#: « Registering a Command »: "100 global `CHAT_INPUT` commands", "15 global `USER`
#: commands", "15 global `MESSAGE` commands", and "the same amount of guild-specific
#: commands per guild".
MAX_COMMANDS = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15}
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
TOP = 0  # the level of options right under a command, for `_check_options`
STRING, INTEGER, NUMBER = 3, 4, 10
NESTING = frozenset({SUB_COMMAND, SUB_COMMAND_GROUP})
DUPLICATE_OPTION = "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
    "nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk",
    "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
})


def check_commands(commands: Sequence[Mapping[str, Any]]) -> None:
    """A bulk command sync: what Discord would refuse in names, descriptions, options and
    choices, their localizations included ("Localized option names are subject to the same
    constraints as the default option names"), and « Registering a Command »: "a maximum
    of 8000 characters for combined name, description, and value properties for each
    command, its options (including subcommands and groups), and choices", counting the
    longest localization of each field. More commands of a type than a scope may hold is
    30032, "Maximum number of application commands reached" (JSON error codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes)."""
    counts = Counter(command.get("type", CHAT_INPUT) for command in commands)
    if any(count > MAX_COMMANDS.get(kind, 1) for kind, count in counts.items()):
        raise errors.max_application_commands()
    form = FormErrors()
    names: set[tuple[str, int]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", CHAT_INPUT)
        _check_text(form, (index,), command, kind == CHAT_INPUT)
        _check_options(form, (index,), command.get("options") or [], TOP)
        if _text_size(command) > MAX_COMMAND_TEXT:
            form.add((index,), "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size")
        key = (command.get("name") or "", kind)
        if key in names:
            form.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {key[0]}",
            )
        names.add(key)
    form.raise_if_any()


def valid_command_name(name: str) -> bool:
    r"""« Application Command Naming »: `^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$`,
    in lowercase where the letter has a lowercase variant (chat input commands)."""
    def allowed(ch: str) -> bool:
        script = unicodedata.name(ch, "")
        return ch in "-_'" or unicodedata.category(ch)[0] in "LN" \
            or script.startswith(("DEVANAGARI", "THAI"))
    return 1 <= len(name) <= MAX_COMMAND_NAME and name == name.lower() \
        and all(allowed(ch) for ch in name)


def _localized(node: Mapping[str, Any], key: str) -> list[tuple[Path, str]]:
    """A field and each of its localizations, with the path of each."""
    found: list[tuple[Path, str]] = [((key,), str(node.get(key) or ""))]
    for locale, text in (node.get(f"{key}_localizations") or {}).items():
        found.append(((f"{key}_localizations", locale), str(text or "")))
    return found


def _text_size(node: Mapping[str, Any]) -> int:
    """Name, description and value, the longest localization of each, through the options
    and choices."""
    size = sum(max(len(text) for _, text in _localized(node, key))
               for key in ("name", "description"))
    if isinstance(node.get("value"), str):
        size += len(node["value"])
    for child in list(node.get("options") or []) + list(node.get("choices") or []):
        size += _text_size(child)
    return size


def _check_locales(form: FormErrors, path: Path, node: Mapping[str, Any]) -> None:
    """Localization dictionaries take "keys in available locales" only."""
    for key in ("name_localizations", "description_localizations"):
        for locale in node.get(key) or {}:
            if locale not in LOCALES:
                form.add((*path, key, locale), "BASE_TYPE_CHOICES",
                         f"Value must be one of {tuple(sorted(LOCALES))}.")


def _check_text(form: FormErrors, path: Path, node: Mapping[str, Any], chat_input: bool
                ) -> None:
    """A name under the naming rule and a 1-100 character description, for a chat input
    command and every option; "`USER` and `MESSAGE` commands may be mixed case and can
    include spaces", with an empty description."""
    _check_locales(form, path, node)
    for where, name in _localized(node, "name"):
        if chat_input and not valid_command_name(name):
            form.add((*path, *where), "APPLICATION_COMMAND_INVALID_NAME",
                     "Command name is invalid")
        elif not chat_input:
            form.length((*path, *where), name, 1, MAX_COMMAND_NAME)
    if chat_input:
        for where, text in _localized(node, "description"):
            form.length((*path, *where), text, 1, MAX_COMMAND_DESCRIPTION)


def _check_options(form: FormErrors, path: Path, options: Sequence[Mapping[str, Any]],
                   parent: int) -> None:
    """One level of options under a command (``parent`` TOP), a subcommand group
    or a subcommand. « Subcommands and Subcommand Groups »: "nesting one level deep within a
    group [...] That is the only kind of nesting supported", and a level holding
    subcommands holds nothing else. Option structure: "Required `options` must be listed
    before optional options", and "`name` must be unique within an array of application
    command options"; « Localization »: "Localized option names [...] must be distinct from
    all other default option names of that command, as well as all other option names
    within that locale on that command"."""
    form.length((*path, "options"), list(options), 0, MAX_COMMAND_OPTIONS)
    kinds = [option.get("type") for option in options]
    nested = [kind in NESTING for kind in kinds]
    mixed = any(nested) and not all(nested)
    if mixed or (parent == SUB_COMMAND and any(nested)) \
            or (parent == SUB_COMMAND_GROUP and any(kind != SUB_COMMAND for kind in kinds)):
        form.add((*path, "options"), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                 "Sub-command and sub-command group option types are mutually exclusive to "
                 "all other types")
    _check_option_names(form, path, options)
    optional = False
    for index, option in enumerate(options):
        here = (*path, "options", index)
        if option.get("required") and optional:
            form.add((*here, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                     "Required options must be placed before non-required options")
        optional = optional or not option.get("required")
        _check_option(form, here, option)


def _check_option_names(form: FormErrors, path: Path,
                        options: Sequence[Mapping[str, Any]]) -> None:
    defaults = [str(option.get("name") or "") for option in options]
    by_locale: dict[str, list[str]] = {}
    for index, option in enumerate(options):
        name = defaults[index]
        if name in defaults[:index]:
            form.add((*path, "options", index, "name"), DUPLICATE_OPTION,
                     f"Option names must be unique: {name}")
        for locale, text in (option.get("name_localizations") or {}).items():
            taken = by_locale.setdefault(locale, [])
            others = defaults[:index] + defaults[index + 1:]
            if text != name and (text in others or text in taken):
                form.add((*path, "options", index, "name_localizations", locale),
                         DUPLICATE_OPTION, f"Localized option names must be unique: {text}")
            taken.append(str(text))


def _check_option(form: FormErrors, here: Path, option: Mapping[str, Any]) -> None:
    kind = option.get("type")
    _check_text(form, here, option, True)
    choices = option.get("choices") or []
    if choices and kind not in (STRING, INTEGER, NUMBER):
        form.add((*here, "choices"), "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                 "Only string, integer and number options take choices")
    # "`autocomplete` may not be set to true if `choices` are present"
    if choices and option.get("autocomplete"):
        form.add((*here, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_WITH_CHOICES",
                 "Autocomplete and choices are mutually exclusive")
    form.length((*here, "choices"), list(choices), 0, MAX_COMMAND_CHOICES)
    for number, choice in enumerate(choices):
        where = (*here, "choices", number)
        _check_locales(form, where, choice)
        for name_path, text in _localized(choice, "name"):
            form.length((*where, *name_path), text, 1, MAX_CHOICE_TEXT)
        _check_choice_value(form, where, kind, choice.get("value"))
    for key, low in (("min_length", 0), ("max_length", 1)):
        value = option.get(key)
        if value is not None and not low <= value <= MAX_STRING_OPTION_LENGTH:
            form.add((*here, key), "NUMBER_TYPE_MAX",
                     f"int value should be between {low} and {MAX_STRING_OPTION_LENGTH}.")
    if kind in NESTING:
        _check_options(form, here, option.get("options") or [], kind)


def _check_choice_value(form: FormErrors, where: Path, kind: object, value: object) -> None:
    """"Value for the choice, up to 100 characters if string", of the option's type."""
    if kind == STRING and isinstance(value, str):
        form.length((*where, "value"), value, 1, MAX_CHOICE_TEXT)
    elif kind == INTEGER and isinstance(value, int) and not isinstance(value, bool):
        if not -MAX_SAFE_NUMBER < value < MAX_SAFE_NUMBER:
            form.add((*where, "value"), "NUMBER_TYPE_MAX",
                     "int value should be between -2^53+1 and 2^53-1.")
    elif kind == NUMBER and isinstance(value, int | float) and not isinstance(value, bool):
        if not -MAX_SAFE_NUMBER <= value <= MAX_SAFE_NUMBER:
            form.add((*where, "value"), "NUMBER_TYPE_MAX",
                     "float value should be between -2^53 and 2^53.")
    elif kind in (STRING, INTEGER, NUMBER):
        form.add((*where, "value"), "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID",
                 "The choice's value is not of its option's type")
