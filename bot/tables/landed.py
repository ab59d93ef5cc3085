"""What a table's messages showed when the bot stopped, as Discord acknowledged it.

A restart drew every message of every table again: each lobby, each hand, each finished
game's chart, most of them to show what they already showed (play-test 36: 17 of the
restart's 32 calls, and 2 uploads). What each message shows is otherwise known in memory
only, and on purpose: a crash must never leave a message believed shown that was not.
So this is written once, by a stop, after the last call it could make (`PresidentBot.close`
closes the connection to Discord first): every digest in it is of an edit Discord answered
with a 200 and that no later edit could overtake (each edit forgets its message's digest as
it starts, and learns it again only from its answer). It is stored beside the state the
stop stored last, for that `seq` only (`Storage.keep_shown`); any later save clears it, and
the next start clears it once read, before it draws anything. A crash, a stop that could
not store it, or a state stored since: nothing is known shown, and everything is drawn
again, as before.

Hands are named by their token's digest, not their player: nothing here names anyone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field


def token_key(token: str) -> str:
    """A hand's name here: its interaction token's digest (the token itself is a secret,
    its player a person)."""
    return hashlib.sha1(token.encode()).hexdigest()[:16]


@dataclass
class Landed:
    """The digests (`Screen.fingerprint`) of what Discord acknowledged each message showed."""

    # The table's lobby and table message, by message id.
    messages: dict[int, str] = field(default_factory=dict)
    # Each hand, by its link's token (`token_key`).
    hands: dict[str, str] = field(default_factory=dict)
    # The results message carrying its game's chart, and the chart's language.
    chart: tuple[int, str] | None = None

    def __bool__(self) -> bool:
        return bool(self.messages or self.hands or self.chart)

    def to_dict(self, seq: int) -> dict[str, object]:
        d: dict[str, object] = {
            "seq": seq,
            "messages": {str(message_id): shown for message_id, shown in self.messages.items()},
            "hands": dict(self.hands)}
        if self.chart is not None:
            d["chart"] = [self.chart[0], self.chart[1]]
        return d

    @classmethod
    def read(cls, stored: Mapping[str, object] | None, seq: int) -> Landed | None:
        """What was kept for the state of `seq`; None if nothing, if it was kept for
        another state, or if it is not as `to_dict` writes it (read as nothing known:
        every message is drawn again)."""
        if stored is None or stored.get("seq") != seq:
            return None
        messages, hands, chart = stored.get("messages"), stored.get("hands"), stored.get("chart")
        if not isinstance(messages, dict) or not isinstance(hands, dict):
            return None
        landed = cls()
        for key, shown in messages.items():
            if isinstance(key, str) and key.isdigit() and isinstance(shown, str):
                landed.messages[int(key)] = shown
        for key, shown in hands.items():
            if isinstance(key, str) and isinstance(shown, str):
                landed.hands[key] = shown
        if isinstance(chart, list) and len(chart) == 2 and isinstance(chart[0], int) \
                and isinstance(chart[1], str):
            landed.chart = (chart[0], chart[1])
        return landed
