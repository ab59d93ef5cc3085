"""A break's reason, given by the button too (stop 51): before, only `/president pause` took
one, and « pizza » or « doorbell » was typed by nobody who pressed « Pause ».

The click still pauses at once, as it did: the one whose doorbell rings must not be held by
a form. Its private answer then offers « Donner une raison », which opens a form (a modal,
interaction response type 9) with one optional field; its submission (a MODAL_SUBMIT
interaction) puts the reason on the table message. A form opened by the « Pause » click
itself was weighed and not chosen: Discord lets a modal be only the first answer to a click
(« MODAL 9 respond to an interaction with a popup modal », « Not available for
`MODAL_SUBMIT` and `PING` interactions », Interaction Callback Type,
discord-api-docs developers/interactions/receiving-and-responding.mdx), so the break could
not begin until the form was sent, a second click at the worst moment, and closing the form
(Escape, a tap beside it) would have left the game running with no break at all.

The offer and the form name the break by its start and its caller: a form sent after the
break ended, or after the host made it theirs (`Breaks._lengthen`), changes nothing and
says why (`err.pause_reason_late`)."""

from __future__ import annotations

import re

import discord

from bot.graphemes import cut
from bot.i18n import LocaleLike, t
from bot.packages.controls import Click, Drawn, action, button, custom_id, view
from bot.packages.game.prompts import answer_prompt
from bot.packages.screen import Screen
from bot.packages.text import clipped, shown_text
from bot.tables.breaks import REASON_LENGTH
from bot.tables.deadlines import OWN_PAUSE_SECONDS
from bot.tables.pause import Pause
from bot.tables.refusals import TableError
from bot.tables.table import Table

# A break's start, as its offer and its form carry it: whole seconds on the service's clock
# (a Unix time, ten digits), ASCII digits only as `controls.number` reads them.
SINCE = re.compile("[0-9]{1,12}")


def offer(table: Table, pause: Pause, locale: LocaleLike) -> Screen:
    """What the « Pause » click's caller reads privately: the break began, how it ends, and
    the button that gives it a reason."""
    key = "done.paused_own" if pause.own else "done.paused"
    text = t(locale, key, button=t(table.locale, "btn.play_on"),
             minutes=OWN_PAUSE_SECONDS // 60)
    give = button(table.id, "pause_why", t(locale, "btn.pause_reason"),
                  arg=str(int(pause.since)), style=discord.ButtonStyle.primary)
    return Screen(f"{text}\n{t(locale, 'pause.reason_offer')}", view(give))


def since_of(click: Click) -> int:
    """The break's start a control names (`SINCE`); anything else is no control of ours."""
    if SINCE.fullmatch(click.arg) is None:
        raise TableError("err.unknown_control")
    return int(click.arg)


def _still_theirs(table: Table, user_id: int, since: int) -> None:
    pause = table.pause
    if pause is None or pause.by != user_id or int(pause.since) != since:
        raise TableError("err.pause_reason_late")


async def open_form(click: Click) -> None:
    """The offer's button: the form, while the break is still the clicker's."""
    since = since_of(click)
    _still_theirs(click.table, click.user_id, since)
    await click.interaction.response.send_modal(reason_form(click.table, since, click.locale))


# Pressed on a device still showing the offer after it was taken back (the break over,
# `publisher.offers`) or answered (a reason given): as on the offer, the form while the
# break is the clicker's, else why not, rather than « this button is from earlier ».
action("pause_why", drawn=Drawn(private=True, arg=SINCE.pattern, late=open_form))(open_form)


def reason_form(table: Table, since: int, locale: str) -> discord.ui.Modal:
    """One optional line, as `/president pause`'s `reason` is: left empty, the break has
    none. Routed by custom_id like the settings' forms (stopped: discord.py keeps nothing)."""
    form: discord.ui.Modal = discord.ui.Modal(
        title=clipped(t(locale, "pause.form.title"), 45),
        custom_id=custom_id(table.id, "pause_reason", 0, str(since)))
    field: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        max_length=REASON_LENGTH, required=False,
        placeholder=cut(t(locale, "pause.form.placeholder"), 100))
    form.add_item(discord.ui.Label(text=cut(t(locale, "pause.form.field"), 45),
                                   description=cut(t(locale, "pause.form.hint"), 100),
                                   component=field))
    form.stop()
    return form


@action("pause_reason", form=True)
async def submit_reason(click: Click) -> None:
    """The form's answer: on one line, cut to REASON_LENGTH as a modified client may send
    more, made safe to show, as the command's; the offer it came from says what was kept."""
    since = since_of(click)
    typed = click.values[0] if len(click.values) == 1 else ""
    said = shown_text(clipped(" ".join(typed.split()), REASON_LENGTH))
    await click.bot.service.breaks.give_reason(click.table, click.user_id, since, said)
    await answer_prompt(click, t(click.locale, "done.pause_reason", reason=said) if said
                        else t(click.locale, "done.pause_reason_none"))
