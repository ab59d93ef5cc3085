"""Clicks on the table message and in hands: each answers with one message update.

A hand control answers by redrawing that same hand (interaction type 7): the acting player's
click costs one Discord call, a refusal is a line on top of a fresh hand, and the table
message follows through the coalesced refresh.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from bot.i18n import LocaleLike, t
from bot.languages import own_locale
from bot.packages.controls import (
    HANDLERS,
    MOVED_HAND,
    OPTIONS_PER_SELECT,
    WARNING,
    Click,
    Drawn,
    action,
    number,
    refusal_text,
    stripped,
    token_alive,
    too_late,
)
from bot.packages.game import break_reason
from bot.packages.game.hand import hand_screen
from bot.packages.game.hand_plays import parse_option
from bot.packages.game.lines import seat_name
from bot.packages.game.prompts import answer_prompt
from bot.packages.game.table_message import table_screen
from bot.packages.permissions import require
from bot.packages.publisher.offers import Offer
from bot.packages.saving import commit_within_budget, saved
from bot.packages.screen import Screen
from bot.tables.pause import Pause
from bot.tables.refusals import given_key, late_host_button, late_move
from bot.tables.service import TableError
from bot.tables.table import Table
from bot.tables.tokens import HandLink
from engine import Card, Phase

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

# A split exchange offers at most three selects (see hand_gifts.exchange_part), a hand at most
# this many pages of plays.
GIFT_PARTS = 3
MAX_PAGES = 100


def refusal(locale: LocaleLike, table: Table, err: TableError, user_id: int) -> str:
    if err.key == "engine.stale":
        # Someone's play beat the player's, or else the trick closed with nobody playing
        # (fast mode's timer): « ? a joué avant toi » named no one. Their own earlier play
        # (the same one sent twice by a phone's flaky connection, say) is theirs: « bob a
        # joué avant toi » to bob, and « tes cartes restent dans ta main » of cards played,
        # were both false (play-test 14).
        by = err.params.get("by")
        if isinstance(by, int) and by == table.seat_of(user_id):
            return WARNING + t(locale, "err.already_played")
        if isinstance(by, int):
            return WARNING + t(locale, "err.too_late", name=seat_name(table, by))
        return WARNING + t(locale, "err.too_late_trick")
    return refusal_text(locale, err)


async def show_hand(
    interaction: discord.Interaction[Host], table: Table, *, notice: str = "",
    page: int = 0, update: bool = True,
) -> None:
    """Answer with the user's hand, and refresh through this interaction from now on.

    A hand control clicked once the game is gone (the player's own move may have ended it,
    sending the table back to its lobby, or a hand left stale by an expired token or a newer
    one) redraws that hand to where its player now is (`hand.lobby_lines`), without
    controls, and adopts the click's token as a click during a game does: the lobby's
    next change then reaches the hand the player is looking at."""
    locale = own_locale(interaction)
    # Only a private message is redrawn in place: a hand control forged onto a public
    # message gets the hand in a new ephemeral one instead of showing it to everyone.
    private = interaction.message is not None and interaction.message.flags.ephemeral
    update = update and private
    now = interaction.client.service.clock.now()
    screen = hand_screen(table, interaction.user.id, locale, notice=notice, page=page, now=now)
    # What later refreshes compare with: the hand without its notice, which stays until
    # the hand changes. A click on a hand whose token had run out refreshes the table (it
    # stops asking for « Ma main »), and that refresh redrew the hand at once, wiping
    # « ⚠️ La partie a avancé… » before the player could read that their pick was not
    # taken.
    plain = hand_screen(table, interaction.user.id, locale, page=page, now=now) \
        if notice else screen
    # The hand its player had may be the message answered on: no longer known to show
    # what Discord last acknowledged (`Hands.acks`, what a stop keeps), nor this answer,
    # where an edit through it is on its way too.
    hands = interaction.client.publisher.hands
    held = table.hands.get(interaction.user.id)
    crossed = held is not None and hands.acks.sending(held.token)
    if held is not None:
        hands.acks.unknown(held.token)
    # Recorded before answering: a refresh running meanwhile must neither redraw this
    # hand through the previous token nor think it still shows the old state. Only when
    # the hand is this interaction's original response, which later refreshes edit.
    link = None
    pending: asyncio.Future[None] | None = None
    if table.player(interaction.user.id) is not None and (
            update or not interaction.response.is_done()):
        link = hands.shown(table, interaction, plain, new_message=not update, page=page)
        if not update:
            # A hand in a message of its own is shown once it is saved: a crash after the
            # answer then restores the link to this message, and a restart redraws the
            # hand its player looks at (docs/deploy.md). Past the budget the answer is
            # deferred (« thinking », privately), as a move's is, and the hand replaces it
            # once saved (`_send_hand`): shown at once, a kill before the save lost its
            # link, the hand the player looked at never redrawn by the restart.
            pending = await commit_within_budget(interaction.client.service, table)
    try:
        with hands.acks.edit(link.token if link is not None else None, table.id,
                             crossed=crossed) as sent:
            if update and interaction.response.is_done():  # deferred while the move was stored
                await interaction.edit_original_response(**screen.kwargs())
            elif update:
                await interaction.response.edit_message(**screen.kwargs())
            elif interaction.response.is_done():
                await interaction.followup.send(ephemeral=True, **screen.kwargs())
            else:
                await _send_hand(interaction, table, screen, link, pending)
            sent.shown = screen.fingerprint
    except discord.HTTPException as err:
        # Answered past Discord's 3 seconds, or past the token's 15 minutes once deferred:
        # the hand the player sees is the one before, and follows the game from there
        # (`controls.too_late`).
        if link is not None and too_late(err):
            hands.unanswered(table, interaction.user.id, link, held)
        raise


async def _send_hand(interaction: discord.Interaction[Host], table: Table, screen: Screen,
                     link: HandLink | None, pending: asyncio.Future[None] | None) -> None:
    """The hand in a message of its own, deferred until `pending` (its link's save) is done
    if it was not within the budget. Refreshes skip the link until it is answered
    (`HandLink.answered`): whatever the answer meets, the deferral included (an interaction
    expired on its way, a 5xx after Discord carried it out), the link is then answered and
    the table refreshed. Left unanswered, the link kept the table from asking for « Ma
    main » for its token's 15 minutes and no refresh reached its message, a « thinking »
    one that did land included; refreshed, the hand lands there, or the edit finds nothing
    to edit and the link is forgotten (`Hands._redraw_hand`)."""
    try:
        if pending is not None and not pending.done():
            await interaction.response.defer(ephemeral=True, thinking=True)
            await pending
            if not token_alive(interaction):  # « thinking » stays; the link has expired
                return
            shown = await interaction.edit_original_response(**screen.kwargs())
            message_id: int | None = shown.id
        else:
            sent = await interaction.response.send_message(ephemeral=True, **screen.kwargs())
            message_id = sent.message_id
        if link is not None:
            link.message_id = message_id
    finally:
        if link is not None and not link.answered:
            # Refreshes skipped it while the save went on: whatever changed meanwhile
            # (another player's move) is drawn now, through the message just sent.
            link.answered = True
            interaction.client.service.refresh(table)


async def late_hand(click: Click) -> None:
    """A hand control clicked after a redraw replaced it (`controls.late`): the hand as it
    is now, saying the table moved on; nothing is played, passed or given. With no game
    left (ended, or lost to a crash just after Start) the hand says where its player is in
    the lobby, and the notice still says the click was not taken. Whoever no longer holds a
    seat (they left, or were removed) is told so: « here is your current hand » would
    promise a hand they no longer have. A play or pass beaten by the player's own move (a
    second device) or their timer's says so, as when its menu was still shown
    (`refusals.late_move`), and so does a gift of cards already given, by them or
    their timer (`refusals.given_key`)."""
    table, game = click.table, click.table.game
    seated = table.player(click.user_id) is not None
    if seated and click.user_id in table.hands and stripped(click.interaction.message) and \
            game is not None and game.phase in (Phase.PLAY, Phase.EXCHANGE):
        # A hand of a seat in play always shows controls: this one was stripped because it
        # moved to a newer message (or said they left, before they took their seat back).
        # The hand they play from is that one, left alone.
        raise TableError("err.hand_moved")
    seat = table.seat_of(click.user_id)
    if not seated:
        key = "err.not_seated"
    elif game is None:
        key = "err.stale_button"
    elif click.action in ("play", "pass") and seat is not None:
        key = late_move(table, game, click.version, seat)  # theirs, their timer's, another's
    elif click.action in ("give", "give_ok") and seat is not None and \
            click.version >= game.round_version:
        key = given_key(table, game, seat) or "err.stale"
    else:
        key = "err.stale"
    await show_hand(click.interaction, table, notice=WARNING + t(click.locale, key))


# How the controls are drawn (`controls.Drawn`): the table message's « Ma main » and host
# buttons are public, a hand's private and drawn for a version of the game.
HAND = Drawn(private=True, versioned=True, late=late_hand)


async def late_host(click: Click) -> None:
    """A host button a redraw has since replaced: the action itself, which the service
    refuses as late unless the round's or game's end it was drawn for still stands
    (`refusals.late_host_button`: a seat changed meanwhile, the choice did not)."""
    await HANDLERS[click.action](click)


HOST = Drawn(versioned=True, late=late_host)
# The cards a pre-checked « Confirmer » carries, or none.
CARDS = r"([0-9]{1,2}|[A-Z])[A-Z](\.([0-9]{1,2}|[A-Z])[A-Z]){0,15}|"


async def open_hand(click: Click) -> None:
    await show_hand(click.interaction, click.table, update=False)


# « Ma main » on a table message the table has since left (a new round posted, or the
# table brought back below the channel's chatter as the player clicked, play-test 28)
# opens the hand all the same: it is the player's whatever message showed the button, and
# it opens as the game is now.
action("hand", drawn=Drawn(late=open_hand))(open_hand)


@action("refresh", drawn=Drawn(private=True, late=late_hand))
async def refresh_hand(click: Click) -> None:
    await show_hand(click.interaction, click.table)


async def hand_here(click: Click) -> None:
    """« Afficher ma main ici » on a hand that moved to another message: the hand is drawn
    in this one and followed from here, and the other says it moved (`HandLinks.remember`).
    A second tap before the first's redraw arrived (the button gone) does the same."""
    await show_hand(click.interaction, click.table)


action(MOVED_HAND, drawn=Drawn(private=True, late=hand_here))(hand_here)


@action("page", drawn=Drawn(private=True, versioned=True, arg="[0-9]{1,2}",
                              late=late_hand))
async def page_hand(click: Click) -> None:
    await show_hand(click.interaction, click.table, page=number(click.arg, MAX_PAGES))


def cards_of(codes: list[str]) -> list[Card]:
    """Card codes from a select or a custom_id; a value that is no card was forged."""
    try:
        return [Card.parse(code) for code in codes]
    except ValueError:
        raise TableError("err.bad_choice") from None


def play_of(click: Click) -> tuple[list[Card], str | None]:
    """The one option picked in a play select: its cards, and the value announced for wild
    cards, which must be a value of the table's deck."""
    if len(click.values) != 1:
        raise TableError("err.bad_choice")
    try:
        cards, announce = parse_option(click.values[0])
        if announce is not None:
            click.table.rules.deck_kind.parse_value(announce)
    except ValueError:
        raise TableError("err.bad_choice") from None
    return cards, announce


async def _hand_action(click: Click, work: Callable[[], Awaitable[object]]) -> None:
    """A move is shown as accepted once it is in the database: a move its player saw
    accepted must survive a crash (docs/deploy.md; `saving.saved`). Stored past its token's
    life, the hand follows it through its last link."""
    notice = ""
    try:
        await work()
    except TableError as err:
        notice = refusal(own_locale(click.interaction), click.table, err, click.user_id)
    else:
        if not await saved(click.interaction, click.table):
            return
    await show_hand(click.interaction, click.table, notice=notice)


# « special0 »: the menu of specials a hand drawn before they joined the singles shows
# (play-test 19), still answered.
@action("play", drawn=Drawn(select=True, private=True, versioned=True,
                              arg="special[0-9]{1,2}|[0-9]{2,4}", late=late_hand))
async def play(click: Click) -> None:
    service = click.bot.service

    async def work() -> None:
        cards, announce = play_of(click)
        await service.moves.play(click.table, click.user_id, cards, announce, click.version)

    await _hand_action(click, work)


@action("pass", drawn=HAND)
async def pass_turn(click: Click) -> None:
    service = click.bot.service
    await _hand_action(click, lambda: service.moves.pass_turn(click.table, click.user_id,
                                                              click.version))


@action("resume", drawn=HAND)
async def resume(click: Click) -> None:
    service = click.bot.service
    await _hand_action(click, lambda: service.moves.resume(click.table, click.user_id))


@action("give", drawn=Drawn(select=True, private=True, versioned=True, arg="[0-9]",
                              late=late_hand))
async def pick_gift(click: Click) -> None:
    """One select: give at once. Several selects: remember this part (with the table, see
    `Moves.pick_gift`) until confirmed."""
    game = click.table.game
    seat = click.table.seat_of(click.user_id)
    due = game.gift_choice(seat) if game is not None and seat is not None else None
    service = click.bot.service
    if due is not None and len(due.allowed) <= OPTIONS_PER_SELECT:
        await _hand_action(click, lambda: service.moves.give(click.table, click.user_id,
                                                             cards_of(click.values), click.version))
        return
    # The hand shows the cards picked so far and how many are still due, once they are
    # saved (`_hand_action`): shown first, a crash lost a pick its player saw taken.
    await _hand_action(click, lambda: service.moves.pick_gift(
        click.table, click.user_id, number(click.arg, GIFT_PARTS), cards_of(click.values),
        click.version))


@action("give_ok", drawn=Drawn(private=True, versioned=True, arg=CARDS, late=late_hand))
async def confirm_gift(click: Click) -> None:
    """Give the pre-checked cards carried by the button, or the cards picked in a split
    exchange's selects."""
    table = click.table
    service = click.bot.service

    async def work() -> None:
        if click.arg:
            codes = click.arg.split(".")
        else:
            picks = table.gift_picks.get(click.user_id, {})
            codes = [code for part in sorted(picks) for code in picks[part]]
        await service.moves.give(table, click.user_id, cards_of(codes), click.version)

    await _hand_action(click, work)


# --------------------------------------------------------------------------- host buttons

async def _host_action(click: Click, work: Callable[[], Awaitable[object]],
                       keep_message: bool) -> bool:
    """Run a host action, then, once it is saved (`saving.saved`: a crash in between must
    not leave the host told of a state the restart takes back, stop 61), redraw the clicked
    table message (or just acknowledge when the action posts a fresh table message: the
    refresh retires this one's buttons). Whether it was done and answered."""
    clicked = click.bot.service.clock.now()  # a finished game's chart waits from here
    try:
        await work()
    except TableError as err:
        await click.interaction.response.send_message(
            refusal_text(own_locale(click.interaction), err), ephemeral=True)
        return False
    table, clock = click.table, click.bot.service.clock
    message = click.interaction.message
    if keep_message and table.game is not None and not table.post_table and \
            message is not None and message.id == table.table_message_id:
        return await click.bot.publisher.answer(
            click.interaction, table, "table", lambda: table_screen(table, clock.now()),
            clicked=clicked)
    if not await saved(click.interaction, table):
        return False
    if not click.interaction.response.is_done():
        await click.interaction.response.defer()
    return True


@action("next", drawn=HOST)
async def next_round(click: Click) -> None:
    service = click.bot.service
    await _host_action(click, lambda: service.games.next_round(click.table, click.user_id,
                                                               click.version), False)


@action("end", drawn=HOST)
async def end_game(click: Click) -> None:
    service = click.bot.service
    await _host_action(click, lambda: service.games.end(click.table, click.user_id, click.version),
                       True)


@action("stop", drawn=Drawn(private=True, arg="[0-9]{1,9}"))
async def stop_game(click: Click) -> None:
    """The button `/president end` offers mid-game (display.stop_prompt): stop the game it
    was asked about, then say so on that same private message."""
    table = click.table

    async def work() -> str:
        if not table.under_way or click.arg != str(table.game_no):
            raise TableError("err.stale_button")
        await click.bot.service.games.end(table, click.user_id)
        return t(click.locale, "end.stopped")

    await _prompt_action(click, work)


# Game numbers a « Quitter la partie » button may carry (`number` reads 9 digits at most).
GAME_NUMBERS = 10**9


@action("quit", drawn=Drawn(private=True, arg=r"[0-9]{1,9}\.(?P<user>[0-9]{1,20})"))
async def quit_game(click: Click) -> None:
    """The button `/president leave` offers mid-game (prompts.quit_prompt): only the player
    it names may use it, and it leaves only the game it was asked about (the service checks
    that under the table's lock), then says so on that same private message. Their open
    hand then says only that it closed: saying « You left the table » too, it made them read
    it twice (play-test 38); it must still change, or its controls would look live."""
    game_no, _, owner = click.arg.partition(".")
    if owner != str(click.user_id):
        raise TableError("err.not_yours")

    async def work() -> str:
        left = await click.bot.service.leave(click.table, click.user_id,
                                             game_no=number(game_no, GAME_NUMBERS))
        assert left is not None  # (not asked first: this is the answer to the asking)
        return t(click.locale, left.words)

    await _prompt_action(click, work)


@action("kick", drawn=Drawn(private=True,
                            arg=r"[0-9]{1,9}\.(?P<user>[0-9]{1,20})\.[0-9]{1,20}"))
async def kick_player(click: Click) -> None:
    """The button `/president kick` offers when removing a player would end the game for
    everyone (prompts.kick_prompt): only the host it was shown to may use it, and only on
    the game it was asked about, then it says so on that same private message."""
    game_no, owner, member = click.arg.split(".")
    if owner != str(click.user_id):
        raise TableError("err.not_yours")
    table = click.table

    async def work() -> str:
        player = table.player(int(member))
        if not table.under_way or game_no != str(table.game_no) or player is None:
            raise TableError("err.stale_button")
        await click.bot.service.kick(table, click.user_id, int(member), player.name)
        return t(click.locale, "lobby.kicked", name=player.name)

    await _prompt_action(click, work)


async def _prompt_action(click: Click, work: Callable[[], Awaitable[str]]) -> None:
    """A prompt's one button (stop, leave, kick): its outcome, in the clicker's language,
    in place of the prompt (`answer_prompt`), and so its refusal too, the button gone, as
    a hand or the settings panel say theirs on themselves. The refusal came in a new
    message under a prompt that kept its button: bob, with two « Leave the game » prompts
    open, left by the first, and the second answered « You have already left this game »
    below itself, still offering to leave (play-test 38). A refusal here says that what
    the prompt asked no longer stands (its game over, the player gone already). A click
    on a prompt someone else holds is refused before (`err.not_yours`), and its public
    forgery answered privately (`answer_prompt`)."""
    try:
        text = await work()
    except TableError as err:
        text = refusal_text(own_locale(click.interaction), err)
    await answer_prompt(click, text)


@action("replay", drawn=HOST)
async def replay(click: Click) -> None:
    service = click.bot.service

    async def work() -> None:
        # A late button first, as every late host button says it (`late_host`): a new
        # game would not be dealt whatever the channel lets the bot show (stop 59's
        # review); the service checks it again under the table's lock.
        late_host_button(click.table, click.version)
        require(click.interaction)  # a new game where it could not be shown: refused
        await service.games.replay(click.table, click.user_id, click.version)

    await _host_action(click, work, False)


# The host's break (`bot.tables.breaks`): its button on the table message, drawn unversioned
# as « Ma main » is, since a break changes no game version and holds whatever the game shows.
async def pause_game(click: Click) -> None:
    """The break begins at the click, as ever; then its caller is offered, privately, to give
    it a reason (`break_reason`), which only `/president pause` took before (stop 51)."""
    service, table = click.bot.service, click.table
    started: list[Pause] = []

    async def work() -> None:
        await service.breaks.pause(table, click.user_id)
        if table.pause is not None:
            started.append(table.pause)

    created = service.clock.now()  # the click's token, which edits the offer, from here
    if await _host_action(click, work, True) and started:
        pause = started[0]
        offered = break_reason.offer(table, pause, own_locale(click.interaction))
        sent = await click.interaction.followup.send(ephemeral=True, wait=True,
                                                     **offered.kwargs())
        # Taken back when the break ends (`Offers`); one over while it was on its way, at once.
        offers = click.bot.publisher.offers
        offers.keep(table, Offer(sent, pause.by, int(pause.since), click.locale, created))
        await offers.flush(table)


async def play_on(click: Click) -> None:
    service = click.bot.service
    await _host_action(click, lambda: service.breaks.play_on(click.table, click.user_id), True)


def _lengthen(click: Click) -> Callable[[], Awaitable[None]]:
    """What both « Prolonger la pause » buttons do, the hand's and the table message's: the
    break they name becomes the host's (`Breaks.lengthen`, which refuses anyone else). A
    control naming no break is none of ours, refused before anything runs."""
    since = break_reason.since_of(click)
    return lambda: click.bot.service.breaks.lengthen(click.table, click.user_id, since)


async def lengthen_break(click: Click) -> None:
    """« Prolonger la pause » on the host's hand during a player's own break: the break
    becomes the host's, as their `/president pause` makes it (`Breaks.lengthen`); the hand
    is redrawn, without the button, or with why nothing changed."""
    await _hand_action(click, _lengthen(click))


# Pressed on a hand drawn before the break ended or was lengthened (a second device), it
# does what it says to the break it names, or says why not (`err.lengthen_late`).
action("lengthen", drawn=Drawn(private=True, arg=break_reason.SINCE.pattern,
                               late=lengthen_break))(lengthen_break)


async def extend_break(click: Click) -> None:
    """« Prolonger la pause » on the table message during a player's own break (stop 52):
    what the hand's button does (`Breaks.lengthen`), for a host whose hand is not open or
    who does not play. The table message is redrawn; a refusal (anyone but the host, a
    break over or already the host's) is private and changes nothing."""
    await _host_action(click, _lengthen(click), True)


# On a table message drawn before the break ended or was lengthened, it does what it says
# to the break it names, or says why not, as the hand's does.
action("extend", drawn=Drawn(arg=break_reason.SINCE.pattern,
                             late=extend_break))(extend_break)


# Pressed on a table message the table has since left (brought back below the chat as the
# host pressed, play-test 28: likeliest during a break, when everyone talks), or after the
# other of the two replaced it, each does what it says, as `/president pause` and `continue`
# would: neither depends on what the message showed, and a second pause or a continue with
# no break is refused as such (`err.already_paused`, `err.not_paused`). « Review of stop 49 ».
action("pause", drawn=Drawn(late=pause_game))(pause_game)
action("play_on", drawn=Drawn(late=play_on))(play_on)
