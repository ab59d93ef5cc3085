"""What the database holds for a game, read with plain SQL: what restart tests assert on."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.storage.models import Game, Rating, Round, RoundResult


@dataclass(frozen=True)
class StoredGame:
    round_nos: list[int]  # one entry per stored round row: a duplicate would show twice
    points: dict[int, int]  # seat → points summed over the stored rounds
    ended: int  # 1 once finished
    table_games: int  # game rows of the game's table: a restart must not start another
    rated_rounds: dict[int, int]  # user → rounds counted in their rating (whole guild)


async def stored_game(url: str, game_id: int) -> StoredGame:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            rounds = (await connection.execute(
                select(Round.round_no).where(Round.game_id == game_id).order_by(Round.round_no)
            )).scalars().all()
            points = (await connection.execute(
                select(RoundResult.seat, func.sum(RoundResult.points))
                .join(Round, Round.id == RoundResult.round_id)
                .where(Round.game_id == game_id).group_by(RoundResult.seat)
            )).all()
            ended = (await connection.execute(
                select(func.count()).select_from(Game)
                .where(Game.id == game_id, Game.ended_at.is_not(None))
            )).scalar_one()
            rated = (await connection.execute(select(Rating.user_id, Rating.rounds))).all()
            table_id = select(Game.table_id).where(Game.id == game_id).scalar_subquery()
            games = (await connection.execute(
                select(func.count()).select_from(Game).where(Game.table_id == table_id)
            )).scalar_one()
    finally:
        await engine.dispose()
    return StoredGame(list(rounds), {seat: int(total) for seat, total in points}, ended,
                      games, {user: count for user, count in rated})
