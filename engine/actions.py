"""Actions as values, so players, logs and tests can pass them around."""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card
from .plays import PlayOption

__all__ = ["Action"]


class Action(NamedTuple):
    """A decision of one seat: ``play`` an option, ``pass``, or ``give`` cards in the exchange."""

    kind: str
    option: PlayOption | None = None
    cards: tuple[Card, ...] = ()

    @classmethod
    def play(cls, option: PlayOption) -> Action:
        return cls("play", option, option.cards)

    @classmethod
    def pass_(cls) -> Action:
        return _PASS

    @classmethod
    def give(cls, cards: tuple[Card, ...]) -> Action:
        return cls("give", None, cards)

    def __str__(self) -> str:
        if self.kind == "play" and self.option is not None:
            return f"play {self.option}"
        if self.kind == "give":
            return "give " + " ".join(map(str, self.cards))
        return self.kind


_PASS = Action("pass")
