"""Everything that changes a table: lobby moves, engine actions, rounds and the table's end.

Each public coroutine takes the table's lock, checks who may do what, applies the change
(asking the engine for anything about the rules), then persists and asks the display for a
coalesced refresh. Refusals raise `TableError` with a catalogue key, so the Discord layer only
has to translate them. Nothing here imports discord.py.

The service owns its collaborators and is the one place that ties them together: `Seating`
(coming and going), `Deadlines` (turn timers, idle close), `BotTurns` (automated seats),
`Outbox` (storage). The checks live in `refusals` and `hosting`, plain seat changes in `seats`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Protocol

from bot.i18n import button_names
from bot.tables import hosting, refusals, seats, thinking
from bot.tables.asleep import AsleepThreads
from bot.tables.botturns import BotTurns
from bot.tables.clock import Clock
from bot.tables.deadlines import IDLE_CLOSE_SECONDS, Deadlines
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.log import note
from bot.tables.outbox import Outbox, TableStore
from bot.tables.refresh import Coalescer
from bot.tables.refusals import TableError, settings_open
from bot.tables.registry import Registry
from bot.tables.seating import Seating
from bot.tables.table import RESTARTED, Farewell, HandLink, LogEntry, Player, Table
from bot.tables.timers import Scheduler
from bot.tables.vanished import VanishedTables
from engine import Card, Event, Game, Phase, Rules
from engine.bots import LEVELS, Bot
from engine.events import GameOver, RoundOver, TimedOut

# Re-exported: the Discord layer and the tests take the refusal, the settings check and the
# idle limits from the service, the API they call.
__all__ = ["HOST_IDLE_SECONDS", "IDLE_CLOSE_SECONDS", "Display", "TableError", "TableService",
           "settings_open"]

log = logging.getLogger(__name__)


class Display(Protocol):
    """The Discord side: renders the table's messages and hands from its current state."""

    async def flush(self, table: Table) -> None:
        """Bring the lobby or table message up to date."""
        ...

    async def flush_hands(self, table: Table) -> None:
        """Bring every player's open hand up to date."""
        ...

    async def closed(self, table: Table) -> None: ...

    def keep(self, table: Table) -> None:
        """The table message is about to give way to a new one: set `Table.retired` to the
        text it is to keep, the table's state's as it is now, before the change."""
        ...


class TableService:
    def __init__(
        self,
        clock: Clock,
        *,
        bot_pause: float = 1.5,
        refresh_interval: float = 1.0,
        seed: int | None = None,
    ) -> None:
        self.clock = clock
        self.registry = Registry()
        self.scheduler = Scheduler(clock)
        self.coalescer = Coalescer(self.scheduler, refresh_interval)
        self.display: Display | None = None
        self._rng = random.Random(seed)
        self._ids = itertools.count(1)
        self.outbox = Outbox(self.touch, self._storage_failed)
        self._tasks: set[asyncio.Task[None]] = set()
        self.thinker = thinking.Thinker()
        self.deadlines = Deadlines(clock, self.scheduler, after=self._after, close=self._close)
        self.bots = BotTurns(self.scheduler, self.thinker, bot_pause, self._after)
        self.seating = Seating(clock, self.scheduler, self.deadlines, after=self._after,
                               changed=self._changed, close=self._close,
                               to_lobby=self._back_to_lobby)
        self.actions = 0  # engine transitions applied since start, for metrics
        self.vanished = VanishedTables(clock)
        self.asleep = AsleepThreads(clock)

    @property
    def store(self) -> TableStore | None:
        """Where tables, snapshots and results are stored; None: nowhere (tests)."""
        return self.outbox.store

    @store.setter
    def store(self, store: TableStore | None) -> None:
        self.outbox.store = store
        self.vanished.store = store
        self.asleep.store = store

    # ------------------------------------------------------------------ lobby

    async def create(
        self, channel_id: int, guild_id: int | None, user_id: int, name: str, locale: str,
        preset: str = "classic", *, post: bool = True,
    ) -> Table:
        """Open a table; `post=False` when the caller shows the lobby itself (as the reply
        to /create) and records its message id."""
        if self.registry.in_channel(channel_id) is not None:
            raise TableError("err.table_exists")
        table = Table(
            id=0, channel_id=channel_id, guild_id=guild_id, host_id=user_id, locale=locale,
            rules=Rules.preset(preset),
        )
        table.seats.append(table.new_player(user_id, name, locale))
        table.id = await self.store.open_table(table) if self.store else next(self._ids)
        if self.registry.in_channel(channel_id) is not None:
            raise TableError("err.table_exists")
        self.registry.add(table)
        table.host_seen = self.clock.now()
        self.deadlines.human_seen(table)
        table.post_lobby = post
        if post:
            self._changed(table)
        else:
            self.touch(table)
        return table

    async def join(self, table: Table, user_id: int, name: str, locale: str) -> str:
        """See `Seating.join`."""
        return await self.seating.join(table, user_id, name, locale)

    async def leave(self, table: Table, user_id: int, *, ask_first: bool = False,
                    game_no: int | None = None) -> bool:
        """See `Seating.leave`."""
        return await self.seating.leave(table, user_id, ask_first=ask_first, game_no=game_no)

    def verify_kick(self, table: Table, by: int, user_id: int, name: str) -> None:
        """Raise why `by` may not remove `user_id` now (`kick` checks it again under the
        table's lock): asked first, so a question is put to the host alone. It changes
        nothing, not even who hosts (`kick` takes the role over, where one may)."""
        if not self.may_host(table, by):
            raise hosting.refusal(table, by)
        if user_id == by:
            raise TableError("err.kick_self")
        if table.seat_of(user_id) is None and not table.queued(user_id):
            raise TableError("err.kick_unknown", name=name)

    async def kick(self, table: Table, by: int, user_id: int, name: str) -> None:
        async with hosting.host_action(table):
            self._host_only(table, by)
            self.verify_kick(table, by, user_id, name)
            await self.seating.remove(table, user_id, farewell="hand.kicked", kicked=True)
            table.kicked.add(user_id)
            if user_id in table.away:  # presi waits for leavers, not for those removed
                self.seating.cancel_for_absence(table, user_id, "table.cancelled_kicked")

    async def add_bot(self, table: Table, by: int, level: str | None = None) -> None:
        """Seat a bot of `level` (one of engine.bots.LEVELS), by default the table's."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            refusals.lobby_only(table)
            if level is not None and level not in LEVELS:
                raise TableError("err.bad_choice")
            if len(table.seats) >= table.capacity():
                raise TableError("err.table_full", max=table.capacity())
            seats.seat_bot(table, by_host=True, level=level or table.bot_level)
            self._changed(table)

    async def set_options(self, table: Table, by: int, *, bot_level: str | None = None,
                          hints: bool | None = None) -> None:
        """The host's table settings beside the rules (see `Table.bot_level`, `hints`).
        A new default level applies to the bots added from now on: a bot already seated,
        perhaps chosen at another level on purpose, keeps its own (the lobby shows it)."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            settings_open(table)
            if bot_level is not None:
                if bot_level not in LEVELS:
                    raise TableError("err.bad_choice")
                table.bot_level = bot_level
            if hints is not None:
                table.hints = hints
            self._changed(table)

    async def remove_bot(self, table: Table, by: int) -> None:
        """Undo the host's latest « Add bot »: the last-seated bot goes, so the remaining bots
        keep their numbers and the next one added takes the freed name."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            refusals.lobby_only(table)
            bots = [p for p in table.seats if p.is_bot]
            if not bots:
                raise TableError("err.no_bot")
            last = max(bots, key=lambda p: p.joined)
            table.seats = [p for p in table.seats if p is not last]
            seats.seat_queue(table)
            self._changed(table)

    async def play_against_bots(self, table: Table, by: int) -> None:
        """RULES §10, presi: « contre des bots, vous jouez avec deux bots » — seat `vs_bots`
        bots beside one player and start (to the host's minimum if higher, never past their
        maximum). Rules without it offer no such start: a late click changes nothing."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            refusals.not_started(table)
            rules = table.rules
            if rules.vs_bots is None:
                raise TableError("err.no_vs_bots")
            while len(table.seats) < seats.vs_bots_size(rules):
                seats.seat_bot(table, by_host=True, level=table.bot_level)
            self._start(table)

    async def start(self, table: Table, by: int) -> None:
        async with hosting.host_action(table):
            self._host_only(table, by)
            refusals.not_started(table)
            self._start(table)

    async def set_rules(self, table: Table, by: int, rules: Rules) -> None:
        async with hosting.host_action(table):
            self._host_only(table, by)
            settings_open(table)
            if len(table.seats) > rules.max_players:
                if not rules.bots_fill:
                    raise TableError("err.too_many_seated", count=len(table.seats),
                                     max=rules.max_players)
                # Rules with a queue (proletario's rotation, RULES §10) are made for more
                # players than seats: six friends switching to them were refused and told
                # to remove two of them (play-test 14). Those beyond the seats wait.
                seats.overflow_to_queue(table, rules.max_players)
            table.rules = seats.fitting_vs_bots(rules)
            seats.seat_queue(table)  # more seats: who waits sits
            self._changed(table)
            self.outbox.status(table, "lobby")

    # ------------------------------------------------------------------ game actions

    async def play(
        self, table: Table, user_id: int, cards: Sequence[Card], announce: str | None,
        seen: int,
    ) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.check_seen(table, game, seen)
            events = refusals.engine(
                lambda: game.play(seat, cards, announce, seen if table.rules.fast else None))
            self._after(table, events)
            return events

    async def pass_turn(self, table: Table, user_id: int, seen: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.check_seen(table, game, seen)
            events = refusals.pass_(
                lambda: game.pass_turn(seat, seen if table.rules.fast else None))
            self._after(table, events)
            return events

    async def give(self, table: Table, user_id: int, cards: Sequence[Card],
                   seen: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.check_round(game, seen)
            events = refusals.engine(lambda: game.give(seat, cards))
            table.gift_picks.pop(user_id, None)
            self._after(table, events)
            return events

    async def pick_gift(self, table: Table, user_id: int, part: int,
                        cards: Sequence[Card], seen: int) -> list[Card]:
        """Remember one select's cards of a split exchange (a hand too big for one select)
        until the giver confirms; returns every card picked so far. Only cards the engine
        allows this giver are kept, so a forged pick cannot spoil the later ones."""
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.check_round(game, seen)
            due = game.gift_choice(seat)
            if game.phase is not Phase.EXCHANGE or due is None or not due.ready:
                raise TableError("err.wrong_phase")
            if any(card not in due.allowed for card in cards):
                raise TableError("err.bad_choice")
            picks = table.gift_picks.setdefault(user_id, {})
            others = sum(len(codes) for index, codes in picks.items() if index != part)
            if others + len(cards) > due.count:  # counted across the menus, kept as they were
                raise TableError("err.too_many_gifts", count=due.count, picked=others)
            picks[part] = [str(card) for card in cards]
            self.touch(table)
            return [Card.parse(code) for index in sorted(picks) for code in picks[index]]

    async def resume(self, table: Table, user_id: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            if not game.automated(seat) or seat in table.left_seats:
                raise TableError("err.not_automated")
            events = refusals.engine(lambda: game.resume(seat))
            self._after(table, events)
            return events

    async def next_round(self, table: Table, by: int, version: int | None = None) -> None:
        """Deal the next round; `version` is the state the clicked button was drawn for."""
        async with hosting.host_action(table):
            self._host_only(table, by)
            game = refusals.game_of(table)
            refusals.check_version(game, version)
            if game.phase is not Phase.ROUND_OVER:
                raise TableError("err.wrong_phase")
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
            self._host_only(table, by)
            game = table.game
            if version is not None and game is None:
                raise TableError("err.stale_button")
            if game is not None:
                refusals.check_version(game, version)
            if game is None:
                self._close(table)
                return
            if game.phase is Phase.GAME_OVER:
                self._back_to_lobby(table, LogEntry("table.finished"), True)
                self._changed(table)
                return
            events = refusals.engine(game.stop)
            self._after(table, events)

    async def replay(self, table: Table, by: int, version: int | None = None) -> None:
        async with hosting.host_action(table):
            self._host_only(table, by)
            game = refusals.game_of(table)
            refusals.check_version(game, version)
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

    def remember_hand(self, table: Table, user_id: int, link: HandLink, *,
                      new_message: bool = False) -> None:
        """The user's latest interaction now shows their hand: refresh through it from now on.
        `new_message`: it shows the hand in a message of its own (My hand pressed again),
        not in the one the previous link edits."""
        previous = table.hands.get(user_id)
        table.hands[user_id] = link
        self.deadlines.human_seen(table)
        fresh = previous is None or not previous.valid(self.clock.now())
        elsewhere = new_message or (
            previous is not None and None not in (previous.message_id, link.message_id)
            and previous.message_id != link.message_id)
        if elsewhere and not fresh and previous is not None:
            # The hand they opened before stays on their screen: it says where the hand
            # went rather than keep a state no refresh will reach any more. So too when
            # they click an older hand, whose message the hand follows from then on (a
            # player back from a train tunnel pressed « Actualiser » on one: the newer
            # froze with its controls, play-test 14).
            table.farewells.append(Farewell(user_id, previous, "hand.moved"))
            self.refresh(table)
        if fresh or (previous is not None and (previous.lapsed or previous.frozen)):
            self.refresh(table)  # the table message stops asking this player for My hand
        # The player's language follows their Discord client's, seated or queued: it is
        # what their hand is redrawn in, and a queued player takes it to their seat.
        player = table.player(user_id)
        relocated = player is not None and player.locale != link.locale
        if player is not None:
            player.locale = link.locale
        if user_id in table.away:
            self.seating.come_back(table, user_id)
            self._changed(table)
        elif (fresh or relocated or elsewhere) \
                and not (self.store is not None and self.store.stopped):
            # Saved at once when a restart would otherwise lose the hand, its language, or
            # the message the player now looks at (a restart would refresh the hand they
            # opened before, further up, and leave this one frozen; a click answered while
            # the process stops has nothing to save it to). A newer link to the same message
            # (a click on the hand) waits for the next move's save: the restart's refresh
            # reaches that message through the previous link, and clicks stay cheap.
            self.touch(table)

    def adopt(self, table: Table, stored_at: float | None = None) -> None:
        """Take over a table restored from storage: timers re-armed from their stored
        deadlines, moved on by the time the bot was away since `stored_at`, on its clock
        (when the process stopped, as far as storage tells: `restore_tables`): nobody could
        act meanwhile, so a redeploy times nobody out, hands no seat to the autopilot and
        cancels no presi game for a leaver's grace (play-test 15); bots resumed, its
        messages brought up to date where they are. Posting them afresh told the channel everything twice (a
        finished game's results and chart), above an old message whose buttons were gone
        but whose text still said whose turn it was or what the host could press; the
        publisher still posts anew a message that is gone or nearly an hour old, and one the
        table owed (`post_table`, `post_lobby`, kept in the snapshot).

        A table showing a finished round or game records it again: the process may have
        stopped after storing the state that ended it but before storing the result (never
        the other way round). Both records are idempotent, so this is a no-op when stored."""
        self.registry.add(table)
        game = table.game
        if game is not None and table.game_row_id is None:
            self.outbox.record_start(table)  # the process stopped before the start was stored
        for pending in table.unstored:  # results whose storing the process did not see end
            self.outbox.store_result(table, pending)
        if table.running:
            self._warm_workers(table)
        if stored_at is not None and table.paused_since is None:  # (paused: `server_back`)
            waited = max(0.0, self.clock.now() - stored_at)
            self._clocks_waited(table, waited)
            if table.under_way and waited >= 1:
                table.remember(LogEntry(RESTARTED))
        self._arm(table)
        table.host_seen = self.clock.now()
        self.deadlines.human_seen(table)
        self._changed(table)

    def may_host(self, table: Table, user_id: int) -> bool:
        """See `hosting.may_host`."""
        return hosting.may_host(table, user_id, self.clock.now())

    @staticmethod
    def host_refusal(table: Table, user_id: int) -> TableError:
        """See `hosting.refusal`."""
        return hosting.refusal(table, user_id)

    def bot(self, table: Table, game: Game, seat: int) -> Bot:
        """Who plays this automated seat now (see `autoplay.player_of`)."""
        return self.bots.bot(table, game, seat)

    # ------------------------------------------------------------------ who acts

    def _host_only(self, table: Table, user_id: int) -> None:
        """Host actions, by the host or one who takes the role over (`hosting.claim`)."""
        hosting.claim(table, user_id, self.clock.now())
        self.deadlines.human_seen(table)

    def _seated_game(self, table: Table, user_id: int) -> tuple[Game, int]:
        game = refusals.game_of(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        self.deadlines.human_seen(table)
        if table.is_host(user_id):
            table.host_seen = self.clock.now()
        return game, seat

    # ------------------------------------------------------------------ game lifecycle

    def _start(self, table: Table) -> None:
        rules = table.rules
        if rules.bots_fill:
            while len(table.seats) < rules.max_players:
                seats.seat_bot(table)
        if len(table.seats) < rules.min_players:
            raise TableError("err.min_players", min=rules.min_players, count=len(table.seats))
        bots = [i for i, p in enumerate(table.seats) if p.is_bot]
        self._warm_workers(table)
        table.game = Game.new(rules, seats=len(table.seats), seed=self._rng.randrange(2**32),
                              bots=bots, first_version=table.next_version)
        self._new_game(table)
        table.clear_left_seats()
        table.notice = None
        self.outbox.record_start(table)
        self._after(table, table.game.first_events)  # who opens, and why

    def _warm_workers(self, table: Table) -> None:
        """Hard bots' worker processes start with the game (or its restore), not at their
        first decision, which would spend the second a spawn takes out of its 80 ms and
        search a single sample."""
        if self.thinker.in_processes and any(p.is_bot and p.level == "hard"
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

    def _back_to_lobby(self, table: Table, why: LogEntry | None, stops: bool) -> None:
        """End the game; the fresh lobby message tells everyone why. Who stays seated is
        `seats.keep_for_lobby`'s.

        `stops`: the game stops, as a host's stop stops it, and its end is stored once a
        round counted (RULES §10, « the game stops and the table returns to the lobby » when
        too few are left; the engine's `stop` says who, if anyone, wins). Left open, its
        rounds counted in the players' stats but the game did not, and the channel's
        history said no game had been played (play-test 14). Without it, presi's game
        cancelled for an absent seat, « cancelled (no result) », stores no end."""
        self._keep(table)
        game = table.game
        if stops and game is not None and game.phase is not Phase.GAME_OVER \
                and game.rounds_scored:
            ended = refusals.engine(game.stop)
            self.outbox.record(table, next(e for e in ended if isinstance(e, GameOver)))
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
        table.timer_serial = table.timer_deadline = None
        self.deadlines.forget(table, keep_refresh=True)
        self.deadlines.arm_idle(table)
        table.post_lobby = True
        table.notice = why or LogEntry("table.back_to_lobby")
        self.outbox.status(table, "lobby")

    # ------------------------------------------------------------------ the table's end

    async def channel_deleted(self, channel_id: int, name: str | None = None) -> None:
        """The table's channel or thread (`name`, when known) was deleted, and every message
        in it, its players' hands included: the table ends (`_vanish`) with nothing left to
        edit, and its players are owed the word (`vanished`). A channel takes its threads'
        tables with it: discord.py reports only the threads it holds, and it drops archived
        ones."""
        for table in self.registry.tables():
            if channel_id in (table.channel_id, table.parent_id):
                if table.guild_id is not None and not table.closed:
                    players = [*table.humans(), *table.queue]
                    # The deleted one is the table's thread, or the channel it was in.
                    thread = channel_id == table.channel_id and table.parent_id is not None
                    await self.vanished.record(table.guild_id, [
                        p.user_id for p in players if p.user_id is not None], name,
                        in_thread=thread)
                await self._vanish(table, hands=False)

    async def messages_deleted(self, channel_id: int, message_ids: Collection[int]) -> None:
        """Someone deleted the table's lobby or table message (a moderator tidying the
        channel): it is posted afresh at once, through the refresh and so within the call
        budget, rather than at the table's next change, which could leave players without
        its buttons for as long as a turn timer. Other messages are none of the table's."""
        table = self.registry.in_channel(channel_id)
        if table is None:
            return
        async with table.lock:
            gone = False
            if table.lobby_message_id in message_ids:
                table.lobby_message_id, gone = None, True
            if table.table_message_id in message_ids:
                table.table_message_id, gone = None, True
            if gone:
                self.refresh(table)

    async def member_gone(self, guild_id: int, user_id: int) -> None:
        """A moderator banned (or kicked) the user from the server: they can no longer see
        its channels nor act there, so at each of its tables they leave as a leaver does
        (a bot finishes their round, a lobby seat frees, the host role passes on), and, as
        one the host removed, presi does not wait for them. The table is told in its own
        words; their hand, which they can no longer see, is left alone."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                player = table.player(user_id)
                if table.closed or player is None:
                    continue
                if table.running:
                    table.remember(LogEntry("ev.member_gone", {"name": player.name},
                                            (user_id,)))
                else:
                    table.notice = LogEntry("table.member_gone", {"name": player.name},
                                            (user_id,))
                await self.seating.remove(table, user_id, farewell=None)
                if user_id in table.away:
                    self.seating.cancel_for_absence(table, user_id, "table.cancelled_gone")

    async def server_lost(self, guild_id: int) -> None:
        """Discord has lost the server (an outage): none of its players can act, so their
        clocks wait rather than time them out and hand their seats to the
        autopilot. Bots do not play on either: the game waits as a whole."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                if not table.closed and table.paused_since is None:
                    table.paused_since = self.clock.now()
                    self.deadlines.forget(table, keep_refresh=True)
                    self.touch(table)

    async def server_back(self, guild_id: int) -> None:
        """The server is back: every clock its tables' players had left runs on from where
        it stopped (a timer started meanwhile starts its count now), and the tables say how
        long they waited."""
        for table in self.registry.in_guild(guild_id):
            async with table.lock:
                since = table.paused_since
                if table.closed or since is None:
                    continue
                now = self.clock.now()
                waited = now - since
                table.paused_since = None
                self._clocks_waited(table, waited)
                # Nobody could act meanwhile: the host's turn and the idle close count on.
                table.host_seen = min(table.host_seen + waited, now)
                table.human_seen = min(table.human_seen + waited, now)
                self.deadlines.arm_idle(table)
                self._arm(table)
                if table.running:
                    table.remember(LogEntry("ev.paused",
                                            {"minutes": max(1, round(waited / 60))}))
                self._changed(table)

    @staticmethod
    def _clocks_waited(table: Table, waited: float) -> None:
        """The players' clocks stood still for `waited` seconds (an outage, a restart):
        the turn's timer and the leavers' grace end that much later."""
        if table.timer_deadline is not None:
            table.timer_deadline += waited
        table.graces_waited(waited)

    def _arm(self, table: Table) -> None:
        """Schedule the table's clocks from its stored deadlines (leavers' grace, its
        timer) and its bots' next move, as after a restart or an outage."""
        for user_id, deadline in table.away.items():
            self.seating.arm_grace(table, user_id, deadline)
        self.deadlines.arm_turn(table)
        self.bots.schedule(table)

    async def removed_from_guild(self, guild_id: int) -> None:
        """The bot was removed from a server: its tables there end (`_vanish`). The hands,
        edited through their players' interactions rather than the channel, say so."""
        for table in self.registry.in_guild(guild_id):
            await self._vanish(table, hands=True)

    async def _vanish(self, table: Table, *, hands: bool) -> None:
        """End a table the bot can no longer reach. A game under way stops as the host's End
        stops it, so its rounds keep their results and the game its end, rather than bots
        and timers playing on unseen until IDLE_CLOSE_SECONDS; nothing is posted or edited
        in the channel, and the hands are told only with `hands`."""
        async with table.lock:
            if table.closed:
                return
            game = table.game
            if game is not None and game.phase is not Phase.GAME_OVER:
                self._after(table, refusals.engine(game.stop))
            table.lobby_message_id = table.table_message_id = None
            if not hands:
                table.hands.clear()
                table.farewells.clear()
            self._close(table)

    def _close(self, table: Table) -> None:
        self.registry.remove(table)
        self.deadlines.forget(table, keep_refresh=False)
        self.coalescer.forget(table.id)
        self.coalescer.forget(("hands", table.id))
        table.closed = True
        self.outbox.status(table, "closed")
        if self.display is not None:
            task = asyncio.get_running_loop().create_task(self._show_closed(table))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _show_closed(self, table: Table) -> None:
        """Outside the lock: a slow Discord never holds up the table's next action."""
        assert self.display is not None
        try:
            await self.display.closed(table)
        except Exception:
            log.exception("could not show table %s as closed", table.id)

    # ------------------------------------------------------------------ after every change

    def _after(self, table: Table, events: list[Event]) -> None:
        self.actions += 1
        for event in events:
            note(table, event)
            if isinstance(event, TimedOut) and event.seat is not None:
                holder = table.seats[event.seat].user_id
                link = table.hands.get(holder) if holder is not None else None
                if link is not None:
                    link.lapsed = True
            if isinstance(event, RoundOver):
                table.results = [event]
                table.result_seats = [replace(p) for p in table.seats]  # before they go
                table.note_totals(event)  # (and who scored them)
                self.outbox.record(table, event)
                if table.game is not None and table.game.phase is Phase.ROUND_OVER:
                    self.seating.round_ended(table, table.game)
            elif isinstance(event, GameOver):
                table.results.append(event)
                table.result_waiting = [replace(p) for p in table.queue]  # before they go
                self.outbox.record(table, event)
                self.seating.game_ended(table, table.game)
        if table.game is None or table.game.phase is not Phase.EXCHANGE:
            table.gift_picks.clear()
        self.deadlines.arm_turn(table)
        self.bots.schedule(table)
        self._changed(table)

    def _keep(self, table: Table) -> None:
        """Before a change that owes a new message (a new round or game, the lobby): the
        current table message keeps the text of the last state it belongs to, taken here
        and stored in the snapshot that owes the new message, so that a restart retires it
        as the bot would have. Taken from what the bot last heard was shown, it read a
        redraw behind where an edit had reached Discord but not yet answered when the
        process died, and the restart took back what players had seen (round 1's results).
        Not again while a new message is owed: the old one belongs to the earlier state."""
        if self.display is not None and not (table.post_table or table.post_lobby):
            self.display.keep(table)

    def touch(self, table: Table) -> None:
        """Persist a change that needs no refresh (e.g. the display posted a new message)."""
        table.seq += 1
        if self.store is not None and not table.closed:
            self.store.snapshot(table)

    def refresh(self, table: Table) -> None:
        """Ask for the table's messages and hands to be redrawn, coalesced separately: the
        channel's message edits and each hand's token edits have their own rate limits."""
        if self.display is not None and not table.closed:
            display = self.display
            self.coalescer.request(table.id, lambda: display.flush(table))
            self.coalescer.request(("hands", table.id), lambda: display.flush_hands(table))

    def _changed(self, table: Table) -> None:
        self.touch(table)
        self.refresh(table)

    # ------------------------------------------------------------------ persistence

    def _storage_failed(self, table: Table) -> None:
        """A record that can never be stored was dropped (the queue goes on): say so once on
        the table, so the host knows a result may be missing from the statistics."""
        if table.store_failed or table.closed:
            return
        table.store_failed = True
        entry = LogEntry("table.store_failed")
        if table.running:
            table.remember(entry)
        else:
            table.notice = entry
        self._changed(table)

    async def committed(self, table: Table) -> None:
        """Wait until the table's latest state is stored: a move is confirmed to its player
        only then, so that no confirmed move can be lost in a crash."""
        if self.store is not None:
            await self.store.committed(table)

    async def stored_so_far(self) -> None:
        """Wait for the storage work queued so far: an erasure must follow the results
        of a table that just closed, or they would record the erased player again."""
        await asyncio.gather(*self.outbox.pending(), return_exceptions=True)

    async def drain(self) -> None:
        """Wait for queued storage work (tests, shutdown)."""
        await asyncio.gather(*self.outbox.pending(), *self._tasks, *self.bots.tasks,
                             return_exceptions=True)
