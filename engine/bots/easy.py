"""The easy level: a beginner who knows the basic tactics but counts no cards, and now and
then plays on a whim (any ordinary play, or a pass), but never absurdly: no 2, wild or
joker thrown away on a whim.

It also makes the two mistakes beginners make with the cards a rule punishes at the end:
it keeps its wilds for later while it has something else to play, and it does not see a
penalised finish coming (it judges as if finishing on a 2, or a wild, cost nothing). That
is the reference bot's own weakness in wild7, where it makes greedy worse than random; with
them the easy level places between random and greedy there too, as it does on the other
presets (docs/bots.md, « The easy level's beginner mistakes »).
"""

from __future__ import annotations

import random

from ..actions import Action
from ..cards import TWO
from ..plays import PlayOption
from ..view import PlayerView
from .normal import exchange_action, opponents
from .tactics import judge

__all__ = ["EasyBot"]

WHIM = 0.6  # how often the beginner plays some other plausible move


class EasyBot:
    """Seeded: the same views and seed give the same decisions."""

    level = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        if view.exchange is not None:
            give = exchange_action(view)
            if give is not None:
                return give
        plausible = [o for o in view.legal if not _precious(o)]
        # Going out is never let slip on a whim: even a beginner plays their last cards.
        out = any(o.count == len(view.hand) for o in view.legal)
        if plausible and not out and self.rng.random() < WHIM:
            # A whim: any ordinary play, or a pass; never a 2, a wild or a joker on a whim.
            picks: list[PlayOption | None] = list(plausible)
            if view.can_pass:
                picks.append(None)
            option = self.rng.choice(picks)
            return Action.pass_() if option is None else Action.play(option)
        options = [o for o in view.legal if not o.wilds]  # wilds kept for later ...
        if not options and not view.can_pass:
            options = list(view.legal)  # ... unless nothing else can be played
        # The rules as a beginner keeps them in mind: no thought of the finishing penalty.
        remembered = view.rules.replace(finish_penalty="none")
        option, _ = judge(view.hand, options, view.can_pass,
                          view.trick[-1] if view.trick else None, remembered, view.revolution,
                          opponents(view))
        return Action.pass_() if option is None else Action.play(option)


def _precious(option: PlayOption) -> bool:
    return option.special is not None or option.wilds > 0 or option.level == TWO
