"""Localises slash-command names, descriptions and choices from the catalogues."""

from __future__ import annotations

from discord import Locale, app_commands

from bot.i18n import CATALOGUES


class CatalogueTranslator(app_commands.Translator):
    """Each `locale_str` carries its catalogue key in `extras["key"]`; English is the default."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or not locale.value.startswith("fr"):
            return None
        return CATALOGUES["fr"].get(key)


def ls(key: str) -> app_commands.locale_str:
    """A command-facing string: English text now, French through the translator."""
    return app_commands.locale_str(CATALOGUES["en"][key], key=key)
