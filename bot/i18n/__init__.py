"""Every word the bot shows, in French and English, looked up by key.

French for any `fr*` locale (Discord sends `fr`), English for everything else. Views and cogs
never hold user-visible literals: they call `t(locale, key, **params)`.
"""

from __future__ import annotations

from bot.i18n import en, fr

CATALOGUES: dict[str, dict[str, str]] = {"fr": fr.CATALOGUE, "en": en.CATALOGUE}

LocaleLike = object  # discord.Locale, a locale string such as "fr" or "en-US", or None


# lang's answers by locale. Rendering one table message or hand asks about sixty times
# (every `t`), always for the same few locales; the answer depends only on the locale, an
# immutable value (a string, a `discord.Locale`, None), so it is worked out once per locale.
# Bounded in case locales ever come from somewhere unbounded; unhashable ones are not kept.
_LANGS: dict[object, str] = {}
_LANGS_KEPT = 256


def _lang_of(locale: LocaleLike) -> str:
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
    return CATALOGUES[lang(locale)][key].format(**params)


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
