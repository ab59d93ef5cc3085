"""The hard level: determinized Monte-Carlo search over the hidden cards.

For each sample, the other hands are dealt at random consistently with the view (see
:mod:`engine.determinize`); every candidate move is played in that same sample and the game
is rolled out with the shared tactics until the bot's place is settled. The move with the best
mean place wins (ties go to the normal level's choice, listed first). Samples run until the
time budget is spent, read from a clock the caller supplies (the engine owns no clock), or
exactly ``samples`` times, which makes decisions deterministic for tests.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Action
from ..determinize import determinize
from ..game import Phase
from ..plays import PlayOption
from ..view import PlayerView
from .normal import exchange_action, play_of
from .rollout import rollout

__all__ = ["HardBot"]

MAX_CANDIDATES = 6


class HardBot:
    """``samples``: a fixed number of sampled deals; otherwise ``budget`` seconds of ``clock``."""

    level = "hard"

    def __init__(self, seed: int | None = None, *, samples: int | None = None,
                 budget: float = 0.08, clock: Callable[[], float] | None = None) -> None:
        if samples is None and clock is None:
            raise ValueError("give a fixed sample count or a clock for the time budget")
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget
        self.clock = clock

    def choose(self, view: PlayerView) -> Action:
        give = exchange_action(view)
        if give is not None:
            return give
        heuristic = play_of(view)
        if view.rules.fast or view.phase is not Phase.PLAY or view.to_act != view.seat:
            return heuristic  # search assumes turn order; fast mode plays by the tactics
        candidates = _candidates(view, heuristic)
        if len(candidates) == 1:
            return heuristic
        totals = [0] * len(candidates)
        done = 0
        deadline = self.clock() + self.budget if self.clock is not None else 0.0
        while self._more(done, deadline):
            sample = determinize(view, random.Random(self.rng.random()))
            for i, option in enumerate(candidates):
                game = sample.clone(rng=sample.rng)
                game.step(view.seat, _same(game.legal_plays(view.seat), option))
                totals[i] += rollout(game, view.seat)
            done += 1
        best = min(range(len(candidates)), key=lambda i: (totals[i], i))
        option = candidates[best]
        return Action.pass_() if option is None else Action.play(option)

    def _more(self, done: int, deadline: float) -> bool:
        if self.samples is not None:
            return done < self.samples
        assert self.clock is not None
        return done == 0 or self.clock() < deadline


def _candidates(view: PlayerView, heuristic: Action) -> list[PlayOption | None]:
    """The moves worth simulating: the heuristic's, pass, then the cheapest options."""
    first = heuristic.option
    out: list[PlayOption | None] = [first]
    if view.can_pass and first is not None:
        out.append(None)
    seen = {None if first is None else first.key}
    ranked = sorted(view.legal, key=lambda o: (o.announce is not None, o.wilds,
                                               o.special is not None,
                                               view.strength(o.level), -o.count))
    for option in ranked:
        if len(out) >= MAX_CANDIDATES:
            break
        if option.key not in seen:
            seen.add(option.key)
            out.append(option)
    return out


def _same(options: list[PlayOption], option: PlayOption | None) -> PlayOption | None:
    """The sample's option of the same kind (its cards may differ in suit only)."""
    if option is None:
        return None
    key = option.key
    return next(o for o in options if o.key == key)
