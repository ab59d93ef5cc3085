"""The channels' house rules (play-test 33): kept per channel and preset, by a game's start
and by the settings a host confirmed; read back for the channel's next table; erased with
its server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
import pytest_asyncio
from sqlalchemy import update

from bot.storage import Storage
from bot.storage.forget import GuildBusy
from bot.storage.models import HouseRule
from engine.rules import RulesDict

from .test_scores import ALICE, BOB, human

GUILD, OTHER_GUILD = 1 << 40, 2 << 40
CHANNEL, THREAD, OTHER_CHANNEL = 501, 502, 503
PRESI: RulesDict = {"preset": "presi", "set": {"revolution": False, "turn_seconds": 90}}
CLASSIC: RulesDict = {"preset": "classic", "set": {"exchange": False}}


class Ticking:
    """A storage clock a minute later at each date asked: which rules came last is told
    by their dates, which a test must not leave to the machine's clock."""

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 6, 20, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.at += timedelta(minutes=1)
        return self.at


@pytest_asyncio.fixture
async def kept(db_url: str) -> AsyncIterator[Storage]:
    opened = await Storage.open(db_url, now=Ticking())
    try:
        yield opened
    finally:
        await opened.close()


async def test_the_last_rules_kept_are_the_channels_and_each_preset_keeps_its_own(
        kept: Storage) -> None:
    assert await kept.house_rules(CHANNEL) is None
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI)
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC)
    assert await kept.house_rules(CHANNEL) == CLASSIC
    assert await kept.house_rules(CHANNEL, "presi") == PRESI
    assert await kept.house_rules(CHANNEL, "wild7") is None
    assert await kept.house_rules(OTHER_CHANNEL) is None
    changed: RulesDict = {"preset": "presi", "set": {"revolution": False}}
    await kept.remember_house_rules(GUILD, CHANNEL, changed)  # one row per preset
    assert await kept.house_rules(CHANNEL) == changed
    assert await kept.house_rules(CHANNEL, "classic") == CLASSIC


async def test_a_games_start_keeps_its_rules_for_the_channel_once(kept: Storage) -> None:
    """`start_game(house=…)` keeps the game's rules in its transaction; stored again after
    a restart (the same game number), it leaves the rules kept since alone."""
    table_id = await kept.create_table(GUILD, THREAD, ALICE, PRESI)
    seats = [human(ALICE), human(BOB)]
    game_id = await kept.start_game(table_id, game_no=1, preset="presi", rules=PRESI,
                                    seats=seats, house=CHANNEL)
    assert await kept.house_rules(CHANNEL) == PRESI
    assert await kept.house_rules(THREAD) is None
    later: RulesDict = {"preset": "presi", "set": {}}
    await kept.remember_house_rules(GUILD, CHANNEL, later)
    assert await kept.start_game(table_id, game_no=1, preset="presi", rules=PRESI,
                                 seats=seats, house=CHANNEL) == game_id
    assert await kept.house_rules(CHANNEL) == later


async def test_forget_server_erases_its_house_rules_alone(kept: Storage) -> None:
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI)
    await kept.remember_house_rules(OTHER_GUILD, OTHER_CHANNEL, CLASSIC)
    held = await kept.held_by_guild(GUILD)
    assert held.settings and not held.empty
    assert await kept.forget_guild(GUILD) == held
    assert (await kept.held_by_guild(GUILD)).empty
    assert await kept.house_rules(CHANNEL) is None
    assert await kept.house_rules(OTHER_CHANNEL) == CLASSIC


async def test_forget_server_refused_keeps_them(kept: Storage) -> None:
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI)
    await kept.create_table(GUILD, CHANNEL, ALICE, PRESI)
    with pytest.raises(GuildBusy):
        await kept.forget_guild(GUILD)
    assert await kept.house_rules(CHANNEL) == PRESI


async def test_a_row_no_version_wrote_as_an_object_reads_as_no_preset(kept: Storage) -> None:
    """A JSON value that is no object (some other version's shape) comes back without a
    preset, which `bot.tables.house.read` sets aside, rather than failing the create."""
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI)
    async with kept._write() as connection:
        await connection.execute(update(HouseRule).values(rules=["presi"]))
    assert await kept.house_rules(CHANNEL) == {}


SETTINGS = {"bot_level": "hard", "hints": True, "reminders": False}


async def test_the_table_settings_are_the_channels_last_whatever_the_preset(
        kept: Storage) -> None:
    """Stop 52: the table settings are kept with the rules, and read back from the row
    kept last, whatever the preset asked for: a classic evening in the presi channel
    plays with its hard bots. A row from before 0012 has none."""
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI)
    house = await kept.house(CHANNEL)
    assert house is not None and house.rules == PRESI and house.settings is None
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC, SETTINGS)
    house = await kept.house(CHANNEL, "presi")
    assert house is not None and (house.rules, house.settings) == (PRESI, SETTINGS)
    house = await kept.house(CHANNEL, "wild7")
    assert house is not None and (house.rules, house.settings) == (None, SETTINGS)
    assert await kept.house(OTHER_CHANNEL) is None


async def test_a_thread_keeps_its_own_and_its_channels(kept: Storage) -> None:
    """A thread's game keeps its rules under the thread and its channel (one transaction);
    the thread reads its own first, its channel's for a preset it never kept; a new
    thread, or the channel, the channel's."""
    table_id = await kept.create_table(GUILD, THREAD, ALICE, PRESI)
    await kept.start_game(table_id, game_no=1, preset="presi", rules=PRESI,
                          seats=[human(ALICE), human(BOB)], house=CHANNEL,
                          house_thread=THREAD, settings=SETTINGS)
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC)  # the channel plays classic
    own = await kept.house(CHANNEL, thread_id=THREAD)
    assert own is not None and (own.rules, own.settings, own.own_thread) == \
        (PRESI, SETTINGS, True)
    borrowed = await kept.house(CHANNEL, "classic", thread_id=THREAD)
    assert borrowed is not None and (borrowed.rules, borrowed.settings, borrowed.own_thread) \
        == (CLASSIC, SETTINGS, False)
    other = await kept.house(CHANNEL, thread_id=OTHER_CHANNEL)
    assert other is not None and (other.rules, other.settings, other.own_thread) == \
        (CLASSIC, None, False)
    assert await kept.house_rules(CHANNEL) == CLASSIC
    await kept.update_table(table_id, status="closed")
    await kept.forget_guild(GUILD)
    assert await kept.house(CHANNEL, thread_id=THREAD) is None


async def test_a_deleted_place_forgets_its_own_house_rows_alone(kept: Storage) -> None:
    """Stop 55: a deleted thread's rows go, every preset's, and its channel's stay; a
    deleted channel's go too, the other channels' and the scores played there stay."""
    table_id = await kept.create_table(GUILD, THREAD, ALICE, PRESI)
    await kept.start_game(table_id, game_no=1, preset="presi", rules=PRESI,
                          seats=[human(ALICE), human(BOB)], house=CHANNEL,
                          house_thread=THREAD, settings=SETTINGS)
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC, thread_id=THREAD)
    await kept.remember_house_rules(GUILD, OTHER_CHANNEL, CLASSIC)
    held = await kept.held_by_guild(GUILD)
    assert await kept.forget_house([THREAD]) == 2
    own = await kept.house(CHANNEL, "presi", thread_id=THREAD)
    assert own is not None and (own.rules, own.own_thread) == (PRESI, False)
    assert await kept.forget_house([CHANNEL]) == 2
    assert await kept.house(CHANNEL, thread_id=THREAD) is None
    assert await kept.house_rules(OTHER_CHANNEL) == CLASSIC
    assert await kept.forget_house([CHANNEL, THREAD]) == 0
    after = await kept.held_by_guild(GUILD)
    assert (after.tables, after.games, after.ratings) == (held.tables, held.games, held.ratings)


async def test_a_deleted_channel_takes_its_threads_rows_written_since_0014(
        kept: Storage) -> None:
    """A thread's rows keep their channel (0014): the channel's deletion takes them, those
    of another channel's thread stay; a thread's row written before 0014 (no channel) stays
    until the server is erased."""
    other_thread = THREAD + 10
    await kept.remember_house_rules(GUILD, CHANNEL, PRESI, thread_id=THREAD)
    await kept.remember_house_rules(GUILD, OTHER_CHANNEL, CLASSIC, thread_id=other_thread)
    older = THREAD + 20
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC, thread_id=older)
    async with kept._write() as connection:
        await connection.execute(
            update(HouseRule).where(HouseRule.channel_id == older).values(parent_id=None))
    assert await kept.forget_house([CHANNEL]) == 3  # the channel's two presets, THREAD's
    assert await kept.house_rules(THREAD) is None and await kept.house_rules(CHANNEL) is None
    assert await kept.house_rules(older) == CLASSIC
    assert await kept.house_rules(other_thread) == CLASSIC


async def test_the_sweep_reads_each_place_once_and_an_older_thread_learns_its_channel(
        kept: Storage) -> None:
    """Stop 56: `house_places` lists the server's places, one each whatever its presets,
    with a thread's channel and when it was last checked; `place_checked` marks a place
    and gives a thread's row from before 0014 its channel, so that the channel's deletion
    then takes it. The scores stay throughout."""
    older = THREAD + 20
    table_id = await kept.create_table(GUILD, THREAD, ALICE, PRESI)
    await kept.start_game(table_id, game_no=1, preset="presi", rules=PRESI,
                          seats=[human(ALICE), human(BOB)], house=CHANNEL,
                          house_thread=THREAD, settings=SETTINGS)
    await kept.remember_house_rules(GUILD, CHANNEL, CLASSIC, thread_id=older)
    await kept.remember_house_rules(OTHER_GUILD, OTHER_CHANNEL, CLASSIC)
    async with kept._write() as connection:
        await connection.execute(
            update(HouseRule).where(HouseRule.channel_id == older).values(parent_id=None))
    held = await kept.held_by_guild(GUILD)
    places = await kept.house_places(GUILD)
    assert [(p.channel_id, p.parent_id, p.checked_at) for p in places] == [
        (CHANNEL, None, None), (THREAD, CHANNEL, None), (older, None, None)]
    await kept.place_checked(older, CHANNEL)
    await kept.place_checked(THREAD, None)
    checked = {p.channel_id: p for p in await kept.house_places(GUILD)}
    assert checked[older].parent_id == CHANNEL and checked[THREAD].parent_id == CHANNEL
    assert checked[CHANNEL].checked_at is None
    when = checked[older].checked_at
    assert when is not None and when.tzinfo is not None
    assert checked[THREAD].checked_at == when + timedelta(minutes=1)  # Ticking's next
    assert await kept.forget_house([CHANNEL]) == 4  # the channel's two, THREAD's, older's
    assert await kept.house_places(GUILD) == []
    assert [p.channel_id for p in await kept.house_places(OTHER_GUILD)] == [OTHER_CHANNEL]
    after = await kept.held_by_guild(GUILD)
    assert (after.tables, after.games, after.ratings) == (held.tables, held.games, held.ratings)
