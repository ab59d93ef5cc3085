"""Baseline players: seeded, obeying every knob because they only choose listed actions.

They read a game through :class:`engine.rounds.Rounds` (a :class:`engine.game.Game` without
its timers and automation), so each is an :class:`engine.automation.Chooser`: a caller may hand
one to ``Game.new(..., autoplay=...)`` for the engine to play its automated seats with (the
scenario runner hands GreedyPlayer). The game itself imports no player.
"""

from __future__ import annotations

import random

from .actions import Action
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
        options = game.legal_plays(seat)
        hand = game.hands[seat]
        sizes: dict[int, int] = {}
        for card in hand:
            sizes[card.value] = sizes.get(card.value, 0) + 1

        def plain(o: PlayOption) -> bool:
            return o.special is None and o.wilds == 0 and o.announce is None

        def keeps_groups(o: PlayOption) -> bool:
            return plain(o) and sizes.get(o.level, 0) == o.count

        def rank(o: PlayOption) -> tuple[int, int, int]:
            return (game.strength(o.level), o.wilds, 1 if o.special else 0)

        if game.can_pass(seat):
            good = [o for o in options if keeps_groups(o)]
            if good:
                return Action.play(min(good, key=rank))
            if len(hand) <= 2 and options:
                return Action.play(min(options, key=rank))
            return Action.pass_()
        if not options:
            raise ValueError(f"seat {seat} has no legal action")
        good = [o for o in options if keeps_groups(o)] or [o for o in options if plain(o)]
        return Action.play(min(good or options, key=rank))
