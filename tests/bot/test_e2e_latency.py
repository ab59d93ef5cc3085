"""The bot against a Discord that takes time (issue 8, part 4): with 80 ms ± 40 per REST
call, callbacks included, every interaction of a game is still answered within Discord's
3 seconds.

The fake judges the 3 s on its clock when the callback arrives, that is after the callback's
own latency and after every call the bot made in series before it (fakediscord/latency.py,
InteractionHub.callback: more than 3 s after the interaction was created is refused with
10062, which the ``fake`` fixture fails on). ``settle`` moves the fake clock past each call
once nothing else can run, so the times below are the latency the bot's order of calls
costs, not this machine's speed."""

from __future__ import annotations

from bot.client import PresidentBot
from fakediscord import FakeDiscord, LatencyConfig

from .conftest import LinkedClock
from .e2e import Player, host_against_three_bots, tick

LATENCY = LatencyConfig(mean=0.080, jitter=0.040, seed=8)


async def test_every_interaction_is_answered_in_time_when_each_call_costs_80_ms(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    await fake.settle()
    fake.enable_latency(LATENCY)
    first = len(fake.interactions)
    mark = fake.mark()
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_three_bots(president, marie.user, "rounds:1")
    await tick(fake, clock, 1.0)
    await marie.open_hand(president)
    moves = 0
    for _ in range(120):  # her turns come round as the bots play, a second at a time
        if moves == 4:
            break
        if await marie.act():
            moves += 1
        else:
            await tick(fake, clock, 1.0)
    assert moves == 4 and table.game is not None

    calls = fake.calls_since(mark)
    assert calls and all(0.04 <= c.latency <= 0.12 for c in calls)  # every call paid
    answered = fake.interactions[first:]
    assert len(answered) >= 10  # create, 3 × add a bot, start, the hand, 4 moves
    acks = [i.answered_at - i.created_at for i in answered if i.answered_at is not None]
    assert len(acks) == len(answered) and all(i.acknowledged for i in answered)
    assert max(acks) < 3.0
    # Tighter than Discord asks: the bot's first call is its answer (no call in series before
    # it), so each acknowledgement costs one call's latency, never the sum of several.
    assert max(acks) <= LATENCY.mean + LATENCY.jitter, sorted(acks)[-3:]
    fake.assert_no_errors()
