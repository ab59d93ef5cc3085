"""The public table message and each player's ephemeral hand, rendered from the engine.

The hand's controls come only from `game.legal_plays` / `can_pass` / `exchange_due`: the bot
never decides what is legal. Every control carries the game version it was drawn for.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import LocaleLike, join_names, plural, t
from bot.i18n.cards import (
    card_words,
    play_words,
    rank_short,
    rank_words,
    short,
    shorts,
    top_single_words,
)
from bot.packages.cards.emojis import CONTENT_LIMIT, FaceLine, faces
from bot.packages.controls import button, select, view
from bot.packages.rules_text import preset_name
from bot.packages.rules_text import role_name as rules_role_name
from bot.packages.screen import Screen
from bot.tables.table import LogEntry, Table
from engine import Card, Game, IllegalAction, Phase, PlayOption
from engine.events import RoundOver
from engine.roles import exchange_pairs

SELECTS_PER_PAGE = 4  # the fifth row holds the buttons
OPTIONS_PER_SELECT = 25
#: Room kept under Discord's content limit for the line a replaced table message ends with
#: (« the table continues in a newer message below »).
RETIRED_NOTE_ROOM = 80


def countdown(table: Table) -> str:
    return f"<t:{int(table.timer_deadline)}:R>" if table.timer_deadline is not None else ""


def place(locale: LocaleLike, n: int) -> str:
    return t(locale, f"place.{n}") if n <= 3 else t(locale, "place.n", n=n)


def role_name(locale: LocaleLike, table: Table, role: str | None) -> str:
    return rules_role_name(locale, table.rules, role) if role else ""


def spanish(table: Table) -> bool:
    return table.rules.deck_kind.spanish


def entry_text(locale: LocaleLike, table: Table, entry: LogEntry) -> str:
    """A history line in the reader's language; cards become words here."""
    params = dict(entry.params)
    if "cards" in params:
        cards = [Card.parse(c) for c in params["cards"]]
        if entry.key == "ev.played":
            params["cards"] = play_words(
                locale, cards, params["value"], params["count"], spanish(table),
                params.get("special"), params.get("announce"),
                None if table.rules.wild_rank == "none" else table.rules.wild_rank)
        else:
            params["cards"] = shorts(locale, cards, spanish(table))
    if "place" in params and entry.key in ("ev.out", "ev.penalised"):
        params["place"] = place(locale, int(params["place"]))
    if entry.key == "ev.penalised":
        params["rank"] = rank_words(locale, str(params.get("rank", "2")), 1, spanish(table))
    if entry.key in ("ev.trick_closed.best", "ev.trick_closed.two", "ev.trick_closed.four"):
        four = entry.key.endswith(".four")
        params["value"] = rank_words(locale, str(params["value"]), 4 if four else 1,
                                     spanish(table))
    if entry.key == "ev.trick_closed.top_single":
        params["card"] = top_single_words(locale, table.rules.top_single, spanish(table))
    if "role" in params:
        params["role"] = role_name(locale, table, str(params["role"]))
    return t(locale, entry.key, **params)


def seat_name(table: Table, seat: int) -> str:
    player = table.seats[seat]
    return f"🤖 {player.name}" if player.is_bot else player.name


# --------------------------------------------------------------------------- table message

def table_screen(table: Table, now: float) -> Screen:
    game = table.game
    assert game is not None
    loc = table.locale
    lines = [t(loc, "table.title", round=game.round_no,
               preset=preset_name(loc, table.rules.preset_id))]
    wanted: list[FaceLine] = []
    if game.revolution and game.phase is Phase.PLAY:  # a round's end restores the order
        lines.append(t(loc, "table.revolution"))
    if game.phase is Phase.EXCHANGE:
        lines.append(t(loc, "table.exchange", countdown=countdown(table)))
        pending = []
        for seat in range(game.seats):
            due = game.exchange_due(seat)
            if due is not None:
                pending.append(t(loc, "table.exchange_pair", giver=table.name(due.giver),
                                 receiver=table.name(due.receiver),
                                 cards=plural(loc, "n.cards", due.count)))
        lines.extend(pending)
    elif game.phase is Phase.PLAY:
        wanted.extend(trick_faces(game, len(lines)))
        lines.append(trick_line(loc, table, game))
        if table.rules.fast:
            lines.append(t(loc, "table.fast", countdown=countdown(table)))
        elif game.to_act is not None:
            lines.append(t(loc, "table.turn", name=table.name(game.to_act),
                           countdown=countdown(table)))
    lines.append("")
    players = player_lines(loc, table, game)
    history = [f"• {entry_text(loc, table, e)}" for e in table.log]
    results: list[str] = []
    # What to do next: true only while this is the table's current message.
    instructions: list[str] = []
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        results.append("")
        results.extend(results_lines(loc, table, game))
        over = game.phase is Phase.GAME_OVER
        instructions.append(t(loc, "table.host_over" if over else "table.host_next"))
    elif game.phase in (Phase.PLAY, Phase.EXCHANGE):
        stale = [p for p in table.humans()
                 if p.user_id is not None and not _hand_live(table, p.user_id, now)
                 and table.seat_of(p.user_id) is not None]
        # A player whose seat waits for them (presi, they left) is told pressing brings
        # them back, not asked as if they were still playing.
        playing = [p.name for p in stale if p.user_id not in table.away]
        away = [p.name for p in stale if p.user_id in table.away]
        asked = [plural(loc, key, len(names), names=join_names(loc, names))
                 for key, names in (("table.press_hand", playing),
                                    ("table.press_hand_back", away)) if names]
        if asked:
            instructions.extend(["", *asked])
    # Eight seats with long names overrun Discord's 2,000 characters (the content would be
    # cut, standings and all): the oldest history lines go first, as many as needed, leaving
    # room for the note a retired table message ends with. Names of markdown characters,
    # twice as long once escaped, overrun it still: then the players' lines go too, since
    # the results name every player with their role and points.
    def overruns() -> bool:
        recent = ["", t(loc, "table.recent"), *history] if history else []
        return len("\n".join([*lines, *players, *recent, *results, *instructions])) > \
            CONTENT_LIMIT - RETIRED_NOTE_ROOM
    while history and overruns():
        del history[0]
    if results and overruns():
        players = []
        del lines[-1]  # the blank line above them
    lines.extend(players)
    if history:
        lines.extend(["", t(loc, "table.recent"), *history])
    lines.extend(results)
    # Face lines go above the instructions, so the retired text keeps them too.
    shown = faces.with_lines(lines + instructions, wanted, spanish(table), loc)
    return Screen("\n".join(shown), table_view(table, game),
                  retired="\n".join(shown[:len(shown) - len(instructions)]))


def _hand_live(table: Table, user_id: int, now: float) -> bool:
    link = table.hands.get(user_id)
    return link is not None and link.valid(now)


def trick_faces(game: Game, index: int) -> list[FaceLine]:
    """The trick's faces, one group per play, wanted under line ``index`` (its text line)."""
    return [(index, [p.cards for p in game.trick])] if game.trick else []


def note_lines(table: Table, seat: int, locale: LocaleLike, lines: list[str],
               wanted: list[FaceLine]) -> None:
    """The seat's exchange notes (« tu as donné … »), each with its cards' faces under it."""
    for note in table.exchange_notes.get(seat, []):
        wanted.append((len(lines), [[Card.parse(c) for c in note.params["cards"]]]))
        lines.append(entry_text(locale, table, note))


def trick_line(loc: LocaleLike, table: Table, game: Game) -> str:
    if not game.trick:
        return t(loc, "table.trick_empty")
    plays = [t(loc, "table.trick_play", name=table.name(p.seat),
               cards=cards_shown(loc, table, p.cards, p.announce)) for p in game.trick]
    return t(loc, "table.trick", plays=" · ".join(plays))


def cards_shown(loc: LocaleLike, table: Table, cards: Sequence[Card],
                announce: str | None) -> str:
    """Cards as symbols, with the value announced for wild 7s ("7♣ 7♠ → D"); 7s played
    as 7s need no arrow."""
    text = shorts(loc, cards, spanish(table))
    if not announce or all(c.rank == announce for c in cards):
        return text
    return f"{text} → {rank_short(loc, announce, spanish(table))}"


def player_lines(loc: LocaleLike, table: Table, game: Game) -> list[str]:
    roles = game.roles
    sizes = game.hand_sizes()
    # Once the round is over the results give the places; a finishing-order place here
    # would contradict them for players sent down by the finish penalty.
    playing = game.phase in (Phase.PLAY, Phase.EXCHANGE)
    lines = []
    for seat in game.players:
        extras = ""
        if roles[seat]:
            extras += t(loc, "table.role", role=role_name(loc, table, roles[seat]))
        extras += t(loc, "table.points", points=plural(loc, "n.points", game.points[seat]))
        finished = game.finish_place(seat)
        if finished is not None and playing:
            extras += t(loc, "table.out", place=place(loc, finished))
        elif seat in game.passed:
            extras += t(loc, "table.passed")
        if game.automated(seat) and not table.seats[seat].is_bot:
            extras += t(loc, "table.auto")
        if table.seats[seat].is_bot:
            extras += t(loc, "table.bot_level",
                        level=t(loc, f"level.{table.seats[seat].level}"))
        marker = "▶️ " if game.to_act == seat and game.phase is Phase.PLAY else ""
        lines.append(t(loc, "table.player", marker=marker, name=seat_name(table, seat),
                       cards=plural(loc, "n.cards", sizes[seat]), extras=extras))
    return lines


def round_finished(table: Table, game: Game) -> bool:
    """Whether the current round ended with a result; a game the host stopped in the middle
    of a round has none (its roles and points are still the previous round's)."""
    return any(isinstance(r, RoundOver) and r.round_no == game.round_no for r in table.results)


def results_lines(loc: LocaleLike, table: Table, game: Game) -> list[str]:
    if not round_finished(table, game):
        lines = [t(loc, "table.stopped", round=game.round_no)]
        if game.winners:
            names = [table.name(s) for s in game.winners]
            lines.append(plural(loc, "table.game_over", len(names),
                                names=join_names(loc, names)))
        lines.extend(standings(loc, table, game))
        return lines
    lines = [t(loc, "table.round_over", round=game.round_no)]
    roles = game.roles
    for index, seat in enumerate(game.ranking or ()):
        role = roles[seat]
        gained = table.rules.points.get(role, 0) if role else 0
        lines.append(t(loc, "table.result_line", place=index + 1, name=seat_name(table, seat),
                       role=role_name(loc, table, role), gained=gained,
                       total=plural(loc, "n.points", game.points[seat])))
    if game.phase is not Phase.GAME_OVER:
        return lines
    lines.append("")
    if game.winners:
        names = [table.name(s) for s in game.winners]
        lines.append(plural(loc, "table.game_over", len(names), names=join_names(loc, names)))
    else:
        lines.append(t(loc, "table.game_over_none"))
    lines.extend(standings(loc, table, game))
    return lines


def standings(loc: LocaleLike, table: Table, game: Game) -> list[str]:
    """The game's totals, best first; tied players share a place."""
    lines = [t(loc, "table.standings")]
    by_points = sorted(game.players, key=lambda s: -game.points[s])
    for index, seat in enumerate(by_points):
        rank = 1 + sum(1 for s in by_points[:index] if game.points[s] > game.points[seat])
        lines.append(t(loc, "table.standing_line", place=rank, name=seat_name(table, seat),
                       total=plural(loc, "n.points", game.points[seat])))
    return lines


def closed_lines(table: Table) -> list[str]:
    """What a closed table's messages say: why (when known), the standings of the game it
    was playing if a round of it finished (a round in progress has no result), and that
    the table is closed."""
    loc = table.locale
    lines: list[str] = []
    game = table.game
    if game is not None:
        lines.append(t(loc, "table.title", round=game.round_no,
                       preset=preset_name(loc, table.rules.preset_id)))
        if game.ranking is not None or game.phase is Phase.GAME_OVER:
            lines.extend(standings(loc, table, game))
        lines.append("")
    if table.notice is not None:
        lines.append(entry_text(loc, table, table.notice))
    lines.append(t(loc, "lobby.closed"))
    return lines


def table_view(table: Table, game: Game) -> discord.ui.View:
    loc = table.locale
    items: list[discord.ui.Item[Any]] = []
    if game.phase is not Phase.GAME_OVER:
        items.append(button(table.id, "hand", t(loc, "btn.my_hand"),
                            style=discord.ButtonStyle.primary))
    if game.phase is Phase.ROUND_OVER:
        items.append(button(table.id, "next", t(loc, "btn.next_round"),
                            version=game.version, style=discord.ButtonStyle.success))
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        items.append(button(table.id, "end", t(loc, "btn.end_game"), version=game.version,
                            style=discord.ButtonStyle.danger))
    if game.phase is Phase.GAME_OVER:  # between rounds the game goes on: no replay offered
        items.append(button(table.id, "replay", t(loc, "btn.replay"), version=game.version))
    return view(*items)


# --------------------------------------------------------------------------- hand

def seatless_lines(table: Table, user_id: int, locale: LocaleLike) -> list[str]:
    """Someone without a seat opened a hand: the way to one. A game under way seats nobody
    new; those waiting (`bots_fill`, as `TableService.join` decides) sit between rounds in
    their order of arrival (RULES §10), so the queue says how many are ahead; without
    `bots_fill` one joins once the table is back in its lobby."""
    waiting = [p.user_id for p in table.queue]
    if user_id in waiting:
        ahead = waiting.index(user_id)
        where = (t(locale, "hand.queued.first") if ahead == 0
                 else plural(locale, "hand.queued.ahead", ahead))
        return [where, t(locale, "hand.queue_seats")]
    how = "hand.join_queue" if table.rules.bots_fill else "hand.join_later"
    return [t(locale, "hand.not_seated"), t(locale, how)]


def hand_screen(table: Table, user_id: int, locale: LocaleLike, *, notice: str = "",
                page: int = 0, now: float = 0.0) -> Screen:
    game = table.game
    seat = table.seat_of(user_id)
    lines = [notice] if notice else []
    if game is None or seat is None:
        lines.extend(seatless_lines(table, user_id, locale))
        return Screen("\n".join(lines), view())
    hand = game.hand(seat)
    # Face lines by priority: the hand, then the exchange notes, then the trick.
    wanted: list[FaceLine] = []
    if hand:
        wanted.append((len(lines), [hand]))
        lines.append(t(locale, "hand.title", count=len(hand),
                       cards=shorts(locale, hand, spanish(table))))
    else:
        lines.append(t(locale, "hand.empty"))
    items: list[discord.ui.Item[Any]] = []
    if game.phase is Phase.EXCHANGE:
        why = exchange_role_line(table, game, seat, locale)
        if why:
            lines.append(why)
        note_lines(table, seat, locale, lines, wanted)
        _exchange_part(table, game, seat, locale, items, lines, wanted)
    elif game.phase is Phase.PLAY:
        note_lines(table, seat, locale, lines, wanted)
        _play_part(table, game, seat, locale, items, page, lines, wanted, hand)
    else:
        over = game.phase is Phase.GAME_OVER
        finished = round_finished(table, game)
        if over and not finished:  # stopped by the host: worded as the table words it
            lines.append(t(locale, "hand.stopped", round=game.round_no))
        else:
            lines.append(t(locale, "hand.game_over" if over else "hand.round_over"))
        ranking = game.ranking or ()
        if seat in ranking and finished:  # the player's own result
            role = game.roles[seat]
            lines.append(t(locale, "hand.round_result", place=place(locale, ranking.index(seat) + 1),
                           role=role_name(locale, table, role),
                           gained=table.rules.points.get(role, 0) if role else 0))
    items.append(button(table.id, "refresh", t(locale, "btn.refresh"), row=4))
    return Screen("\n".join(faces.with_lines(lines, wanted, spanish(table), locale)),
                  view(*items))


def option_value(option: PlayOption) -> str:
    cards = ".".join(str(c) for c in option.cards)
    return f"{cards}|{option.announce}" if option.announce else cards


def parse_option(value: str) -> tuple[list[Card], str | None]:
    cards, _, announce = value.partition("|")
    return [Card.parse(c) for c in cards.split(".") if c], announce or None


def _option(locale: LocaleLike, table: Table, option: PlayOption,
            hand: Sequence[Card]) -> discord.SelectOption:
    label = cards_shown(locale, table, option.cards, option.announce)
    words = play_words(locale, option.cards, option.value, option.count, spanish(table),
                       option.special, option.announce,
                       None if table.rules.wild_rank == "none" else table.rules.wild_rank)
    warning = _end_warning(table, option, hand)
    if warning:
        words = f"{words} · ⚠️ {t(locale, warning)}"
    return discord.SelectOption(label=label[:100], value=option_value(option),
                                description=words[:100],
                                emoji=faces.option_emoji(option.cards, option.value,
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
                 hand: Sequence[Card] | None = None) -> list[discord.ui.Item[Any]]:
    """Every legal play, one per choice of cards, grouped by count (specials apart), 25 per
    select. `hand`: the seat's `game.hand(seat)` if the caller has it (see `suit_choices`)."""
    if hand is None:
        hand = game.hand(seat)
    groups: dict[str, list[PlayOption]] = {}
    for listed in options:
        for option in suit_choices(game, seat, listed, hand):
            groups.setdefault("special" if option.special else str(option.count),
                              []).append(option)
    selects: list[discord.ui.Item[Any]] = []
    for key in sorted(groups, key=lambda k: (k == "special", k)):
        group = sorted(groups[key], key=lambda o: (game.strength(o.level), o.wilds,
                                                   o.announce or ""))
        parts = -(-len(group) // OPTIONS_PER_SELECT)
        for part, start in enumerate(range(0, len(group), OPTIONS_PER_SELECT)):
            chunk = group[start:start + OPTIONS_PER_SELECT]
            title = t(locale, f"hand.group.{key}")
            if parts > 1:  # menus of one title would look alike: number them as the gifts
                title = t(locale, "hand.group_part", title=title, part=part + 1, parts=parts)
            selects.append(select(
                table.id, "play", title,
                [_option(locale, table, o, hand) for o in chunk],
                version=game.version, arg=f"{key}{part}"))
    return selects


def _play_part(table: Table, game: Game, seat: int, locale: LocaleLike,
               items: list[discord.ui.Item[Any]], page: int, lines: list[str],
               wanted: list[FaceLine], hand: Sequence[Card]) -> None:
    """Adds the play phase's lines to ``lines`` (the trick's faces to ``wanted``) and its
    controls to ``items``. `hand` is the seat's `game.hand(seat)`, sorted once for the
    whole render."""
    if game.automated(seat):
        if seat not in table.left_seats:
            items.append(button(table.id, "resume", t(locale, "btn.resume"),
                                version=game.version, style=discord.ButtonStyle.success, row=4))
        lines.append(t(locale, "hand.autopilot"))
        return
    options = game.legal_plays(seat)
    can_pass = game.can_pass(seat)
    if table.rules.fast:
        if seat in game.passed:
            lines.append(t(locale, "hand.passed"))
        elif hand:
            lines.append(t(locale, "hand.fast" if game.trick else "hand.fast_open",
                           countdown=countdown(table)))
    elif game.to_act == seat:
        lines.append(t(locale, "hand.your_turn", countdown=countdown(table)))
        top = game.top
        if game.constraint is not None and game.constraint[0] == seat and top is not None:
            lines.append(t(locale, "hand.same_or_pass",
                           cards=rank_words(locale, top.value, top.count, spanish(table))))
        if not game.trick and options:  # why there is no Pass: the opener must play
            lines.append(t(locale, "hand.lead"))
    elif game.to_act is not None and hand:
        lines.append(t(locale, "hand.waiting", name=table.name(game.to_act)))
    if game.to_act == seat and not options:  # say why there is nothing to pick
        constrained = game.constraint is not None and game.constraint[0] == seat
        if not can_pass:
            lines.append(t(locale, "hand.cannot_play"))
        elif not constrained:
            lines.append(t(locale, "hand.only_pass"))
    wanted.extend(trick_faces(game, len(lines)))
    if game.trick:  # on turn or not, what lies on the table
        lines.append(trick_line(locale, table, game))
    if not options and not can_pass:
        return
    selects = play_selects(table, game, seat, locale, options, hand)
    pages = max(1, -(-len(selects) // SELECTS_PER_PAGE))
    page = min(max(page, 0), pages - 1)
    for row, item in enumerate(selects[page * SELECTS_PER_PAGE:(page + 1) * SELECTS_PER_PAGE]):
        item.item.row = row  # type: ignore[attr-defined]
        items.append(item)
    if can_pass:
        items.append(button(table.id, "pass", t(locale, "btn.pass"), version=game.version,
                            style=discord.ButtonStyle.danger, row=4))
    if table.hints and (table.rules.fast or game.to_act == seat):
        items.append(button(table.id, "hint", "💡 " + t(locale, "btn.hint"),
                            version=game.version, row=4))
    if pages > 1:
        following = (page + 1) % pages
        items.append(button(table.id, "page", t(locale, "btn.more", page=following + 1,
                                                 pages=pages),
                            version=game.version, arg=str(following), row=4))


def exchange_role_line(table: Table, game: Game, seat: int, locale: LocaleLike) -> str:
    """Why the seat gives what it gives in the exchange, or nothing: its role from the last
    round and its partner's, as the engine pairs them (`exchange_pairs`). A newcomer asked to
    hand over their best cards learns it is what their place last round costs."""
    roles = game.roles
    role = roles[seat]
    if role is None or game.ranking is None:
        return ""
    mode = table.rules.exchange_return
    for low, high, _count in exchange_pairs(game.ranking, table.rules.vp_at_three):
        if seat in (low, high):
            other = high if seat == low else low
            side = "low" if seat == low else "high"
            return t(locale, f"hand.exchange_why.{side}.{mode}",
                     role=role_name(locale, table, role), name=table.name(other),
                     other=role_name(locale, table, roles[other]))
    return t(locale, "hand.exchange_why.none", role=role_name(locale, table, role))


def _exchange_part(table: Table, game: Game, seat: int, locale: LocaleLike,
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
                           name=table.name(receiver)))
        lines.append(t(locale, "hand.give_waiting"))
        return
    lines.append(t(locale, "hand.give", cards=plural(locale, "n.cards", due.count),
                   name=table.name(due.receiver), countdown=countdown(table)))
    if table.rules.exchange_blind:
        lines.append(t(locale, "hand.give_blind"))
    if due.mode == "weakest":
        lines.append(t(locale, "hand.give_weakest"))
    elif due.mode == "best":
        lines.append(t(locale, "hand.give_pick"))
    allowed = list(due.allowed)
    if due.mode == "best":
        preset = allowed[-due.count:]
    elif due.mode == "weakest":
        preset = allowed[:due.count]
    else:
        preset = []
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
        options = [discord.SelectOption(label=short(locale, c, spanish(table)), value=str(c),
                                        description=card_words(locale, c, spanish(table),
                                                               table.rules.top_single),
                                        default=c in preset,
                                        emoji=faces.emoji(c, spanish(table), locale))
                   for c in part]
        placeholder = t(locale, "hand.give_cards") if single else \
            t(locale, "hand.give_part", part=index + 1, parts=len(parts))
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


def stop_prompt(table: Table, locale: LocaleLike) -> Screen:
    """What `/president end` asks the host mid-game before stopping it: its button names the
    game (the table's game number), so a click after that game ended stops no other."""
    stop = button(table.id, "stop", t(locale, "btn.stop_game"), arg=str(table.game_no),
                  style=discord.ButtonStyle.danger)
    return Screen(t(locale, "end.confirm"), view(stop))


def quit_prompt(table: Table, user_id: int, locale: LocaleLike) -> Screen:
    """What `/president leave` asks a player mid-game, saying what leaving does by the rules:
    Table.leave_outcome, which the service then acts on, down to whether too few are left
    (then the prompt says the table goes back to its lobby, not « if enough are left »). Its
    button names the game (the table's game number) and the player: a click after that
    game ended leaves nothing, and nobody else may use it."""
    leave = button(table.id, "quit", t(locale, "btn.quit_game"),
                   arg=f"{table.game_no}.{user_id}", style=discord.ButtonStyle.danger)
    return Screen(t(locale, table.leave_outcome(user_id).prompt,
                    seconds=table.rules.leave_grace_seconds), view(leave))

