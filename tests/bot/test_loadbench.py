"""The load benchmark's small run, on the fake clock: a dozen tables of mixed presets with
humans and bots under Discord's rate limits, for ten seconds of fake time (issue 8)."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.loadbench import run, table_level
from bot.tables.clock import SystemClock
from fakediscord import FakeDiscord, LatencyConfig, WallClock
from fakediscord.snowflake import Snowflakes

from .e2e import database_url


async def test_a_small_load_runs_clean() -> None:
    result = await run(12, 10, seed=3, wall=False)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    assert result.actions > 0 and result.acks
    assert result.line().startswith("tables=12 ack_p50_ms=")


async def test_with_latency_each_acknowledgement_costs_one_call() -> None:
    """80 ± 40 ms a call (issue 8 part 4), on the fake clock: the callback is the bot's first
    call for an interaction, so every ack takes one call's latency."""
    latency = LatencyConfig(mean=0.08, jitter=0.04, seed=3)
    result = await run(6, 10, seed=3, wall=False, latency=latency)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    assert result.actions > 0 and result.acks
    assert min(result.acks) >= 0.04 and max(result.acks) <= 0.12


async def test_with_storage_snapshots_are_written_and_their_lag_measured(tmp_path: Path) -> None:
    """The benchmark runs the bot with its storage (SQLite by default): snapshots are
    written while the tables play, and their lag is what `snapshot_lag_p99_ms` prints."""
    database = database_url(tmp_path, "bench.sqlite3")
    result = await run(6, 10, seed=3, wall=False, database=database)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    # The writer stores only a table's newest state when several queue up: fewer writes
    # than actions is expected, none would mean storage was not running.
    assert result.actions > 0 and result.lags and min(result.lags) >= 0
    assert "snapshot_lag_p99_ms=na" not in result.line()



async def test_bot_level_seats_the_bots_at_that_level_mixed_one_table_in_three_each() -> None:
    """--bot-level (issue 12): the bots seated at the benchmark's tables play at the level
    asked for; mixed gives easy, normal and hard tables in turn. Hard decisions run in the
    worker as in production, on a fixed number of samples (no result depends on speed)."""
    result = await run(6, 10, seed=3, wall=False, bot_level="mixed", think_samples=4)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    assert result.actions > 0
    levels = [set(table) for table in result.bot_levels]
    assert levels == [{"easy"}, {"normal"}, {"hard"}] * 2
    assert [table_level("hard", i) for i in range(3)] == ["hard"] * 3


async def test_the_decisions_taken_off_the_loop_are_counted_and_timed() -> None:
    """searches=… (issue 12): every decision sent to the workers in the window is timed from
    its asking to its answer, so that a queue before the workers shows; none outside it.
    samples=…: the deals each hard search sampled (here fixed at 4)."""
    result = await run(3, 10, seed=3, wall=False, bot_level="hard", think_samples=4)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    assert result.searches and min(result.searches) > 0
    assert f" searches={len(result.searches)} search_p50_ms=" in result.line()
    assert result.sampled and set(result.sampled) == {4}
    assert " samples_p50=4 samples_mean=4.0 one_sample_pct=0.0" in result.line()
    quiet = await run(3, 10, seed=3, wall=False, bot_level="easy")
    assert quiet.searches == [] and " searches=0 " in quiet.line()
    assert quiet.sampled == [] and " one_sample_pct=0.0" in quiet.line()


async def test_by_default_the_bots_play_at_the_tables_default_level() -> None:
    result = await run(3, 2, seed=3, wall=False)
    assert [set(table) for table in result.bot_levels] == [{"normal"}] * 3


async def test_calls_and_actions_are_those_of_the_measured_window() -> None:
    """The run goes on 3 s after the window so that table messages catch up (stale); the
    calls and actions of those seconds are not the window's: counting them made calls_per_s
    (calls of 33 s over 30) exceed the busiest second's."""
    result = await run(6, 4, seed=3, wall=False)
    start, end = result.window
    assert end - start == pytest.approx(result.seconds)
    assert result.calls and all(start <= c.time <= end for c in result.calls)


async def test_the_bot_connects_to_a_fake_that_follows_the_wall_clock() -> None:
    """The command's fake follows the wall clock, which moves between two readings: a first
    IDENTIFY must not be judged against a "may identify from now" read after its arrival
    (every `python -m bot.loadbench` timed out connecting so)."""
    async with FakeDiscord.running(clock=WallClock()) as fake:
        bot = PresidentBot(Config(token=fake.token), with_storage=False,
                           guild_ready_timeout=0)
        await fake.connect(bot)  # the default guard: a refused IDENTIFY never becomes ready
        assert fake.gateway.refused == [] and len(fake.gateway.identifies) == 1
        await fake.disconnect(bot)


def test_the_wall_clock_starts_at_the_real_date() -> None:
    """The bot serving a wall-clock fake (the benchmark, the sandbox) reads the real time:
    on another date every message the fake minted looked hours old to it, and it reposted
    its table message at every move (a table takes a fresh message near Discord's one-hour
    edit limit), which inflated the benchmark's calls and buried the sandbox's hand."""
    minted = Snowflakes(WallClock()).next()  # what a message posted now is given
    assert abs(discord.utils.snowflake_time(minted).timestamp() - SystemClock().now()) < 60


async def test_chatter_reaches_the_bot_only_with_the_guild_messages_intent() -> None:
    """--chatter: members post and edit messages in other guilds' channels at the rate
    asked; the bot receives each (and its own posts and edits) as MESSAGE_CREATE or
    MESSAGE_UPDATE with GUILD_MESSAGES, none without it; the tables play as before."""
    heard = await run(6, 4, seed=3, wall=False, chatter=50)
    deaf = await run(6, 4, seed=3, wall=False, chatter=50, message_intent=False)
    for result in (heard, deaf):
        assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
        assert result.actions > 0 and 190 <= result.chatter <= 200
    assert heard.received >= heard.chatter and deaf.received == 0
    assert "chatter_per_s=" in heard.line()


async def test_table_chatter_buries_table_messages_that_come_back_within_the_limits() -> None:
    """--table-chatter: the tables' humans talk in their channels; buried table messages
    and lobbies come back (`Buried`), each costing a post and an edit, with no 429, no
    refused call and every click answered."""
    quiet = await run(6, 40, seed=3, wall=False)
    chatty = await run(6, 40, seed=3, wall=False, table_chatter=6)
    for result in (quiet, chatty):
        assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
        assert result.actions > 0
    assert quiet.returns == 0 and "returns=" not in quiet.line()
    assert chatty.table_chatter is not None and 230 <= chatty.table_chatter <= 240
    assert 0 < chatty.returns <= 6 * (40 // 30 + 1)  # at most one a table every 30 s
    assert f"returns={chatty.returns}" in chatty.line()
