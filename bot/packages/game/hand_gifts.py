"""The hand during the exchange: why the seat gives what it gives, and the menus to pick
the cards (`game.exchange_due` says which and how many). Every control carries the game
version it was drawn for.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LocaleLike, plural, t
from bot.i18n.cards import card_words, short, shorts
from bot.packages.cards.emojis import FaceLine, faces
from bot.packages.controls import OPTIONS_PER_SELECT, button, select
from bot.packages.game.lines import (
    bot_shown,
    level_words,
    role_name,
    seat_name,
    spanish,
    timed,
)
from bot.tables.table import Table
from engine import Card, Game
from engine.roles import exchange_pairs


def exchange_role_line(table: Table, game: Game, seat: int, locale: LocaleLike) -> str:
    """Why the seat gives what it gives in the exchange, or nothing: its role from the last
    round and its partner's, as the engine pairs them (`exchange_pairs`). A newcomer asked to
    hand over their best cards learns it is what their place last round costs."""
    roles = game.roles
    role = roles[seat]
    if role is None or game.ranking is None:
        return ""
    # Someone who took the seat between rounds did not finish the last round: they take
    # its place, and are told whose (`Player.took_from`).
    took_from = table.seats[seat].took_from
    took_level = table.seats[seat].took_from_level
    finished = table.finished_roles[seat] if seat < len(table.finished_roles) else role
    if took_from is not None and took_level is not None:  # a bot's seat, named as the table
        why = t(locale, "hand.exchange_role_taken_bot", name=bot_shown(took_from),
                level=level_words(locale, took_level), role=role_name(locale, table, role))
    elif took_from is not None:
        why = t(locale, "hand.exchange_role_taken", name=took_from,
                role=role_name(locale, table, role))
    elif seat not in game.ranking:  # dealt in at a seat with no rank: Neutral (stop 53)
        why = t(locale, "hand.exchange_role_new", role=role_name(locale, table, role))
    elif finished is not None and finished != role:  # a seat freed since re-ranks the others
        why = t(locale, "hand.exchange_role_shifted", was=role_name(locale, table, finished),
                role=role_name(locale, table, role))
    else:
        why = t(locale, "hand.exchange_role", role=role_name(locale, table, role))
    mode = table.rules.exchange_return
    for low, high, count in exchange_pairs(game.ranking, table.rules.vp_at_three):
        if seat in (low, high):
            other = high if seat == low else low
            side = "low" if seat == low else "high"
            due = game.exchange_due(seat)
            if side == "high" and mode == "choice" and not table.rules.exchange_blind \
                    and (due is None or due.ready):
                mode = "choice.given"  # their cards are in the hand: no longer owed
                # (blind, they come only once everyone has chosen: still owed until then)
            elif side == "low" and due is None and game.gift_on_hold(seat) is None:
                mode += ".given"  # taken at the deal, or given: gone from the hand
            partner = table.seats[other]
            said = role_name(locale, table, roles[other])
            if partner.is_bot:  # its level beside its role, as the table says it
                said = t(locale, "hand.partner_bot", role=said,
                         level=level_words(locale, partner.level))
            return plural(locale, f"hand.exchange_why.{side}.{mode}", count, why=why,
                          name=seat_name(table, other), other=said)
    return t(locale, "hand.exchange_why.none", why=why)


def exchange_part(table: Table, game: Game, seat: int, locale: LocaleLike,
                  items: list[discord.ui.Item[Any]], lines: list[str],
                  wanted: list[FaceLine]) -> None:
    """Adds the exchange's lines to ``lines`` (the cards picked across split menus to
    ``wanted``) and its controls to ``items``. The exchange notes above say what this seat
    already received: a high role chooses what to give back knowing it."""
    due = game.exchange_due(seat)
    if due is None or not due.ready:
        held = game.gift_on_hold(seat)
        if held is not None:
            receiver, cards, automatic = held
            lines.append(t(locale, "hand.give_held_auto" if automatic else "hand.give_held",
                           cards=shorts(locale, cards, spanish(table)),
                           name=seat_name(table, receiver)))
            if automatic:
                _equal_best_part(table, game, seat, locale, cards, items, lines)
        lines.append(t(locale, "hand.give_waiting"))
        return
    lines.append(timed(locale, "hand.give", table, cards=plural(locale, "n.cards", due.count),
                       name=seat_name(table, due.receiver)))
    if table.rules.exchange_blind:
        lines.append(t(locale, "hand.give_blind"))
    allowed = list(due.allowed)
    if due.mode == "choice":  # free: offered and checked in the hand's order, a wild last;
        # what is owed follows the exchange's order, where a wild 7 is just a 7 (RULES §7)
        hand = game.hand(seat)
        allowed.sort(key=hand.index)
    if due.mode in ("weakest", "best"):  # checked for them; say when equals may swap in
        free = "_free" if len(allowed) > due.count else ""
        key = "hand.give_weakest" if due.mode == "weakest" else "hand.give_pick"
        lines.append(t(locale, key + free))
    else:  # their choice: what most players give back, the weakest, is checked to start
        # (in one menu; across several, what is checked is what the player picked there)
        lines.append(t(locale, "hand.give_choice" if len(allowed) <= OPTIONS_PER_SELECT
                       else "hand.give_choice_split"))
    preset = allowed[-due.count:] if due.mode == "best" else allowed[:due.count]
    parts = [allowed[i:i + OPTIONS_PER_SELECT] for i in range(0, len(allowed),
                                                               OPTIONS_PER_SELECT)][:3]
    single = len(parts) == 1
    if not single:  # picks add up across the menus: show them, and how many are still due
        user_id = table.seats[seat].user_id
        picks = table.gift_picks.get(user_id, {}) if user_id is not None else {}
        codes = {code for part in picks.values() for code in part}
        picked = [c for c in allowed if str(c) in codes]
        preset = picked
        left = due.count - len(picked)
        if picked:
            wanted.append((len(lines), [picked]))
        lines.append(t(locale, "hand.give_selected" if left else "hand.give_complete",
                       cards=shorts(locale, picked, spanish(table)) or "—",
                       left=plural(locale, "n.cards", left)))
    for index, part in enumerate(parts):
        options = [_gift_option(table, locale, c, c in preset) for c in part]
        # Split menus name their cards' span, not « (1/2) » and « (2/2) », which read alike.
        placeholder = t(locale, "hand.give_cards") if single else \
            t(locale, "hand.give_part", first=short(locale, part[0], spanish(table)),
              last=short(locale, part[-1], spanish(table)))
        items.append(select(
            table.id, "give", placeholder,
            options, version=game.version, arg=str(index), row=index,
            min_values=due.count if single else 0, max_values=min(due.count, len(part))))
    if preset or not single:
        chosen = ".".join(str(c) for c in preset)
        items.append(button(table.id, "give_ok", t(locale, "btn.confirm_give"),
                            version=game.version, arg=chosen if single else "",
                            style=discord.ButtonStyle.success, row=3))
    if table.hints:  # what the normal bot would give (see hint.py)
        items.append(button(table.id, "hint", "💡 " + t(locale, "btn.hint"),
                            version=game.version, row=4))


def _equal_best_part(table: Table, game: Game, seat: int, locale: LocaleLike,
                     held: tuple[Card, ...], items: list[discord.ui.Item[Any]],
                     lines: list[str]) -> None:
    """The low role's own pick among its equal best cards (`game.gift_choice`), offered only
    when it has more of them than it must give: the rules' pick stays checked and goes if
    the player does nothing. One select, as no low role holds more equal best cards than a
    menu's options; picking gives at once, as a one-menu gift does."""
    choice = game.gift_choice(seat)
    if choice is None or not choice.ready or len(choice.allowed) <= choice.count:
        return
    lines.append(t(locale, "hand.give_equal_best"))
    options = [_gift_option(table, locale, c, c in held)
               for c in choice.allowed[:OPTIONS_PER_SELECT]]
    items.append(select(table.id, "give", t(locale, "hand.give_cards"), options,
                        version=game.version, arg="0", row=0,
                        min_values=choice.count, max_values=choice.count))


def _gift_option(table: Table, locale: LocaleLike, card: Card,
                 checked: bool) -> discord.SelectOption:
    return discord.SelectOption(label=short(locale, card, spanish(table)), value=str(card),
                                description=card_words(locale, card, spanish(table),
                                                       table.rules.top_single),
                                default=checked, emoji=faces.emoji(card, spanish(table), locale))
