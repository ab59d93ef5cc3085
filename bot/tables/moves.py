"""A seated player's moves in the game under way: a play, a pass, the exchange's gifts (and a
split exchange's picks), taking one's seat back from the autopilot.

Each takes the table's lock, checks the move was made on the state the player saw, and has
the engine apply it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.tables import refusals
from bot.tables.clock import Clock
from bot.tables.deadlines import Deadlines
from bot.tables.refusals import TableError
from bot.tables.table import Table
from engine import Card, Event, Game, Phase


class Moves:
    """`after` applies a move's events, `touch` stores a change nothing shows: the
    service's."""

    def __init__(self, clock: Clock, deadlines: Deadlines, *,
                 after: Callable[[Table, list[Event]], None],
                 touch: Callable[[Table], None]) -> None:
        self.clock = clock
        self.deadlines = deadlines
        self._after = after
        self._touch = touch

    async def play(
        self, table: Table, user_id: int, cards: Sequence[Card], announce: str | None,
        seen: int,
    ) -> list[Event]:
        def play(game: Game, seat: int, stale: int | None) -> list[Event]:
            return refusals.engine(lambda: game.play(seat, cards, announce, stale))
        return await self._turn(table, user_id, seen, play)

    async def pass_turn(self, table: Table, user_id: int, seen: int) -> list[Event]:
        def pass_turn(game: Game, seat: int, stale: int | None) -> list[Event]:
            return refusals.pass_(lambda: game.pass_turn(seat, stale))
        return await self._turn(table, user_id, seen, pass_turn)

    async def _turn(self, table: Table, user_id: int, seen: int,
                    move: Callable[[Game, int, int | None], list[Event]]) -> list[Event]:
        """A play or a pass on the turn the player saw: `move` is handed the game, the seat
        and the version fast mode refuses an earlier state by (None elsewhere)."""
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.not_paused(table)
            refusals.check_seen(table, game, seen, seat)
            before = game.version
            events = move(game, seat, seen if table.rules.fast else None)
            table.moved(before, seat, timer=False)
            self._after(table, events)
            return events

    async def give(self, table: Table, user_id: int, cards: Sequence[Card],
                   seen: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            refusals.not_paused(table)
            refusals.check_round(game, seen)
            try:
                events = refusals.engine(lambda: game.give(seat, cards))
            except TableError:
                refusals.check_given(table, game, seat)
                raise
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
            refusals.not_paused(table)
            refusals.check_round(game, seen)
            due = game.gift_choice(seat)
            if game.phase is not Phase.EXCHANGE or due is None or not due.ready:
                refusals.check_given(table, game, seat)
                raise TableError("err.wrong_phase")
            if any(card not in due.allowed for card in cards):
                raise TableError("err.bad_choice")
            picks = table.gift_picks.setdefault(user_id, {})
            others = sum(len(codes) for index, codes in picks.items() if index != part)
            if others + len(cards) > due.count:  # counted across the menus, kept as they were
                raise TableError("err.too_many_gifts", count=due.count, picked=others)
            picks[part] = [str(card) for card in cards]
            self._touch(table)
            return [Card.parse(code) for index in sorted(picks) for code in picks[index]]

    async def resume(self, table: Table, user_id: int) -> list[Event]:
        async with table.lock:
            game, seat = self._seated_game(table, user_id)
            if not game.automated(seat) or seat in table.left_seats:
                raise TableError("err.not_automated")
            events = refusals.engine(lambda: game.resume(seat))
            self._after(table, events)
            return events

    def _seated_game(self, table: Table, user_id: int) -> tuple[Game, int]:
        game = refusals.game_of(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        self.deadlines.human_seen(table)
        if table.is_host(user_id):
            table.host_seen = self.clock.now()
        return game, seat
