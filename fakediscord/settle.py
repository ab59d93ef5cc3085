"""Knowing when the bot has finished reacting, without trusting the wall clock.

The bot and the fake share one event loop in tests, so "the bot is idle" can be observed
rather than guessed: no task of the loop is ready to run, no callback is queued, no REST
request is being served, no gateway frame is waiting, and nothing that works outside the
loop (a database thread or socket, which the loop cannot see) is in progress, as reported by
the clients' own ``busy`` flags. A quiet period of real time alone is not enough: on a busy
machine the process can be descheduled for longer than any window, and a database write of a
few milliseconds then looks like silence.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from .errors import SettleTimeout

# Consecutive polls that must all find the loop idle. Each poll is a full turn of the loop,
# including a zero-timeout select, so a frame the fake just wrote to a loopback socket (which
# is readable at once) wakes its reader before the count completes.
IDLE_POLLS = 3


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


def loop_is_idle() -> bool:
    """Whether no other task or callback of the running loop can make progress right now.

    A task blocked on a pending future waits for something (a socket, a timer, a thread);
    one whose future is done, or that has none, is about to run. This reads two attributes
    of CPython's asyncio that are not public (``Task._fut_waiter`` and the loop's ready
    queue); they have been there since Python 3.4 and this is test tooling, not the bot.
    """
    loop = asyncio.get_running_loop()
    if getattr(loop, "_ready", None):
        return False
    current = asyncio.current_task()
    for task in asyncio.all_tasks(loop):
        if task is current or task.done():
            continue
        waiter = getattr(task, "_fut_waiter", None)
        if waiter is None or waiter.done():
            return False
    return True


async def wait_until_idle(
    activity: Activity,
    gateway_busy: Callable[[], bool],
    clients_busy: Callable[[], bool],
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
    idle_polls = 0
    while True:
        # Quiet is measured from the start too: work the test just unblocked (an event it
        # set) has not had a chance to begin yet.
        calm_since = max(started, activity.last_change)
        idle = (
            activity.in_flight == 0
            and not gateway_busy()
            and not clients_busy()
            and loop_is_idle()
        )
        idle_polls = idle_polls + 1 if idle else 0
        waiting = unanswered() if require_answers else []
        if (
            idle_polls >= IDLE_POLLS
            and time.monotonic() - calm_since >= quiet
            and not waiting
        ):
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
