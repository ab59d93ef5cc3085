"""A game's life at a table: the host's Start (or a game against bots), the next round, the
host's End, a replay, and the way back to the lobby, where a game that stops stores its end.
The dealing's randomness is this part's own."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.i18n import button_names
from bot.tables import breaks, hosting, refusals, seats
from bot.tables.deadlines import Deadlines
from bot.tables.logentry import LogEntry
from bot.tables.outbox import Outbox
from bot.tables.players import Player
from bot.tables.refusals import TableError
from bot.tables.results import Cancelled
from bot.tables.table import Table
from bot.tables.thinking import Thinker, may_search
from engine import Event, Game, Phase
from engine.events import GameOver


class Games:
    """The service's answers are passed in: `after` applies the engine's events, `changed`
    stores and shows the table, `close` closes it, `keep` has the table message keep its text
    before a new one is owed, `host_only` lets a host action through (or raises why not)."""

    def __init__(self, outbox: Outbox, deadlines: Deadlines, thinker: Thinker,
                 seed: int | None, *,
                 after: Callable[[Table, list[Event]], None],
                 changed: Callable[[Table], None],
                 close: Callable[[Table], None],
                 keep: Callable[[Table], None],
                 host_only: Callable[[Table, int], None]) -> None:
        self.outbox = outbox
        self.deadlines = deadlines
        self.thinker = thinker
        self._rng = random.Random(seed)
        self._after = after
        self._changed = changed
        self._close = close
        self._keep = keep
        self._host_only = host_only

    async def start(self, table: Table, by: int) -> None:
        async with hosting.host_action(table):
            refusals.not_started(table, by)  # to anyone first (`refusals.not_started`)
            self._host_only(table, by)
            self._start(table)

    async def play_against_bots(self, table: Table, by: int) -> None:
        """RULES §10, presi: « contre des bots, vous jouez avec deux bots » — seat `vs_bots`
        bots beside one player and start (to the host's minimum if higher, never past their
        maximum). Rules without it offer no such start: a late click changes nothing."""
        async with hosting.host_action(table):
            refusals.not_started(table, by)  # to anyone first (`refusals.not_started`)
            self._host_only(table, by)
            rules = table.rules
            if rules.vs_bots is None:
                raise TableError("err.no_vs_bots")
            while len(table.seats) < seats.vs_bots_size(rules):
                seats.seat_bot(table, by_host=True, level=table.bot_level)
            self._start(table)

    async def next_round(self, table: Table, by: int, version: int | None = None) -> None:
        """Deal the next round; `version` is the state the clicked button was drawn for."""
        async with hosting.host_action(table):
            refusals.late_host_button(table, version)
            self._host_only(table, by)
            game = refusals.game_of(table)
            if game.phase is not Phase.ROUND_OVER:
                raise TableError("err.wrong_phase")
            refusals.not_paused(table)
            self._keep(table)
            table.finished_roles = list(game.roles)  # before seats freed since re-rank them
            seats.seat_waiting_players(table, game)
            events = refusals.engine(game.next_round)
            table.log.clear()  # the last round's moves stay on its results message, not here
            table.exchange_notes.clear()
            table.clear_results()
            table.post_table = True
            self._after(table, events)

    async def end(self, table: Table, by: int, version: int | None = None) -> None:
        """Host's "End": stop a running game (results stand per the rules), else close.

        A button carries the `version` it was drawn for: an End clicked on a finished round
        at the instant Next dealt the following one must not stop that new round."""
        async with hosting.host_action(table):
            refusals.late_host_button(table, version)
            self._host_only(table, by)
            game = table.game
            if game is None:
                self._close(table)
                return
            if game.phase is Phase.GAME_OVER:
                self.back_to_lobby(table, LogEntry("table.finished"), True)
                self._changed(table)
                return
            events = refusals.engine(game.stop)
            self._after(table, events)

    async def replay(self, table: Table, by: int, version: int | None = None) -> None:
        async with hosting.host_action(table):
            refusals.late_host_button(table, version)
            self._host_only(table, by)
            game = refusals.game_of(table)
            if game.phase is not Phase.GAME_OVER:
                # Typed between two rounds, it once stopped the game unasked, where
                # `/president end` asks first: that is the way, and it is said.
                raise TableError("err.replay_unfinished", **button_names(table.locale))
            self._keep(table)
            left_out: list[Player] = []
            if table.rules.bots_fill or not table.queue:
                seats.seat_waiting_players(table, game)  # between games as between rounds
                table.game = game.replay()
            else:  # those who asked for the next game change the seats: a game dealt anew
                left_out = seats.seat_next_game(table, game)
                table.game = Game.new(
                    table.rules, seats=len(table.seats), seed=self._rng.randrange(2**32),
                    bots=[i for i, p in enumerate(table.seats) if p.is_bot],
                    first_version=game.version + 1)
            self._new_game(table)
            # Said first in the new game's history, once: a line per person left out filled
            # the history of a streamer's table at every replay (play-test 14), beside the
            # waiting line that names them all.
            if len(left_out) == 1:
                table.remember(LogEntry("ev.no_seat_next", {
                    "name": left_out[0].name, "max": table.rules.max_players}))
            elif left_out:
                table.remember(LogEntry("ev.no_seat_next_many", {
                    "count": len(left_out), "max": table.rules.max_players}))
            self.outbox.record_start(table)
            self._after(table, table.game.first_events)  # who opens, and why

    def back_to_lobby(self, table: Table, why: LogEntry | None, stops: bool) -> None:
        """End the game; the fresh lobby message tells everyone why. Who stays seated is
        `seats.keep_for_lobby`'s.

        `stops`: the game stops, as a host's stop stops it, and its end is stored once a
        round counted (RULES §10, « the game stops and the table returns to the lobby » when
        too few are left; the engine's `stop` says who, if anyone, wins). Left open, its
        rounds counted in the players' stats but the game did not, and the channel's
        history said no game had been played (play-test 14). Without it, presi's game
        cancelled for an absent seat, « cancelled (no result) », is stored cancelled
        (`store_cancel`)."""
        self._keep(table)
        game = table.game
        if stops:
            self.store_stop(table)
        else:
            self.store_cancel(table)
        if game is not None:
            seats.keep_for_lobby(table, game)
            table.next_version = game.version + 1
        table.game = None
        seats.seat_queue(table)
        table.clear_left_seats()
        table.away.clear()
        table.gift_picks.clear()
        table.clear_results()
        table.game_row_id = None
        breaks.dropped(table, self.deadlines.clock.now())
        self.deadlines.arm_turn(table)  # no game, no timer: its ping goes too
        self.deadlines.forget(table, keep_refresh=True)
        self.deadlines.arm_idle(table)
        table.post_lobby = True
        table.notice = why or LogEntry("table.back_to_lobby")
        self.outbox.status(table, "lobby")

    def store_stop(self, table: Table) -> None:
        """Stop the table's game for good, as a host's stop would, and store its end once a
        round counted (the engine's `stop` says who, if anyone, wins); a game over or with
        no round counted stores nothing more."""
        game = _end_unstored(table)
        if game is not None:
            ended = refusals.engine(game.stop)
            self.outbox.record(table, next(e for e in ended if isinstance(e, GameOver)))

    def store_cancel(self, table: Table) -> None:
        """Store that the table's game was cancelled once a round counted: ended with no
        winner, its rounds still counted (play-test 14), listed in the history as cancelled
        where it stored no end and the history said no game had been played (play-test 39).
        A game over or with no round counted stores nothing more, as in `store_stop`."""
        if _end_unstored(table) is not None:
            self.outbox.record(table, Cancelled())

    def _start(self, table: Table) -> None:
        rules = table.rules
        for player in table.seats:  # a seat taken in the last game is their own in this one
            player.took_seat_of(None)
        if rules.bots_fill:
            while len(table.seats) < rules.max_players:
                seats.seat_bot(table)
        if len(table.seats) < rules.min_players:
            raise TableError("err.min_players", min=rules.min_players, count=len(table.seats))
        bots = [i for i, p in enumerate(table.seats) if p.is_bot]
        self.warm_workers(table)
        table.game = Game.new(rules, seats=len(table.seats), seed=self._rng.randrange(2**32),
                              bots=bots, first_version=table.next_version)
        self._new_game(table)
        table.clear_left_seats()
        table.notice = None
        table.house = None  # the rules played are the channel's house rules now
        table.kept = table.house_form()
        self.outbox.record_start(table)
        self._after(table, table.game.first_events)  # who opens, and why

    def warm_workers(self, table: Table) -> None:
        """Searching bots' worker processes start with the game (or its restore), not at
        their first decision, which would spend the second a spawn takes out of hard's 80 ms
        and search a single sample (or hold a normal bot's move for that second)."""
        if self.thinker.in_processes and any(p.is_bot and may_search(p.level, table.rules)
                                              for p in table.seats):
            self.thinker.workers.warm()

    def _new_game(self, table: Table) -> None:
        """What a game that starts leaves behind of the last one: nothing shown (its moves,
        exchange notes, results and points chart stay on its own results message). It is
        numbered before any snapshot of it is taken: the snapshot then always names its own
        game, even if the process dies before the game's row exists."""
        table.game_no += 1
        table.game_row_id = None
        table.finished_roles = []
        table.kicked.clear()  # removed from the lobby or the last game: welcome again
        table.log.clear()
        table.exchange_notes.clear()
        table.clear_results()
        table.clear_totals()
        table.post_table = True


def _end_unstored(table: Table) -> Game | None:
    """The table's game when its end is still to be stored (`Games.store_stop`,
    `store_cancel`): a round of it counted and it is not over (a game over stored its end)."""
    game = table.game
    if game is not None and game.phase is not Phase.GAME_OVER and game.rounds_scored:
        return game
    return None
