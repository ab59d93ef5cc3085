"""The word owed to players of a table whose channel was deleted stays bounded: a few
tables per player, a week, `LIMIT` players, the oldest going first (`bot.tables.vanished`)."""

from __future__ import annotations

import pytest

from bot.tables import vanished
from bot.tables.clock import ManualClock
from bot.tables.vanished import KEEP_SECONDS, PER_PLAYER, VanishedTables


async def test_a_player_is_told_once_of_their_latest_tables_on_that_server_only() -> None:
    owed = VanishedTables(ManualClock())
    for n in range(PER_PLAYER + 2):
        await owed.record(1, [10, 11], f"salon-{n}")
    assert await owed.take(2, 10) == []  # another server's
    assert [v.channel for v in await owed.take(1, 10)] == [
        f"salon-{n}" for n in range(2, PER_PLAYER + 2)]
    assert await owed.take(1, 10) == []
    assert len(owed) == 1  # 11 still waits


async def test_a_word_older_than_a_week_is_dropped() -> None:
    clock = ManualClock()
    owed = VanishedTables(clock)
    await owed.record(1, [10], "cartes")
    clock.advance(KEEP_SECONDS + 1)
    assert await owed.take(1, 10) == []


async def test_past_the_limit_the_oldest_players_go_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(vanished, "LIMIT", 3)
    owed = VanishedTables(ManualClock())
    await owed.record(1, [10, 11], "a")
    await owed.record(1, [12], "b")
    await owed.record(1, [10], "c")  # 10 is owed anew: the newest
    await owed.record(1, [13], "d")
    assert len(owed) == 3 and await owed.take(1, 11) == []
    assert [v.channel for v in await owed.take(1, 10)] == ["a", "c"]
