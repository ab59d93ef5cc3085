"""A player's ephemeral hand: their cards, what the phase asks of them, and its controls
(`hand_plays` while tricks are played, `hand_gifts` during the exchange), in their language.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LocaleLike, button_names, plural, t
from bot.i18n.cards import shorts
from bot.packages.cards.emojis import FaceLine, faces
from bot.packages.controls import button, view
from bot.packages.game.hand_gifts import exchange_part, exchange_role_line
from bot.packages.game.hand_plays import (
    autopilot_next_key,
    autopilot_part,
    play_part,
    turn_lines,
)
from bot.packages.game.lines import (
    entry_text,
    penalty_words,
    place,
    role_name,
    round_finished,
    spanish,
)
from bot.packages.screen import Screen
from bot.tables import turnover
from bot.tables.logentry import line_cards
from bot.tables.players import waiting_key
from bot.tables.seating import kicked_key
from bot.tables.seats import gives_seat_up
from bot.tables.table import Table
from engine import Card, Game, Phase, Who


def lobby_lines(table: Table, user_id: int, locale: LocaleLike) -> list[str]:
    """A hand in the lobby (`/president hand`, or one left open when its table went back
    to its lobby): where its player now is. The lobby holds no cards, but a hand still
    showing the last game's, or « on the list » for a friend the lobby has since seated,
    would say what is no longer so; the game's start then redraws it with the cards."""
    if table.seat_of(user_id) is None:
        return seatless_lines(table, user_id, locale)
    return [t(locale, "hand.lobby_host" if table.is_host(user_id) else "hand.lobby",
              **button_names(table.locale))]


def seatless_lines(table: Table, user_id: int, locale: LocaleLike) -> list[str]:
    """Someone without a seat opened a hand: the way to one. A game under way seats nobody
    new; those waiting (`bots_fill`, as `TableService.join` decides) sit between rounds in
    their order of arrival (RULES §10), so the queue says how many are ahead; without
    `bots_fill` one asks for a seat in the next game. In the lobby one waits only at a
    full table, for a seat to free (`seats.seat_queue`)."""
    if user_id in table.kicked:  # the way back is closed until the next game starts
        return [t(locale, "hand.not_seated"), t(locale, kicked_key(table))]
    if table.left_seat(user_id) is not None:  # a bot finishes their round: theirs to retake
        return [t(locale, "hand.not_seated"), t(locale, "hand.take_back")]
    waiting = [p.user_id for p in table.queue]
    if user_id in waiting:
        ahead = waiting.index(user_id)
        # A table without a queue keeps a list for its next game: named as the table does.
        # The queue waits for the next game at the game's last round too (`turnover.last_round`);
        # at a game with no end, the first on the list take the bots' seats (`turnover.no_end`).
        queue = ahead < turnover.round_sitters(table)
        kind = "hand.listed" if table.running and not queue else "hand.queued"
        where = (t(locale, f"{kind}.first") if ahead == 0
                 else plural(locale, f"{kind}.ahead", ahead))
        over = table.game is not None and table.game.phase is Phase.GAME_OVER
        how = ("hand.queue_lobby" if not table.running
               else "hand.queue_seats" if queue and not over and table.rules.bots_fill
               else "hand.queue_bot_seat" if queue and not over
               else "hand.queue_next_game")
        return [where, t(locale, how, **button_names(table.locale))]
    how = ("hand.join_lobby" if not table.running
           else "hand.join_queue" if table.rules.bots_fill and not turnover.last_round(table)
           else "hand.join_no_end" if len(table.queue) < turnover.list_room(table)
           else "hand.join_later")
    return [t(locale, "hand.not_seated"), t(locale, how, **button_names(table.locale))]


def hand_screen(table: Table, user_id: int, locale: LocaleLike, *, notice: str = "",
                page: int = 0, now: float = 0.0) -> Screen:
    game = table.game
    seat = table.seat_of(user_id)
    lines = [notice] if notice else []
    if game is None:
        return Screen("\n".join([*lines, *lobby_lines(table, user_id, locale)]), view())
    over = game.phase is Phase.GAME_OVER
    if table.host_handed and table.is_host(user_id):  # until they act as host
        # Handed the role once the round is over, the choice is theirs now, not « à la fin
        # de la manche » (play-test 18).
        key = ("hand.new_host_over" if over else "hand.new_host_between"
               if game.phase is Phase.ROUND_OVER else "hand.new_host")
        lines.append(t(locale, key, **button_names(table.locale)))
    elif over and seat is None and table.is_host(user_id):  # in the queue: the choice is theirs
        lines.append(t(locale, "hand.host_over", **button_names(table.locale)))
    if seat is None:
        key = waiting_key(user_id)
        if not over and key in game.off_table and table.queued(user_id):
            # They gave their seat up as the round's last place (`seats.seat_waiting_players`)
            # while bots may still sit: say so, or the queue's rule reads as if it had
            # passed them by (play-test 16).
            lines.append(t(locale, "hand.stepped_off", role=role_name(locale, table, "L")))
        lines.extend(seatless_lines(table, user_id, locale))
        if over and key in game.off_table:
            # Left their seat for the queue: the points they took with them counted.
            lines.extend(game_result_lines(game, key, locale))
        elif game.off_table.get(key):
            # They count still, which nothing else shows them while they wait (the table's
            # totals are the seats'); none kept, there is nothing to say.
            lines.append(t(locale, "hand.queue_points",
                           total=plural(locale, "n.points", game.total(key))))
        return Screen("\n".join(lines), view())
    hand = game.hand(seat)
    if table.pause is not None:  # (its controls stay: a move is refused, said why)
        # Who paused reads it of themself, not « (par bob) » in their own hand (play-test 45).
        lines.append(t(locale, "hand.paused_you") if table.pause.by == user_id
                     else t(locale, "hand.paused", name=table.pause.name))
    until = table.timed_out.get(user_id)
    if until is not None and until > now:  # every click refused until then (`moderation`)
        lines.append(t(locale, "hand.timed_out_mod", until=int(until)))
    if game.phase is Phase.PLAY:
        lines.extend(turn_lines(table, game, seat, locale, hand))
    # Face lines by priority: the hand, then the exchange notes, then the trick.
    wanted: list[FaceLine] = []
    if hand:
        wanted.append((len(lines), [hand]))
        lines.append(t(locale, "hand.title", count=len(hand),
                       cards=shorts(locale, hand, spanish(table))))
    else:
        lines.append(t(locale, "hand.empty"))
        if game.phase is Phase.PLAY:
            lines.extend(out_lines(table, game, seat, locale))
    items: list[discord.ui.Item[Any]] = []
    if game.phase is Phase.EXCHANGE:
        why = exchange_role_line(table, game, seat, locale)
        if why:
            lines.append(why)
        note_lines(table, seat, locale, lines, wanted)
        exchange_part(table, game, seat, locale, items, lines, wanted)
        if seat in game.autopilot:
            autopilot_part(table, game, seat, locale, items, lines)
    elif game.phase is Phase.PLAY:
        if not game.played[seat]:  # what changed hands, until the seat's first play
            note_lines(table, seat, locale, lines, wanted)
        play_part(table, game, seat, locale, items, page, lines, wanted, hand)
    else:
        over = game.phase is Phase.GAME_OVER
        finished = round_finished(table, game)
        if over and not finished:  # stopped by the host: worded as the table words it
            lines.append(t(locale, "hand.stopped", round=game.round_no))
        else:
            lines.append(t(locale, "hand.game_over" if over else "hand.round_over"))
        ranking = game.ranking or ()
        if seat in ranking and finished:  # the player's own result
            lines.append(round_result(table, game, seat, locale, ranking.index(seat) + 1))
        if over and seat in game.players:
            lines.extend(game_result_lines(game, seat, locale))
        elif not over and gives_seat_up(table, game) == seat:
            # Last, they go to the queue at the deal (RULES §10): no next round for the
            # autopilot to play, nor for « Reprendre » to take back.
            lines.append(t(locale, "hand.steps_off", role=role_name(locale, table, "L")))
        elif not over and seat in game.autopilot:  # it plays their next round too
            autopilot_part(table, game, seat, locale, items, lines,
                           autopilot_next_key(table, game))
    pause = table.pause
    if pause is not None and pause.own and table.is_host(user_id) and \
            sum(item.row == 4 for item in items) < 4:  # (Pass, 💡, the page's: room left)
        # A player's own break, lengthened by its host without typing `/president pause`
        # (stop 51's leftovers): on the host's hand, the one private message they keep
        # open, beside « Actualiser »; the table message's row is full between rounds.
        items.append(button(table.id, "lengthen", t(locale, "btn.lengthen"),
                            arg=str(int(pause.since)), row=4))
    items.append(button(table.id, "refresh", t(locale, "btn.refresh"), row=4))
    return Screen("\n".join(faces.with_lines(lines, wanted, spanish(table), locale)),
                  view(*items))


def round_result(table: Table, game: Game, seat: int, locale: LocaleLike, rank: int) -> str:
    """The player's place, role and points in the round just over, and what sent them
    down if a penalised finish did: a player whose last 2 ended the round read only « 3rd:
    Scum », and one sent down earlier lost the hand's « ⚠️ You finished on a 2 » at the
    round's end (play-test 41)."""
    role = game.roles[seat]
    words = {"place": place(locale, rank), "role": role_name(locale, table, role),
             "gained": str(table.rules.points.get(role, 0) if role else 0)}
    penalty = penalty_words(locale, table, game, seat)
    if penalty is None:
        return t(locale, "hand.round_result", **words)
    ending, card = penalty
    return t(locale, f"hand.round_result_penalised{ending}", **words, **card)


def out_lines(table: Table, game: Game, seat: int, locale: LocaleLike) -> list[str]:
    """The place a seat that went out holds while the round goes on, and why, if its last
    cards sent it down (`finish_penalty`): the hand said only « Tu n’as plus de cartes »,
    and a player sent last for finishing on a 2 learned it from the table alone
    (play-test 17). Places are final once out: the finishers rank in order above the
    penalised ones, who stack from the bottom."""
    finished = game.finish_place(seat)
    if finished is None:
        return []
    where = place(locale, finished)
    penalty = penalty_words(locale, table, game, seat)
    if penalty is None:
        return [t(locale, "hand.out", place=where)]
    ending, words = penalty
    return [t(locale, f"hand.out_penalised{ending}", place=where, **words)]


def game_result_lines(game: Game, who: Who, locale: LocaleLike) -> list[str]:
    """The player's place in the whole game, under the last round's: the round's 1st place
    may finish the game 3rd, and a hand that said only « 1st » left them to find out on
    the table message. Nothing when no one won (the host stopped it before its end).
    `who`: their seat, or their key if they waited in the queue with points (`Who`)."""
    if not game.winners:
        return []
    total = plural(locale, "n.points", game.total(who))
    if who in game.winners:
        return [t(locale, "hand.game_won" if len(game.winners) == 1 else "hand.game_won_shared",
                  total=total)]
    places = dict(game.standings())
    rank = places[who]
    tied = any(w != who and p == rank for w, p in places.items())
    return [t(locale, "hand.game_place_tied" if tied else "hand.game_place",
              place=place(locale, rank), total=total)]


def note_lines(table: Table, seat: int, locale: LocaleLike, lines: list[str],
               wanted: list[FaceLine]) -> None:
    """The seat's exchange notes (« tu as donné … »), each with its cards' faces under it.
    In play they last until the seat's first play: what it received counts when it picks
    its first cards; after that, their four lines only push the controls down a phone."""
    for note in table.exchange_notes.get(seat, []):
        wanted.append((len(lines), [[Card.parse(c) for c in line_cards(note.params)]]))
        lines.append(entry_text(locale, table, note))
