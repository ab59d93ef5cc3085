"""Who sits where: bots seated and named, freed seats, the queue of those waiting.

Plain changes of the table's seats (and the game's, for a seat that changes hands), with no
timer, storage or display: the service decides when they happen and shows them.
"""

from __future__ import annotations

from bot.i18n import t
from bot.names import alike
from bot.tables import turnover
from bot.tables.house import DEFAULT_LEVEL
from bot.tables.players import Player
from bot.tables.table import Table
from engine import Game, Phase, Rules


def new_bot(table: Table) -> Player:
    # The seats of this round's leavers, played by a bot until its end, are not bots of
    # their own: the one taking marie's seat beside Bot 1–3 is Bot 4, not Bot 5.
    number = 1 + sum(1 for seat, p in enumerate(table.seats)
                     if p.is_bot and not p.vacant and seat not in table.left_seats)
    # Counting alone repeats a name once a waiting player has taken a bot's seat (Bot 2
    # and Bot 3 left, the next one would be Bot 3 again): the history and the results
    # would then mix two seats up. A member named « bot 3 » (or « Вot 3 ») leaves the
    # number to them too, rather than making the bot « Bot 3 (2) ».
    taken = {p.name for p in table.seats}
    while alike(t(table.locale, "bot.name", n=number), taken):
        number += 1
    return table.new_player(None, t(table.locale, "bot.name", n=number), table.locale)


def vs_bots_size(rules: Rules) -> int:
    """How many seats « Lancer contre des bots » fills (`vs_bots` bots beside one player, to
    the host's minimum if higher, never past the maximum); 0 where the rules offer none."""
    if rules.vs_bots is None:
        return 0
    return min(rules.max_players, max(1 + rules.vs_bots, rules.min_players))


def most_vs_bots(rules: Rules) -> int:
    """The most bots « Lancer contre des bots » can seat: every seat but the player's. A
    host typing more is refused (the settings' form); a table made smaller takes a count
    set before down with it (`fitting_vs_bots`)."""
    return rules.max_players - 1


def fitting_vs_bots(rules: Rules) -> Rules:
    """`rules` with no more bots for « Lancer contre des bots » than its seats hold: a host
    lowering `max_players` under the count means a smaller table, bots included, and the
    settings then show the count the button seats rather than one it never will."""
    if rules.vs_bots is None or rules.vs_bots <= most_vs_bots(rules):
        return rules
    return rules.replace(vs_bots=most_vs_bots(rules))


def seat_bot(table: Table, *, by_host: bool = False, level: str = DEFAULT_LEVEL) -> None:
    """Seat a bot; only the host's choose their level, fill-in bots play normal."""
    bot = new_bot(table)
    bot.by_host = by_host
    bot.level = level
    table.seats.append(bot)


def free_seat(table: Table, game: Game, seat: int) -> None:
    """Between rounds a leaver's seat goes: to a bot where bots fill tables, else away
    (LeaveOutcome.BOT and ROUND_BOT against the others, decided by the same rule). A bot
    taking the seat for the next round starts at 0 points: the leaver's are theirs (their
    rounds keep them), not the bot's to win on. A game already over keeps its standings."""
    if table.rules.bots_fill:
        table.seats[seat] = new_bot(table)
        game.set_bot(seat, True)
        if game.phase is Phase.ROUND_OVER:
            game.take_seat(seat)
    else:
        game.remove_seat(seat)
        table.seats[seat].user_id = None
        table.seats[seat].left_by = None  # its rounds from now on are nobody's
        table.seats[seat].left_out = False
        table.seats[seat].left_removed = False
        table.seats[seat].vacant = True


def overflow_to_queue(table: Table, room: int) -> None:
    """The lobby's seats cut to `room`: the host's bots go first (the last added first),
    then the latest-seated people, who wait at the head of the queue, having sat before
    anyone in it. The host keeps their seat."""
    while len(table.seats) > room:
        bots = [p for p in table.seats if p.is_bot]
        if bots:
            table.seats.remove(max(bots, key=lambda p: p.joined))
            continue
        moved = max((p for p in table.seats if not table.is_host(p.user_id or 0)),
                    key=lambda p: p.joined)
        table.seats.remove(moved)
        table.queue.insert(0, moved)


def seat_queue(table: Table) -> None:
    """In the lobby nobody waits while a seat is free, and nobody sits beyond the
    table's capacity: those who came to a full table (`bots_fill`) sit in their order of
    arrival as seats free or the host opens more; the others wait for the game's first
    change of seats (`seat_waiting_players`)."""
    while table.queue and not table.running and len(table.seats) < table.capacity():
        table.seats.append(table.queue.pop(0))


def seat_waiting_players(table: Table, game: Game) -> None:
    """RULES §10: waiting players take bots' seats, lowest rank first; with no bot seated
    the last place gives up its seat and joins the end of the queue. Only where bots fill
    the table, and at a game with no end (`turnover.no_end`), where the list takes the bots'
    seats, then those leavers freed (`Game.reopen_seat`), nobody giving theirs up:
    elsewhere the list is for the next game (`seat_next_game`). Each takes the seat's rank
    but keeps their own points: the bot's leave with it, and the last place's wait with
    them in the queue, where the engine keeps counting them (`Game.step_off`)."""
    for player in table.seats:  # who took a seat last time holds it as their own now
        player.took_seat_of(None)
    if turnover.no_end(table):  # the list takes the bots' seats, nobody gives theirs up (stop 51)
        ranking = list(game.ranking or range(game.seats))
        bots = set(turnover.bots_seated(table))
        for seat in reversed(ranking):
            if table.queue and seat in bots:
                _sit(table, game, seat)
                game.set_bot(seat, False)
        for seat in game.freed_seats():  # then the seats leavers freed (stop 52)
            if table.queue:
                _reopen(table, game, seat)
        return
    if not table.rules.bots_fill:
        return
    last = gives_seat_up(table, game)  # before the bots' seats go to the queue
    ranking = list(game.ranking or range(game.seats))
    for seat in reversed(ranking):
        if table.queue and table.seats[seat].is_bot and game.active[seat]:
            _sit(table, game, seat)
            game.set_bot(seat, False)
    if last is not None:
        leaving = table.seats[last]
        game.step_off(last, leaving.key)
        table.queue.append(leaving)
        _sit(table, game, last)


def gives_seat_up(table: Table, game: Game) -> int | None:
    """The seat whose player gives it up to the queue at the next deal
    (`seat_waiting_players`), as the table stands between rounds: the round's last place,
    where more wait than bots sit, since the queue takes the bots' seats first. A bot that
    finished last has given way by then: the one who took its seat, first in the queue, is
    not sent to its end with no round played."""
    ranking = list(game.ranking or range(game.seats))
    return _last_gives_up(table, game, ranking[-1] if ranking else None)


def known_to_give_seat_up(table: Table, game: Game) -> int | None:
    """Mid-round, the seat a finish penalty sent to the last place (places are final once
    out: the first penalised ranks last), should it give its seat up at the next deal as
    the table stands now (`gives_seat_up`): its autopilot has no next round to play."""
    if game.phase is not Phase.PLAY or not game.penalised:
        return None
    return _last_gives_up(table, game, game.penalised[0])


def _last_gives_up(table: Table, game: Game, last: int | None) -> int | None:
    """`last`, the round's last place, if it goes to the queue at the deal: where bots fill
    the table and more wait than bots sit."""
    if last is None or not table.rules.bots_fill or not table.queue:
        return None
    bots = {s for s in range(game.seats) if table.seats[s].is_bot and game.active[s]}
    if last in bots or len(table.queue) <= len(bots):
        return None
    return last


def _sit(table: Table, game: Game, seat: int) -> None:
    """The queue's first takes the seat, with the points they brought."""
    player = table.queue.pop(0)
    player.took_seat_of(table.seats[seat])
    table.seats[seat] = player
    game.take_seat(seat, player.key)


def _reopen(table: Table, game: Game, seat: int) -> None:
    """The list's first sits at a seat a leaver freed, which the engine deals again
    (`Game.reopen_seat`) with 0 points. Where the seat finished the round just played (its
    leaver's, by a bot) it keeps that rank, and the table says whose place they take, as
    for a bot's seat; freed earlier, it has none."""
    player = table.queue.pop(0)
    ranked = seat in (game.ranking or ())
    player.took_seat_of(table.seats[seat] if ranked else None)
    table.seats[seat] = player
    game.reopen_seat(seat)


def keep_for_lobby(table: Table, game: Game) -> None:
    """The seats a game ending without a result leaves in the lobby. The bots the host
    seated stay, so the next game needs no re-adding; bots that filled the table or replaced
    leavers go, and waiting humans come before the host's bots when seats run short (the
    last-added bot gives way first); those beyond the table's seats keep waiting
    (`seat_queue`)."""
    humans = [p for s, p in enumerate(table.seats)
              if p.user_id is not None and game.active[s] and s not in table.left_seats
              and p.user_id not in table.away]
    bots = [p for p in table.seats if p.is_bot and p.by_host]
    room = max(0, table.rules.max_players - len(humans) - len(table.queue))
    kept_bots = sorted(bots, key=lambda p: p.joined)[:room]
    kept = {id(p) for p in humans + kept_bots}
    table.seats = [p for p in table.seats if id(p) in kept]


def seat_next_game(table: Table, game: Game) -> list[Player]:
    """A replay at a table without a queue seats those who asked for the next game, in
    their order of arrival, up to the rules' `max_players`: as in the lobby
    (`keep_for_lobby`) they come before the host's bots, the last-added bot giving way
    first, and the seats freed by leavers go. Returns those still waiting, for whom the
    table is full: they stay on the list."""
    players = [p for s, p in enumerate(table.seats) if game.active[s] and not p.vacant]
    humans = [p for p in players if not p.is_bot]
    room = max(0, table.rules.max_players - len(humans))
    newcomers, table.queue = table.queue[:room], table.queue[room:]
    bots = sorted((p for p in players if p.is_bot), key=lambda p: p.joined)
    kept = {id(p) for p in humans + bots[:room - len(newcomers)]}
    table.seats = [p for p in players if id(p) in kept] + newcomers
    return list(table.queue)
