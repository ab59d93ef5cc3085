"""What storage holds about one Discord user, and its erasure (/president privacy and
forget, docs/privacy.md).

Discord's Developer Terms of Service (section 5, « User Privacy and Security ») ask an
application to « promptly delete the API Data when […] the applicable user requests you
delete it » and to « give users an easily accessible way to ask for their API Data to be
modified and deleted »:
https://support-dev.discord.com/hc/en-us/articles/8562894815383-Discord-Developer-Terms-of-Service
(the text last mirrored in discord/discord-api-docs at commit 48d3c2d3,
docs/policies_and_agreements/Developer_Terms_of_Service.md).

Erasing a player must not change anybody else's standing, so their seats in stored games
and rounds stay, with their places and points, but lose their user id and their name: a
human seat without a user id is an erased one (a seat stored for a human always has one,
`SeatRef`), shown under a placeholder in the reader's language. Ratings are per user and
go; the others' ratings, moved by rounds against the erased player, stay as they are.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import case, delete, func, literal, select, union, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.access import Access
from bot.storage.models import (
    GameSeat,
    GameTable,
    Rating,
    Round,
    RoundResult,
    User,
    VanishedTable,
)
from bot.storage.records import HeldData

#: What an erased player's closed tables say opened them: no Discord id is 0.
NOBODY = 0


class Forgetting(Access):
    """The privacy side of `Storage` (bot/storage/repository.py)."""

    async def held_about(self, user_id: int) -> HeldData:
        """What is stored about the user, on every server."""
        async with self._read() as connection:
            return await _held(connection, user_id)

    async def forget_user(self, user_id: int) -> HeldData:
        """Erase the user on every server, in one transaction, and say what was erased
        (all zero when nothing was left: a second request, or someone never seen).

        Their ratings, their name, their notices go; their seats in games and rounds keep
        their results but lose their user id, and a human seat its name (`erased`); the
        closed tables they hosted keep no trace of who did. An open table is left alone:
        the caller refuses while the user sits at one (its snapshot holds them)."""
        async with self._write() as connection:
            held = await _held(connection, user_id)
            if held.empty:
                return held
            for model in (GameSeat, RoundResult):
                await connection.execute(
                    update(model).where(model.user_id == user_id).values(
                        user_id=None, name=case((model.is_bot.is_(True), model.name),
                                                else_=literal(""))))
            await connection.execute(
                update(GameTable).where(GameTable.host_id == user_id,
                                        GameTable.status == "closed").values(host_id=NOBODY))
            await connection.execute(delete(Rating).where(Rating.user_id == user_id))
            await connection.execute(delete(VanishedTable).where(VanishedTable.user_id == user_id))
            await connection.execute(delete(User).where(User.id == user_id))
        return held


def erased(user_id: int | None, is_bot: bool) -> bool:
    """Whether a stored seat is an erased player's (`Forgetting.forget_user`)."""
    return user_id is None and not is_bot


async def _held(connection: AsyncConnection, user_id: int) -> HeldData:
    async def count(statement: Any) -> int:
        return int((await connection.execute(statement)).scalar_one())

    return HeldData(
        named=await count(select(func.count()).select_from(User).where(User.id == user_id)) > 0,
        # A seat the player left mid-game names the bot that took it: their rounds say more.
        games=await count(select(func.count()).select_from(union(
            select(GameSeat.game_id).where(GameSeat.user_id == user_id),
            select(Round.game_id).join(RoundResult, RoundResult.round_id == Round.id)
            .where(RoundResult.user_id == user_id)).subquery())),
        rounds=await count(select(func.count()).select_from(RoundResult)
                           .where(RoundResult.user_id == user_id)),
        ratings=await count(select(func.count()).select_from(Rating)
                            .where(Rating.user_id == user_id)),
        hosted=await count(select(func.count()).select_from(GameTable)
                           .where(GameTable.host_id == user_id, GameTable.status == "closed")),
        notices=await count(select(func.count()).select_from(VanishedTable)
                            .where(VanishedTable.user_id == user_id)),
    )
