"""A table's results on their way to storage: the game they belong to and each result kept
until it is known to be stored (`bot.tables.outbox`).

Apart from `Table`, which keeps them in its snapshot, so that the outbox and the storage
read them without the rest of the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.tables.players import Player
from bot.tables.snapshot import GameStartSnapshot, PendingSnapshot
from engine import event_from_dict
from engine.events import GameOver, RoundOver
from engine.jsonvalue import Json
from engine.rules import RulesDict


@dataclass(frozen=True)
class GameStart:
    """What identifies a game in storage: the table's game number (kept in its snapshot, so
    that a restored table finds its game again whatever was stored before a crash), with
    what its row records."""

    game_no: int
    preset: str
    rules: RulesDict
    seats: tuple[Player, ...]
    # Who waited in the queue then: a game's end names its winners among them too, by the
    # points they left their seat with (`Game.step_off`).
    waiting: tuple[Player, ...] = ()

    def to_dict(self) -> GameStartSnapshot:
        return {"game_no": self.game_no, "preset": self.preset, "rules": self.rules,
                "seats": [p.to_dict() for p in self.seats],
                "waiting": [p.to_dict() for p in self.waiting]}

    @classmethod
    def from_dict(cls, d: GameStartSnapshot) -> GameStart:
        return cls(int(d["game_no"]), str(d["preset"]), d["rules"].copy(),
                   tuple(Player.from_dict(p) for p in d["seats"]),
                   tuple(Player.from_dict(p) for p in d.get("waiting", [])))


@dataclass(frozen=True)
class Cancelled:
    """A game cancelled after a round counted (presi's seat left for good, RULES §10: « no
    result »): stored as ended with no winner and marked cancelled, so that the history
    lists it. The table's business, not the engine's: no engine event says it."""

    kind: ClassVar[str] = "game_cancelled"

    def to_dict(self) -> dict[str, Json]:
        return {"kind": self.kind}


#: What a table's outbox stores: the engine's results, and a cancelled game.
Stored = RoundOver | GameOver | Cancelled


@dataclass(frozen=True, eq=False)
class PendingResult:
    """A result not yet known to be stored (see `Outbox.record`, bot/tables/outbox.py)."""

    start: GameStart
    game_row_id: int | None
    result: Stored

    def to_dict(self) -> PendingSnapshot:
        return {"start": self.start.to_dict(), "game_row_id": self.game_row_id,
                "result": self.result.to_dict()}

    @classmethod
    def from_dict(cls, d: PendingSnapshot) -> PendingResult:
        result = d["result"]
        return cls(GameStart.from_dict(d["start"]), d.get("game_row_id"),
                   Cancelled() if result.get("kind") == Cancelled.kind
                   else result_from_dict(result))


def result_from_dict(data: dict[str, Json]) -> RoundOver | GameOver:
    """A stored result read back; a stored event that is no result fails."""
    event = event_from_dict(data)
    if not isinstance(event, RoundOver | GameOver):
        raise ValueError(f"not a result: {data.get('kind')!r}")
    return event
