"""The questions asked before a mid-game stop or leave, each with its one button, and the
answer that replaces a private prompt once its button or form is used."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LocaleLike, join_names, t
from bot.packages.controls import Click, button, view
from bot.packages.game.lines import who_name
from bot.packages.saving import redraw, saved, tell
from bot.packages.screen import Screen
from bot.tables import turnover
from bot.tables.table import Table
from bot.tables.turnover import LeaveOutcome
from engine import Phase


def stop_prompt(table: Table, locale: LocaleLike) -> Screen:
    """What `/president end` asks the host mid-game before stopping it (between two rounds
    no round is lost: it says so); its button names the game (the table's game number), so
    a click after that game ended stops no other."""
    stop = button(table.id, "stop", t(locale, "btn.stop_game"), arg=str(table.game_no),
                  style=discord.ButtonStyle.danger)
    game = table.game
    key = "end.confirm.between" if game is not None and game.phase is Phase.ROUND_OVER \
        else "end.confirm"
    leaders = game.stop_winners() if game is not None else ()
    if leaders:  # a game with no set end: its totals decide it (RULES §8)
        return Screen(t(locale, f"{key}.leaders",
                        names=join_names(locale, [who_name(table, who) for who in leaders])),
                      view(stop))
    return Screen(t(locale, key), view(stop))


def quit_prompt(table: Table, user_id: int, locale: LocaleLike) -> Screen:
    """What `/president leave` asks a player mid-game, saying what leaving does by the rules:
    turnover.leave_outcome, which the service then acts on, down to whether too few are left
    (then the prompt says the table goes back to its lobby, not « if enough are left »). Its
    button names the game (the table's game number) and the player: a click after that
    game ended leaves nothing, and nobody else may use it."""
    leave = button(table.id, "quit", t(locale, "btn.quit_game"),
                   arg=f"{table.game_no}.{user_id}", style=discord.ButtonStyle.danger)
    outcome = turnover.leave_outcome(table, user_id)
    seat, game = table.seat_of(user_id), table.game
    out = game is not None and seat is not None and seat in game.out
    # Out of cards, they leave the bot nothing to finish: their place is won.
    key = _OUT_PROMPTS.get(outcome, outcome.prompt) if out else outcome.prompt
    if outcome is not LeaveOutcome.WAIT and turnover.last_one(table, user_id):
        # The last one there closes it: « un bot finit la manche… `/president rejoindre`
        # avant la fin de la manche te rend ta place » promised a round and a seat that
        # the closing took at once (play-test 44).
        key = "leave.confirm.close"
    text = t(locale, key, seconds=table.rules.leave_grace_seconds)
    heir = table.heir(leaving=user_id)
    if table.is_host(user_id) and outcome is not LeaveOutcome.WAIT and heir is not None:
        # The role passes as they go (`Seating._gone`): marie, hosting, read what leaving
        # did to her seat and her rating, and not that bob would deal the next round
        # (play-test 45). A presi host the table waits for stays its host.
        text += " " + t(locale, "leave.host", name=heir.name)
    if outcome in _FINISHED_BY_A_BOT and not out and any(
            p.user_id is not None and p.user_id != user_id for p in table.seats):
        # Another human stays to finish the round: it rates them ahead of the leaver
        # (`bot.storage.ratings.rated_places`), which the leaver should know first. One
        # already out of cards keeps the place they won (`persistence.seat_refs`).
        text += " " + t(locale, "leave.rated")
    return Screen(text, view(leave))


#: Leaves mid-round whose round a bot finishes in the seat (where presi waits instead).
_FINISHED_BY_A_BOT = {LeaveOutcome.ROUND_BOT, LeaveOutcome.ROUND, LeaveOutcome.ROUND_LOBBY}
#: Those whose prompt says a bot finishes the round, for a player already out of cards (a
#: bot taking the seat, `round_bot`, says nothing of the round).
_OUT_PROMPTS = {LeaveOutcome.ROUND: "leave.confirm.round_out",
                LeaveOutcome.ROUND_LOBBY: "leave.confirm.round_lobby_out"}


# Removals that end the game under way for everyone: the host is asked first.
_KICK_ENDS = {LeaveOutcome.WAIT: "kick.confirm.cancel", LeaveOutcome.ROUND_LOBBY: "kick.confirm.lobby",
              LeaveOutcome.FREE_LOBBY: "kick.confirm.lobby", LeaveOutcome.LIST_LOBBY: "kick.confirm.lobby"}


def kick_prompt(table: Table, host_id: int, user_id: int, name: str,
                locale: LocaleLike) -> Screen | None:
    """What `/president kick` asks the host when removing that player would end the game
    under way for everyone (presi cancels a game whose seat empties mid-round; too few left
    sends the table to its lobby); None when the game simply goes on. Its button names the
    game, the host and the player: a click after that game ended removes nobody."""
    if not table.plays(user_id):
        return None
    key = _KICK_ENDS.get(turnover.leave_outcome(table, user_id))
    if key is None:
        return None
    remove = button(table.id, "kick", t(locale, "btn.kick"),
                    arg=f"{table.game_no}.{host_id}.{user_id}", style=discord.ButtonStyle.danger)
    return Screen(t(locale, key, name=name), view(remove))


async def answer_prompt(click: Click, text: str) -> None:
    """The outcome in place of the private prompt whose button was clicked or form
    submitted, its button gone. A prompt's control forged onto a public message leaves that
    message alone: the outcome comes privately. Told once what it did is saved
    (`saving.saved`: a crash in between must not leave its clicker told of a state the
    restart takes back, stop 61)."""
    if not await saved(click.interaction, click.table,
                       new_message=not private(click.interaction)):
        return
    if private(click.interaction):
        await redraw(click.interaction, **Screen(text).kwargs())
    else:
        await tell(click.interaction, content=text)


def private(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction came from a private message of the bot's, which its answer
    redraws (else it answers with a new private message)."""
    message = interaction.message
    return message is not None and message.flags.ephemeral
