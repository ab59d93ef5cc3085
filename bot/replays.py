"""Interactions that a gateway RESUME replayed too late to be answered.

When the bot's gateway connection drops (a flaky network, a gateway incident, a zombied
connection discord.py closes), Discord keeps the session's events and, once discord.py
RESUMEs, "the Gateway will send the missed events in order" (Resuming,
https://discord.com/developers/docs/events/gateway#resuming). INTERACTION_CREATE is one of
them: a click or a command made during the gap reaches the bot after it. But "you must send
an initial response within 3 seconds of receiving the event. If the 3 second deadline is
exceeded, the token will be invalidated" (Receiving and Responding,
https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction):
its user has been shown « This interaction failed » meanwhile. Acting on it would play a
card its player was told did not go, and every answer tried (the hand, then the refusal
saying an error happened) is refused with 10062 and logged as an error. Such an interaction
is left alone: the player clicks again, on a hand that did not change.

Only replayed interactions are judged, on the bot's clock against the interaction's
creation time (its snowflake): a host's clock a few seconds off would otherwise make every
click look late or on time. The offset between the two clocks is taken from the last
interaction that arrived live (its age then is the offset plus the network's latency).
"""

from __future__ import annotations

import logging

import discord

from bot.tables.clock import Clock

log = logging.getLogger(__name__)

#: The first response's deadline, from the event's creation ("within 3 seconds").
ANSWER_WITHIN = 3.0
#: Verdicts kept: a replayed interaction is read by a few handlers, all within moments.
KEPT = 1000


class Replays:
    """Follows the client's gateway connections through its dispatched events and tells
    an interaction replayed past its deadline (`late`)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        # The connections in a gap: None for the client's, a shard id for a shard's
        # (an AutoShardedClient dispatches both « disconnect » and « shard_disconnect »).
        self._gaps: set[int | None] = set()
        self._offset = 0.0  # the bot's clock minus Discord's, as the last live click showed
        self._late: dict[int, None] = {}  # the ids judged late, oldest first

    def heard(self, event: str, *args: object) -> None:
        """Called with every event the client dispatches, in the order its gateway frames
        were read (synchronously, before any handler runs): « disconnect » opens a gap,
        « resumed » (the replay is over) or « connect » (a new session, which replays
        nothing) closes it."""
        shard = args[0] if args and isinstance(args[0], int) else None
        if event in ("disconnect", "shard_disconnect"):
            self._gaps.add(shard)
        elif event in ("resumed", "shard_resumed", "connect", "shard_connect"):
            self._gaps.discard(shard)
        elif event == "interaction" and args and isinstance(args[0], discord.Interaction):
            self._judge(args[0])

    def _judge(self, interaction: discord.Interaction[discord.Client]) -> None:
        age = self._clock.now() - interaction.created_at.timestamp()
        if not self._gaps:
            self._offset = age
            return
        late = age - self._offset
        if late > ANSWER_WITHIN:
            self._late[interaction.id] = None
            if len(self._late) > KEPT:
                del self._late[next(iter(self._late))]
            log.info("interaction %s of user %s replayed %.1f s after it was made (the gateway "
                     "connection was down): its user was told it failed, not acted on",
                     interaction.id, interaction.user.id, late)

    def late(self, interaction: discord.Interaction[discord.Client]) -> bool:
        """Whether the interaction was replayed too late to be answered: leave it alone."""
        return interaction.id in self._late
