"""The ratings a round moves, updated in the transaction that stores the round (see
`Storage.record_round`): which players it rates, and their rows created, locked and moved.
The arithmetic is `ratings`'."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import ratings
from bot.storage.models import Base, Rating
from bot.storage.records import RatingChange, SeatRef


def rated_places(seats: Sequence[SeatRef], places: Mapping[int, int]) -> dict[int, int]:
    """Places of the people whose rating this round moves (`ratings.rated_places`): a human's
    seat is theirs; a bot's that carries a user id finished the round for them, who left it
    (`persistence.seat_refs`), or were removed from it (`ratings.seat`)."""
    return ratings.rated_places(ratings.seat(ref.user_id, ref.is_bot, places[seat], ref.departure)
                                for seat, ref in enumerate(seats))


async def lock(
    connection: AsyncConnection, insert: Callable[[type[Base]], Any], guild_id: int,
    preset: str, places: Mapping[int, int], now: datetime,
) -> dict[int, ratings.Skill]:
    """Create the missing rating rows of `places` (`rated_places`) on a server for a preset,
    then lock them all in user order, and read them; `insert` is the dialect's INSERT … ON
    CONFLICT (`Access._insert`). Concurrent rounds sharing a player (two processes, two
    tables) serialise here instead of losing updates; `Storage.record_round` locks before
    its round takes its id, so that rounds sharing a player are numbered in the order they
    are rated, the order the rating chart replays them in (`History.rating_history`)."""
    if not places:
        return {}
    users = sorted(places)
    await connection.execute(
        insert(Rating)
        .values(
            [
                {
                    "guild_id": guild_id,
                    "preset": preset,
                    "user_id": user,
                    "mu": ratings.NEWCOMER.mu,
                    "sigma": ratings.NEWCOMER.sigma,
                    "rounds": 0,
                    "updated_at": now,
                }
                for user in users
            ]
        )
        .on_conflict_do_nothing(index_elements=[Rating.guild_id, Rating.preset, Rating.user_id])
    )
    rows = (
        await connection.execute(
            select(Rating.user_id, Rating.mu, Rating.sigma)
            .where(
                Rating.guild_id == guild_id,
                Rating.preset == preset,
                Rating.user_id.in_(users),
            )
            .order_by(Rating.user_id)
            .with_for_update()
        )
    ).all()
    return {row.user_id: ratings.Skill(row.mu, row.sigma) for row in rows}


async def rate(
    connection: AsyncConnection, guild_id: int, preset: str, places: Mapping[int, int],
    before: Mapping[int, ratings.Skill], now: datetime,
) -> tuple[RatingChange, ...]:
    """Move the ratings of `places` from `before`, their rows as `lock` read them."""
    if not places:
        return ()
    users = sorted(places)
    after = ratings.rate(places, before)
    await connection.execute(
        update(Rating)
        .where(
            Rating.guild_id == guild_id,
            Rating.preset == preset,
            Rating.user_id == bindparam("b_user"),
        )
        .values(
            mu=bindparam("b_mu"),
            sigma=bindparam("b_sigma"),
            rounds=Rating.rounds + 1,
            updated_at=now,
        ),
        [
            {"b_user": user, "b_mu": after[user].mu, "b_sigma": after[user].sigma}
            for user in users
        ],
    )
    return tuple(
        RatingChange(user, before[user].display, after[user].display) for user in users
    )
