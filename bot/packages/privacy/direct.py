"""`/forget`, `/privacy` and `/my-language` in a direct message with the bot: the erasure of
`/president forget`, what `/president privacy` shows, and the choice of `/president
my-language`, for a player who left every server the bot is on, or was banned from the one
they played on, and so can no longer type a server command (docs/privacy.md), or who would
rather choose their language away from a server (docs/bot.md « A language chosen anywhere
(stop 59) »). Seeing what is kept comes before erasing it: the DM offered the erasure
alone (stop 49), whose question counts what goes but does not show it.

Why a command of its own rather than the `/president` group offered in DMs too: a command's
interaction contexts belong to the top-level command (discord.py: « this decorator does
nothing in subcommands and is ignored », `app_commands.dm_only`), so offering the group in
DMs would list its twenty-two server commands in the DM's command picker, all but four
(`privacy`, `forget`, `rules`, `my-language`) meaning nothing there. These three are offered
in the DM with the bot alone (`contexts` [BOT_DM], « Interaction can be used within DMs with the app's bot
user »: Interaction Context Types,
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types,
and « Interaction Contexts »,
https://discord.com/developers/docs/interactions/application-commands#interaction-contexts;
discord/discord-api-docs at c98d64bc), so a server's picker shows no second « forget »
or « privacy » or « my-language » beside `/president`'s, and a DM's shows these three only
(`/president my-language` is the server's way to choose). The question, its buttons, the
erasure and the account of what is kept are `/president forget`'s and `/president
privacy`'s (`privacy.views`), the choice `/president my-language`'s (`own_language.choose`:
the same option and choices, stored alike, refused alike without a database), each in the
asker's language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n.translator import ls
from bot.languages import discord_locale, own_locale
from bot.packages.controls import answer_privately, refusal_text
from bot.packages.president import own_language
from bot.packages.privacy import views as privacy_views
from bot.tables.service import TableError

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]


class DirectCommands(commands.Cog):
    """The top-level commands a DM with the bot offers (`contexts` [BOT_DM])."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """During a shutdown nothing can be stored, neither an erasure nor a language chosen
        (`/my-language` too since stop 59): said, as the server commands say it."""
        if self.bot.stopping:
            await answer_privately(interaction, refusal_text(
                own_locale(interaction), TableError("err.restarting")))
            return False
        self.bot.service.heard(interaction.user.id, str(interaction.locale),
                               str(discord_locale(interaction)))
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A refusal (an open table holding them, say) gets its line, after the deferral
        too; anything else is the tree's (`CheckedTree.on_error`)."""
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # answered by interaction_check
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await answer_privately(interaction,
                                   refusal_text(own_locale(interaction), original))

    @app_commands.command(name=ls("cmd.forget"), description=ls("cmd.forget.desc"))
    @app_commands.dm_only()
    async def forget(self, interaction: Interaction) -> None:
        await privacy_views.forget(interaction)

    @app_commands.command(name=ls("cmd.privacy"), description=ls("cmd.privacy.desc"))
    @app_commands.dm_only()
    async def privacy(self, interaction: Interaction) -> None:
        await privacy_views.privacy(interaction)

    @app_commands.command(name=ls("cmd.my_language"), description=ls("cmd.my_language.desc"))
    @app_commands.dm_only()
    @app_commands.rename(language=ls("cmd.my_language.language"))
    @app_commands.describe(language=ls("cmd.my_language.language.desc"))
    @app_commands.choices(language=own_language.CHOICES)
    async def my_language(self, interaction: Interaction, language: str) -> None:
        await own_language.choose(interaction, language)
