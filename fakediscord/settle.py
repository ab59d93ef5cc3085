"""Knowing when the bot has finished reacting, without sleeping for fixed times."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from .errors import SettleTimeout


class Activity:
    """What the fake is doing for the bot right now, and when that last changed.

    Real (not fake) time is used here only to measure quiet: it says nothing about
    Discord's deadlines, which are judged on the fake clock.
    """

    def __init__(self) -> None:
        self.in_flight = 0
        self.last_change = time.monotonic()

    def begin(self) -> None:
        self.in_flight += 1
        self.touch()

    def end(self) -> None:
        self.in_flight -= 1
        self.touch()

    def touch(self) -> None:
        self.last_change = time.monotonic()


async def wait_until_idle(
    activity: Activity,
    gateway_busy: Callable[[], bool],
    unanswered: Callable[[], list[str]],
    abandon: Callable[[], None],
    *,
    quiet: float,
    timeout: float,
    require_answers: bool,
) -> None:
    """Return once the bot is idle; see :meth:`fakediscord.FakeDiscord.settle`."""
    started = time.monotonic()
    deadline = started + timeout
    while True:
        # Quiet is measured from the start too: work the test just unblocked (an event it
        # set) has not had a chance to begin yet.
        calm_since = max(started, activity.last_change)
        idle = (
            activity.in_flight == 0
            and not gateway_busy()
            and time.monotonic() - calm_since >= quiet
        )
        waiting = unanswered() if require_answers else []
        if idle and not waiting:
            return
        if time.monotonic() > deadline:
            if waiting:
                abandon()  # reported once: later settles must not fail for the same bug
                raise SettleTimeout(
                    "the bot never answered: "
                    + "; ".join(waiting)
                    + " (Discord would show 'This interaction failed')"
                )
            raise SettleTimeout(
                f"the bot was still busy after {timeout}s "
                f"({activity.in_flight} request(s) in flight)"
            )
        await asyncio.sleep(0.001)
