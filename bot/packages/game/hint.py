"""« Conseil »: what the normal bot would play in the asking player's place, and why.

The advice comes from the engine's normal level given that player's own view (never more
than they may see), and is shown on top of their hand, which only they see. The host turns
it on in the settings (`Table.hints`), off by default. In the exchange it names the cards
the normal bot would give (`engine.bots.normal.exchange_action`) and why.
"""

from __future__ import annotations

import asyncio

from bot.i18n import LocaleLike, t
from bot.i18n.cards import play_words, shorts
from bot.packages.controls import Click, Drawn, action, number
from bot.packages.game.views import MAX_PAGES, late_hand, show_hand
from bot.packages.saving import STORE_BUDGET, within
from bot.tables.service import TableError
from bot.tables.table import Table
from engine import Action, Phase
from engine.bots import endsearch
from engine.bots.normal import decided, explain_gift
from engine.view import PlayerView, player_view


def _asked(table: Table, seat: int) -> PlayerView | None:
    """This seat's view if it has a play to advise on now, else None (nothing to decide)."""
    game = table.game
    assert game is not None
    view = player_view(game, seat)
    if game.phase is not Phase.PLAY or game.automated(seat) or (
            not view.legal and not view.can_pass) or (
            not table.rules.fast and game.to_act != seat):
        return None
    return view


def advice(table: Table, seat: int, locale: LocaleLike) -> str:
    """One line: the normal bot's play or pass for this seat, with its reason, decided in
    place (a search at the end of a hand included: see `advice_off_loop`)."""
    game = table.game
    assert game is not None
    if game.phase is Phase.EXCHANGE:
        return gift_advice(table, player_view(game, seat), locale)
    view = _asked(table, seat)
    if view is None:
        return t(locale, "hint.nothing")
    return worded(table, decided(view), locale)


async def advice_off_loop(click: Click) -> str:
    """`advice` as the button gives it: a decision that searches (normal's end,
    `endsearch.searching`: tens of ms) goes to the bot's workers, as a bot's does, and the
    click is deferred if the answer takes longer than `STORE_BUDGET` of the bot's clock
    (Discord drops an interaction not answered within 3 s). Should the game move while the
    search runs (the turn timer playing for the seat), the advice is for where it is now."""
    table, locale = click.table, click.locale
    service = click.bot.service
    while True:
        game, seat = table.game, table.seat_of(click.user_id)
        if game is None or seat is None:
            return t(locale, "hint.nothing")
        view = _asked(table, seat)
        if view is None or not endsearch.searching(view):
            return advice(table, seat, locale)
        version = game.version
        decision = asyncio.ensure_future(service.thinker.advise(view))
        if not await within(service.clock, decision, STORE_BUDGET) and \
                not click.interaction.response.is_done():
            await click.interaction.response.defer()
        searched = await decision
        if table.game is game and game.version == version:
            return worded(table, searched, locale)


def worded(table: Table, decision: tuple[Action, str], locale: LocaleLike) -> str:
    """The line for a play or pass and its reason."""
    action, reason = decision
    why = t(locale, f"reason.{reason}")
    option = action.option
    if option is None:
        return t(locale, "hint.pass", reason=why)
    rules = table.rules
    cards = play_words(locale, option.cards, option.value, option.count,
                       rules.deck_kind.spanish, option.special, option.announce,
                       None if rules.wild_rank == "none" else rules.wild_rank)
    return t(locale, "hint.play", cards=cards, reason=why)


def gift_advice(table: Table, view: PlayerView, locale: LocaleLike) -> str:
    """One line in the exchange: the cards the normal bot would give, and why; or nothing to
    suggest while this seat owes nothing (or waits for its own gift first)."""
    explained = explain_gift(view)
    if explained is None:
        return t(locale, "hint.nothing_give")
    give, reason = explained
    cards = shorts(locale, give.cards, table.rules.deck_kind.spanish)
    return t(locale, "hint.give", cards=cards, reason=t(locale, f"reason.{reason}"))


#: The hint's arg: the page of plays its hand was drawn at, empty for the first (and in the
#: exchange, which has one page).
PAGE = "[0-9]{0,2}"


@action("hint", drawn=Drawn(private=True, versioned=True, arg=PAGE, late=late_hand))
async def hint(click: Click) -> None:
    """The advice on top of the hand, at the page the button was on: pressed on the second
    page of plays, it answered with the first, and the menus its player was reading
    turned back (play-test 38). Pressed on a hand drawn at an older version of the game,
    the first page, as any change of the game draws it (`HandLink.page`)."""
    table = click.table
    if not table.hints:
        raise TableError("err.hints_off")
    seat = table.seat_of(click.user_id)
    if table.game is None or seat is None:
        raise TableError("err.not_seated")
    page = number(click.arg, MAX_PAGES) if click.arg else 0
    notice = await advice_off_loop(click)
    await show_hand(click.interaction, table, notice=notice,
                    page=page if _at(table, click.version) else 0)


def _at(table: Table, version: int) -> bool:
    """Whether the table's game is (still) at `version`: the search behind the advice may
    have let a timer move it."""
    game = table.game
    return game is not None and game.version == version
