"""The hand's controls while tricks are played: a menu per size of play (each choice of
cards apart), Pass, hints and pages.

They come only from `game.legal_plays` / `can_pass`: the bot never decides what is legal.
Every control carries the game version it was drawn for.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import discord

from bot.graphemes import cut
from bot.i18n import LocaleLike, t
from bot.i18n.cards import play_words, rank_short, rank_words, short, top_single_words
from bot.packages.cards.emojis import CONTENT_LIMIT, FaceLine, faces
from bot.packages.controls import OPTIONS_PER_SELECT, Control, button, select
from bot.packages.game.lines import (
    cards_shown,
    entry_text,
    role_name,
    seat_name,
    spanish,
    timed,
    trick_faces,
    trick_fit,
    trick_line,
)
from bot.packages.rules_text import count_exceptions
from bot.tables.seats import known_to_give_seat_up
from bot.tables.table import Table
from engine import Card, Game, IllegalAction, Phase, PlayOption

SELECTS_PER_PAGE = 4  # the fifth row holds the buttons


def option_value(option: PlayOption) -> str:
    cards = ".".join(str(c) for c in option.cards)
    return f"{cards}|{option.announce}" if option.announce else cards


def parse_option(value: str) -> tuple[list[Card], str | None]:
    cards, _, announce = value.partition("|")
    return [Card.parse(c) for c in cards.split(".") if c], announce or None


def shown_order(option: PlayOption, hand: Sequence[Card]) -> list[Card]:
    """The option's cards as its label shows them: in the hand's order, the cards of the
    value played before the wilds that join them. The engine keeps the deal's order, so a
    hand reading « 9♦ 9♥ » offered « 9♥ 9♦ » and three Kings « R♦ R♣ R♥ » (play-test 18)."""
    def where(card: Card) -> int:
        return hand.index(card) if card in hand else len(hand)
    return sorted(option.cards, key=lambda card: (card.rank != option.value, where(card)))


def _option(locale: LocaleLike, table: Table, option: PlayOption,
            hand: Sequence[Card]) -> discord.SelectOption:
    shown = shown_order(option, hand)
    label = cards_shown(locale, table, shown, option.announce)
    words = play_words(locale, option.cards, option.value, option.count, spanish(table),
                       option.special, option.announce,
                       None if table.rules.wild_rank == "none" else table.rules.wild_rank)
    warning = _end_warning(table, option, hand)
    if warning:
        words = f"{words} · ⚠️ {t(locale, warning)}"
    return discord.SelectOption(label=cut(label, 100), value=option_value(option),
                                description=cut(words, 100),
                                emoji=faces.option_emoji(shown, option.value,
                                                         spanish(table), locale))


def _end_warning(table: Table, option: PlayOption, hand: Sequence[Card]) -> str:
    """The catalogue key of a warning for a play that dooms the player's finish under the
    rules' penalty: it leaves only cards one may not go out on, or goes out on one; else
    "". The play stays offered: the rules allow it, the player may have a reason."""
    rules = table.rules
    rest = [card for card in hand if card not in option.cards]
    if rest and all(rules.punishes_last(card) for card in rest):
        return "hand.warn_bad_end"
    if not rest and any(rules.punishes_last(card) for card in option.cards):
        return "hand.warn_bad_finish"
    return ""


def suit_choices(game: Game, seat: int, option: PlayOption,
                 hand: Sequence[Card] | None = None) -> list[PlayOption]:
    """The option once per choice of cards when the seat holds more cards of its value than
    it needs (R♣ or R♥): the player, not the engine, chooses which go. Each choice is one the
    engine accepts as the same play; one that would be another (the 2 of oros alone is a
    special) is left out. Wild plays keep the engine's choice.

    `hand`: the seat's `game.hand(seat)`, when the caller has it already: a hand's render
    asks for every option, and the engine sorts the hand anew at each call."""
    if option.special or option.wilds:
        return [option]
    value = option.cards[0].value
    held = game.hand(seat) if hand is None else hand
    same = [c for c in held if c.value == value and not c.is_joker]
    if len(same) <= option.count:
        return [option]
    choices = []
    for cards in itertools.combinations(same, option.count):
        try:
            found = game.verify_play(seat, cards)
        except IllegalAction:
            continue
        if found.key == option.key:
            choices.append(option._replace(cards=cards))
    return choices or [option]


def play_selects(table: Table, game: Game, seat: int, locale: LocaleLike,
                 options: Sequence[PlayOption],
                 hand: Sequence[Card] | None = None) -> list[Control]:
    """Every legal play, one per choice of cards, grouped by count, 25 per select. The
    special cards (a joker, presi's 2 of oros) are played alone and join the singles: in a
    menu of their own, a fifth group behind singles, pairs, threes and fours, they went to
    a second page, where a proletario player holding a four of a kind did not see their
    joker (play-test 19). `hand`: the seat's `game.hand(seat)` if the caller has it (see
    `suit_choices`)."""
    if hand is None:
        hand = game.hand(seat)
    groups: dict[int, list[PlayOption]] = {}
    for listed in options:
        for option in suit_choices(game, seat, listed, hand):
            groups.setdefault(option.count, []).append(option)
    selects: list[Control] = []
    for key in sorted(groups):
        group = sorted(groups[key], key=lambda o: (game.strength(o.level), o.wilds,
                                                   o.announce or ""))
        parts = -(-len(group) // OPTIONS_PER_SELECT)
        for part, start in enumerate(range(0, len(group), OPTIONS_PER_SELECT)):
            chunk = group[start:start + OPTIONS_PER_SELECT]
            title = t(locale, f"hand.group.{key}")
            if parts > 1:  # menus of one title would look alike: say which plays each holds
                first, last = (_span_word(locale, table, o) for o in (chunk[0], chunk[-1]))
                title = t(locale, "hand.group_span" if first != last else "hand.group_one",
                          title=title, first=first, last=last)
            selects.append(select(
                table.id, "play", title,
                [_option(locale, table, o, hand) for o in chunk],
                version=game.version, arg=f"{key}{part}"))
    return selects


def _span_word(locale: LocaleLike, table: Table, option: PlayOption) -> str:
    """How a split menu names its weakest or strongest play: the value played (« 5 », « R »),
    a special by its card."""
    if option.special:
        return short(locale, option.cards[0], spanish(table))
    return rank_short(locale, option.value, spanish(table))


def revolution_line(table: Table, locale: LocaleLike) -> str:
    """Why the hand is sorted the other way round. The jokers and the card that wins alone
    (`top_single`) keep their power in a revolution: « le 3 devient la carte la plus forte »
    was wrong at a table with either, once its host turned revolutions on (play-test 17);
    with both, it named the jokers only (`rules_text.revolution_key`)."""
    rules = table.rules
    if rules.top_single is None:
        return t(locale, "hand.revolution_jokers" if rules.deck_kind.has_jokers
                 else "hand.revolution")
    key = "hand.revolution_jokers_top_single" if rules.deck_kind.has_jokers \
        else "hand.revolution_top_single"
    return t(locale, key, card=top_single_words(locale, rules.top_single, spanish(table)))


def resume_button(table: Table, game: Game, locale: LocaleLike) -> Control:
    """« Reprendre »: the player takes their seat back from the autopilot."""
    return button(table.id, "resume", t(locale, "btn.resume"), version=game.version,
                  style=discord.ButtonStyle.success, row=4)


def autopilot_next(table: Table, game: Game, seat: int) -> bool:
    """Whether the autopilot plays for a seat that went out in the next round: it plays
    for the player until they press « Reprendre » (RULES §10), rounds after rounds, so the
    out seat has its turns ahead of it there, unless the game's set number of rounds ends
    with this one. (A target may be reached at this round's end, or the host stop a game
    without an end between rounds: neither is known yet.) A player who left is no
    autopilot's: a bot finishes their round (`Automation.leave`)."""
    end = table.rules.game_end
    last = end.kind == "rounds" and end.n is not None and game.round_no >= end.n
    return seat in game.autopilot and not game.hands[seat] and not last


def autopilot_next_key(table: Table, game: Game) -> str:
    """The line saying the autopilot plays the next round: « si la partie continue » where
    the rules leave that round open. An unlimited game ends only when its host ends it,
    between rounds; at a points target, while someone may reach it this round (their
    points and the most a role gives). A set number of rounds has its next one, unless the
    host stops it early, the exception."""
    end = table.rules.game_end
    reachable = end.kind == "target" and end.n is not None and game.phase is Phase.PLAY \
        and max(game.points) + max(table.rules.points.values(), default=0) >= end.n
    if end.kind == "unlimited" or reachable:
        return "hand.autopilot_next_if"
    return "hand.autopilot_next"


def may_resume(table: Table, seat: int) -> bool:
    """Whether « Reprendre » may be offered: not while a moderator's timeout refuses every
    click of its member (`Table.timed_out`: the hand says until when, and is redrawn as it
    ends, the button back), where it was offered and refused (play-test 46)."""
    user_id = table.seats[seat].user_id
    return user_id is None or user_id not in table.timed_out


def autopilot_part(table: Table, game: Game, seat: int, locale: LocaleLike,
                   items: list[discord.ui.Item[Any]], lines: list[str],
                   key: str = "hand.autopilot") -> None:
    """The autopilot plays for this seat: say so, with « Reprendre » unless the seat was
    left (a bot finishes its round). It keeps playing from one round to the next, the
    exchange included, and may be stopped at any time: between rounds too the hand must say
    it, where it said only the round's result while the table read « 🤖 pilote auto »
    beside its player (play-test 20). `key`: the line, « hand.autopilot_next » where the
    round has nothing left for it to play (a round over, as a seat out: `autopilot_next`)."""
    if seat not in table.left_seats:
        if may_resume(table, seat):
            items.append(resume_button(table, game, locale))
        else:
            key = "hand.autopilot_timed_out"
    lines.append(t(locale, key))


def timed_out_lines(table: Table, game: Game, seat: int, locale: LocaleLike) -> list[str]:
    """The seat's last turns ran out and were played for it (`Game.timeouts`, reset by its
    own move), and when the autopilot comes if more do. Told only in the table's history,
    in the table's language, it left a player back at their hand with a card fewer, their
    own card on the table and no word why (play-test 22)."""
    count = game.timeouts[seat]
    if count == 0 or table.rules.fast:
        return []
    lines = [t(locale, "hand.timed_out.one" if count == 1 else "hand.timed_out.many",
               count=count)]
    limit = table.rules.autopilot_after_timeouts
    if limit is not None and seat not in game.autopilot:
        left = limit - count
        lines.append(t(locale, "hand.autopilot_soon.one") if left == 1
                     else t(locale, "hand.autopilot_soon.many", count=left))
    return lines


def quad_flips_exception(table: Table, options: Sequence[PlayOption]) -> bool:
    """Whether the opener's exceptions change with their lead: the list names, or leaves
    out, the 2s on a play one card larger as the order stands before the lead, and a quad
    the opener may lead reverses it (RULES §7), so that against that quad the 2s beat
    nothing larger, or do again (`legal_options`). Where a quad closes the trick at once
    nobody answers it, and nothing needs saying (stop 47)."""
    rules = table.rules
    return rules.revolution and rules.two_beats_larger and not rules.four_closes and any(
        option.count == 4 and option.special is None for option in options)


def turn_lines(table: Table, game: Game, seat: int, locale: LocaleLike,
               hand: Sequence[Card]) -> list[str]:
    """Whose turn it is, as the hand says it during play: above the cards, so that a screen
    reader says it before the hand and its faces, not after them (play-test 25); what
    explains or follows from it (the rules of an answer, the trick) stays below, except why
    the seat's turn was skipped, said just above whose turn it is. None for a seat the
    autopilot plays (`autopilot_part` says so)."""
    if game.automated(seat) and hand:
        return []
    if table.rules.fast:
        if seat in game.passed:
            return [t(locale, "hand.passed")]
        if hand:
            return [timed(locale, "hand.fast" if game.trick else "hand.fast_open", table)]
        return []
    if game.to_act == seat:
        return [timed(locale, "hand.your_turn", table)]
    if game.to_act is not None and hand:
        skipped = table.skipped.get(seat)
        # Why their turn went by, above whose it is: the history says it, but soon scrolls
        # it away.
        said = [] if skipped is None else [entry_text(locale, table, skipped)]
        return [*said, t(locale, "hand.waiting", name=seat_name(table, game.to_act))]
    return []


def play_part(table: Table, game: Game, seat: int, locale: LocaleLike,
              items: list[discord.ui.Item[Any]], page: int, lines: list[str],
              wanted: list[FaceLine], hand: Sequence[Card]) -> None:
    """Adds the play phase's lines to ``lines`` (the trick's faces to ``wanted``) and its
    controls to ``items``. `hand` is the seat's `game.hand(seat)`, sorted once for the
    whole render."""
    if game.automated(seat) and hand:
        autopilot_part(table, game, seat, locale, items, lines)
        return
    if autopilot_next(table, game, seat):  # out: its place said above (`hand.out_lines`)
        if known_to_give_seat_up(table, game) == seat:
            # Sent last by a finish penalty, it goes to the queue at the deal (RULES §10):
            # no next round for the autopilot, as between rounds (`hand.steps_off`).
            lines.append(t(locale, "hand.steps_off", role=role_name(locale, table, "L")))
        else:
            key = autopilot_next_key(table, game)
            if may_resume(table, seat):
                items.append(resume_button(table, game, locale))
            else:
                key = "hand.autopilot_timed_out"
            lines.append(t(locale, key))
    options = game.legal_plays(seat)
    can_pass = game.can_pass(seat)
    if hand:
        lines.extend(timed_out_lines(table, game, seat, locale))
    if table.rules.fast:
        if hand and seat not in game.passed and game.trick and game.last_player == seat:
            # Why their hand alone has no Pass: the last to play may not (RULES §9),
            # which nothing said (play-test 17).
            lines.append(t(locale, "hand.fast_top"))
    elif game.to_act == seat:
        top = game.top
        if game.constraint is not None and game.constraint[0] == seat and top is not None:
            # A wild in hand is not offered (RULES §7: « or nothing » forbids wilds): say so.
            wild = table.rules.wild_rank
            held = wild != "none" and any(card.rank == wild for card in hand)
            key = "hand.same_or_pass" + ("" if options else "_none") + ("_wild" if held else "")
            lines.append(t(locale, key, rule=t(locale, f"hand.equal_rule.{table.rules.on_equal}"),
                           cards=rank_words(locale, top.value, top.count, spanish(table)),
                           wild=wild))
        if not game.trick and options:  # why there is no Pass: the opener must play
            exceptions = count_exceptions(locale, table.rules, game.revolution)
            lines.append(t(locale, "hand.lead_except", exceptions=exceptions) if exceptions
                         else t(locale, "hand.lead"))
            if quad_flips_exception(table, options):
                lines.append(t(locale, "hand.lead_quad_revolution_off" if game.revolution
                               else "hand.lead_quad_revolution_on"))
    if game.to_act == seat and not options:  # say why there is nothing to pick
        constrained = game.constraint is not None and game.constraint[0] == seat
        if not can_pass:
            lines.append(t(locale, "hand.cannot_play"))
        elif not constrained:
            lines.append(t(locale, "hand.only_pass"))
    if game.revolution:  # the hand is sorted the new way round: say why (play-test)
        lines.append(revolution_line(table, locale))
    if game.trick:  # on turn or not, what lies on the table, its latest plays within reach
        room = CONTENT_LIMIT - len("\n".join(lines)) - 1
        skip = trick_fit(locale, table, game, room)
        wanted.extend(trick_faces(game, len(lines), skip))
        lines.append(trick_line(locale, table, game, skip))
    if not options and not can_pass:
        return
    selects = play_selects(table, game, seat, locale, options, hand)
    pages = max(1, -(-len(selects) // SELECTS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    for row, item in enumerate(selects[page * SELECTS_PER_PAGE:(page + 1) * SELECTS_PER_PAGE]):
        item.item.row = row
        items.append(item)
    if can_pass:
        items.append(button(table.id, "pass", t(locale, "btn.pass"), version=game.version,
                            style=discord.ButtonStyle.danger, row=4))
    # Advice only where there is a choice: with Pass alone, it could only say to pass.
    if table.hints and options and (table.rules.fast or game.to_act == seat):
        # It names the page it is drawn on, which its answer keeps (`hint.hint`).
        items.append(button(table.id, "hint", "💡 " + t(locale, "btn.hint"),
                            version=game.version, arg=str(page) if page else "", row=4))
    if pages > 1:
        following = (page + 1) % pages
        items.append(button(table.id, "page", t(locale, "btn.more", page=following + 1,
                                                 pages=pages),
                            version=game.version, arg=str(following), row=4))
