"""Games and rounds as they are played: their start, each round's results
with the ratings they move (one transaction), their end and winners."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import rating_update
from bot.storage.errors import UnknownGame, UnknownTable
from bot.storage.guilds import Guilds, stored_name
from bot.storage.house import HouseRules
from bot.storage.models import Game, GameSeat, GameTable, Round, RoundResult
from bot.storage.records import RoundOutcome, SeatRef
from engine.rules import RulesDict


class Results(Guilds, HouseRules):
    """The results side of `Storage` (bot/storage/repository.py)."""

    async def start_game(
        self,
        table_id: int,
        *,
        game_no: int,
        preset: str,
        rules: RulesDict,
        seats: Sequence[SeatRef],
        house: int | None = None,
        house_thread: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> int:
        """Record that the table's game number `game_no` started, and return its id.

        Idempotent: the number comes from the table's snapshot, so a restart that cannot
        know whether the start was stored records it again and gets the same row. The
        table's snapshot can therefore be written before this call without risk.
        `house`: the channel whose house rules these rules and the table's `settings`
        become (`remember_house_rules`), and `house_thread` the thread's, in the same
        transaction, when the row is new (a start stored again after a restart must not
        bring back an older game's rules).
        """
        if game_no < 1:
            raise ValueError("game_no starts at 1")
        async with self._write() as connection:
            guild_id = (
                await connection.execute(select(GameTable.guild_id).where(GameTable.id == table_id))
            ).scalar_one_or_none()
            if guild_id is None:
                raise UnknownTable(table_id)
            game_id = (
                await connection.execute(
                    self._insert(Game)
                    .values(
                        table_id=table_id,
                        game_no=game_no,
                        guild_id=guild_id,
                        preset=preset,
                        rules=dict(rules),
                        seats=len(seats),
                        started_at=self._now(),
                        ended_at=None,
                        stopped_early=False,
                    )
                    .on_conflict_do_nothing(index_elements=[Game.table_id, Game.game_no])
                    .returning(Game.id)
                )
            ).scalar_one_or_none()
            if game_id is None:
                return int((await connection.execute(
                    select(Game.id).where(Game.table_id == table_id, Game.game_no == game_no)
                )).scalar_one())
            await self._seat_users(connection, seats)
            if seats:
                await connection.execute(
                    insert(GameSeat).values(_seat_rows(game_id, seats))
                )
            if house is not None:
                await self._remember_house_rules(connection, guild_id, house, rules, settings,
                                                 house_thread)
        return int(game_id)

    async def record_round(
        self,
        game_id: int,
        round_no: int,
        *,
        ranking: Sequence[int],
        roles: Sequence[str | None],
        points: Sequence[int],
        seats: Sequence[SeatRef],
        totals: Sequence[int] | None = None,
    ) -> RoundOutcome:
        """Store a finished round once and update ratings in the same transaction.

        `ranking` lists seats in finishing order (first = President); `roles` and `points`
        (points earned this round) are indexed by seat, as is `seats`, and `totals` (the
        game's total at each seat after the round, which a past game's chart draws; None
        stores none, as in the rounds stored before migration 0005). A second call for the
        same (game, round_no) changes nothing and returns `inserted=False`, and ratings are
        never applied twice.

        Crash consistency: persist the table state that ends the round first
        (`SnapshotWriter.flush(table_id)` or an awaited `save_snapshot`), then record the
        round. A crash in between leaves a restored state past the round end with the round
        missing, so a restoring runtime records the last finished round again (a no-op when
        it is there). The other order could store a result the restored game then replays
        differently.
        """
        count = len(seats)
        if round_no < 1:
            raise ValueError("round_no starts at 1")
        if not (len(roles) == len(points) == len(ranking) == count) or \
                (totals is not None and len(totals) != count):
            raise ValueError("ranking, roles, points, totals and seats must have one entry "
                             "per seat")
        if sorted(ranking) != list(range(count)):
            raise ValueError(f"ranking must order every seat 0..{count - 1} exactly once")
        places = {seat: place for place, seat in enumerate(ranking, start=1)}
        rated_places = rating_update.rated_places(seats, places)
        async with self._write() as connection:
            game = (
                await connection.execute(
                    select(Game.guild_id, Game.preset).where(Game.id == game_id)
                )
            ).one_or_none()
            if game is None:
                raise UnknownGame(game_id)
            stored = select(Round.id).where(Round.game_id == game_id, Round.round_no == round_no)
            if (await connection.execute(stored)).first() is not None:
                return RoundOutcome(inserted=False, rated=False, changes=())
            await self._seat_users(connection, seats)
            # The rating rows locked before the round takes its id: two rounds sharing a
            # player committed at once on PostgreSQL are numbered in the order they are
            # rated, the order `History.rating_history` replays them in (its id taken
            # first, the round rated first could be numbered last, and a chart's last point
            # part from the stored rating).
            now = self._now()
            before = await rating_update.lock(connection, self._insert, game.guild_id,
                                              game.preset, rated_places, now)
            inserted = self._insert(Round).values(
                game_id=game_id,
                round_no=round_no,
                seats=count,
                finished_at=now,
                rated=bool(rated_places),
            )
            round_id = (
                await connection.execute(
                    inserted.on_conflict_do_nothing(
                        index_elements=[Round.game_id, Round.round_no]
                    ).returning(Round.id)
                )
            ).scalar_one_or_none()
            if round_id is None:  # stored meanwhile by another process (its locks waited)
                return RoundOutcome(inserted=False, rated=False, changes=())
            await connection.execute(
                insert(RoundResult).values(
                    [
                        {
                            "round_id": round_id,
                            "seat": seat,
                            "user_id": ref.user_id,
                            "is_bot": ref.is_bot,
                            "name": stored_name(ref.name),
                            "place": places[seat],
                            "role": roles[seat],
                            "points": points[seat],
                            "total": None if totals is None else totals[seat],
                            "departure": ref.departure,
                        }
                        for seat, ref in enumerate(seats)
                    ]
                )
            )
            await self._update_game_seats(connection, game_id, seats)
            changes = await rating_update.rate(connection, game.guild_id, game.preset,
                                               rated_places, before, now)
        return RoundOutcome(inserted=True, rated=bool(rated_places), changes=changes)

    async def _update_game_seats(
        self, connection: AsyncConnection, game_id: int, seats: Sequence[SeatRef | None]
    ) -> None:
        """Keep the latest occupant of each seat: winners are named after who held the seat
        when the game ended (a bot may have replaced a player between rounds). A seat with
        no holder now (None) keeps its row."""
        rows = _seat_rows(game_id, seats)
        if not rows:
            return
        statement = self._insert(GameSeat).values(rows)
        await connection.execute(
            statement.on_conflict_do_update(
                index_elements=[GameSeat.game_id, GameSeat.seat],
                set_={
                    "user_id": statement.excluded.user_id,
                    "is_bot": statement.excluded.is_bot,
                    "name": statement.excluded.name,
                },
            )
        )

    async def finish_game(
        self, game_id: int, *, winners: Collection[int], stopped_early: bool,
        seats: Sequence[SeatRef | None] = (), waiting_winners: Sequence[SeatRef] = (),
    ) -> bool:
        """Mark a game over with its winning seats (joint winners allowed, none when stopped
        without a winner). Returns False if it was already finished: the first ending wins.
        ``seats``: who holds each seat now, whom the winners are named after (a game stopped
        mid-round may have changed hands since its last stored round); None for a seat
        nobody holds now (freed for good), whose row stays as stored.
        ``waiting_winners``: winners who held no seat as the game ended, waiting in the
        queue with the points they left their seat with (RULES §10, proletario): their rows
        follow the game's seats (`GameSeat`), so the history and the stats count their win
        as any other."""
        async with self._write() as connection:
            if not await self._end(connection, game_id, seats, stopped_early=stopped_early):
                return False
            if winners:
                await connection.execute(
                    update(GameSeat)
                    .where(GameSeat.game_id == game_id, GameSeat.seat.in_(list(winners)))
                    .values(is_winner=True)
                )
            if waiting_winners:
                count = (await connection.execute(
                    select(Game.seats).where(Game.id == game_id))).scalar_one()
                await self._seat_users(connection, waiting_winners)
                await connection.execute(insert(GameSeat).values([
                    {**row, "seat": count + index, "is_winner": True}
                    for index, row in enumerate(_seat_rows(game_id, waiting_winners))]))
        return True

    async def cancel_game(self, game_id: int) -> bool:
        """Mark a game cancelled (presi's seat left for good, RULES §10: « no result »): it
        ends now with no winner, its rounds stored stay counted, and the history lists it as
        cancelled. Its seats stay as its last stored round left them: nobody wins, so no
        name is owed to whoever holds one now. Returns False if it had already ended (the
        first ending wins, as in `finish_game`)."""
        async with self._write() as connection:
            return await self._end(connection, game_id, (), stopped_early=True,
                                   cancelled=True)

    async def _end(self, connection: AsyncConnection, game_id: int,
                   seats: Sequence[SeatRef | None], **how: bool) -> bool:
        """End a game not ended yet, as ``how`` says, naming its seats after who holds them
        now; False (nothing changed) if it had ended already."""
        result = await connection.execute(
            update(Game)
            .where(Game.id == game_id, Game.ended_at.is_(None))
            .values(ended_at=self._now(), **how)
        )
        if not result.rowcount:
            exists = (
                await connection.execute(select(Game.id).where(Game.id == game_id))
            ).scalar_one_or_none()
            if exists is None:
                raise UnknownGame(game_id)
            return False
        if seats:
            await self._seat_users(connection, [s for s in seats if s is not None])
            await self._update_game_seats(connection, game_id, seats)
        return True


def _seat_rows(game_id: int, seats: Sequence[SeatRef | None]) -> list[dict[str, object]]:
    """game_seats rows for a game's current occupants (nobody has won yet); a seat with no
    holder (None) has none."""
    return [
        {"game_id": game_id, "seat": seat, "user_id": ref.user_id, "is_bot": ref.is_bot,
         "name": stored_name(ref.name), "is_winner": False}
        for seat, ref in enumerate(seats) if ref is not None
    ]
