"""Which house places the start-up sweep forgets with no call, and which it asks Discord
about (stop 56, docs/bot.md « Deleted places, swept »)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.packages.president.sweep import PER_GUILD, RECHECK_SECONDS, sort_places
from bot.storage.records import HousePlace

NOW = datetime(2026, 12, 7, 6, tzinfo=UTC)
CHANNEL, GONE_CHANNEL = 10, 20


def place(channel_id: int, parent_id: int | None = None,
          checked_ago: float | None = None) -> HousePlace:
    checked = None if checked_ago is None else NOW - timedelta(seconds=checked_ago)
    return HousePlace(channel_id, parent_id, checked)


def test_listed_places_and_open_tables_cost_nothing_a_deleted_channels_threads_go() -> None:
    found = sort_places(
        [place(CHANNEL), place(101, CHANNEL), place(102, CHANNEL), place(103, CHANNEL),
         place(201, GONE_CHANNEL), place(202, GONE_CHANNEL), place(203, GONE_CHANNEL)],
        channels={CHANNEL}, threads={101}, tables={102, 203}, now=NOW)
    # 103: an archived thread, or a deleted one; 203 holds a table (its calls will tell).
    assert (found.gone, found.asked) == ([201, 202], [103])


def test_a_few_are_asked_never_checked_first_then_the_oldest_none_checked_lately() -> None:
    week = RECHECK_SECONDS
    places = [place(30 + n, checked_ago=week + n) for n in range(3)] + [
        place(40, checked_ago=week - 1), place(50), place(60, CHANNEL), place(GONE_CHANNEL)]
    found = sort_places(places, channels={CHANNEL}, threads=(), tables=(), now=NOW)
    assert found.gone == []
    assert found.asked == [GONE_CHANNEL, 50, 60, 32, 31][:PER_GUILD]
    assert 40 not in found.asked and len(found.asked) == PER_GUILD == 5
