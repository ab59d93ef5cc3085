"""The easy level: a beginner who plays the lowest thing that fits, keeps every strong card
for the end, and now and then plays on a whim, but never absurdly."""

from __future__ import annotations

import random

from ..actions import Action
from ..cards import TWO
from ..plays import PlayOption
from ..view import PlayerView
from .normal import exchange_action

__all__ = ["EasyBot"]

WHIM = 0.3  # how often the beginner plays some other plausible move


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
        if plausible and self.rng.random() < WHIM:
            # A whim: any ordinary play, or a pass; never a 2, a wild or a joker on a whim.
            picks: list[PlayOption | None] = list(plausible)
            if view.can_pass:
                picks.append(None)
            option = self.rng.choice(picks)
            return Action.pass_() if option is None else Action.play(option)
        return _lowest(view)


def _precious(option: PlayOption) -> bool:
    return option.special is not None or option.wilds > 0 or option.level == TWO


def _lowest(view: PlayerView) -> Action:
    """The beginner's rule: the lowest play that keeps groups whole, strong cards last."""
    sizes: dict[int, int] = {}
    for card in view.hand:
        sizes[card.value] = sizes.get(card.value, 0) + 1

    def rank(o: PlayOption) -> tuple[bool, int, int]:
        return (_precious(o), view.strength(o.level), o.wilds)

    whole = [o for o in view.legal if not _precious(o) and sizes.get(o.level, 0) == o.count]
    if whole:
        return Action.play(min(whole, key=rank))
    if view.can_pass and len(view.hand) > 2:
        return Action.pass_()
    if not view.legal:
        return Action.pass_()
    return Action.play(min(view.legal, key=rank))
