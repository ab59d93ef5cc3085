"""Baseline players: seeded, obeying every knob because they only choose listed actions.

They read a game through :class:`engine.rounds.Rounds` (a :class:`engine.game.Game` without
its timers and automation), so each is an :class:`engine.automation.Chooser`: a caller may hand
one to ``Game.new(..., autoplay=...)`` for the engine to play its automated seats with (the
scenario runner hands GreedyPlayer). The game itself imports no player.
"""

from __future__ import annotations

import random

from .actions import Action
from .cards import TWO
from .plays import PlayOption
from .rounds import Rounds

__all__ = ["GreedyPlayer", "RandomPlayer"]


def _exchange_action(game: Rounds, seat: int, rng: random.Random | None) -> Action | None:
    due = game.exchange_due(seat)
    if due is None or not due.ready:
        return None
    if due.mode == "choice" and rng is not None:
        return Action.give(tuple(rng.sample(due.allowed, due.count)))
    # best / weakest: the allowed cards are sorted weakest first.
    chosen = due.allowed[-due.count:] if due.mode == "best" else due.allowed[:due.count]
    return Action.give(tuple(chosen))


class RandomPlayer:
    """Uniformly random among the listed legal actions (play options and pass)."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Rounds, seat: int) -> Action:
        if game.gifts:
            give = _exchange_action(game, seat, self.rng)
            if give is not None:
                return give
        option = self.pick(game, seat)
        return Action.pass_() if option is None else Action.play(option)

    def pick(self, game: Rounds, seat: int) -> PlayOption | None:
        """The play decision alone (None: pass); the benchmark's loop calls this directly.

        The draw is uniform over ``game.legal_actions(seat)``, without building every Action.
        """
        options = game.legal_plays(seat)
        choices = len(options) + game.can_pass(seat)
        if not choices:
            raise ValueError(f"seat {seat} has no legal action")
        pick = int(self.rng.random() * choices)
        return options[pick] if pick < len(options) else None


class GreedyPlayer:
    """Plays the lowest option that beats the trick without breaking a group; else passes.

    Opening, it leads its weakest value with every card of that value, so pairs and triples
    stay together; jokers, the top single card and wilds are kept for when nothing else works.
    """

    def choose(self, game: Rounds, seat: int) -> Action:
        give = _exchange_action(game, seat, None)
        if give is not None:
            return give
        option = self.pick(game, seat)
        return Action.pass_() if option is None else Action.play(option)

    def pick(self, game: Rounds, seat: int) -> PlayOption | None:
        """The play decision alone (None: pass): what :meth:`choose` plays outside the
        exchange. Hard's rollouts call it for every seat they model as this player, so the
        common case (a whole natural group answers) is one pass over the options."""
        options = game.legal_plays(seat)
        if not options:
            if game.can_pass(seat):
                return None
            raise ValueError(f"seat {seat} has no legal action")
        hand = game.hands[seat]
        values = [card.value for card in hand]
        # The weakest option keeping its group whole (first of equals, as min() picks):
        # such an option is plain (no wild, no special card), so its rank is its strength.
        # Whether it keeps its group whole is counted only for an option that would be the
        # weakest so far (the options come weakest first: mostly the first plain one).
        revolution = game.revolution
        best: PlayOption | None = None
        best_strength = 0
        for o in options:
            if o.special is None and o.wilds == 0 and o.announce is None:
                strength = TWO - o.level if revolution else o.level
                if (best is None or strength < best_strength) and \
                        values.count(o.level) == o.count:
                    best, best_strength = o, strength
        if best is not None:
            return best

        def plain(o: PlayOption) -> bool:
            return o.special is None and o.wilds == 0 and o.announce is None

        def rank(o: PlayOption) -> tuple[int, int, int]:
            return (game.strength(o.level), o.wilds, 1 if o.special else 0)

        if game.can_pass(seat):  # asked only here: a whole group answers without it
            if len(hand) <= 2:
                return min(options, key=rank)
            return None
        return min([o for o in options if plain(o)] or options, key=rank)
