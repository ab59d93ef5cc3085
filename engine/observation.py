"""What one seat may know: its own hand and everything public, never another hand."""

from __future__ import annotations

from dataclasses import dataclass

from .automation import Automation
from .cards import Card
from .exchange import ExchangeDue
from .plays import PlayOption
from .state import Timer, TrickPlay

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int | None  # None: a spectator
    phase: str
    round_no: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    trick: tuple[TrickPlay, ...]
    count: int | None
    to_act: int | None
    revolution: bool
    roles: tuple[str | None, ...]
    points: tuple[int, ...]
    out: tuple[int, ...]
    passed: tuple[int, ...]
    automated: tuple[int, ...]
    legal: tuple[PlayOption, ...]
    can_pass: bool
    exchange: ExchangeDue | None
    timer: Timer | None
    version: int


def observe(game: Automation, seat: int | None) -> Observation:
    mine = seat is not None
    me = seat if seat is not None else 0
    return Observation(
        seat=seat,
        phase=game.phase.value,
        round_no=game.round_no,
        hand=game.hand(me) if mine else (),
        hand_sizes=tuple(game.hand_sizes()),
        trick=tuple(game.trick),
        count=game.count,
        to_act=game.to_act,
        revolution=game.revolution,
        roles=tuple(game.roles),
        points=tuple(game.points),
        out=tuple(game.out),
        passed=tuple(sorted(game.passed)),
        automated=tuple(s for s in range(game.seats) if game.automated(s)),
        legal=tuple(game.legal_plays(me)) if mine else (),
        can_pass=game.can_pass(me) if mine else False,
        exchange=game.exchange_due(me) if mine else None,
        timer=game.timer,
        version=game.version,
    )
