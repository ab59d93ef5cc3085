"""Rollouts: play a sampled game to the point where one seat's place is settled.

Every seat plays the shared tactics without card counting (fast enough to run thousands of
times per decision) through :meth:`Game.step`, which trusts the listed options.
"""

from __future__ import annotations

from ..game import Game, Phase
from .tactics import pick

__all__ = ["place", "rollout"]


def place(game: Game, seat: int) -> int | None:
    """The seat's final place this round (1 = best) once it is settled, else None."""
    if seat in game.penalised:  # penalised finishers stack from the bottom
        return len(game.order) - game.penalised.index(seat)
    if seat in game.out:
        index = game.out.index(seat)
        return 1 + sum(1 for s in game.out[:index] if s not in game.penalised)
    if game.phase is not Phase.PLAY and game.ranking is not None:
        return game.ranking.index(seat) + 1
    return None


def rollout(game: Game, seat: int) -> int:
    """Play ``game`` on with the tactics until ``seat``'s place is settled; that place."""
    rules = game.rules
    hands = game.hands
    while True:
        settled = place(game, seat)
        if settled is not None:
            return settled
        actor = game.to_act
        assert actor is not None, "rollouts need turn-based play"
        trick = game.trick
        others = [len(hands[s]) for s in game.order if s != actor and hands[s]]
        option = pick(hands[actor], game.legal_plays(actor), game.can_pass(actor),
                      trick[-1] if trick else None, rules, game.revolution, others)
        game.step(actor, option)
