"""The `/president` command group. Each command finds the channel's table and delegates to
the feature that owns the action; refusals become one ephemeral line in the user's language.
What the gateway tells of the server's changes is heard by `listeners.ServerChanges`."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import join_names, public_locale, t
from bot.i18n.translator import ls
from bot.languages import discord_locale, own_locale
from bot.packages.controls import here, refusal_text, tell_vanished
from bot.packages.game.prompts import kick_prompt, stop_prompt
from bot.packages.game.views import show_hand
from bot.packages.lobby.display import lobby_screen
from bot.packages.lobby.views import display_name, join, leave
from bot.packages.moderation import timed_out
from bot.packages.permissions import (
    absent,
    not_in_server,
    require,
)
from bot.packages.president import own_language
from bot.packages.president.rules import rules_embed
from bot.packages.privacy import views as privacy_views
from bot.packages.publisher.calls import NO_PINGS
from bot.packages.saving import saved, tell
from bot.packages.settings.views import open_settings
from bot.packages.stats import display as stats_display
from bot.packages.text import clipped, player_name, shown_text
from bot.storage.failures import describe, transient
from bot.storage.records import KeptHouse
from bot.tables import house
from bot.tables.breaks import REASON_LENGTH
from bot.tables.clock import done_by
from bot.tables.deadlines import OWN_PAUSE_SECONDS
from bot.tables.service import TableError
from bot.tables.table import Table
from bot.tables.tokens import Opening
from engine import PRESETS, Rules
from engine.bots import LEVELS

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]

log = logging.getLogger(__name__)

# How long `/president rules`, answered without a deferral, waits for the channel's house
# rules before showing the preset's (Discord wants an answer within 3 s).
HOUSE_READ_SECONDS = 1.0
PRESET_CHOICES = [app_commands.Choice(name=ls(f"preset.{p}"), value=p) for p in PRESETS]
LEVEL_CHOICES = [app_commands.Choice(name=ls(f"level.{level}"), value=level)
                 for level in LEVELS]
LANGUAGES = ("fr", "en", "auto")
LANGUAGE_CHOICES = [app_commands.Choice(name=ls(f"lang.{code}"), value=code)
                    for code in LANGUAGES]


def community(interaction: discord.Interaction[Any]) -> bool:
    """Whether the server chose its locale: only Community servers can."""
    guild = interaction.guild
    return guild is not None and "COMMUNITY" in guild.features


def automated(table: Table, user_id: int) -> bool:
    """Whether the autopilot plays the user's seat at the table's game now (not a leaver's
    bot, which only finishes a round)."""
    seat = table.seat_of(user_id)
    return table.game is not None and seat is not None and table.game.automated(seat) \
        and seat not in table.left_seats


# Tables live in server channels: Discord offers the commands nowhere else, so no DM gets a
# misleading « no table in this channel ». The command's `contexts` is [GUILD] (0), see
# https://discord.com/developers/docs/interactions/application-commands#application-command-object
# and « Interaction Context Types » in receiving-and-responding.
@app_commands.guild_only()
class President(commands.GroupCog, group_name=ls("cmd.president"),
                group_description=ls("cmd.president.desc")):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        # Per server: opening a table (which reads the server's language) and changing the
        # language (which redraws the open tables) take turns. Interleaved, a table opened
        # as an admin switched to French kept the English it had read before.
        self._language_turns: dict[int, asyncio.Lock] = {}
        super().__init__()

    def _language_turn(self, guild_id: int) -> asyncio.Lock:
        return self._language_turns.setdefault(guild_id, asyncio.Lock())

    # ------------------------------------------------------------------ helpers

    def _table(self, interaction: Interaction) -> Table:
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is None:
            raise self._elsewhere(interaction)
        return table

    def _elsewhere(self, interaction: Interaction) -> TableError:
        """No table here. A player who typed the command in another channel than their
        table's, or in a thread under it, is told where the table is rather than invited to
        open another; only this server's channels are named (another's mean nothing here).
        In a server the bot is not in, no table can be opened: it says so."""
        if absent(interaction):
            return not_in_server(interaction)
        registry = self.bot.service.registry
        mine = registry.of_player(interaction.guild_id, interaction.user.id)
        if mine:
            channels = join_names(interaction.locale, [f"<#{t.channel_id}>" for t in mine])
            return TableError("err.no_table_yours", channels=channels)
        parent = getattr(interaction.channel, "parent_id", None)
        if registry.in_channel(parent) is not None:
            return TableError("err.no_table_thread", channel=f"<#{parent}>")
        return TableError("err.no_table")

    async def _dealt(self, interaction: Interaction, table: Table) -> None:
        """A game the host started by command: their own hand is the answer (a seated
        host's first need), else a word that it started."""
        if table.plays(interaction.user.id):
            await show_hand(interaction, table, update=False)
        else:
            await self._ok(interaction, table, "done.started")

    async def _ok(self, interaction: Interaction, table: Table, key: str,
                  **params: object) -> None:
        """The word that a change is done, once it is saved (`saving.saved`: a crash in
        between must not leave its caller told of a state the restart takes back)."""
        if await saved(interaction, table, new_message=True):
            await tell(interaction, content=t(own_locale(interaction), key, **params))

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """During a shutdown no change can be stored any more: say so instead of failing.
        A member in timeout, whom Discord offers no command, is refused one that arrives all
        the same (an older client, a forged payload): Discord's own rule (`moderation`).
        Discord offers and accepts the group in servers only (`contexts` [GUILD], checked on
        its side); one that arrives from a DM all the same is told where the commands work,
        and of `/forget`, the one a DM offers (`privacy.direct`), rather than failing on a
        guild it does not have."""
        refusal = TableError("err.restarting") if self.bot.stopping else \
            TableError("err.server_only") if interaction.guild_id is None else \
            timed_out(interaction, self.bot.service.clock.now())
        if refusal is not None:
            await interaction.response.send_message(
                refusal_text(own_locale(interaction), refusal), ephemeral=True)
            return False
        self.bot.service.heard(interaction.user.id, str(interaction.locale),
                               str(discord_locale(interaction)))
        return True

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        """A refusal (`TableError`) gets its line here. Anything else is left to the tree's
        `CheckedTree.on_error`, which discord.py calls next: raising it again here would
        make discord.py call this handler twice and leave the error in its task
        (« Task exception was never retrieved », a second traceback in the log)."""
        if isinstance(error, app_commands.CheckFailure) and interaction.response.is_done():
            return  # already answered by interaction_check
        original = getattr(error, "original", error)
        if not isinstance(original, TableError):
            return
        text = refusal_text(own_locale(interaction),
                            TableError(here(interaction, original.key), **original.params))
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
        await tell_vanished(interaction)

    @commands.Cog.listener()
    async def on_app_command_completion(self, interaction: Interaction,
                                        command: object) -> None:
        """A command used at a table is someone acting there (see `Publisher.acted`). Any
        command tells its user of their tables whose channel was deleted (`vanished`)."""
        await tell_vanished(interaction)
        if interaction.channel_id is None:
            return
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is not None and not table.closed:
            await self.bot.publisher.acted(interaction, table)

    # ------------------------------------------------------------------ lobby

    @app_commands.command(name=ls("cmd.create"), description=ls("cmd.create.desc"))
    @app_commands.rename(preset=ls("cmd.create.preset"))
    @app_commands.describe(preset=ls("cmd.create.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def create(self, interaction: Interaction, preset: str | None = None) -> None:
        """The table starts from its channel's house rules (`bot.tables.house`): with no
        preset given, the last kept there, whatever their preset; with one, that preset's
        as the channel keeps them, else its defaults (« Revenir au préréglage » in the
        lobby goes back to them)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise TableError("err.channel_only")
        if preset is not None and preset not in PRESETS:
            raise TableError("err.bad_choice")
        if self.bot.service.registry.in_channel(interaction.channel_id) is not None:
            raise TableError("err.table_exists")
        require(interaction)
        # Opening a table writes to the database: acknowledge first, whatever the load.
        await interaction.response.defer(thinking=True)
        try:
            table = await self._open(interaction, interaction.guild_id,
                                     interaction.channel_id, preset)
        except TableError as err:
            await self._withdraw(interaction, refusal_text(
                own_locale(interaction), TableError(here(interaction, err.key), **err.params)))
            return
        except Exception:
            # A bug: logged with its traceback, and answered privately all the same (the
            # tree's answer would be a follow-up replacing the public deferral, for all to
            # see).
            log.exception("/president create failed")
            await self._withdraw(interaction, refusal_text(own_locale(interaction),
                                                           TableError("err.internal")))
            return
        # The lobby says the table is open once its first state is stored (stop 62): a
        # crash before that commit left a lobby with its buttons over a table the restart
        # closed (no snapshot, nothing to restore). A token past its life: the refresh
        # posts the lobby instead (`Publisher._post`).
        if not await saved(interaction, table, new_message=True):
            self.bot.service.refresh(table)
            return
        screen = lobby_screen(table)
        message = await interaction.followup.send(allowed_mentions=NO_PINGS, wait=True,
                                                  **screen.kwargs())
        table.lobby_message_id = message.id
        table.opening = None  # its token is no longer needed: dropped from the snapshot
        self.bot.publisher.shown(table, "lobby", screen)
        self.bot.service.touch(table)

    async def _open(self, interaction: Interaction, guild_id: int, channel_id: int,
                    preset: str | None) -> Table:
        """Open the table, in the server's language, on its channel's house rules; a
        database that stays locked or down refuses it (`err.storage_busy`) rather than
        leaving the deferral unanswered."""
        parent_id = getattr(interaction.channel, "parent_id", None)
        async with self._language_turn(guild_id):
            chosen: str | None = None
            stored: KeptHouse | None = None
            storage = self.bot.storage
            if storage is not None:
                try:
                    chosen = (await storage.get_guild_settings(guild_id)).language
                    place, thread = house.places_of(channel_id, parent_id)
                    stored = await storage.house(place, preset, thread_id=thread)
                except Exception as err:
                    if not transient(err):
                        raise
                    log.warning("server %s: could not read its language and house rules "
                                "(%s)", guild_id, describe(err))
            rules, settings, noted = house.read_house(
                None if stored is None else stored.rules,
                None if stored is None else stored.settings, preset,
                own_thread=stored is not None and stored.own_thread)
            try:
                table = await self.bot.service.create(
                    channel_id, guild_id, interaction.user.id, display_name(interaction),
                    str(interaction.locale), post=False, rules=rules, house=noted,
                    parent_id=parent_id, opened_by=interaction.id, settings=settings,
                    opening=Opening(int(interaction.application_id), interaction.token,
                                    self.bot.service.clock.now()))
            except Exception as err:
                # A refused connection or an unresolvable host arrives as a bare OSError,
                # not a SQLAlchemyError: the shared classifier knows every such shape.
                if not transient(err):
                    raise
                log.warning("channel %s: could not open a table (%s)", channel_id,
                            describe(err))
                raise TableError("err.storage_busy") from None
            # The creator's hand keeps their own locale; the public messages speak the
            # server's.
            table.locale = public_locale(chosen, interaction.guild_locale,
                                         community(interaction), interaction.locale)
            return table

    async def _withdraw(self, interaction: Interaction, text: str) -> None:
        """Answer a refusal after a public deferral: its « thinking… » message goes, and the
        refusal comes privately (a first follow-up would replace the deferral, publicly)."""
        await interaction.delete_original_response()
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("cmd.join"), description=ls("cmd.join.desc"))
    async def join(self, interaction: Interaction) -> None:
        await join(interaction, self._table(interaction), from_lobby=False)

    @app_commands.command(name=ls("cmd.leave"), description=ls("cmd.leave.desc"))
    async def leave(self, interaction: Interaction) -> None:
        await leave(interaction, self._table(interaction), from_lobby=False)

    @app_commands.command(name=ls("cmd.addbot"), description=ls("cmd.addbot.desc"))
    @app_commands.rename(level=ls("cmd.addbot.level"))
    @app_commands.describe(level=ls("cmd.addbot.level.desc"))
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: Interaction, level: str | None = None) -> None:
        table = self._table(interaction)
        await self.bot.service.add_bot(table, interaction.user.id, level)
        bot = table.seats[-1]
        await self._ok(interaction, table, "lobby.bot_added", name=bot.name,
                       level=t(interaction.locale, f"level.{bot.level}"))

    @app_commands.command(name=ls("cmd.kick"), description=ls("cmd.kick.desc"))
    @app_commands.rename(member=ls("cmd.kick.member"))
    @app_commands.describe(member=ls("cmd.kick.member.desc"))
    async def kick(self, interaction: Interaction, member: discord.User) -> None:
        name = player_name(str(getattr(member, "display_name", None) or member.name))
        table = self._table(interaction)
        self.bot.service.verify_kick(table, interaction.user.id, member.id, name)
        prompt = kick_prompt(table, interaction.user.id, member.id, name, interaction.locale)
        if prompt is not None:  # it would end the game for everyone: asked first
            await interaction.response.send_message(ephemeral=True, **prompt.kwargs())
            return
        await self.bot.service.kick(table, interaction.user.id, member.id, name)
        await self._ok(interaction, table, "lobby.kicked", name=name)

    @app_commands.command(name=ls("cmd.start"), description=ls("cmd.start.desc"))
    async def start(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        require(interaction)
        await self.bot.service.games.start(table, interaction.user.id)
        await self._dealt(interaction, table)

    @app_commands.command(name=ls("cmd.settings"), description=ls("cmd.settings.desc"))
    async def settings(self, interaction: Interaction) -> None:
        await open_settings(interaction, self._table(interaction))

    @app_commands.command(name=ls("cmd.rules"), description=ls("cmd.rules.desc"))
    @app_commands.rename(preset=ls("cmd.rules.preset"))
    @app_commands.describe(preset=ls("cmd.rules.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def rules(self, interaction: Interaction, preset: str | None = None) -> None:
        """Readable before anyone opens a table: with no table in the channel, a preset's
        rules (classic unless one is asked for); at a table, its own rules, or the preset
        asked for, said not to be the table's."""
        if preset is not None and preset not in PRESETS:
            raise TableError("err.bad_choice")
        registry = self.bot.service.registry
        table = registry.in_channel(interaction.channel_id)
        locale = own_locale(interaction)
        if table is None and preset is None and not absent(interaction):
            # Asked away from the table they play at (another channel, a thread under
            # it): that table's rules, as every other command points them there. They
            # were shown classic's, or the channel's house rules, and invited to open a
            # table (play-test 38).
            mine = registry.of_player(interaction.guild_id, interaction.user.id)
            if len(mine) == 1:
                await interaction.response.send_message(embed=rules_embed(
                    locale, mine[0], None, elsewhere=t(
                        locale, here(interaction, "rules.your_table"),
                        channel=f"<#{mine[0].channel_id}>")), ephemeral=True)
                return
        house_rules = await self._house_rules(interaction) \
            if table is None and preset is None else None
        await interaction.response.send_message(
            embed=rules_embed(locale, table, preset,
                              no_table=here(interaction, "rules.no_table"), house=house_rules,
                              house_note=here(interaction, "rules.house")),
            ephemeral=True)

    async def _house_rules(self, interaction: Interaction) -> Rules | None:
        """The rules a table opened in this channel would start from, where it keeps
        house rules (read back as `create` reads them: a preset's own where they are
        that preset's unchanged, or all that could be read); None where it keeps none. The
        answer is not deferred, so a database slower than `HOUSE_READ_SECONDS` of the bot's clock, or failing,
        leaves the default preset's rules, as before house rules."""
        storage = self.bot.storage
        if storage is None or interaction.channel_id is None:
            return None
        channel, thread = house.places_of(interaction.channel_id,
                                          getattr(interaction.channel, "parent_id", None))
        clock = self.bot.service.clock
        read = asyncio.ensure_future(storage.house_rules(channel, thread_id=thread))
        if not await done_by(clock, clock.now() + HOUSE_READ_SECONDS, read):
            log.warning("channel %s: its house rules took over %s s to read", channel,
                        HOUSE_READ_SECONDS)
            return None
        try:
            stored = read.result()
        except Exception as err:
            if not transient(err):
                raise
            log.warning("channel %s: could not read its house rules (%s)", channel,
                        describe(err))
            return None
        return None if stored is None else house.read(stored, None)[0]

    @app_commands.command(name=ls("cmd.end"), description=ls("cmd.end.desc"))
    async def end(self, interaction: Interaction) -> None:
        """Mid-game the host is asked first (the button does it): a stopped game is lost to
        everyone at the table. A finished game or a lobby needs no asking."""
        table = self._table(interaction)
        if table.under_way:
            if not self.bot.service.may_host(table, interaction.user.id):
                raise self.bot.service.host_refusal(table, interaction.user.id)
            prompt = stop_prompt(table, interaction.locale)
            await interaction.response.send_message(ephemeral=True, **prompt.kwargs())
            return
        await self.bot.service.games.end(table, interaction.user.id)
        await self._ok(interaction, table, "lobby.ended" if table.closed else "end.lobby")

    @app_commands.command(name=ls("cmd.replay"), description=ls("cmd.replay.desc"))
    async def replay(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        require(interaction)
        await self.bot.service.games.replay(table, interaction.user.id)
        await self._dealt(interaction, table)

    @app_commands.command(name=ls("cmd.language"), description=ls("cmd.language.desc"))
    @app_commands.rename(language=ls("cmd.language.language"))
    @app_commands.describe(language=ls("cmd.language.language.desc"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: Interaction, language: str) -> None:
        """Server admins (Manage Server, from the member's permissions in the interaction)
        choose the language of every table's public messages on the server, and open tables
        switch at once; the host of this channel's table, of that table only."""
        if interaction.guild_id is None:
            raise TableError("err.channel_only")
        if language not in LANGUAGES:
            raise TableError("err.bad_choice")
        chosen = None if language == "auto" else language
        if not interaction.permissions.manage_guild:
            await self._table_language(interaction, interaction.guild_id, chosen)
            return
        storage = self.bot.storage
        if storage is None:
            raise TableError("err.language_unavailable")
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self._language_turn(interaction.guild_id):
            await storage.set_guild_language(interaction.guild_id, chosen)
            switched = self.bot.service.registry.in_guild(interaction.guild_id)
            for table in switched:
                host = next((p for p in table.seats if p.user_id == table.host_id), None)
                table.locale = public_locale(chosen, interaction.guild_locale,
                                             community(interaction),
                                             host.locale if host is not None else table.locale)
                self.bot.service.touch(table)
                self.bot.service.refresh(table)
        # Said once every open table's new language is stored too, not only the server's
        # (stop 62): a restart takes a table's language from its snapshot, and a crash in
        # between brought them back in the old one after « now speak French ».
        for table in switched:
            if not await saved(interaction, table, new_message=True):
                return
        locale = interaction.locale
        text = t(locale, "language.auto") if chosen is None else \
            t(locale, "language.set", language=t(locale, f"language.name.{chosen}"))
        await interaction.followup.send(text, ephemeral=True)

    async def _table_language(self, interaction: Interaction, guild_id: int,
                              chosen: str | None) -> None:
        """A host's choice: their table's public messages only (`None`: the server's)."""
        table = self.bot.service.registry.in_channel(interaction.channel_id)
        if table is None or not table.is_host(interaction.user.id):
            raise TableError("err.language_forbidden")
        await interaction.response.defer(ephemeral=True, thinking=True)
        server = None
        if chosen is None and self.bot.storage is not None:
            server = (await self.bot.storage.get_guild_settings(guild_id)).language
        host = next((p for p in table.seats if p.user_id == table.host_id), None)
        table.locale = chosen or public_locale(server, interaction.guild_locale,
                                               community(interaction),
                                               host.locale if host is not None else table.locale)
        self.bot.service.touch(table)
        self.bot.service.refresh(table)
        if not await saved(interaction, table, new_message=True):  # told once stored
            return
        locale = interaction.locale
        text = t(locale, "language.table_auto") if chosen is None else \
            t(locale, "language.table_set", language=t(locale, f"language.name.{chosen}"))
        await interaction.followup.send(text, ephemeral=True)

    @app_commands.command(name=ls("cmd.my_language"), description=ls("cmd.my_language.desc"))
    @app_commands.rename(language=ls("cmd.my_language.language"))
    @app_commands.describe(language=ls("cmd.my_language.language.desc"))
    @app_commands.choices(language=own_language.CHOICES)
    async def my_language(self, interaction: Interaction, language: str) -> None:
        await own_language.choose(interaction, language)

    # ------------------------------------------------------------------ game

    @app_commands.command(name=ls("cmd.hand"), description=ls("cmd.hand.desc"))
    async def hand(self, interaction: Interaction) -> None:
        await show_hand(interaction, self._table(interaction), update=False)

    @app_commands.command(name=ls("cmd.pause"), description=ls("cmd.pause.desc"))
    @app_commands.rename(reason=ls("cmd.pause.reason"))
    @app_commands.describe(reason=ls("cmd.pause.reason.desc"))
    async def pause(self, interaction: Interaction,
                    reason: app_commands.Range[str, 1, REASON_LENGTH] | None = None) -> None:
        """The host's break, or a seated player's own short one (`bot.tables.breaks`),
        with a reason shown at the table: on one
        line, cut to REASON_LENGTH as a modified client may send more, made safe to show."""
        table = self._table(interaction)
        said = shown_text(clipped(" ".join((reason or "").split()), REASON_LENGTH))
        own = await self.bot.service.breaks.pause(table, interaction.user.id, said)
        await self._ok(interaction, table, "done.paused_own" if own else "done.paused",
                       button=t(table.locale, "btn.play_on"), minutes=OWN_PAUSE_SECONDS // 60)

    @app_commands.command(name=ls("cmd.play_on"), description=ls("cmd.play_on.desc"))
    async def play_on(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        await self.bot.service.breaks.play_on(table, interaction.user.id)
        await self._ok(interaction, table, "done.played_on")

    @app_commands.command(name=ls("cmd.resume"), description=ls("cmd.resume.desc"))
    async def resume(self, interaction: Interaction) -> None:
        table = self._table(interaction)
        try:
            await self.bot.service.moves.resume(table, interaction.user.id)
        except TableError as err:
            if err.key != "err.not_automated":
                raise
            raise self._automated_elsewhere(interaction, table) or err from None
        await show_hand(interaction, table, update=False)

    def _automated_elsewhere(self, interaction: Interaction,
                             here_: Table) -> TableError | None:
        """A player at two tables of the server, typing `/president resume` at the one
        they play by hand, was told « nobody is playing for you » while the autopilot
        played for them at the other (play-test 34): the refusal names where it does."""
        elsewhere = [f"<#{table.channel_id}>"
                     for table in self.bot.service.registry.of_player(interaction.guild_id,
                                                                      interaction.user.id)
                     if table is not here_ and automated(table, interaction.user.id)]
        if not elsewhere:
            return None
        return TableError("err.not_automated_elsewhere",
                          channels=join_names(interaction.locale, elsewhere))

    # ------------------------------------------------------------------ statistics

    @app_commands.command(name=ls("cmd.stats"), description=ls("cmd.stats.desc"))
    @app_commands.rename(member=ls("cmd.stats.member"))
    @app_commands.describe(member=ls("cmd.stats.member.desc"))
    async def stats(self, interaction: Interaction, member: discord.User | None = None) -> None:
        await stats_display.stats(interaction, member or interaction.user)

    @app_commands.command(name=ls("cmd.leaderboard"), description=ls("cmd.leaderboard.desc"))
    @app_commands.rename(preset=ls("cmd.leaderboard.preset"))
    @app_commands.describe(preset=ls("cmd.leaderboard.preset.desc"))
    @app_commands.choices(preset=PRESET_CHOICES)
    async def leaderboard(self, interaction: Interaction, preset: str | None = None) -> None:
        """Without a preset, the one the channel's table plays: someone who just finished
        a presi game asks for « the » leaderboard and means presi's, not classic's. In a
        thread under a table's channel (where a tournament's players talk between games),
        that table's: play-test 34 read classic's there, under a presi table. Where no
        table is open, the channel's house rules' (play-test 33), else the preset of its
        last game (`stats.display`)."""
        registry = self.bot.service.registry
        table = registry.in_channel(interaction.channel_id) or \
            registry.in_channel(getattr(interaction.channel, "parent_id", None))
        await stats_display.leaderboard(
            interaction, preset or (table.rules.preset_id if table is not None else None))

    @app_commands.command(name=ls("cmd.history"), description=ls("cmd.history.desc"))
    async def history(self, interaction: Interaction) -> None:
        await stats_display.history(interaction)

    # ------------------------------------------------------------------ privacy

    @app_commands.command(name=ls("cmd.privacy"), description=ls("cmd.privacy.desc"))
    async def privacy(self, interaction: Interaction) -> None:
        await privacy_views.privacy(interaction)

    @app_commands.command(name=ls("cmd.forget"), description=ls("cmd.forget.desc"))
    async def forget(self, interaction: Interaction) -> None:
        await privacy_views.forget(interaction)

    @app_commands.command(name=ls("cmd.forget_server"), description=ls("cmd.forget_server.desc"))
    async def forget_server(self, interaction: Interaction) -> None:
        await privacy_views.forget_server(interaction)
