"""The monkey play-test (`monkey.py`): six users at three tables of random presets do
legitimate but random things, the clock jumps and the bot restarts on its database; after
every step nothing may go unanswered, be refused by Discord, be logged as a warning or an
error, ping anyone, break a card count or the points, and a refusal must be private and
change nothing.

The suite runs `MONKEY_STEPS` steps (default 150) for each of a few seeds, and as many on
one table of keen players (`KEEN_SEEDS`), which must reach an exchange; `make monkey` runs
the long version (`MONKEY_STEPS=2000`, `MONKEY_SEEDS=1-20`), where every seed whose players
are keen must too.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .monkey import Monkey

STEPS = int(os.environ.get("MONKEY_STEPS", "150"))
LONG = 1000  # steps after which every keen seed has been seen past a first round


def seeds() -> list[int]:
    """`MONKEY_SEEDS`: a list (``1,5,9``) or a range (``1-20``)."""
    spec = os.environ.get("MONKEY_SEEDS", "1,2,3")
    if "-" in spec:
        low, high = spec.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in spec.split(",")]


async def run(monkey: Monkey, fake: FakeDiscord) -> None:
    """Every step, stopping at the first failure, then the stored games checked."""
    for _ in range(STEPS):
        await monkey.step()
        if monkey.failures:
            break
    await monkey.check_stored("at the end")
    await fake.disconnect(monkey.live)


@pytest.mark.parametrize("seed", seeds())
async def test_a_monkey_breaks_nothing(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                       caplog: pytest.LogCaptureFixture, seed: int) -> None:
    monkey = Monkey(fake, clock, tmp_path, caplog, random.Random(seed))
    await monkey.open(tables=3)
    await run(monkey, fake)
    print(f"\nmonkey seed {seed} (keen {monkey.keen}): {monkey.step_no} steps, "
          f"{dict(sorted(monkey.done.items()))}, {monkey.summary()}")
    assert monkey.failures == []
    if STEPS >= LONG and monkey.keen:
        assert monkey.exchanges, "keen players never got past a first round"


@pytest.mark.parametrize("seed", [int(s) for s in os.environ.get("KEEN_SEEDS", "2").split(",")])
async def test_keen_players_get_past_the_first_round(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, caplog: pytest.LogCaptureFixture,
    seed: int
) -> None:
    """One table of keen players: even the short run reaches an exchange (and, for this
    seed, the end of a game, « Rejouer » and a queue at the finished game), so that the
    suite's monkey cannot slip back to first rounds only."""
    monkey = Monkey(fake, clock, tmp_path, caplog, random.Random(seed))
    await monkey.open(tables=1, keen=0.95)
    await run(monkey, fake)
    print(f"\nkeen monkey seed {seed}: {monkey.step_no} steps, {monkey.summary()}")
    assert monkey.failures == []
    assert monkey.exchanges, "no exchange reached"
