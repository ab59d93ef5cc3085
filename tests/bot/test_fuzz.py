"""Issue 11, part 3: forged and malformed interactions, seeded, against the real bot.

Across the four presets, in the lobby, in play, in an exchange and in fast mode, with SQLite
storage, every forged input (see `forgery.py`) must get an answer, private, that Discord
accepts, change no table, log no error, and no hand may ever be shown to anyone else.

The suite runs `FUZZ_INPUTS` inputs (default 520, a fifth of the full run);
`make fuzz` runs 2,600 (`FUZZ_INPUTS=2600`), and `FUZZ_SEED` picks another sequence.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.tables.table import Table
from engine import PRESETS, Phase
from fakediscord import FakeDiscord, SettleTimeout

from .conftest import LinkedClock
from .e2e import Player, cid, database_url, message, play_until, table_of, tick
from .forgery import (
    Fuzzer,
    Tally,
    changes,
    hands_shown_to_others,
    in_other_language,
    private_answer,
    state_of,
)

INPUTS = int(os.environ.get("FUZZ_INPUTS", "520"))
SEED = int(os.environ.get("FUZZ_SEED", "11"))
SCENARIOS = [(preset, where) for preset in PRESETS for where in ("lobby", "play", "exchange")]
SCENARIOS.append(("classic", "fast"))


async def prepare(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, host: Player,
                  guest: Player, preset: str, where: str) -> Table:
    """A table of `preset` in the host's channel, in the lobby (with the host's settings
    panel open), in play, in the second round's exchange, or in play in fast mode."""
    await host.user.slash("president create", preset=preset)
    table = table_of(bot, host.user)
    lobby = message(host.user, table.lobby_message_id)
    await guest.user.click(lobby, cid(table, "join"))
    if where == "lobby":
        await host.user.click(lobby, cid(table, "settings"))
        return table
    rules = table.rules.replace(game_end="rounds:5", fast=where == "fast")
    await bot.service.set_rules(table, host.user.id, rules)
    for _ in range(max(0, table.rules.min_players - len(table.seats)) + 1):
        await host.user.click(message(host.user, table.lobby_message_id), cid(table, "addbot"))
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await host.open_hand(bot)
    await guest.open_hand(bot)
    if where == "exchange":
        game = table.game
        assert game is not None
        await play_until(fake, clock, [host, guest], lambda: game.phase is Phase.ROUND_OVER)
        await tick(fake, clock, 1)
        board = message(host.user, table.table_message_id)
        await host.user.click(board, cid(table, "next", game.version))
        await tick(fake, clock, 1)
    return table


@pytest.mark.parametrize("inputs", [INPUTS])
async def test_forged_interactions_are_answered_privately_and_change_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    inputs: int,
) -> None:
    url = database_url(tmp_path, "fuzz.db")
    bot = PresidentBot(Config(token=fake.token, database_url=url, bot_pause=1.0), clock=clock,
                       guild_ready_timeout=0)
    await fake.connect(bot)
    rng = random.Random(SEED)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob", locale="fr"))
    dave = fake.add_user("dave")
    other = fake.add_guild("Other")
    elsewhere = fake.add_channel(other, "elsewhere")
    eve = fake.add_user("eve", guilds=[other])
    alice.user.join(other)
    empty = fake.add_channel(fake.guild, "empty")
    await fake.settle()
    await eve.slash("president create", preset="classic")
    foreign = table_of(bot, eve)
    guilds = [fake.guild.id, other.id]
    tally = Tally()
    phases: dict[str, int] = {}
    for index, (preset, where) in enumerate(SCENARIOS):
        channel = fake.add_channel(fake.guild, f"{preset}-{where}")
        await fake.settle()
        for user in (alice.user, bob.user, dave):
            user.channel = channel
        table = await prepare(fake, clock, bot, alice, bob, preset, where)
        phase = table.game.phase.value if table.game is not None else "lobby"
        fuzzer = Fuzzer(fake, bot, rng, table, alice.user, bob.user, dave, elsewhere, foreign,
                        empty)
        count = inputs // len(SCENARIOS) + (index < inputs % len(SCENARIOS))
        phases[f"{preset}/{where}:{phase}"] = count
        for _ in range(count):
            await one(fake, bot, fuzzer, tally, guilds, caplog)
        leaks = hands_shown_to_others(fake, [table, foreign])
        tally.hands_shown += len(leaks)
        if leaks:
            tally.failures.append(f"{preset}/{where}: hands shown to others in {leaks}")
    await fake.disconnect(bot)
    print(f"\nfuzz: seed {SEED}, {tally.sent} inputs over {phases}\n"
          f"  by category {dict(sorted(tally.by_category.items()))}\n"
          f"  unanswered {tally.unanswered}, not private {tally.not_private}, "
          f"in the other language {tally.wrong_language}, "
          f"rejected by Discord {tally.rejected_by_discord}, errors logged "
          f"{tally.errors_logged}, state changes {tally.state_changes}, "
          f"hands shown to others {tally.hands_shown}")
    for failure in tally.failures[:30]:
        print("  " + failure[:400])
    assert tally.sent == inputs
    assert tally.bad() == 0, tally.failures[:20]


async def one(fake: FakeDiscord, bot: PresidentBot, fuzzer: Fuzzer, tally: Tally,
              guilds: list[int], caplog: pytest.LogCaptureFixture) -> None:
    """Send one forged input and judge what the bot did with it."""
    forgery = fuzzer.make()
    what = f"{forgery.category} by {forgery.user.name}: {forgery.data}"
    before = state_of(bot, guilds)
    discord_errors = len(fake.errors)
    logged = len(caplog.records)
    record = await fuzzer.send(forgery)
    tally.sent += 1
    tally.by_category[forgery.category] = tally.by_category.get(forgery.category, 0) + 1
    with contextlib.suppress(SettleTimeout):  # counted below, as an unanswered input
        await fake.settle(timeout=10)
    if not record.acknowledged:
        tally.unanswered += 1
        tally.failures.append(f"unanswered: {what}")
    elif not private_answer(fake, record):
        tally.not_private += 1
        tally.failures.append(f"answered with type {record.response_type} in public: {what}")
    elif in_other_language(fake, record, forgery.user.user.locale):
        tally.wrong_language += 1
        tally.failures.append(f"answered in the other language: {what}")
    if len(fake.errors) != discord_errors:
        tally.rejected_by_discord += 1
        tally.failures.append(f"Discord refused the answer to {what}: {fake.errors[-1]}")
    after = state_of(bot, guilds)
    if after != before:
        tally.state_changes += 1
        tally.failures.append(f"state changed ({changes(before, after)}) by {what}")
    errors = [r for r in caplog.records[logged:] if r.levelno >= logging.ERROR]
    if errors:
        tally.errors_logged += len(errors)
        tally.failures.append(f"logged {[r.getMessage() for r in errors]} after {what}")
