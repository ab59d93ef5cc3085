"""Every word the bot shows, in French and English, looked up by key.

French for any `fr*` locale (Discord sends `fr`), English for everything else. Views and cogs
never hold user-visible literals: they call `t(locale, key, **params)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import en, fr

CATALOGUES: dict[str, dict[str, str]] = {"fr": fr.CATALOGUE, "en": en.CATALOGUE}

LocaleLike = object  # discord.Locale, a locale string such as "fr" or "en-US", None, or OwnLocale


@dataclass(frozen=True, slots=True)
class OwnLocale:
    """A player's own message when the language they chose (`/president my-language`) is
    not their Discord client's: its words in `chosen`, the commands it names in `client`.
    Discord's command picker lists each command under the name localized for the client's
    locale (`name_localizations`, discord-api-docs, Application Commands, Localization), so
    a player who chose French on an English client finds `/president rules`, not
    `/president règles`. Made by `bot.languages.own_locale`, passed wherever a locale is."""

    chosen: LocaleLike
    client: LocaleLike


# lang's answers by locale. Rendering one table message or hand asks about sixty times
# (every `t`), always for the same few locales; the answer depends only on the locale, an
# immutable value (a string, a `discord.Locale`, None), so it is worked out once per locale.
# Bounded in case locales ever come from somewhere unbounded; unhashable ones are not kept.
_LANGS: dict[object, str] = {}
_LANGS_KEPT = 256


def _lang_of(locale: LocaleLike) -> str:
    if isinstance(locale, OwnLocale):
        locale = locale.chosen
    value = getattr(locale, "value", locale)
    return "fr" if isinstance(value, str) and value.lower().startswith("fr") else "en"


def lang(locale: LocaleLike) -> str:
    """The catalogue language for a Discord locale (`discord.Locale.french` is "fr")."""
    try:
        return _LANGS[locale]
    except KeyError:
        found = _lang_of(locale)
        if len(_LANGS) < _LANGS_KEPT:
            _LANGS[locale] = found
        return found
    except TypeError:  # unhashable: worked out each time
        return _lang_of(locale)


def t(locale: LocaleLike, key: str, **params: object) -> str:
    """The catalogue line `key` in the language of `locale`, filled with `params`; the
    commands it names (`{cmd_join}`, see `command_names`) as the reader's client lists
    them."""
    text = CATALOGUES[lang(locale)][key]
    if COMMAND in text:
        client = locale.client if isinstance(locale, OwnLocale) else locale
        return text.format(**_COMMAND_NAMES[lang(client)], **params)
    return text.format(**params)


#: What starts a command's placeholder in a catalogue line.
COMMAND = "{cmd_"


def command_names(language: str) -> dict[str, str]:
    """Each command a message may name, as typed in `language`, by its placeholder:
    `cmd_join` for `/president join` (« /president rejoindre »), one for each subcommand
    of the group, `cmd_president` for the group, and `cmd_dm_privacy`, `cmd_dm_forget`,
    `cmd_dm_my_language` for the commands a DM offers. The names are the ones the commands are declared with
    (`cmd.*` keys, `CatalogueTranslator`), so a message names a command as Discord lists
    it to a client speaking `language`."""
    catalogue = CATALOGUES[language]
    group = "/" + catalogue["cmd.president"]
    names = {"cmd_president": group}
    for key, name in catalogue.items():
        command = key.removeprefix("cmd.")
        if command != key and "." not in command and key != "cmd.president":
            names[f"cmd_{command}"] = f"{group} {name}"
    names.update(cmd_dm_privacy="/" + catalogue["cmd.privacy"],
                 cmd_dm_forget="/" + catalogue["cmd.forget"],
                 cmd_dm_my_language="/" + catalogue["cmd.my_language"])
    return names


_COMMAND_NAMES = {language: command_names(language) for language in CATALOGUES}


def button_names(locale: LocaleLike) -> dict[str, str]:
    """The public buttons' names in a table's language (`locale`), for the private lines that
    tell a reader which to press: an English reader at a French table sees « Rejouer » on
    the button, so that is the name to read (play-test 14)."""
    return {param: t(locale, f"btn.{key}") for param, key in _BUTTONS}


_BUTTONS = (("replay", "replay"), ("end", "end_game"), ("settings", "settings"),
            ("start", "start"), ("join", "join"), ("next", "next_round"))


def plural(locale: LocaleLike, key: str, n: int, **params: object) -> str:
    """`key.one` or `key.many` for a count: French treats 0 and 1 as singular (« 0 point »),
    English only 1 ("0 points")."""
    one = n == 1 or (n == 0 and lang(locale) == "fr")
    return t(locale, f"{key}.{'one' if one else 'many'}", n=n, **params)


def public_locale(chosen: str | None, guild_locale: LocaleLike, community: bool,
                  creator: LocaleLike) -> str:
    """The language of a server's public messages (lobby, table, results): the one its
    admins chose with `/president language`, else the server's own locale, else the table
    creator's. Discord reports "en-US" for every server that is not a Community one, so only
    a Community server's locale says anything about its players."""
    if chosen is not None:
        return chosen
    if community and guild_locale is not None:
        return str(getattr(guild_locale, "value", guild_locale))
    return str(getattr(creator, "value", creator))


def has(key: str) -> bool:
    return key in CATALOGUES["en"]


def join_names(locale: LocaleLike, names: list[str], key: str = "list.and") -> str:
    """"Alice, Bob and Carol" / « Alice, Bob et Carol »; with ``key="list.or"``,
    alternatives: "on a 2 or on a joker" / « sur un 2 ou sur un joker »."""
    if len(names) <= 1:
        return "".join(names)
    return t(locale, key, head=", ".join(names[:-1]), last=names[-1])
