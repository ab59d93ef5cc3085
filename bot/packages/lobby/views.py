"""Lobby buttons and the matching slash commands: sit, leave, add or remove bots, start."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import button_names, t
from bot.languages import own_locale
from bot.packages.controls import Click, Drawn, action
from bot.packages.game.prompts import quit_prompt
from bot.packages.game.views import show_hand
from bot.packages.lobby.display import lobby_screen
from bot.packages.permissions import require
from bot.packages.publisher.calls import NO_PINGS
from bot.packages.publisher.listed import KIND, Listed
from bot.packages.saving import saved, tell
from bot.packages.settings.views import open_settings, seats_cut
from bot.packages.text import player_name
from bot.tables.service import TableError
from bot.tables.table import Table

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]


# The lobby's buttons, on its public message.
PUBLIC = Drawn()


def display_name(interaction: Interaction) -> str:
    """The user's name as tables show it: escaped, since a name is text its owner chose."""
    return player_name(str(getattr(interaction.user, "display_name", None)
                           or interaction.user.name))


async def redraw_lobby(interaction: Interaction, table: Table) -> bool:
    """Answer a lobby button by redrawing the lobby message itself (one call), once its
    change is saved (`saving.saved`: a crash in between must not leave its clicker told of
    a state the restart takes back, stop 61). A lobby control forged onto another message
    leaves that message alone: the lobby follows through the refresh. Whether it was
    answered."""
    message = interaction.message
    if message is None or message.id != table.lobby_message_id:
        if not await saved(interaction, table, new_message=True):
            return False
        await tell(interaction, content=t(interaction.locale, "done.ok"))
        return True
    return await interaction.client.publisher.answer(interaction, table, "lobby",
                                                     lambda: lobby_screen(table))


# What each way of waiting for a seat (`Seating.join`) tells the one now waiting.
WAITING = {"queued": "lobby.queued", "queued_lobby": "lobby.queued_lobby",
           "next_game": "lobby.queued_next_game",
           "listed": "lobby.listed_next_game", "waiting": "lobby.listed_full",
           "last_round": "lobby.listed_last_round", "no_end": "lobby.queued_no_end",
           "no_end_freed": "lobby.queued_no_end_freed", "no_end_listed": "lobby.listed_no_end",
           "to_lobby": "lobby.listed_to_lobby"}


async def join(interaction: Interaction, table: Table, from_lobby: bool) -> None:
    """The command and the « Rejoindre » buttons (the lobby's, and the table message's,
    which asks for a seat while a game is on)."""
    typed = display_name(interaction)
    service = interaction.client.service
    created = service.clock.now()  # the token that may edit the answer, from here
    outcome = await service.join(table, interaction.user.id, typed, str(interaction.locale))
    if outcome == "back" and table.game is not None:
        await show_hand(interaction, table, update=False)  # once saved (`show_hand`)
        return
    if from_lobby and outcome not in WAITING:
        answered = await redraw_lobby(interaction, table)
    else:
        answered = await saved(interaction, table, new_message=True)  # told once saved
    if not answered:
        return
    if outcome in WAITING:
        await tell(interaction, content=t(interaction.locale, WAITING[outcome],
                                          **button_names(table.locale)))
        if outcome in KIND:  # a game with no end: told if what it says changes (`listed`)
            interaction.client.publisher.listed.keep(table, Listed(
                interaction, interaction.user.id, str(interaction.locale), created, outcome))
    elif not from_lobby:
        await tell(interaction, content=t(interaction.locale, "lobby.joined"))
    if outcome != "back":
        await tell_numbered(interaction, table, typed)


async def tell_numbered(interaction: Interaction, table: Table, typed: str) -> None:
    """A member arriving where someone already goes by their name is numbered there
    (« Twin (2) », `bot.names.unique`): told so privately, or they could not tell which of
    the two the table means by them."""
    shown = next((p.name for p in [*table.seats, *table.queue]
                  if p.user_id == interaction.user.id), typed)
    if shown != typed:
        await interaction.followup.send(t(interaction.locale, "lobby.numbered", name=typed,
                                          shown=shown), ephemeral=True,
                                        allowed_mentions=NO_PINGS)


async def join_button(click: Click) -> None:
    await join(click.interaction, click.table, from_lobby=True)


# « Rejoindre » on a lobby or table message the table has since left (brought back below
# the channel's chatter as the friend clicked, play-test 28) seats them all the same, as
# `/president join` would: nothing in it depends on what the message showed.
action("join", drawn=Drawn(late=join_button))(join_button)


async def leave(interaction: Interaction, table: Table, from_lobby: bool) -> None:
    """Leave at once, except a game one plays: leaving it hands one's seat to a bot or makes
    the table wait, so one is asked first (prompts.quit_prompt), from the command or from a
    lobby button clicked as the game started alike. The lobby's button answers by redrawing
    the lobby where the table is still in it; every other answer says they left, and their
    open hand then only that it closed, not the same line twice (play-test 38): which of
    the two is the service's to say, under the table's lock (`Seating.leave`)."""
    left = await interaction.client.service.leave(table, interaction.user.id, ask_first=True,
                                                  lobby_button=from_lobby)
    if left is None:
        prompt = quit_prompt(table, interaction.user.id, own_locale(interaction))
        await interaction.response.send_message(ephemeral=True, **prompt.kwargs())
    elif left.redrawn:
        await redraw_lobby(interaction, table)
    elif await saved(interaction, table, new_message=True):  # told once saved
        await tell(interaction, content=t(interaction.locale, left.words))


@action("leave", drawn=PUBLIC)
async def leave_button(click: Click) -> None:
    await leave(click.interaction, click.table, from_lobby=True)


@action("addbot", drawn=PUBLIC)
async def addbot_button(click: Click) -> None:
    await click.bot.service.add_bot(click.table, click.user_id)
    await redraw_lobby(click.interaction, click.table)


@action("addbot_level", drawn=Drawn(select=True))
async def addbot_level_select(click: Click) -> None:
    """The lobby's level select: seat a bot of the level picked (the service checks it)."""
    if len(click.values) != 1:
        raise TableError("err.bad_choice")
    await click.bot.service.add_bot(click.table, click.user_id, click.values[0])
    await redraw_lobby(click.interaction, click.table)


@action("removebot", drawn=PUBLIC)
async def removebot_button(click: Click) -> None:
    await click.bot.service.remove_bot(click.table, click.user_id)
    await redraw_lobby(click.interaction, click.table)


@action("start", drawn=PUBLIC)
async def start_button(click: Click) -> None:
    require(click.interaction)
    await click.bot.service.games.start(click.table, click.user_id)
    await redraw_lobby(click.interaction, click.table)


@action("vsbots", drawn=PUBLIC)
async def vs_bots_button(click: Click) -> None:
    require(click.interaction)
    await click.bot.service.games.play_against_bots(click.table, click.user_id)
    await redraw_lobby(click.interaction, click.table)


@action("house_reset", drawn=PUBLIC)
async def preset_defaults_button(click: Click) -> None:
    """« Revenir au préréglage », offered while the table is on its channel's house rules.
    Where the preset seats fewer, the host is told privately which seats went, as the
    settings panel tells them (`seats_cut`, play-test 38): the lobby only showed them gone."""
    seated = list(click.table.seats)
    await click.bot.service.preset_defaults(click.table, click.user_id)
    answered = await redraw_lobby(click.interaction, click.table)
    cut = seats_cut(click.locale, click.table, seated)
    if cut and answered:
        await click.interaction.followup.send("\n".join(cut), ephemeral=True)


@action("settings", drawn=PUBLIC)
async def settings_button(click: Click) -> None:
    await open_settings(click.interaction, click.table)
