"""The commands a message names: in the language of the reader's Discord client, whose
command picker lists them so (discord-api-docs, Application Commands, Localization), the
words around them in the language the reader chose (`OwnLocale`, `languages.own_locale`)."""

import string
from types import SimpleNamespace
from typing import Any

import discord

from bot.i18n import CATALOGUES, COMMAND, OwnLocale, command_names, lang, t
from bot.languages import DISCORD_LOCALE, Languages, own_locale


def _interaction(user_id: int, locale: discord.Locale) -> Any:
    """What `Languages.apply` and `own_locale` read of an interaction."""
    return SimpleNamespace(user=SimpleNamespace(id=user_id), locale=locale, extras={})


def test_each_command_is_named_as_it_is_declared() -> None:
    """The names the commands are declared with (`cmd.*`, `CatalogueTranslator`): the
    group's subcommands under `/president`, and the three a DM offers on their own."""
    fr, en = command_names("fr"), command_names("en")
    assert fr["cmd_rules"] == "/president règles" and en["cmd_rules"] == "/president rules"
    assert fr["cmd_my_language"] == "/president ma-langue"
    assert en["cmd_forget"] == "/president forget" and en["cmd_dm_forget"] == "/forget"
    assert fr["cmd_dm_privacy"] == "/confidentialité" and fr["cmd_president"] == "/president"
    assert fr["cmd_dm_my_language"] == "/ma-langue" and en["cmd_dm_my_language"] == "/my-language"
    assert set(fr) == set(en)


def test_every_command_a_catalogue_names_exists() -> None:
    """A placeholder naming no command would fail only when its line is shown."""
    for language, catalogue in CATALOGUES.items():
        named = {name for text in catalogue.values() if COMMAND in text
                 for _, name, _, _ in string.Formatter().parse(text)
                 if name and name.startswith("cmd_")}
        assert named and named <= set(command_names(language)), language


def test_the_words_follow_the_choice_the_commands_the_client() -> None:
    french_on_english = OwnLocale(discord.Locale.french, discord.Locale.american_english)
    assert lang(french_on_english) == "fr"
    assert t(french_on_english, "err.no_table") == \
        "Il n’y a pas de table dans ce salon. Ouvres-en une avec `/president create`."
    english_on_french = OwnLocale("en", "fr")
    assert lang(english_on_french) == "en"
    assert t(english_on_french, "privacy.erase", erased="x").startswith(
        "To erase it all, on every server: `/president oublier`, or `/oublier` in a "
        "private message")
    # A line naming no command, and a plain locale, read as before.
    assert t(french_on_english, "btn.my_hand") == "Ma main"
    assert t("fr", "err.no_table").endswith("`/president ouvrir`.")


def test_own_locale_pairs_the_choice_with_discords_only_where_they_differ() -> None:
    languages = Languages()
    languages.load({1: "fr", 2: "en"}, {})
    chose_french = _interaction(1, discord.Locale.american_english)
    languages.apply(chose_french)
    assert chose_french.extras[DISCORD_LOCALE] is discord.Locale.american_english
    assert own_locale(chose_french) == OwnLocale(discord.Locale.french,
                                                 discord.Locale.american_english)
    chose_english = _interaction(2, discord.Locale.french)
    languages.apply(chose_english)
    assert own_locale(chose_english) == OwnLocale(discord.Locale.american_english,
                                                  discord.Locale.french)
    # Chose what the client speaks, or chose nothing: the interaction's locale as it is.
    same = _interaction(1, discord.Locale.french)
    languages.apply(same)
    assert own_locale(same) is discord.Locale.french
    nobody = _interaction(3, discord.Locale.british_english)
    languages.apply(nobody)
    assert own_locale(nobody) is discord.Locale.british_english


def test_the_sandboxs_help_names_the_commands_as_the_catalogue_does() -> None:
    """`make sandbox`'s help and its unknown command's line (stop 59): the names the
    commands are declared with, in the terminal's client language, aligned as before."""
    for locale, create in (("fr", "/president ouvrir préréglage:classic   une"),
                           ("en-US", "/president create preset:classic   a slash")):
        assert f"\n    {create}" in t(locale, "sandbox.help")
        assert t(locale, "sandbox.no_command", word="x").endswith(" /president")
    for language, catalogue in CATALOGUES.items():
        assert "/president" not in catalogue["sandbox.help"], language
