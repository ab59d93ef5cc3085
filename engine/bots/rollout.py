"""Rollouts: play a sampled game to the point where one seat's place is settled.

Every seat plays the shared tactics through :meth:`Game.step`, which trusts the listed
options, counting cards as the normal level does: what it has not seen is the other hands,
which is what the deck, its own hand and the pile leave, so no seat peeks. Counting models
the bot levels better than not: proletario, hard vs 3× normal, 400 first rounds of seed 1
at 20 samples, 2.19 against 2.26 without (docs/bots.md). Some seats
may be modelled as players who hold back (``holders``): where the tactics would answer with a
control card or a broken group, such a seat passes instead unless it holds two cards or
fewer, as many players (and the reference bot) do; others as naive players (``naive``), who
play like the reference bot: whole groups only, 2s included, the lowest that answers. The
hard bot draws, for each sampled deal, which style each opponent plays (see
:mod:`engine.bots.hard`).
"""

from __future__ import annotations

import enum

from ..game import Game, Phase
from ..players import GreedyPlayer
from .tactics import Unseen, judge

__all__ = ["Style", "place", "rollout"]


class Style(enum.Enum):
    """How a seat plays in the rollouts: hard's model of another player."""

    TACTICS = "tactics"  # the shared tactics: answers whatever it takes (the bot levels)
    NAIVE = "naive"  # the reference bot's own code: whole groups only, 2s included, else pass
    HOLD_BACK = "hold_back"  # the tactics, but passes rather than spend or break (see HOLD_BACK)


HOLD_BACK = ("control", "break")  # the tactics' reasons an opponent model passes on instead
HOLD_BACK_ABOVE = 2  # ... unless it holds this many cards or fewer
_NAIVE = GreedyPlayer()  # stateless: one for every rollout


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


def rollout(game: Game, seat: int, holders: frozenset[int] = frozenset(),
            naive: frozenset[int] = frozenset(), waiting: frozenset[int] = frozenset()) -> int:
    """Play ``game`` on with the tactics until ``seat``'s place is settled; that place.
    ``waiting``: the seats that play the hard level's one-lap lead (``lone_waits``)."""
    rules = game.rules
    hands = game.hands
    while True:
        settled = place(game, seat)
        if settled is not None:
            return settled
        actor = game.to_act
        assert actor is not None, "rollouts need turn-based play"
        if actor in naive:
            game.step(actor, _NAIVE.choose(game, actor).option)
            continue
        trick = game.trick
        others = [len(hands[s]) for s in game.order if s != actor and hands[s]]
        can_pass = game.can_pass(actor)
        # The tactics count cards only to open a trick: the counter is built for leads alone.
        unseen = None if trick else \
            Unseen([card for s in game.order if s != actor for card in hands[s]], rules)
        option, reason = judge(hands[actor], game.legal_plays(actor), can_pass,
                               trick[-1] if trick else None, rules, game.revolution, others,
                               unseen, actor in waiting)
        if (actor in holders and can_pass and reason in HOLD_BACK
                and len(hands[actor]) > HOLD_BACK_ABOVE):
            option = None
        game.step(actor, option)
