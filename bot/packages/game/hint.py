"""« Conseil »: what the normal bot would play in the asking player's place, and why.

The advice comes from the engine's normal level given that player's own view (never more
than they may see), and is shown on top of their hand, which only they see. The host turns
it on in the settings (`Table.hints`), off by default. In the exchange it names the cards
the normal bot would give (`engine.bots.normal.exchange_action`) and why.
"""

from __future__ import annotations

from bot.i18n import LocaleLike, t
from bot.i18n.cards import play_words, shorts
from bot.packages.controls import Click, Drawn, action
from bot.packages.game.views import late_hand, show_hand
from bot.tables.service import TableError
from bot.tables.table import Table
from engine import Phase
from engine.bots.normal import decided, explain_gift
from engine.view import PlayerView, player_view


def advice(table: Table, seat: int, locale: LocaleLike) -> str:
    """One line: the normal bot's play or pass for this seat, with its reason."""
    game = table.game
    assert game is not None
    view = player_view(game, seat)
    if game.phase is Phase.EXCHANGE:
        return gift_advice(table, view, locale)
    if game.phase is not Phase.PLAY or game.automated(seat) or (
            not view.legal and not view.can_pass) or (
            not table.rules.fast and game.to_act != seat):
        return t(locale, "hint.nothing")
    action, reason = decided(view)  # a search at the end of a hand: tens of ms at most
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


@action("hint", drawn=Drawn(private=True, versioned=True, late=late_hand))
async def hint(click: Click) -> None:
    table = click.table
    if not table.hints:
        raise TableError("err.hints_off")
    seat = table.seat_of(click.user_id)
    if table.game is None or seat is None:
        raise TableError("err.not_seated")
    await show_hand(click.interaction, table, notice=advice(table, seat, click.locale))
