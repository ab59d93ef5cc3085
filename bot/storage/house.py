"""The house rules a channel or a thread keeps for its next table (docs/bot.md,
« Play-test 33: the house rules »)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.access import Access
from bot.storage.models import HouseRule
from bot.storage.records import HousePlace, KeptHouse
from engine.rules import RulesDict


class HouseRules(Access):
    """The house rules side of `Storage` (bot/storage/repository.py)."""

    async def remember_house_rules(self, guild_id: int, channel_id: int,
                                   rules: RulesDict,
                                   settings: Mapping[str, Any] | None = None, *,
                                   thread_id: int | None = None) -> None:
        """Keep `rules` (`Rules.to_dict`) and the table's `settings`
        (`TableSettings.to_dict`) as the channel's house rules for their preset, and the
        thread's too where the table is in one: the settings its host confirmed (a game's
        start keeps its own, `start_game`)."""
        async with self._write() as connection:
            await self._remember_house_rules(connection, guild_id, channel_id, rules,
                                             settings, thread_id)

    async def _remember_house_rules(self, connection: AsyncConnection, guild_id: int,
                                    channel_id: int, rules: RulesDict,
                                    settings: Mapping[str, Any] | None,
                                    thread_id: int | None) -> None:
        now = self._now()
        kept = None if settings is None else dict(settings)
        for where, parent in ((channel_id, None), (thread_id, channel_id)):
            if where is None:
                continue
            statement = self._insert(HouseRule).values(
                channel_id=where, preset=str(rules.get("preset", "")), guild_id=guild_id,
                rules=dict(rules), settings=kept, parent_id=parent, updated_at=now)
            await connection.execute(statement.on_conflict_do_update(
                index_elements=[HouseRule.channel_id, HouseRule.preset],
                set_={"rules": statement.excluded.rules,
                      "settings": statement.excluded.settings,
                      "parent_id": statement.excluded.parent_id, "updated_at": now}))

    async def forget_house(self, channel_ids: Collection[int]) -> int:
        """The channels or threads were deleted (docs/bot.md, « A deleted place's rows
        (stop 55) »): their house rules and settings go, every preset's, and those of a
        deleted channel's threads (written since 0014, which keep their channel), as
        nothing can open a table there again. The results played there stay: they are the
        players'. How many rows went."""
        if not channel_ids:
            return 0
        places = list(channel_ids)
        async with self._write() as connection:
            result = await connection.execute(delete(HouseRule).where(
                HouseRule.channel_id.in_(places) | HouseRule.parent_id.in_(places)))
        return int(result.rowcount)

    async def house_places(self, guild_id: int) -> list[HousePlace]:
        """The server's places that keep house rows, one each whatever its presets, for
        the start-up sweep (docs/bot.md, « Deleted places, swept (stop 56) »): one query
        over the server's rows (a few per channel or thread that held a table)."""
        statement = select(HouseRule.channel_id, func.max(HouseRule.parent_id),
                           func.min(HouseRule.checked_at)) \
            .where(HouseRule.guild_id == guild_id).group_by(HouseRule.channel_id) \
            .order_by(HouseRule.channel_id)
        async with self._read() as connection:
            rows = (await connection.execute(statement)).all()
        return [HousePlace(channel_id, parent_id, checked_at)
                for channel_id, parent_id, checked_at in rows]

    async def place_checked(self, channel_id: int, parent_id: int | None) -> None:
        """Discord answered for this place (a channel or a thread; `parent_id` the channel
        a thread is in, as its answer said, else None): it is there, or out of the bot's
        reach. Its rows are marked checked now, and a thread's rows from before 0014 learn
        their channel (`parent_id`), so that its deletion takes them. One statement."""
        values: dict[str, Any] = {"checked_at": self._now()}
        if parent_id is not None:
            values["parent_id"] = parent_id
        async with self._write() as connection:
            await connection.execute(update(HouseRule).where(
                HouseRule.channel_id == channel_id).values(**values))

    async def house_rules(self, channel_id: int, preset: str | None = None, *,
                          thread_id: int | None = None) -> dict[str, Any] | None:
        """The rules of `house`: those a table opened there would start from."""
        kept = await self.house(channel_id, preset, thread_id=thread_id)
        return None if kept is None else kept.rules

    async def house(self, channel_id: int, preset: str | None = None, *,
                    thread_id: int | None = None) -> KeptHouse | None:
        """What the channel keeps for its next table, or (`thread_id`) the thread's own
        where it keeps some, else its channel's: the rules for `preset` (None: those kept
        last, whatever their preset), and the table settings kept last there. None when
        neither keeps anything. As stored: an older version's may hold knobs or settings
        this one no longer reads (`bot.tables.house.read`). One query, of the few rows
        (one per preset) of the thread and its channel."""
        places = [where for where in (thread_id, channel_id) if where is not None]
        statement = select(HouseRule.channel_id, HouseRule.preset, HouseRule.rules,
                           HouseRule.settings).where(HouseRule.channel_id.in_(places))
        async with self._read() as connection:
            rows = (await connection.execute(
                statement.order_by(HouseRule.updated_at.desc(), HouseRule.preset))).all()
        for where in places:
            own = [row for row in rows if row.channel_id == where]
            if not own:
                continue
            chosen = own[0] if preset is None else next(
                (row for row in own if row.preset == preset), None)
            if chosen is None and where != channel_id:
                # The thread keeps none at this preset: its channel's, beside the thread's
                # own table settings.
                chosen = next((row for row in rows if row.channel_id == channel_id
                               and row.preset == preset), None)
            rules = None if chosen is None else (
                # Some other version's shape (not an object): no preset, which reads as
                # unreadable.
                dict(chosen.rules) if isinstance(chosen.rules, dict) else {})
            return KeptHouse(rules, own[0].settings, own_thread=chosen is not None
                             and chosen.channel_id != channel_id)
        return None
