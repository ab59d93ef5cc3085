"""`/forget` in a direct message with the bot: the erasure of `/president forget`, for a
player who left every server the bot is on, or was banned from the one they played on, and
so can no longer type a server command (docs/privacy.md).

Why a command of its own rather than the `/president` group offered in DMs too: a command's
interaction contexts belong to the top-level command (discord.py: « this decorator does
nothing in subcommands and is ignored », `app_commands.dm_only`), so offering the group in
DMs would list its twenty-one server commands in the DM's command picker, all but three
(`privacy`, `forget`, `rules`) meaning nothing there. `/forget` is offered in the DM with
the bot alone (`contexts` [BOT_DM], « Interaction can be used within DMs with the app's bot
user »: Interaction Context Types,
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types,
and « Interaction Contexts »,
https://discord.com/developers/docs/interactions/application-commands#interaction-contexts;
discord/discord-api-docs at c98d64bc), so a server's picker shows no second « forget »
beside `/president forget`, and a DM's shows this one only. The question, its buttons
and the erasure are `/president forget`'s (`privacy.views`), in the asker's Discord locale.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n.translator import ls
from bot.packages.controls import answer_privately, refusal_text
from bot.packages.privacy import views as privacy_views
from bot.tables.service import TableError

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]


class DirectForget(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """During a shutdown nothing can be erased: said, as the server commands say it."""
        if self.bot.stopping:
            await answer_privately(interaction, refusal_text(
                interaction.locale, TableError("err.restarting")))
            return False
        self.bot.service.heard(interaction.user.id, str(interaction.locale))
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A refusal (an open table holding them, say) gets its line, after the deferral
        too; anything else is the tree's (`CheckedTree.on_error`)."""
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # answered by interaction_check
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await answer_privately(interaction, refusal_text(interaction.locale, original))

    @app_commands.command(name=ls("cmd.forget"), description=ls("cmd.forget.desc"))
    @app_commands.dm_only()
    async def forget(self, interaction: Interaction) -> None:
        await privacy_views.forget(interaction)
