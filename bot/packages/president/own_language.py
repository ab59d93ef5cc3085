"""`/president my-language` on a server, `/my-language` in a DM with the bot (`privacy.direct`,
since stop 59): the language of a player's own messages, on every server (docs/bot.md « A
language of one's own (stop 58) », « A language chosen anywhere (stop 59) »,
`bot.languages`). Both commands are declared with `CHOICES` and answered by `choose`.

Public messages keep their rule (the server's language, else its locale, else the host's):
they are read by everyone at the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.i18n import t
from bot.i18n.translator import ls
from bot.languages import discord_locale, stored_locale
from bot.storage.languages import LANGUAGES
from bot.tables.service import TableError

if TYPE_CHECKING:
    import discord

    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]

#: « Selon Discord » / "As Discord says": no choice kept, each interaction's locale.
AUTOMATIC = "auto"
CHOICES = [app_commands.Choice(name=ls(f"lang.{code}"), value=code) for code in LANGUAGES] \
    + [app_commands.Choice(name=ls("my_language.automatic"), value=AUTOMATIC)]


async def choose(interaction: Interaction, language: str) -> None:
    """Store the choice, then answer in the language now the player's, and redraw their
    open hands in it (`TableService.heard`)."""
    if language != AUTOMATIC and language not in LANGUAGES:
        raise TableError("err.bad_choice")
    storage = interaction.client.storage
    if storage is None:
        raise TableError("err.my_language_unavailable")
    chosen = None if language == AUTOMATIC else language
    await interaction.response.defer(ephemeral=True, thinking=True)
    sent = discord_locale(interaction)
    await storage.choose_language(interaction.user.id, chosen, stored_locale(sent))
    languages = interaction.client.languages
    languages.choose(interaction.user.id, chosen, sent)
    locale = languages.locale(interaction)
    interaction.locale = locale  # what the rest of this interaction says (`tell_vanished`)
    interaction.client.service.heard(interaction.user.id, str(locale), str(sent))
    text = t(locale, "my_language.automatic_set") if chosen is None else \
        t(locale, "my_language.set", language=t(locale, f"language.name.{chosen}"))
    await interaction.followup.send(text, ephemeral=True)
