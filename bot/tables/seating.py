"""Coming and going: joining a table or its queue, leaving it, and presi's grace for a player
who left a game under way (RULES §10), whose seat the table keeps until they come back or
their grace runs out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.i18n import button_names
from bot.tables import refusals, seats, turnover
from bot.tables.clock import Clock
from bot.tables.deadlines import Deadlines
from bot.tables.logentry import AWAY, LogEntry
from bot.tables.refusals import TableError
from bot.tables.table import Table
from bot.tables.timers import Scheduler
from bot.tables.tokens import Farewell
from bot.tables.turnover import LeaveOutcome
from engine import Event, Game, Phase

#: What a leaver's hand says where the answer to their leave says they left.
FOLDED = "hand.folded"


@dataclass(frozen=True)
class Left:
    """A leave done: what it says (`words`: they left the table, the queue or the list),
    and whether its answer is the lobby redrawn, which says nothing (`redrawn`), so that
    their hand says the words instead."""

    words: str
    redrawn: bool


class Seating:
    """The service's answers to a change of seats are passed in: `after` applies engine
    events, `changed` stores and shows the table, `close` closes it and `to_lobby` ends its
    game without a result, saying why (or the usual why, with None)."""

    def __init__(self, clock: Clock, scheduler: Scheduler, deadlines: Deadlines, *,
                 after: Callable[[Table, list[Event]], None],
                 changed: Callable[[Table], None],
                 close: Callable[[Table], None],
                 to_lobby: Callable[[Table, LogEntry | None, bool], None]) -> None:
        self.clock = clock
        self.scheduler = scheduler
        self.deadlines = deadlines
        self._after = after
        self._changed = changed
        self._close = close
        self._to_lobby = to_lobby

    async def join(self, table: Table, user_id: int, name: str, locale: str) -> str:
        """Seat a user; returns "seated", "queued" (`bots_fill`: seated between rounds),
        "queued_lobby" (`bots_fill`, a full lobby: seated as seats free, `seats.seat_queue`),
        "back" (a presi player returning), "last_round" (`bots_fill` in the game's last
        round: the queue is seated by the next game), or, at a table without a queue, where the list
        is for the next game: "next_game" (its game is over: « Rejouer » or « Terminer »
        seats them), "listed" (a game under way: the same, at its end), "no_end" (a game
        with no end, `turnover.no_end`: a bot's seat at the next deal), "no_end_freed" (the
        same, a seat a leaver freed), "no_end_listed" (the same with no such seat left:
        the next game), "to_lobby" (the same, where this round's leavers leave too few: its
        end sends the table to its lobby, where the list sits) or "waiting" (a full lobby others
        already wait at: seated in their turn, `seats.seat_queue`)."""
        async with table.lock:
            self.deadlines.human_seen(table)
            if user_id in table.away:
                self.come_back(table, user_id)
                self._changed(table)
                return "back"
            if self._take_back(table, user_id):
                self._changed(table)
                return "back"
            if user_id in table.kicked:
                raise TableError(kicked_key(table))
            if table.seat_of(user_id) is not None:
                raise TableError("err.already_seated")
            if table.queued(user_id):  # for the next round, or game (no queue: the list)
                ahead = [p.user_id for p in table.queue].index(user_id)
                raise TableError("err.already_queued" if ahead < turnover.round_sitters(table)
                                 else "err.already_listed")
            bots = [seat for seat, p in enumerate(table.seats) if p.is_bot]
            gave_way = None
            if not table.running and len(table.seats) >= table.capacity() and bots:
                # A full lobby where bots sit: a person comes before a bot, the last seated
                # giving way first (as `seats.keep_for_lobby` keeps them); the lobby says so.
                gave_way = table.seats.pop(bots[-1])
            if table.running or len(table.seats) >= table.capacity():
                # A full lobby nobody waits at: a seat, when one frees, is anyone's.
                if not (table.rules.bots_fill or table.running or table.queue):
                    raise TableError(_no_seat(table), max=table.capacity(),
                                     **button_names(table.locale))
                table.queue.append(table.new_player(user_id, name, locale))
                self._changed(table)
                if table.rules.bots_fill and turnover.last_round(table):
                    return "last_round"
                if table.rules.bots_fill:
                    return "queued" if table.running else "queued_lobby"
                outcome = turnover.list_outcome(table, user_id)  # a game with no end: its list
                if outcome is not None:
                    return outcome
                if table.running:
                    return "listed" if table.under_way else "next_game"
                return "waiting"
            seated = table.new_player(user_id, name, locale)
            table.seats.append(seated)
            if gave_way is not None:
                table.notice = LogEntry("lobby.bot_gave_way",
                                        {"name": seated.name, "bot": gave_way.name},
                                        (user_id,))
            self._changed(table)
            return "seated"

    async def leave(self, table: Table, user_id: int, *, ask_first: bool = False,
                    game_no: int | None = None, lobby_button: bool = False) -> Left | None:
        """Leave the table or its queue: how it went (`Left`), or None where `ask_first`
        (the command, the lobby button) finds them playing a game under way, who stay seated
        to be asked first (prompts.quit_prompt): decided under the lock, so a game that starts
        meanwhile still asks. `game_no` is the game they confirmed leaving: once it is over
        the click leaves nothing. A presi leaver the table waits for is refused: leaving
        again would push the deadline back.

        Their open hand says they left only where the answer does not: the lobby's
        « Quitter » (`lobby_button`) finding the table still in its lobby once they are gone
        is answered by redrawing it, with no words; every other answer says it, and the hand
        then only that it closed (« hand.folded »). Decided here, after the leave and under
        the lock, for the answer and the hand at once: chosen before it, a game started (or
        the table closed) meanwhile made both say it (play-test 38)."""
        async with table.lock:
            if ask_first and table.plays(user_id):
                return None
            if game_no is not None and (game_no != table.game_no or not table.under_way):
                raise TableError("err.stale_button")
            if user_id in table.away:
                raise TableError("err.already_left", deadline=int(table.away[user_id]))
            if user_id in table.kicked and not table.queued(user_id):
                raise TableError(kicked_key(table))  # not « you already left »: removed
            left = table.left_seat(user_id)
            if left is not None and not table.queued(user_id):  # (the list: they may go)
                # A bot finishes the round for them: the engine says why that seat may not
                # leave again, rather than « not seated », as if they had never played here.
                refusals.verify(lambda: refusals.game_of(table).verify_leave(left))
            words = queue_left(table) if table.queued(user_id) else "lobby.left"
            told = table.farewell_of(user_id)
            await self.remove(table, user_id, farewell=FOLDED)
            done = Left(words, lobby_button and not (table.closed or table.running))
            folded = table.farewell_of(user_id)
            if done.redrawn and folded is not None and folded is not told:
                # The lobby, redrawn, says nothing: their hand says they left.
                table.farewells = [replace(f, key=words) if f is folded else f
                                   for f in table.farewells]
            return done

    async def remove(self, table: Table, user_id: int, *,
                     farewell: str | None, kicked: bool = False,
                     removed: bool = False) -> None:
        """Take a player off the table. From a game under way their seat goes as
        turnover.leave_outcome says, which is what the prompt asking them first said. Their
        open hand says `farewell`; with None it is left alone (they can no longer see it).
        `kicked`: the host removed them, which the table's history says; `removed`:
        someone else made them go (the host, or a moderator: `TableService.member_gone`),
        so a round they leave is stored as one they were removed from, rated for the others
        only (`Player.left_removed`, `ratings.seat`). A lobby saying
        they took a bot's seat stops saying it: it spoke of someone no longer there
        (play-test 23)."""
        if table.notice is not None and table.notice.key == "lobby.bot_gave_way" and \
                user_id in table.notice.people:
            table.notice = None
        waiting = next((p for p in table.queue if p.user_id == user_id), None)
        if waiting is not None:
            table.queue = [p for p in table.queue if p is not waiting]
            if table.game is not None:  # the points they left their seat with stop counting
                table.game.leave_off_table(waiting.key)
            self._farewell(table, user_id, farewell)
            game = table.game
            if game is not None and game.phase is Phase.ROUND_OVER and turnover.too_few_left(table):
                # They made up the count of a game with no end (`turnover.list_fills`): with
                # them gone the next deal would be short, as a seated leaver's would be.
                self._to_lobby(table, None, True)
            self._gone(table, user_id)
            return
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        game = table.game
        # Who, leaving a game of their own accord, may be the last one there (`_gone`);
        # a lobby closed by its last one's « Quitter » needs no why.
        leaver = None if kicked or removed or game is None else table.seats[seat].name
        self._farewell(table, user_id, farewell)
        if game is None:
            del table.seats[seat]
            seats.seat_queue(table)
        elif game.phase is Phase.GAME_OVER:
            # The others keep the results and « Rejouer », which deals without this seat:
            # only too few left for another game sends the table to its lobby, saying the
            # game ended (it did, with its results), not « too few players ».
            table.remember(LogEntry("ev.kicked_free" if kicked else "ev.left_free",
                                    {"name": table.seats[seat].name}, (user_id,)))
            seats.free_seat(table, game, seat)
            if turnover.list_left(table):
                self._list_to_lobby(table)
            elif turnover.too_few_to_replay(table):
                self._to_lobby(table, LogEntry("table.finished"), True)
        else:
            outcome = turnover.leave_outcome(table, user_id)
            if outcome is LeaveOutcome.LIST_LOBBY:
                # The lobby keeps no seat for them; the game's stored end, their seat
                # (`persistence.seat_refs`), for /president forget to find.
                table.seats[seat].user_id, table.seats[seat].left_by = None, user_id
                self._list_to_lobby(table)
            elif outcome is LeaveOutcome.WAIT:
                deadline = self.clock.now() + table.rules.leave_grace_seconds
                table.away[user_id] = deadline
                if not kicked:  # one removed is not waited for: the caller cancels at once
                    self.arm_grace(table, user_id, deadline)
                    self._stepped_out(table, user_id)
                    table.remember(LogEntry(AWAY, {"name": table.seats[seat].name,
                                                   "deadline": int(deadline)}, (user_id,)))
            elif outcome.at_once:
                # Between rounds too the history says who went, and who made them go.
                line = ("ev.kicked" if kicked else "ev.left") + \
                    ("_bot" if outcome is LeaveOutcome.BOT else "_free")
                table.remember(LogEntry(line, {"name": table.seats[seat].name}, (user_id,)))
                seats.free_seat(table, game, seat)
                if outcome is LeaveOutcome.FREE_LOBBY:
                    self._to_lobby(table, None, True)
            else:  # freed with the round's other leavers once it ends (round_ended)
                # Who made them go, and whether the bot keeps the seat (bots_fill) or only
                # finishes the round: the history says it, as the leave prompt did; and
                # whether the game stops at the round's end, which only the leaver's prompt
                # said: the others played the round out unwarned, then read « retour au
                # salon d’attente » (play-test 44).
                line = ("ev.kicked" if kicked else "ev.left") + {
                    LeaveOutcome.ROUND_BOT: "_bot", LeaveOutcome.ROUND_LOBBY: "_lobby",
                }.get(outcome, "")
                table.remember(LogEntry(line, {"name": table.seats[seat].name}, (user_id,)))
                table.left_seats.add(seat)
                table.seats[seat].user_id = None
                table.seats[seat].left_by = user_id
                table.seats[seat].left_out = seat in game.out
                table.seats[seat].left_removed = kicked or removed
                table.seats[seat].left_hosting = table.is_host(user_id)
                if not kicked:
                    self._stepped_out(table, user_id)
                self._after(table, refusals.engine(lambda: game.leave(seat)))
        self._gone(table, user_id, leaver)

    @staticmethod
    def _stepped_out(table: Table, user_id: int) -> None:
        """Keep the hand that tells them they left, for their coming back (`_take_back`,
        `come_back`) to make it theirs again, so that a newer one says it moved there."""
        told = table.farewell_of(user_id)
        if told is not None:
            table.stepped_out[user_id] = told.link

    @staticmethod
    def _back_in(table: Table, user_id: int) -> None:
        told = table.stepped_out.pop(user_id, None)
        if told is not None:  # the hand that said they left: a newer one says it moved
            table.hands[user_id] = told

    @staticmethod
    def _farewell(table: Table, user_id: int, key: str | None) -> None:
        """The leaver's open hand, in a game, the lobby or the queue, is redrawn once to say
        they left (or were removed), without controls: left as it was, it would still show
        them a seat, or a place in the queue, they no longer have."""
        link = table.hands.pop(user_id, None)
        if link is not None and key is not None:
            table.farewells.append(Farewell(user_id, link, key))

    def _list_to_lobby(self, table: Table) -> None:
        """Only bots were left to play: the game stops and the list for the next game sits
        in the lobby, its first as host, whom the lobby's notice names (`turnover.list_left`)."""
        heir = table.heir()
        assert heir is not None  # the list is not empty
        self._to_lobby(table, LogEntry("table.list_seated", {"name": heir.name}), True)
        table.pass_host(self.clock.now())

    def _gone(self, table: Table, user_id: int, leaver: str | None = None) -> None:
        """After a player left their seat or the queue: a leaving host hands the role on
        (`Table.pass_host`, to one waiting if nobody is seated), and a table nobody is left
        at, seated, away or waiting, closes (its game's end stored, as a host's stop
        stores it: `TableService._close_stopped`). Its messages say who was the last to
        go (`leaver`): they read « Cette table est fermée. » alone, the round they were
        playing cut off without a word (play-test 44)."""
        if table.host_id == user_id and user_id not in table.away:
            # A presi host the table waits for stays its host (any seated player may take the
            # role over meanwhile, `may_host`): handing it on now named them their own heir.
            table.pass_host(self.clock.now())
            heir = table.player(table.host_id)
            if table.game is None and heir is not None and heir.user_id != user_id:
                # In the lobby only the 👑 beside a name said it: the new host may not look.
                # A host banned from the server is said so first (`member_gone`); any other
                # notice (why a game was cancelled…) stays, the 👑 saying who hosts, but for
                # the game's end, whose « l’hôte appuie sur Lancer » named nobody (play-test 18).
                why = table.notice
                if why is None or why.key == "table.finished":  # an invitation, not a why
                    table.notice = LogEntry("lobby.new_host", {"name": heir.name})
                elif why.key == "table.member_gone":
                    table.notice = LogEntry("lobby.new_host_gone", {
                        "name": heir.name, "gone": why.params["name"]}, why.people)
        if not table.humans() and not table.away and not table.queue:
            if leaver is not None:
                table.notice = LogEntry("table.emptied", {"name": leaver}, (user_id,))
            self._close(table)
            return
        self._changed(table)

    def round_ended(self, table: Table, game: Game) -> None:
        """The seats left this round go now; too few left sends the table to its lobby, by
        the count turnover.leave_outcome made when they left (LeaveOutcome.ROUND_LOBBY)."""
        for seat in sorted(table.left_seats):
            seats.free_seat(table, game, seat)
        table.clear_left_seats()
        if turnover.too_few_left(table):
            self._to_lobby(table, None, True)

    @staticmethod
    def game_ended(table: Table, game: Game | None) -> None:
        """The seats left in the game's last round go as after any round, the standings kept:
        « Rejouer » must not deal a leaver's stand-in into the next game (nor hand the seat
        back to them mid-round there)."""
        if game is None:
            return
        for seat in sorted(table.left_seats):
            seats.free_seat(table, game, seat)
        table.clear_left_seats()

    def arm_grace(self, table: Table, user_id: int, deadline: float) -> None:
        if table.paused_since is not None:
            return
        self.scheduler.at((table.id, "away", user_id), deadline,
                          lambda: self._grace_over(table, user_id))

    @staticmethod
    def _take_back(table: Table, user_id: int) -> bool:
        """A player who left this round, not removed by the host, takes their seat back
        from the bot finishing it (RULES §10 frees it only once the round ends): stepping out
        by mistake, or for a minute, neither costs them the game nor stops it for too few."""
        seat = table.left_seat(user_id)
        game = table.game
        if seat is None or game is None or user_id in table.kicked:
            return False
        player = table.seats[seat]
        player.user_id, player.left_by, player.left_out = user_id, None, False
        player.left_removed = False
        table.left_seats.discard(seat)
        game.set_bot(seat, False)
        Seating._back_in(table, user_id)
        table.remember(LogEntry("ev.back_seat", {"name": player.name}))
        if player.left_hosting and table.host_handed:  # nobody has used the role since
            table.host_id, table.host_handed = user_id, False
            table.remember(LogEntry("ev.new_host", {"name": player.name}))
        player.left_hosting = False
        return True

    def come_back(self, table: Table, user_id: int) -> None:
        """A presi player back before their grace ran out (RULES §10: their seat waited)."""
        table.away.pop(user_id, None)
        self.scheduler.cancel((table.id, "away", user_id))
        self._back_in(table, user_id)
        seat = table.seat_of(user_id)
        if seat is not None:
            table.remember(LogEntry("ev.back", {"name": table.seats[seat].name}))

    async def _grace_over(self, table: Table, user_id: int) -> None:
        async with table.lock:
            if user_id not in table.away or table.game is None:
                return
            self.cancel_for_absence(table, user_id, "table.cancelled")

    def cancel_for_absence(self, table: Table, user_id: int, why: str) -> None:
        """RULES §10 (presi): the seat of a player who is away, and will not be back, cancels
        the game: when their grace runs out, or at once when the host removed them."""
        seat = table.seat_of(user_id)
        name = table.seats[seat].name if seat is not None else "?"
        # Still away: the lobby keeps the others by their seats in the game, and
        # deleting this one first would shift every seat after it.
        # « cancelled (no result) » (RULES §10): stored cancelled, no winner, its rounds
        # counted and the game not (`Games.store_cancel`).
        self._to_lobby(table, LogEntry(why, {"name": name}, (user_id,)), False)
        if table.host_id == user_id:  # as any leaver's (remove), among those left
            table.pass_host(self.clock.now())
        if not table.humans():
            self._close(table)
            return
        self._changed(table)


def kicked_key(table: Table) -> str:
    """What someone the host removed is told, refused a seat or reading their hand: when
    they may come back (`Table.kicked`, emptied as the next game starts)."""
    return "err.kicked" if table.running else "err.kicked_lobby"


def queue_left(table: Table) -> str:
    """What leaving the queue says: someone waiting never had a seat to leave."""
    return "lobby.left_queue" if table.rules.bots_fill else "lobby.left_list"


def _no_seat(table: Table) -> str:
    """Why a full lobby of a table with no queue seats nobody now, and so what to wait for:
    it can grow only while the rules allow one more player (`max_players`, and a deck with
    cards for them)."""
    try:
        table.rules.replace(max_players=table.rules.max_players + 1)
    except ValueError:  # RulesError included
        return "err.table_full_join_most"
    return "err.table_full_join"
