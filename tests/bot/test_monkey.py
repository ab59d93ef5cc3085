"""The monkey play-test (`monkey.py`): six users at three tables of random presets do
legitimate but random things, the clock jumps and the bot restarts on its database; after
every step nothing may go unanswered, be refused by Discord, be logged as a warning or an
error, ping anyone, break a card count or the points, and a refusal must be private and
change nothing.

The suite runs `MONKEY_STEPS` steps (default 150) for each of a few seeds; `make monkey`
runs the long version (`MONKEY_STEPS=2000`, `MONKEY_SEEDS=1-20`).
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


def seeds() -> list[int]:
    """`MONKEY_SEEDS`: a list (``1,5,9``) or a range (``1-20``)."""
    spec = os.environ.get("MONKEY_SEEDS", "1,2,3")
    if "-" in spec:
        low, high = spec.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in spec.split(",")]


@pytest.mark.parametrize("seed", seeds())
async def test_a_monkey_breaks_nothing(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                       caplog: pytest.LogCaptureFixture, seed: int) -> None:
    monkey = Monkey(fake, clock, tmp_path, caplog, random.Random(seed))
    await monkey.open(tables=3)
    for _ in range(STEPS):
        await monkey.step()
        if monkey.failures:
            break
    await monkey.check_stored("at the end")
    await fake.disconnect(monkey.live)
    print(f"\nmonkey seed {seed} (keen {monkey.keen}): {monkey.step_no} steps, "
          f"{dict(sorted(monkey.done.items()))}, {monkey.summary()}")
    assert monkey.failures == []
