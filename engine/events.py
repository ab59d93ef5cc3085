"""What happened: the frozen records that every applied action returns.

The list of events is the game's log: the bot renders it in words, stores it, and the
scenario runner and tests read it. Events that reveal cards only some seats may see carry
``private_to``; everything else is public.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, cast

from .cards import Card
from .jsonvalue import Json

__all__ = [
    "AutopilotChanged",
    "Dealt",
    "Event",
    "ExchangeDone",
    "ExchangeGiven",
    "ExchangeStarted",
    "GameOver",
    "Left",
    "Out",
    "Passed",
    "Penalised",
    "Played",
    "RevolutionChanged",
    "RoundOver",
    "SameOrPass",
    "Skipped",
    "TimedOut",
    "TrickClosed",
    "event_from_dict",
]

def _plain(value: object) -> Json:
    """A field's value in JSON: tuples become lists, cards their notation. Read by name
    (`Event.to_dict`), a field's value is untyped (`getattr`), so its type is checked here,
    not assumed. What an event's fields hold: numbers, seats, words, flags, cards, and tuples
    of them; anything else is refused."""
    if isinstance(value, tuple):
        items: tuple[object, ...] = value
        return [_plain(v) for v in items]
    if isinstance(value, Card):
        return str(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"an event field holds {value!r}")


@dataclass(frozen=True, slots=True)
class Event:
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Json]:
        """JSON-safe: tuples become lists and cards their notation; ``kind`` names the
        class, every other key a field."""
        out: dict[str, Json] = {"kind": self.kind}
        for name, _ in _fields_of(type(self)):
            value: object = getattr(self, name)
            out[name] = _plain(value)
        return out

    def visible_to(self, seat: int | None) -> bool:
        """Whether this seat (``None``: a spectator) may see the event as it is."""
        private: tuple[int, ...] | None = getattr(self, "private_to", None)
        return private is None or seat in private


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    kind: ClassVar[str] = "dealt"
    round_no: int
    hand_sizes: tuple[int, ...]
    opener: int | None
    why: str | None = None  # why ``opener`` opens: see ExchangeDone


@dataclass(frozen=True, slots=True)
class Played(Event):
    kind: ClassVar[str] = "played"
    seat: int
    cards: tuple[Card, ...]
    value: str
    count: int
    announce: str | None = None
    special: str | None = None


@dataclass(frozen=True, slots=True)
class Passed(Event):
    kind: ClassVar[str] = "passed"
    seat: int


@dataclass(frozen=True, slots=True)
class Skipped(Event):
    kind: ClassVar[str] = "skipped"
    seat: int


@dataclass(frozen=True, slots=True)
class SameOrPass(Event):
    """``seat`` may only play ``count`` × ``value`` (no wilds) or pass."""

    kind: ClassVar[str] = "same_or_pass"
    seat: int
    value: str
    count: int


@dataclass(frozen=True, slots=True)
class TrickClosed(Event):
    """reason: all_passed, lap, best, two, four, joker, top_single, finished, timeout;
    ``value``: the value on top when it closed (what a closing rule saw)."""

    kind: ClassVar[str] = "trick_closed"
    winner: int
    reason: str
    next_opener: int | None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class RevolutionChanged(Event):
    kind: ClassVar[str] = "revolution"
    seat: int
    active: bool


@dataclass(frozen=True, slots=True)
class Out(Event):
    """The seat emptied its hand: ``position``-th to do so this round, holding ``place``
    (finishers rank above the penalised, so after two penalised finishers the seventh out
    of eight holds the 5th place). A `Penalised` event that follows moves it to the bottom."""

    kind: ClassVar[str] = "out"
    seat: int
    position: int
    place: int


@dataclass(frozen=True, slots=True)
class Penalised(Event):
    """The seat finished on a forbidden card (``rank``: 2, or 7 under ``two_or_wild``) and takes the
    lowest free place."""

    kind: ClassVar[str] = "penalised"
    seat: int
    place: int
    rank: str = "2"


@dataclass(frozen=True, slots=True)
class RoundOver(Event):
    kind: ClassVar[str] = "round_over"
    round_no: int
    ranking: tuple[int, ...]
    roles: tuple[str, ...]
    gained: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """``winners``: seats, and the keys of players waiting off the table whose points won
    (:attr:`engine.state.Who`)."""

    kind: ClassVar[str] = "game_over"
    winners: tuple[int | str, ...]
    stopped_early: bool


@dataclass(frozen=True, slots=True)
class ExchangeStarted(Event):
    """giver → receiver, count, for every pair of the exchange."""

    kind: ClassVar[str] = "exchange_started"
    pairs: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class ExchangeGiven(Event):
    kind: ClassVar[str] = "exchange_given"
    giver: int
    receiver: int
    cards: tuple[Card, ...]
    automatic: bool
    private_to: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExchangeDone(Event):
    """``why`` the opener opens: the ``first_opener`` value in a first round (queen_of_hearts,
    three_of_oros, random), the ``round_opener`` value later (last_place, first_place),
    ``seat_order`` when the deciding card was not dealt, ``given`` for a set-up position."""

    kind: ClassVar[str] = "exchange_done"
    opener: int | None
    why: str | None = None


@dataclass(frozen=True, slots=True)
class TimedOut(Event):
    """The running timer expired (``timer``: turn, exchange, fast); ``seat`` when one was due;
    ``late``, in an exchange, the givers the server chose for (RULES §10), whom the players
    are told ran out of time rather than only that time was up."""

    kind: ClassVar[str] = "timeout"
    timer: str
    seat: int | None
    late: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class AutopilotChanged(Event):
    kind: ClassVar[str] = "autopilot"
    seat: int
    active: bool


@dataclass(frozen=True, slots=True)
class Left(Event):
    kind: ClassVar[str] = "left"
    seat: int


_KINDS: dict[str, type[Event]] = {
    cls.kind: cls for cls in Event.__subclasses__()
}


def event_from_dict(data: Mapping[str, Json]) -> Event:
    """Inverse of :meth:`Event.to_dict`. The stored shape is trusted, as the engine wrote it
    (the casts say what the kind and the two fields that are not lists of plain values hold;
    they check nothing)."""
    cls = _KINDS[cast(str, data["kind"])]
    kwargs: dict[str, object] = {}
    for name, has_default in _fields_of(cls):
        if name not in data and has_default:
            continue  # stored before the field existed: its default holds
        value: object = data[name]
        if name == "cards":
            value = tuple(Card.parse(c) for c in cast("list[str]", value))
        elif name == "pairs":
            value = tuple(tuple(p) for p in cast("list[list[int]]", value))
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[name] = value
    return cls(**kwargs)


_FIELDS: dict[type[Event], tuple[tuple[str, bool], ...]] = {}


def _fields_of(cls: type[Event]) -> tuple[tuple[str, bool], ...]:
    """Each field's name and whether it has a default, read once per class. Typeshed types
    `dataclasses.fields` as `Field[Any]`; a `Field[object]` is what any field is, and all
    that is read of it here is its name and whether its default is missing, so no `Any`
    reaches the conversions (`mypy engine --disallow-any-expr`). Read only: shared by
    every event of the class."""
    found = _FIELDS.get(cls)
    if found is None:
        fields: tuple[dataclasses.Field[object], ...] = dataclasses.fields(cls)
        found = _FIELDS[cls] = tuple(
            (f.name, f.default is not dataclasses.MISSING) for f in fields)
    return found
