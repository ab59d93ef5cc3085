"""Who a table seats or lists: one player (a person or a bot) with what their seat keeps.

Apart from `Table`, which holds them, because the results, the storage and the messages
read players too, and a player's record needs nothing of the table that holds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.tables.house import DEFAULT_LEVEL
from bot.tables.snapshot import PlayerSnapshot
from engine.bots import LEVELS


def stored_level(level: object) -> str:
    """A stored bot level; anything the engine no longer offers plays at the default
    (`DEFAULT_LEVEL`), so that a snapshot a later version wrote still restores."""
    return level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL


def waiting_key(user_id: int) -> str:
    """The key under which the engine keeps the points of a player who left their seat for
    the queue (`Game.step_off`): their user id, stable wherever they sit or wait."""
    return str(user_id)


@dataclass
class Player:
    user_id: int | None  # None for a bot
    name: str
    locale: str = "en"
    joined: int = 0  # arrival order: the longest-seated human inherits the host role
    vacant: bool = False  # a leaver's seat freed between rounds: nobody plays it any more
    by_host: bool = False  # a bot the host seated: it stays when the table returns to the lobby
    # How a bot plays this seat (engine.bots.LEVELS). A human's seat keeps the default, so a
    # bot that takes over when they leave plays at normal level.
    level: str = DEFAULT_LEVEL
    # Who left this seat this round, a bot finishing it for them (Table.left_seats): their
    # leaving again is refused by the engine's reason, not as if they had never sat here.
    left_by: int | None = None
    # Whom they replaced at this seat between the last round and this one (RULES §10's
    # queue): the exchange is that seat's, and the hand says whose place they take.
    took_from: str | None = None
    # Whether they hosted the table as they left: taking their seat back before whoever
    # inherited the role has used it gives it back (`Seating._take_back`).
    left_hosting: bool = False
    # The level of the bot they replaced (`took_from`), which the table message names as it
    # names bots; None for a person's seat (the last place's), and where a snapshot from
    # before it was kept names the seat's bot by its name alone.
    took_from_level: str | None = None
    # Whether the one who left this seat this round (`left_by`) was out of cards then: their
    # place was won, nothing of the round left to the bot, so the round is stored as theirs
    # as played (`persistence.seat_refs`), not as one they left.
    left_out: bool = False
    # Whether someone else made the one who left this seat this round (`left_by`) go: the
    # host removed them, or a moderator kicked or banned them from the server. The round is
    # then not rated for them (`ratings.seat`), as it is for one who left it themselves.
    left_removed: bool = False
    # The locale Discord sent with their last interaction, where it differs from `locale`
    # (a language they chose, `bot.languages`): what their seat and hand go back to when a
    # restart or a reading finds the choice given up while this process could not hear it
    # (on another process's server, or while it was stopped). None: `locale` is Discord's.
    client: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.user_id is None and not self.vacant

    def took_seat_of(self, other: Player | None) -> None:
        """They sit where ``other`` sat this round (None: the seat is their own now)."""
        self.took_from = other.name if other is not None else None
        self.took_from_level = other.level if other is not None and other.is_bot else None

    @property
    def key(self) -> str:
        """The key of this player's points while they wait off the table (`waiting_key`).
        Only people wait; a bot has no key."""
        if self.user_id is None:
            raise ValueError(f"{self.name!r} is no person waiting")
        return waiting_key(self.user_id)

    def to_dict(self) -> PlayerSnapshot:
        d: PlayerSnapshot = {
            "user_id": self.user_id, "name": self.name, "locale": self.locale,
            "joined": self.joined, "vacant": self.vacant, "by_host": self.by_host,
            "level": self.level, "left_by": self.left_by,
            "took_from": self.took_from, "left_hosting": self.left_hosting}
        if self.took_from_level is not None:
            d["took_from_level"] = self.took_from_level
        if self.left_out:
            d["left_out"] = True
        if self.left_removed:
            d["left_removed"] = True
        if self.client is not None:
            d["client"] = self.client
        return d

    @classmethod
    def from_dict(cls, d: PlayerSnapshot) -> Player:
        return cls(d["user_id"], d["name"], d.get("locale", "en"), d.get("joined", 0),
                   d.get("vacant", False), d.get("by_host", False),
                   stored_level(d.get("level", DEFAULT_LEVEL)), d.get("left_by"),
                   d.get("took_from"), bool(d.get("left_hosting", False)),
                   stored_level(d["took_from_level"]) if d.get("took_from_level") else None,
                   bool(d.get("left_out", False)), bool(d.get("left_removed", False)),
                   d.get("client"))
