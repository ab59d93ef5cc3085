"""The time a REST call takes on the way to Discord and back, off unless enabled.

The fake answers in microseconds; Discord takes tens to hundreds of milliseconds per call,
so work a bot does in series (a GET, then a POST, then the callback) costs the sum of its
calls, and work done concurrently costs about one call. Discord publishes no latency
figure for its API (discord-api-docs names network latency only as a tolerance built into
the gateway's heartbeat interval, developers/events/gateway.mdx): the default of
**80 ms ± 40 ms** per call, uniform, is our assumption, not a documented number.

Every REST route pays it, interaction callbacks included: "Interactions--both receiving and
responding--are webhooks under the hood", and a bot that receives them over the gateway
"ha[s] to respond via HTTP" (discord-api-docs, developers/interactions/
receiving-and-responding.mdx, Responding to an Interaction and Interaction Callback,
https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-callback).
A route template prefix can be given its own spread, or none (``Spread(0)``).

The whole round trip is charged before the request is judged: the fake sees the request
arrive ``delay`` after the bot sent it and answers at once. That is the strict reading for
the deadlines: the initial response "must [be sent] within 3 seconds of receiving the
event" (same page), and the fake checks the 3 s on the callback's arrival, so a bot that
makes calls in series before acknowledging sees them count against its 3 s; rate-limit
windows are likewise counted at arrival.

The delay is measured on the fake's clock (:meth:`FakeClock.sleep`): in tests it passes
only when the clock is advanced (``FakeDiscord.settle`` jumps to the next answer when
nothing else can run), so it costs no real time and does not depend on the machine; on a
clock that follows the wall clock (``python -m bot.loadbench``) it is a real sleep. Delays
come from a ``random.Random`` seeded by the config, drawn in the order calls arrive.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from .clock import FakeClock


@dataclass(frozen=True)
class Spread:
    """``mean`` seconds, plus or minus up to ``jitter`` (uniform), never below zero."""

    mean: float
    jitter: float = 0.0

    def __post_init__(self) -> None:
        if self.mean < 0 or self.jitter < 0:
            raise ValueError("latency mean and jitter must be >= 0")


@dataclass(frozen=True)
class LatencyConfig:
    """Latency per REST call: ``mean`` ± ``jitter`` seconds for every route, unless a route
    template prefix in ``routes`` (``"/interactions/"``, ``"/channels/{channel_id}/messages"``)
    has its own :class:`Spread` (the longest matching prefix wins). 80 ms ± 40 ms is an
    assumption: Discord publishes no latency figure."""

    mean: float = 0.080
    jitter: float = 0.040
    seed: int = 0
    routes: Mapping[str, Spread] = field(default_factory=dict)

    def spread(self, route: str) -> Spread:
        matches = [prefix for prefix in self.routes if route.startswith(prefix)]
        if matches:
            return self.routes[max(matches, key=len)]
        return Spread(self.mean, self.jitter)


class Latency:
    """Delays each REST call on the fake's clock; ``config`` None switches it off."""

    def __init__(self, clock: FakeClock, config: LatencyConfig | None = None) -> None:
        self.clock = clock
        self.config: LatencyConfig | None = None
        self._random = random.Random(0)
        self.waiting = 0  # calls on their way right now
        if config is not None:
            self.enable(config)

    def enable(self, config: LatencyConfig | None) -> None:
        """Switch latency on with ``config`` (a fresh generator from its seed), or off."""
        self.config = config
        if config is not None:
            self._random = random.Random(config.seed)

    def draw(self, route: str) -> float:
        """The delay of the next call to ``route`` (a template), in seconds."""
        if self.config is None:
            return 0.0
        spread = self.config.spread(route)
        if spread.jitter == 0:
            return spread.mean
        return max(0.0, spread.mean + self._random.uniform(-spread.jitter, spread.jitter))

    async def travel(self, route: str) -> float:
        """Wait out one call's latency; returns the delay it took (0 when off)."""
        delay = self.draw(route)
        if delay <= 0:
            return 0.0
        self.waiting += 1
        try:
            await self.clock.sleep(delay)
        finally:
            self.waiting -= 1
        return delay
