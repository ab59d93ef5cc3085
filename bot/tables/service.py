"""Everything that changes a table: lobby moves, engine actions, timers, bots and rounds.

Each public coroutine takes the table's lock, checks who may do what, applies the change
(asking the engine for anything about the rules), then persists and asks the display for a
coalesced refresh. Refusals raise `TableError` with a catalogue key, so the Discord layer only
has to translate them. Nothing here imports discord.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Protocol

from bot.i18n import t
from bot.tables import autoplay, thinking
from bot.tables.clock import Clock
from bot.tables.log import entries_for
from bot.tables.outbox import Outbox, TableStore
from bot.tables.refresh import Coalescer
from bot.tables.registry import Registry
from bot.tables.table import (
    DEFAULT_LEVEL,
    Farewell,
    HandLink,
    LeaveOutcome,
    LogEntry,
    Player,
    Table,
)
from bot.tables.timers import Scheduler
from engine import (
    Card,
    Event,
    Game,
    IllegalAction,
    Phase,
    Rules,
)
from engine.bots import LEVELS, Bot
from engine.events import GameOver, RoundOver
from engine.view import player_view

log = logging.getLogger(__name__)


class TableError(Exception):
    """A refused request; `key` and `params` make the sentence shown to the user."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    @classmethod
    def from_engine(cls, err: IllegalAction) -> TableError:
        return cls(f"engine.{err.code}", detail=str(err), **err.params)


def settings_open(table: Table) -> None:
    """The rules and the table's settings change in the lobby only. Once a game is over the
    refusal says the way there (« Terminer »), which a host may not think of while the
    finished game still shows. It names the buttons as the table message shows them, in
    the table's language: a host whose own language differs reads "**Terminer**" beside
    the button they are to press, not "**End game**"."""
    if table.game is None:
        return
    if table.game.phase is Phase.GAME_OVER:
        raise TableError("err.settings_after_game", end=t(table.locale, "btn.end_game"),
                         replay=t(table.locale, "btn.replay"))
    raise TableError("err.settings_locked")


class Display(Protocol):
    """The Discord side: renders the table's messages and hands from its current state."""

    async def flush(self, table: Table) -> None:
        """Bring the lobby or table message up to date."""
        ...

    async def flush_hands(self, table: Table) -> None:
        """Bring every player's open hand up to date."""
        ...

    async def closed(self, table: Table) -> None: ...


# A host silent this long may be replaced by any seated human who uses a host action.
HOST_IDLE_SECONDS = 10 * 60
# A table where no person has acted this long closes itself.
IDLE_CLOSE_SECONDS = 30 * 60


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
        self.bot_pause = bot_pause
        self.display: Display | None = None
        self._rng = random.Random(seed)
        self._ids = itertools.count(1)
        self.outbox = Outbox(self.touch, self._storage_failed)
        self._tasks: set[asyncio.Task[None]] = set()
        self.thinker = thinking.Thinker()
        self.actions = 0  # engine transitions applied since start, for metrics

    @property
    def store(self) -> TableStore | None:
        """Where tables, snapshots and results are stored; None: nowhere (tests)."""
        return self.outbox.store

    @store.setter
    def store(self, store: TableStore | None) -> None:
        self.outbox.store = store

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
        self._human_seen(table)
        table.post_lobby = post
        if post:
            self._changed(table)
        else:
            self.touch(table)
        return table

    async def join(self, table: Table, user_id: int, name: str, locale: str) -> str:
        """Seat a user; returns "seated", "queued" or "back" (a presi player returning)."""
        async with table.lock:
            self._human_seen(table)
            if user_id in table.away:
                self._come_back(table, user_id)
                self._changed(table)
                return "back"
            if table.seat_of(user_id) is not None:
                raise TableError("err.already_seated")
            if table.queued(user_id):
                raise TableError("err.already_queued")
            if table.running or len(table.seats) >= table.capacity():
                if not table.rules.bots_fill:
                    raise TableError("err.game_running" if table.running else "err.table_full",
                                     max=table.capacity())
                table.queue.append(table.new_player(user_id, name, locale))
                self._changed(table)
                return "queued"
            table.seats.append(table.new_player(user_id, name, locale))
            self._changed(table)
            return "seated"

    async def leave(self, table: Table, user_id: int, *, ask_first: bool = False,
                    game_no: int | None = None) -> bool:
        """Leave the table or its queue; True once done. With `ask_first` (the command, the
        lobby button) a player of a game under way stays seated and False says to ask them
        first (display.quit_prompt): decided under the lock, so a game that starts meanwhile
        still asks. `game_no` is the game they confirmed leaving: once it is over the click
        leaves nothing. A presi leaver the table waits for is refused: leaving again would
        push the deadline back."""
        async with table.lock:
            if ask_first and table.plays(user_id):
                return False
            if game_no is not None and (game_no != table.game_no or not table.under_way):
                raise TableError("err.stale_button")
            if user_id in table.away:
                raise TableError("err.already_left", deadline=int(table.away[user_id]))
            await self._remove(table, user_id)
            return True

    async def kick(self, table: Table, by: int, user_id: int, name: str) -> None:
        async with self._host_action(table):
            self._host_only(table, by)
            if user_id == by:
                raise TableError("err.kick_self")
            if table.seat_of(user_id) is None and not table.queued(user_id):
                raise TableError("err.kick_unknown", name=name)
            await self._remove(table, user_id, farewell="hand.kicked")
            if user_id in table.away:  # presi waits for leavers, not for those removed
                self._cancel_for_absence(table, user_id, "table.cancelled_kicked")

    async def add_bot(self, table: Table, by: int, level: str | None = None) -> None:
        """Seat a bot of `level` (one of engine.bots.LEVELS), by default the table's."""
        async with self._host_action(table):
            self._host_only(table, by)
            self._lobby_only(table)
            if level is not None and level not in LEVELS:
                raise TableError("err.bad_choice")
            if len(table.seats) >= table.capacity():
                raise TableError("err.table_full", max=table.capacity())
            self._seat_bot(table, by_host=True, level=level or table.bot_level)
            self._changed(table)

    async def set_options(self, table: Table, by: int, *, bot_level: str | None = None,
                          hints: bool | None = None) -> None:
        """The host's table settings beside the rules (see `Table.bot_level`, `hints`).
        A new default level applies to the bots added from now on: a bot already seated,
        perhaps chosen at another level on purpose, keeps its own (the lobby shows it)."""
        async with self._host_action(table):
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
        async with self._host_action(table):
            self._host_only(table, by)
            self._lobby_only(table)
            bots = [p for p in table.seats if p.is_bot]
            if not bots:
                raise TableError("err.no_bot")
            last = max(bots, key=lambda p: p.joined)
            table.seats = [p for p in table.seats if p is not last]
            self._seat_queue(table)
            self._changed(table)

    async def play_against_bots(self, table: Table, by: int) -> None:
        """presi: « contre des bots, vous jouez avec deux bots » — fill to three and start
        (to the host's minimum if higher, never past their maximum)."""
        async with self._host_action(table):
            self._host_only(table, by)
            self._lobby_only(table)
            rules = table.rules
            while len(table.seats) < min(rules.max_players, max(3, rules.min_players)):
                self._seat_bot(table, by_host=True, level=table.bot_level)
            self._start(table)

    async def start(self, table: Table, by: int) -> None:
        async with self._host_action(table):
            self._host_only(table, by)
            self._lobby_only(table)
            self._start(table)

    async def set_rules(self, table: Table, by: int, rules: Rules) -> None:
        async with self._host_action(table):
            self._host_only(table, by)
            settings_open(table)
            if len(table.seats) > rules.max_players:
                raise TableError("err.too_many_seated", count=len(table.seats),
                                 max=rules.max_players)
            table.rules = rules
            self._seat_queue(table)  # more seats: who waits sits
            self._changed(table)
            self.outbox.status(table, "lobby")

    # ------------------------------------------------------------------ game actions

    async def play(
        self, table: Table, user_id: int, cards: Sequence[Card], announce: str | None,
        seen: int,
    ) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            self._check_seen(table, game, seen)
            events = self._engine(
                lambda: game.play(seat, cards, announce, seen if table.rules.fast else None),
                table,
            )
            self._after(table, events)
            return events

    async def pass_turn(self, table: Table, user_id: int, seen: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            self._check_seen(table, game, seen)
            events = self._engine(lambda: game.pass_turn(seat), table)
            self._after(table, events)
            return events

    async def give(self, table: Table, user_id: int, cards: Sequence[Card],
                   seen: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            self._check_round(game, seen)
            events = self._engine(lambda: game.give(seat, cards), table)
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
            self._check_round(game, seen)
            due = game.exchange_due(seat)
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
            events = self._engine(lambda: game.resume(seat), table)
            self._after(table, events)
            return events

    async def next_round(self, table: Table, by: int, version: int | None = None) -> None:
        """Deal the next round; `version` is the state the clicked button was drawn for."""
        async with self._host_action(table):
            self._host_only(table, by)
            game = self._game(table)
            self._check_version(game, version)
            if game.phase is not Phase.ROUND_OVER:
                raise TableError("err.wrong_phase")
            self._seat_waiting_players(table, game)
            events = self._engine(game.next_round, table)
            table.log.clear()  # the last round's moves stay on its results message, not here
            table.exchange_notes.clear()
            table.results.clear()
            table.post_table = True
            self._after(table, events)

    async def end(self, table: Table, by: int, version: int | None = None) -> None:
        """Host's "End": stop a running game (results stand per the rules), else close.

        A button carries the `version` it was drawn for: an End clicked on a finished round
        at the instant Next dealt the following one must not stop that new round."""
        async with self._host_action(table):
            self._host_only(table, by)
            game = table.game
            if version is not None and game is None:
                raise TableError("err.stale_button")
            if game is not None:
                self._check_version(game, version)
            if game is None:
                self._close(table)
                return
            if game.phase is Phase.GAME_OVER:
                self._back_to_lobby(table, LogEntry("table.finished"))
                self._changed(table)
                return
            events = self._engine(game.stop, table)
            self._after(table, events)

    async def replay(self, table: Table, by: int, version: int | None = None) -> None:
        async with self._host_action(table):
            self._host_only(table, by)
            game = self._game(table)
            self._check_version(game, version)
            if game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
                raise TableError("err.game_running")
            if game.phase is Phase.ROUND_OVER:
                self._after(table, self._engine(game.stop, table))
            self._seat_waiting_players(table, game)  # between games as between rounds
            table.game = game.replay()
            self._new_game(table)
            self.outbox.record_start(table)
            self._after(table, table.game.first_events)  # who opens, and why

    def remember_hand(self, table: Table, user_id: int, link: HandLink) -> None:
        """The user's latest interaction now shows their hand: refresh through it from now on."""
        previous = table.hands.get(user_id)
        table.hands[user_id] = link
        self._human_seen(table)
        fresh = previous is None or not previous.valid(self.clock.now())
        if fresh:
            self.refresh(table)  # the table message stops asking this player for My hand
        seat = table.seat_of(user_id)
        relocated = seat is not None and table.seats[seat].locale != link.locale
        if seat is not None:
            table.seats[seat].locale = link.locale
        if user_id in table.away:
            self._come_back(table, user_id)
            self._changed(table)
        elif (fresh or relocated) and not (self.store is not None and self.store.stopped):
            # Saved at once when a restart would otherwise lose the hand or its language (a
            # click answered while the process stops has nothing to save it to). A newer
            # link to a hand already followed waits for the next move's save: until then a
            # restart refreshes the player's previous hand message, and clicks stay cheap.
            self.touch(table)

    def adopt(self, table: Table) -> None:
        """Take over a table restored from storage: timers re-armed from their stored
        deadlines (an expired one fires at once), bots resumed, fresh messages posted.

        A table showing a finished round or game records it again: the process may have
        stopped after storing the state that ended it but before storing the result (never
        the other way round). Both records are idempotent, so this is a no-op when stored."""
        self.registry.add(table)
        game = table.game
        if game is not None and table.game_row_id is None:
            self.outbox.record_start(table)  # the process stopped before the start was stored
        for pending in table.unstored:  # results whose storing the process did not see end
            self.outbox.store_result(table, pending)
        for user_id, deadline in table.away.items():
            self._arm_grace(table, user_id, deadline)
        if table.running:
            table.post_table = True
        else:
            table.post_lobby = True
        self._arm_timer(table)
        self._schedule_bot(table)
        table.host_seen = self.clock.now()
        self._human_seen(table)
        self._changed(table)

    # ------------------------------------------------------------------ checks

    @contextlib.asynccontextmanager
    async def _host_action(self, table: Table) -> AsyncIterator[None]:
        """The table's lock for a host action. A seated human may take the host role over
        by using one (`_host_only`); if the action is then refused, the role goes back, as
        a refusal changes nothing."""
        async with table.lock:
            host, seen, log = table.host_id, table.host_seen, list(table.log)
            try:
                yield
            except TableError:
                if table.host_id != host:
                    table.host_id, table.host_seen, table.log = host, seen, log
                raise

    def may_host(self, table: Table, user_id: int) -> bool:
        """Whether a host action by this user would be let through: the host's, or a seated
        human's taking the role over from a host who is gone (no longer seated, away) or
        silent for HOST_IDLE_SECONDS, so a table never locks its channel for good."""
        if table.is_host(user_id):
            return True
        host_gone = table.seat_of(table.host_id) is None and not table.queued(table.host_id)
        return table.seat_of(user_id) is not None and (
            host_gone or table.host_id in table.away
            or self.clock.now() - table.host_seen > HOST_IDLE_SECONDS)

    def _host_only(self, table: Table, user_id: int) -> None:
        """Host actions, by the host or one who takes the role over (`may_host`)."""
        now = self.clock.now()
        if not self.may_host(table, user_id):
            raise TableError("err.not_host", host=table.host_id)
        if table.is_host(user_id):
            table.host_seen = now
            self._human_seen(table)
            return
        seat = table.seat_of(user_id)
        assert seat is not None
        table.host_id, table.host_seen = user_id, now
        table.remember(LogEntry("ev.new_host", {"name": table.seats[seat].name}))
        self._human_seen(table)

    def _human_seen(self, table: Table) -> None:
        """A person acted here: the table stays open for IDLE_CLOSE_SECONDS more."""
        table.human_seen = self.clock.now()
        self._arm_idle(table)

    def _arm_idle(self, table: Table) -> None:
        self.scheduler.at((table.id, "idle"), table.human_seen + IDLE_CLOSE_SECONDS,
                          lambda: self._idle_over(table))

    async def _idle_over(self, table: Table) -> None:
        """Nobody has acted for IDLE_CLOSE_SECONDS: the timers and bots would otherwise keep
        an abandoned table playing in its channel forever."""
        async with table.lock:
            if table.closed or self.clock.now() < table.human_seen + IDLE_CLOSE_SECONDS:
                return
            table.notice = LogEntry("table.idle_closed")
            self._close(table)

    def _lobby_only(self, table: Table) -> None:
        if table.running:
            raise TableError("err.game_running")

    def _game(self, table: Table) -> Game:
        if table.game is None:
            raise TableError("err.no_game")
        return table.game

    def _seated_game(self, table: Table, user_id: int) -> tuple[Game, int]:
        game = self._game(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        self._human_seen(table)
        if table.is_host(user_id):
            table.host_seen = self.clock.now()
        return game, seat

    def _check_version(self, game: Game, version: int | None) -> None:
        """A host button drawn for another state of the game than the current one."""
        if version is not None and version != game.version:
            raise TableError("err.stale_button")

    def _check_seen(self, table: Table, game: Game, seen: int) -> None:
        """A hand control carries the version it was drawn for. Turn by turn it must be the
        current one; in fast mode an older one may still play (the engine refuses it if the
        trick moved on since), but one that does not exist yet was forged."""
        if seen > game.version or (not table.rules.fast and seen != game.version):
            raise TableError("err.stale")

    @staticmethod
    def _check_round(game: Game, seen: int) -> None:
        """Gift controls carry the version they were drawn for too. Everyone gives at once,
        so any version of this round will do; one of an earlier round (or game) is a menu
        left on a player's screen, for other cards and another exchange."""
        if not game.round_version <= seen <= game.version:
            raise TableError("err.stale")

    def _engine(self, action: Callable[[], list[Event]], table: Table) -> list[Event]:
        try:
            return action()
        except IllegalAction as err:
            raise TableError.from_engine(err) from None

    # ------------------------------------------------------------------ seats

    def _new_bot(self, table: Table) -> Player:
        number = 1 + sum(1 for p in table.seats if p.is_bot and not p.vacant)
        return table.new_player(None, t(table.locale, "bot.name", n=number), table.locale)

    def _seat_bot(self, table: Table, *, by_host: bool = False,
                  level: str = DEFAULT_LEVEL) -> None:
        """Seat a bot; only the host's choose their level, fill-in bots play normal."""
        bot = self._new_bot(table)
        bot.by_host = by_host
        bot.level = level
        table.seats.append(bot)

    async def _remove(self, table: Table, user_id: int, *,
                      farewell: str = "hand.left") -> None:
        """Take a player off the table. From a game under way their seat goes as
        Table.leave_outcome says, which is what the prompt asking them first said."""
        if table.queued(user_id):
            table.queue = [p for p in table.queue if p.user_id != user_id]
            self._changed(table)
            return
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        game = table.game
        link = table.hands.pop(user_id, None)
        if link is not None and game is not None:
            table.farewells[user_id] = Farewell(link, farewell)  # it loses its controls
        if game is None:
            del table.seats[seat]
            self._seat_queue(table)
        elif game.phase is Phase.GAME_OVER:
            self._back_to_lobby(table)
            table.seats = [p for p in table.seats if p.user_id != user_id]
        else:
            outcome = table.leave_outcome(user_id)
            if outcome is LeaveOutcome.WAIT:
                deadline = self.clock.now() + table.rules.leave_grace_seconds
                table.away[user_id] = deadline
                self._arm_grace(table, user_id, deadline)
                table.remember(LogEntry("ev.away", {"name": table.seats[seat].name,
                                                    "deadline": int(deadline)}))
            elif outcome.at_once:
                self._free_seat(table, game, seat)
                if outcome is LeaveOutcome.FREE_LOBBY:
                    self._back_to_lobby(table)
            else:  # freed with the round's other leavers once it ends (_round_ended)
                table.left_seats.add(seat)
                table.seats[seat].user_id = None
                self._after(table, self._engine(lambda: game.leave(seat), table))
        if table.host_id == user_id and user_id not in table.away:
            # A presi host the table waits for stays its host (any seated player may take the
            # role over meanwhile, `may_host`): handing it on now named them their own heir.
            table.pass_host()
        if not table.humans() and not table.away:
            self._close(table)
            return
        self._changed(table)

    def _free_seat(self, table: Table, game: Game, seat: int) -> None:
        """Between rounds a leaver's seat goes: to a bot where bots fill tables, else away
        (LeaveOutcome.BOT and ROUND_BOT against the others, decided by the same rule)."""
        if table.rules.bots_fill:
            table.seats[seat] = self._new_bot(table)
            game.set_bot(seat, True)
        else:
            game.remove_seat(seat)
            table.seats[seat].user_id = None
            table.seats[seat].vacant = True

    def _round_ended(self, table: Table, game: Game) -> None:
        """The seats left this round go now; too few left sends the table to its lobby, by
        the count Table.leave_outcome made when they left (LeaveOutcome.ROUND_LOBBY)."""
        for seat in sorted(table.left_seats):
            self._free_seat(table, game, seat)
        table.left_seats.clear()
        if table.too_few_left():
            self._back_to_lobby(table)

    def _seat_queue(self, table: Table) -> None:
        """In the lobby nobody waits while a seat is free, and nobody sits beyond the
        table's capacity: those who came to a full table (`bots_fill`) sit in their order of
        arrival as seats free or the host opens more; the others wait for the game's first
        change of seats (`_seat_waiting_players`)."""
        while table.queue and not table.running and len(table.seats) < table.capacity():
            table.seats.append(table.queue.pop(0))

    def _seat_waiting_players(self, table: Table, game: Game) -> None:
        """RULES §10: waiting players take bots' seats, lowest rank first; with no bot seated
        the last place gives up its seat and joins the end of the queue."""
        ranking = list(game.ranking or range(game.seats))
        for seat in reversed(ranking):
            if table.queue and table.seats[seat].is_bot and game.active[seat]:
                table.seats[seat] = table.queue.pop(0)
                game.set_bot(seat, False)
        if table.queue and ranking and not any(
            table.seats[s].is_bot for s in ranking if game.active[s]
        ):
            last = ranking[-1]
            table.queue.append(table.seats[last])
            table.seats[last] = table.queue.pop(0)

    def _arm_grace(self, table: Table, user_id: int, deadline: float) -> None:
        self.scheduler.at((table.id, "away", user_id), deadline,
                          lambda: self._grace_over(table, user_id))

    def _come_back(self, table: Table, user_id: int) -> None:
        table.away.pop(user_id, None)
        self.scheduler.cancel((table.id, "away", user_id))
        seat = table.seat_of(user_id)
        if seat is not None:
            table.remember(LogEntry("ev.back", {"name": table.seats[seat].name}))

    async def _grace_over(self, table: Table, user_id: int) -> None:
        async with table.lock:
            if user_id not in table.away or table.game is None:
                return
            self._cancel_for_absence(table, user_id, "table.cancelled")

    def _cancel_for_absence(self, table: Table, user_id: int, why: str) -> None:
        """RULES §10 (presi): the seat of a player who is away, and will not be back, cancels
        the game: when their grace runs out, or at once when the host removed them."""
        seat = table.seat_of(user_id)
        name = table.seats[seat].name if seat is not None else "?"
        # Still away: the lobby keeps the others by their seats in the game, and
        # deleting this one first would shift every seat after it.
        self._back_to_lobby(table, LogEntry(why, {"name": name}))
        if table.host_id == user_id:  # as any leaver's (_remove), among those left
            table.pass_host()
        if not table.humans():
            self._close(table)
            return
        self._changed(table)

    # ------------------------------------------------------------------ game lifecycle

    def _start(self, table: Table) -> None:
        rules = table.rules
        if rules.bots_fill:
            while len(table.seats) < rules.max_players:
                self._seat_bot(table)
        if len(table.seats) < rules.min_players:
            raise TableError("err.min_players", min=rules.min_players, count=len(table.seats))
        bots = [i for i, p in enumerate(table.seats) if p.is_bot]
        if self.thinker.in_processes and any(p.is_bot and p.level == "hard"
                                              for p in table.seats):
            self.thinker.workers.warm()  # started with the game, not at its first hard decision
        table.game = Game.new(rules, seats=len(table.seats), seed=self._rng.randrange(2**32),
                              bots=bots, first_version=table.next_version)
        self._new_game(table)
        table.left_seats.clear()
        table.notice = None
        self.outbox.record_start(table)
        self._after(table, table.game.first_events)  # who opens, and why

    def _back_to_lobby(self, table: Table, why: LogEntry | None = None) -> None:
        """End the game without a result; the fresh lobby message tells everyone why.

        The bots the host seated stay, so the next game needs no re-adding; bots that filled
        the table or replaced leavers go, and waiting humans come before the host's bots when
        seats run short (the last-added bot gives way first); those beyond the table's seats
        keep waiting (`_seat_queue`)."""
        game = table.game
        if game is not None:
            humans = [p for s, p in enumerate(table.seats)
                      if p.user_id is not None and game.active[s] and s not in table.left_seats
                      and p.user_id not in table.away]
            bots = [p for p in table.seats if p.is_bot and p.by_host]
            room = max(0, table.rules.max_players - len(humans) - len(table.queue))
            kept_bots = sorted(bots, key=lambda p: p.joined)[:room]
            kept = {id(p) for p in humans + kept_bots}
            table.seats = [p for p in table.seats if id(p) in kept]
            table.next_version = game.version + 1
        table.game = None
        self._seat_queue(table)
        table.left_seats.clear()
        table.away.clear()
        table.gift_picks.clear()
        table.results.clear()
        table.game_row_id = None
        table.timer_serial = table.timer_deadline = None
        self.scheduler.cancel_where(lambda key: _of_table(key, table.id, keep_refresh=True))
        self._arm_idle(table)
        table.post_lobby = True
        table.notice = why or LogEntry("table.back_to_lobby")
        self.outbox.status(table, "lobby")

    async def channel_deleted(self, channel_id: int) -> None:
        """The table's channel or thread was deleted, and every message in it, its players'
        hands included: the table ends (`_vanish`) with nothing left to edit."""
        table = self.registry.in_channel(channel_id)
        if table is not None:
            await self._vanish(table, hands=False)

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
                self._after(table, self._engine(game.stop, table))
            table.lobby_message_id = table.table_message_id = None
            if not hands:
                table.hands.clear()
                table.farewells.clear()
            self._close(table)

    def _close(self, table: Table) -> None:
        self.registry.remove(table)
        self.scheduler.cancel_where(lambda key: _of_table(key, table.id, keep_refresh=False))
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
            self._note(table, event)
            if isinstance(event, RoundOver):
                table.results = [event]
                # Round 1 starts a new game's series; a round replayed after a restart
                # replaces its own.
                table.round_totals[event.round_no - 1:] = [list(event.totals)]
                self.outbox.record(table, event)
                if table.game is not None and table.game.phase is Phase.ROUND_OVER:
                    self._round_ended(table, table.game)
            elif isinstance(event, GameOver):
                table.results.append(event)
                self.outbox.record(table, event)
        if table.game is None or table.game.phase is not Phase.EXCHANGE:
            table.gift_picks.clear()
        self._arm_timer(table)
        self._schedule_bot(table)
        self._changed(table)

    def _note(self, table: Table, event: Event) -> None:
        for entry in entries_for(event, table.name):
            if entry.key == "ev.penalised" and table.log and table.log[-1].key == "ev.out" \
                    and table.log[-1].params["name"] == entry.params["name"]:
                table.log.pop()  # « sort (1er) » then « classé 4e » would contradict itself
            table.remember(entry)
        if event.kind == "exchange_given":
            giver, receiver = event.giver, event.receiver  # type: ignore[attr-defined]
            cards = [str(c) for c in event.cards]  # type: ignore[attr-defined]
            table.exchange_notes.setdefault(giver, []).append(
                LogEntry("hand.gave", {"cards": cards, "name": table.name(receiver)}))
            table.exchange_notes.setdefault(receiver, []).append(
                LogEntry("hand.received", {"cards": cards, "name": table.name(giver)}))

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
        table.seq += 1
        if self.store is not None and not table.closed:
            self.store.snapshot(table)
        self.refresh(table)

    def _arm_timer(self, table: Table) -> None:
        game = table.game
        timer = game.timer if game is not None else None
        key = (table.id, "timer")
        if timer is None:
            self.scheduler.cancel(key)
            table.timer_serial = table.timer_deadline = None
            return
        if timer.serial == table.timer_serial and self.scheduler.deadline(key) is not None:
            return
        if timer.serial != table.timer_serial or table.timer_deadline is None:
            table.timer_serial = timer.serial
            table.timer_deadline = self.clock.now() + timer.seconds
        serial = timer.serial
        self.scheduler.at(key, table.timer_deadline, lambda: self._expire(table, serial))

    async def _expire(self, table: Table, serial: int) -> None:
        async with table.lock:
            game = table.game
            if game is None or game.timer is None or game.timer.serial != serial:
                return
            self._after(table, game.timeout())

    def _schedule_bot(self, table: Table) -> None:
        key = (table.id, "bot")
        game = table.game
        if game is None or autoplay.next_seat(game) is None:
            self.scheduler.cancel(key)
            return
        if self.scheduler.deadline(key) is None:
            self.scheduler.after(key, autoplay.delay(table, game, self.bot_pause),
                                 lambda: self._bot_move(table))

    async def _bot_move(self, table: Table) -> None:
        async with table.lock:
            game = table.game
            seat = autoplay.next_seat(game) if game is not None else None
            if game is None or seat is None:
                return
            bot = self.bot(table, game, seat)
            view = player_view(game, seat)
            if bot.level != "hard":  # well under a millisecond: decided in place
                self._after(table, game.apply(seat, bot.choose(view)))
                return
            version = game.version
        # The search runs for its budget outside the lock and the loop: the table's timers,
        # its players' clicks and other tables go on meanwhile. A shutdown's `drain` waits
        # for the move, so it is applied and stored before the snapshot writer closes.
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            action = await self.thinker.think(bot, view)
            async with table.lock:
                if table.closed or table.game is not game or game.version != version:
                    return  # the game moved on meanwhile; what moved it re-armed the bots
                self._after(table, game.apply(seat, action))
        finally:
            self._tasks.discard(task)

    def bot(self, table: Table, game: Game, seat: int) -> Bot:
        """Who plays this automated seat now (see `autoplay.player_of`)."""
        thinker = self.thinker
        return autoplay.player_of(table, game, seat, samples=thinker.samples,
                                  budget=thinker.budget, clock=time.perf_counter)

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

    def _new_game(self, table: Table) -> None:
        """What a game that starts leaves behind of the last one: nothing shown (its moves,
        exchange notes, results and points chart stay on its own results message). It is
        numbered before any snapshot of it is taken: the snapshot then always names its own
        game, even if the process dies before the game's row exists."""
        table.game_no += 1
        table.game_row_id = None
        table.log.clear()
        table.exchange_notes.clear()
        table.results.clear()
        table.round_totals.clear()
        table.post_table = True

    async def committed(self, table: Table) -> None:
        """Wait until the table's latest state is stored: a move is confirmed to its player
        only then, so that no confirmed move can be lost in a crash."""
        if self.store is not None:
            await self.store.committed(table)

    async def drain(self) -> None:
        """Wait for queued storage work (tests, shutdown)."""
        await asyncio.gather(*self.outbox.pending(), *self._tasks, return_exceptions=True)


def _of_table(key: object, table_id: int, keep_refresh: bool) -> bool:
    if not isinstance(key, tuple) or not key:
        return False
    if key[0] == "refresh":
        target = key[1]
        if isinstance(target, tuple):
            target = target[1]
        return not keep_refresh and bool(target == table_id)
    return bool(key[0] == table_id)
