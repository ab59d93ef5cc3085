"""What a bot is given: one seat's view of the game, never the game itself.

:class:`PlayerView` holds the seat's own hand and everything public (the trick, the cards
played this round, hand sizes, who passed, roles and points), plus what this seat can
infer from the round so far: the cards it gave in the exchange and that nobody has played
yet (the receiver still holds them), the card a seat opened the first round for holding
(the queen of hearts, the 3 of oros) until it plays it, the highest value a seat that had
to give its best cards to this seat can hold, and the values a skip showed a seat lacked
(« ta gueule »).
Two games that differ only in other players' hidden cards give equal views, so a bot that
reads nothing else cannot cheat; ``tests/engine/test_bots.py`` checks it.

>>> from engine import Game, Rules
>>> game = Game.new(Rules.preset("classic"), seats=4, seed=1)
>>> view = player_view(game, game.to_act)
>>> len(view.hand) == view.hand_sizes[view.seat] == 13
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Card
from .exchange import ExchangeDue
from .plays import PlayOption
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game, Phase, Tell, TrickPlay

__all__ = ["PlayerView", "player_view"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge at a decision (see the module docstring)."""

    seat: int
    rules: Rules
    seats: int
    phase: Phase
    round_no: int
    order: tuple[int, ...]  # seats of this round in play order
    points: tuple[int, ...]
    ranking: tuple[int, ...] | None  # the previous round's, best first
    out: tuple[int, ...]
    penalised: tuple[int, ...]
    revolution: bool
    trick: tuple[TrickPlay, ...]
    pile: tuple[Card, ...]  # every card played this round
    passed: tuple[int, ...]
    last_player: int | None
    to_act: int | None
    opener: int | None
    constraint: tuple[int, int, int] | None  # « ou rien » / « ta gueule »: seat, level, count
    lap: tuple[int, ...]  # one_lap: seats still to get their chance in this trick
    hand_sizes: tuple[int, ...]
    hand: tuple[Card, ...]  # weakest first in the current order
    legal: tuple[PlayOption, ...]
    can_pass: bool
    exchange: ExchangeDue | None
    known: tuple[tuple[int, tuple[Card, ...]], ...]  # (seat, cards it surely holds)
    caps: tuple[tuple[int, int], ...]  # (seat, highest value it may hold)
    lacks: tuple[tuple[int, int, int], ...]  # (seat, level, count): held fewer than count
    played: tuple[tuple[Card, ...], ...]  # each seat's plays this round, in order
    tells: tuple[Tell, ...]  # passes and leads, read by search (engine.tells)

    def strength(self, level: int) -> int:
        """Position of a value in the current order (higher is stronger)."""
        return 12 - level if self.revolution else level


def player_view(game: Game, seat: int) -> PlayerView:
    """The view of ``seat``: its hand, the public state and its own inferences."""
    hand = game.hand(seat)
    gone = set(game.pile) | set(hand)
    known: dict[int, list[Card]] = {}
    caps: list[tuple[int, int]] = []
    for giver, receiver, cards, mode in game.swaps:
        if giver == seat:
            kept = [c for c in cards if c not in gone]
            if kept:
                known.setdefault(receiver, []).extend(kept)
        elif receiver == seat and mode == "best":
            # The giver had to give its best cards: nothing it kept is stronger.
            caps.append((giver, min(c.value for c in cards)))
    if game.deciding is not None:  # it opened for holding this card, so holds it until played
        opener, card = game.deciding
        if opener != seat and card not in gone:
            known.setdefault(opener, []).append(card)
    return PlayerView(
        seat=seat,
        rules=game.rules,
        seats=game.seats,
        phase=game.phase,
        round_no=game.round_no,
        order=tuple(game.order),
        points=tuple(game.points),
        ranking=game.ranking,
        out=tuple(game.out),
        penalised=tuple(game.penalised),
        revolution=game.revolution,
        trick=tuple(game.trick),
        pile=tuple(game.pile),
        passed=tuple(sorted(game.passed)),
        last_player=game.last_player,
        to_act=game.to_act,
        opener=game.opener,
        constraint=game.constraint,
        lap=tuple(game.lap),
        hand_sizes=tuple(game.hand_sizes()),
        hand=hand,
        legal=tuple(game.legal_plays(seat)),
        can_pass=game.can_pass(seat),
        exchange=game.exchange_due(seat),
        known=tuple((s, tuple(cs)) for s, cs in sorted(known.items())),
        caps=tuple(caps),
        lacks=tuple(game.lacks),
        played=tuple(tuple(p) for p in game.played),
        tells=tuple(game.tells),
    )
