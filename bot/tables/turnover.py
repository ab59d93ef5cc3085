"""Who comes and goes between deals: what leaving does to a seat (`LeaveOutcome`), who on
the list sits at the next deal, and whether enough are left to play on (RULES §10).

Queries of a table's state, apart from `Table` because they weigh its rules, its game and
its queue together; seating, the service and the prompts ask them before they act or word
what acting does.
"""

from __future__ import annotations

from collections.abc import Collection
from enum import Enum

from bot.tables.table import Table
from engine import Phase


class LeaveOutcome(Enum):
    """What leaving the game under way does to a player's seat (RULES §10).

    Decided in one place, `leave_outcome`: Seating.remove acts on it and the
    prompt that asks first (prompts.quit_prompt) words it, so the prompt cannot promise
    what leaving then does not do."""

    WAIT = "wait"  # mid-round where the rules wait: the seat waits, then the game is cancelled
    BOT = "bot"  # between rounds where bots fill tables: a bot takes the seat at once
    ROUND_BOT = "round_bot"  # mid-round where bots fill tables: a bot plays the seat from now on
    FREE = "free"  # between rounds: the seat goes at once and the game goes on without it
    FREE_LOBBY = "free_lobby"  # ... leaving too few: the table goes back to its lobby
    ROUND = "round"  # mid-round: a bot finishes the round for them, then the seat goes
    ROUND_LOBBY = "round_lobby"  # ... leaving too few once the round is over: the lobby
    # No queue, and only bots left to play while friends wait for the next game: the game
    # stops and they sit in the lobby at once, the first of them its host (`list_left`).
    LIST_LOBBY = "list_lobby"

    @property
    def at_once(self) -> bool:
        """Between rounds the seat changes hands now; mid-round a bot plays it out first."""
        return self in (LeaveOutcome.BOT, LeaveOutcome.FREE, LeaveOutcome.FREE_LOBBY,
                        LeaveOutcome.LIST_LOBBY)

    @property
    def prompt(self) -> str:
        """The catalogue key of the prompt. Mid-round it says the seat can be taken back
        until the round ends (`Seating.join`)."""
        return "leave.confirm." + self.value


def list_left(table: Table, leaving: Collection[int] = ()) -> bool:
    """Whether, once the ``leaving`` seats have gone, a table without a queue has only
    bots left to play while friends wait on its list for the next game. Its game then
    stops for them (LeaveOutcome.LIST_LOBBY): bots playing on for nobody would leave
    the list waiting, and hand the host role to someone without a seat."""
    return not table.rules.bots_fill and bool(table.queue) and not any(
        p.user_id is not None for seat, p in enumerate(table.seats) if seat not in leaving)


def last_one(table: Table, user_id: int) -> bool:
    """Whether nobody but `user_id` is at the table, seated, away or waiting: their going
    closes it (`Seating._gone`), unless the rules wait for them (LeaveOutcome.WAIT)."""
    return not table.queue and not any(uid != user_id for uid in table.away) and not any(
        p.user_id is not None and p.user_id != user_id for p in table.seats)


def last_round(table: Table) -> bool:
    """Whether the round under way is the game's last by its set number of rounds: no
    deal follows it, so who asks for a seat now waits for the next game, even where a
    queue takes seats between rounds (`bots_fill`). A latecomer to proletario's last
    round was told « you take a seat between rounds » and sat at none (play-test 30)."""
    game, end = table.game, table.rules.game_end
    return (game is not None and game.phase is not Phase.GAME_OVER
            and end.kind == "rounds" and end.n is not None and game.round_no >= end.n)


def no_end(table: Table) -> bool:
    """A game under way with no end but the host's « Terminer » (`game_end` unlimited),
    where bots do not fill the table: a latecomer on the list for the next game would
    wait hours for it (play-test 31). There the list takes the bots' seats at the next
    deal, as proletario's queue does (RULES §10), lowest rank first; a list longer than
    the bots seated waits on for the next game (stop 51)."""
    game = table.game
    return (game is not None and game.phase is not Phase.GAME_OVER
            and not table.rules.bots_fill and table.rules.game_end.kind == "unlimited")


def bots_seated(table: Table) -> list[int]:
    """The seats bots play in the game under way, still in it and staying (not a
    leaver's seat a bot finishes this round, freed at its end): what the list takes
    first at a game with no end (`no_end`)."""
    game = table.game
    if game is None:
        return []
    return [seat for seat, player in enumerate(table.seats)
            if player.is_bot and seat < game.seats and game.active[seat]
            and seat not in table.left_seats]


def freed_seats(table: Table) -> list[int]:
    """The seats freed during the game under way (leavers', `seats.free_seat`), with
    those this round's leavers free at its end, that a newcomer may sit at next deal
    as the engine counts them (`Game.freed_seats`): what the list takes after the bots'
    seats at a game with no end (stop 52)."""
    game = table.game
    return [] if game is None else game.freed_seats(table.left_seats)


def list_room(table: Table) -> int:
    """At a game with no end (`no_end`), how many on the list sit at the next deal:
    the bots' seats, then the seats freed by leavers; none where this round's leavers
    leave too few (`too_few_left`): its end stops the game and the table goes back to
    its lobby, where the list sits (stop 52's review)."""
    if not no_end(table) or too_few_left(table, table.left_seats):
        return 0
    return len(bots_seated(table)) + len(freed_seats(table))


def list_outcome(table: Table, user_id: int) -> str | None:
    """At a game with no end (`no_end`), what the list holds for `user_id` on it, as
    `Seating.join` answers it: "to_lobby" (this round's leavers leave too few, even
    with the list: its end stops the game and the lobby seats the list), "no_end" (a
    bot's seat at the next deal), "no_end_freed" (a seat a leaver freed) or
    "no_end_listed" (no seat left: the next game). None elsewhere, or off the list."""
    waiting = [p.user_id for p in table.queue]
    if not no_end(table) or user_id not in waiting:
        return None
    if too_few_left(table, table.left_seats):
        return "to_lobby"
    place = waiting.index(user_id) + 1
    return ("no_end" if place <= len(bots_seated(table))
            else "no_end_freed" if place <= round_sitters(table)
            else "no_end_listed")


def round_sitters(table: Table) -> int:
    """How many of those waiting (the first ones) take a seat at the next deal, as the
    table stands: the whole queue where bots fill the table (the bots' seats, then the
    last place's), but not at the game's last round; at a game with no end, as many as
    bots sit and seats were freed (`list_room`); else none, the list being for the next
    game."""
    if table.rules.bots_fill:
        return 0 if last_round(table) else len(table.queue)
    if no_end(table):
        return min(len(table.queue), list_room(table))
    return 0


def too_few_left(table: Table, leaving: Collection[int] = ()) -> bool:
    """RULES §10: a game needs min_players seats in play (bots count). Once `leaving`
    have gone, fewer send the table to its lobby: asked before a leave to say so, and
    when the seats freed at a round's end have gone, to do so. At a game with no end
    those on the list who take a freed seat at the next deal count (`list_fills`): the
    seat is dealt again at once, as « Rejouer » counts the list (`too_few_to_replay`),
    and the host keeps the evening's scores rather than starting over (stop 53)."""
    game = table.game
    return game is not None and sum(
        1 for seat, active in enumerate(game.active) if active and seat not in leaving
    ) + list_fills(table, leaving) < table.rules.min_players


def list_fills(table: Table, leaving: Collection[int] = ()) -> int:
    """At a game with no end (`no_end`), how many on the list sit at a seat freed by a
    leaver (with `leaving`'s) at the next deal, once the bots' seats have taken theirs
    (`seats.seat_waiting_players`): players the game gains, where a bot's seat changes
    only who plays it."""
    game = table.game
    if game is None or not no_end(table):
        return 0
    bots = sum(1 for seat in bots_seated(table) if seat not in leaving)
    return min(max(0, len(table.queue) - bots), len(game.freed_seats(leaving)))


def too_few_to_replay(table: Table) -> bool:
    """At game over: whether « Rejouer », which seats those waiting, would still have
    fewer than min_players (a leaver there sent a table whose list made up the count
    back to its lobby, play-test 13)."""
    game = table.game
    return game is not None and \
        sum(game.active) + len(table.queue) < table.rules.min_players


def leave_outcome(table: Table, user_id: int) -> LeaveOutcome:
    """What `user_id` leaving the game under way does (LeaveOutcome): between rounds the
    seat goes at once, mid-round presi waits for them, else a bot finishes the round; a
    bot takes the seat where bots fill tables. The seats already leaving this round
    (left_seats) go with theirs when counting who is left."""
    between_rounds = table.game is not None and table.game.phase is Phase.ROUND_OVER
    if not between_rounds and table.rules.on_leave == "wait_then_cancel":
        return LeaveOutcome.WAIT
    if table.rules.bots_fill:
        return LeaveOutcome.BOT if between_rounds else LeaveOutcome.ROUND_BOT
    seat = table.seat_of(user_id)
    if seat is not None and list_left(table, table.left_seats | {seat}):
        return LeaveOutcome.LIST_LOBBY
    short = seat is not None and too_few_left(table, table.left_seats | {seat})
    if between_rounds:
        return LeaveOutcome.FREE_LOBBY if short else LeaveOutcome.FREE
    return LeaveOutcome.ROUND_LOBBY if short else LeaveOutcome.ROUND
