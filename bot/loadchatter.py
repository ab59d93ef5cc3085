"""People chatting in the servers of the load benchmark (``python -m bot.loadbench --chatter``).

With the GUILD_MESSAGES intent (asked for to repost a deleted table message at once), the
bot receives every message posted or edited in every channel it can see: on busy servers
far more events than its own tables make. This puts that traffic through the fake: members
post and edit messages at a given rate, in channels of their own guilds (the tables'
channels stay quiet, so the simulated players' view of them costs no more than before).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.state import Channel

GUILDS = 4
CHANNELS_PER_GUILD = 5
MEMBERS_PER_GUILD = 20
EDITS = 0.15  # of the events, an author editing one of the recent messages
MENTIONS = 0.1  # of the new messages, mentioning another member
WORDS = ("ok", "lol", "anyone", "up", "for", "a", "game", "tonight", "the", "raid", "is",
         "at", "nine", "did", "you", "see", "that", "patch", "notes", "brb", "gg", "nice",
         "thanks", "where", "is", "everyone", "coffee", "first", "new", "map", "when")


@dataclass
class Chatter:
    """Posts and edits members' messages at `rate` events a second, spread over its
    channels; `emit` is called as time passes (the benchmark's loop, late on a busy
    machine, still sends what the rate asks for)."""

    fake: FakeDiscord
    rate: float
    rng: random.Random
    channels: list[tuple[Channel, list[TestUser]]]
    events: int = 0
    _owed: float = 0.0
    _last: float | None = None
    _recent: deque[tuple[TestUser, Message]] = field(default_factory=lambda: deque(maxlen=50))

    @classmethod
    def open(cls, fake: FakeDiscord, rate: float, rng: random.Random) -> Chatter:
        """Guilds with their channels and members, the bot a member of each."""
        channels = []
        for g in range(GUILDS):
            guild = fake.add_guild(f"chatter-{g}")
            members = [fake.add_user(f"c{g}-{m}", guilds=[guild])
                       for m in range(MEMBERS_PER_GUILD)]
            channels += [(fake.add_channel(guild, f"chat-{c}"), members)
                         for c in range(CHANNELS_PER_GUILD)]
        return cls(fake, rate, rng, channels)

    def emit(self, now: float) -> None:
        """The events due since the last call (none at the first), sent now."""
        self._owed += self.rate * (now - (now if self._last is None else self._last))
        self._last = now
        while self._owed >= 1:
            self._owed -= 1
            self._event()

    def _event(self) -> None:
        rng = self.rng
        self.events += 1
        if self._recent and rng.random() < EDITS:
            author, message = rng.choice(self._recent)
            author.edit_said(message, self._line() + " (edited)")
            return
        channel, members = rng.choice(self.channels)
        author = rng.choice(members)
        line = self._line()
        if rng.random() < MENTIONS:
            line = f"{rng.choice(members).mention} {line}"
        self._recent.append((author, author.say(line, channel=channel)))

    def _line(self) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(2, 20)))
