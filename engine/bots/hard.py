"""The hard level: determinized Monte-Carlo search over the hidden cards.

For each sample, the other hands are dealt at random consistently with the view and, as
far as a deal allows, with what the others' plays and passes suggest (see
:mod:`engine.determinize` and :mod:`engine.tells`); every candidate move is played in that
same sample and the game is rolled out with the shared tactics until the bot's place is
settled. The move with the best mean place wins (ties go to the default move, listed
first: the normal level's tactics with hard's own one-lap lead, ``lone_waits`` in
:mod:`engine.bots.tactics`, which its own seat also plays in the rollouts). Samples run
until the time budget is spent, read from a clock the caller supplies (the engine owns no
clock), or exactly ``samples`` times, which makes decisions deterministic for tests.

With a few dozen samples the best of several noisy means is often a candidate that merely had
lucky deals, so another move replaces the heuristic's only when its lead over it, sample by
sample, exceeds :data:`MARGIN` standard errors (docs/bots.md: this took classic from 1.93 to
1.82 against greedy on the same 240 rounds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping

from ..actions import Action
from ..determinize import determinize
from ..game import Phase
from ..plays import PlayOption
from ..tells import beliefs, breakers, spenders
from ..view import PlayerView
from .normal import exchange_action, explain
from .rollout import Style, rollout

__all__ = ["HardBot"]

# Fewer candidates leave more samples for each: classic vs 3× greedy, 240 rounds seed 2,
# 3 / 4 / 6 candidates gave 1.80 / 1.75 / 1.82 (within noise of each other; 4 kept).
MAX_CANDIDATES = 4
# Each sampled deal also draws each opponent's style in the rollouts: naive (plays like the
# reference bot: whole groups only, 2s included, else passes) or holding back (passes rather
# than spend a control card or break a group), even odds. The search is only as good as its
# model of the others (docs/bots.md). Classic, 400 first rounds of seed 1 at 20 samples,
# against 3x greedy / 3x normal: half the opponents playing the tactics (never passing) and
# half holding back gave 1.75 / 2.17, this even mix of naive and holding back 1.65 / 2.20.
NAIVE_SHARE = 0.5
HOLD_BACK_SHARE = 0.5
MARGIN = 1.0  # standard errors of the paired differences (see the module docstring)


class HardBot:
    """``samples``: a fixed number of sampled deals; otherwise ``budget`` seconds of ``clock``.
    ``known``: how the seats whose player is known play (a bot's level is public at the
    table: the lobby shows it); the others' styles are drawn per sample. ``answerers``: the
    known seats whose player answers whenever it can, so that a pass says more
    (:func:`engine.tells.beliefs`)."""

    level = "hard"

    def __init__(self, seed: int | None = None, *, samples: int | None = None,
                 budget: float = 0.08, clock: Callable[[], float] | None = None,
                 known: Mapping[int, Style] | None = None,
                 answerers: frozenset[int] = frozenset()) -> None:
        if samples is None and clock is None:
            raise ValueError("give a fixed sample count or a clock for the time budget")
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget
        self.clock = clock
        self.known = dict(known or {})
        self.answerers = answerers

    def choose(self, view: PlayerView) -> Action:
        give = exchange_action(view)
        if give is not None:
            return give
        heuristic = explain(view, lone_waits=True)[0]
        if view.rules.fast or view.phase is not Phase.PLAY or view.to_act != view.seat:
            return heuristic  # search assumes turn order; fast mode plays by the tactics
        candidates = _candidates(view, heuristic)
        if len(candidates) == 1:
            return heuristic
        places: list[list[int]] = [[] for _ in candidates]
        done = 0
        deadline = self.clock() + self.budget if self.clock is not None else 0.0
        believed = beliefs(view, self.answerers)
        tacticians = breakers(view) | spenders(view)
        me = frozenset((view.seat,))  # its own later leads in the rollouts are its own
        while self._more(done, deadline):
            sample = determinize(view, random.Random(self.rng.random()), believed)
            holders, naive = self._styles(view, tacticians)
            for i, option in enumerate(candidates):
                game = sample.clone(rng=sample.rng)
                game.step(view.seat, _same(game.legal_plays(view.seat), option))
                places[i].append(rollout(game, view.seat, holders, naive, me))
            done += 1
        option = candidates[_best(places)]
        return Action.pass_() if option is None else Action.play(option)

    def _styles(self, view: PlayerView,
                tacticians: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
        """Which opponents hold back and which play naively in this sample's rollouts. A
        seat whose player is known plays as known; a seat seen splitting a group, or
        answering with a joker, a wild or the top single, plays the tactics (it answers
        whatever it takes); the others are drawn."""
        holders: set[int] = set()
        naive: set[int] = set()
        for seat in view.order:
            if seat != view.seat:
                draw = self.rng.random()  # drawn for every seat: samples stay seeded alike
                style = self.known.get(seat)
                if style is None and seat not in tacticians:
                    style = Style.NAIVE if draw < NAIVE_SHARE else \
                        Style.HOLD_BACK if draw < NAIVE_SHARE + HOLD_BACK_SHARE else None
                if style is Style.NAIVE:
                    naive.add(seat)
                elif style is Style.HOLD_BACK:
                    holders.add(seat)
        return frozenset(holders), frozenset(naive)

    def _more(self, done: int, deadline: float) -> bool:
        if self.samples is not None:
            return done < self.samples
        assert self.clock is not None
        return done == 0 or self.clock() < deadline


def _best(places: list[list[int]]) -> int:
    """The candidate with the best mean place, if it beats the heuristic's (index 0) by
    more than MARGIN standard errors of the per-sample differences; else the heuristic's.
    A single sample has no error to judge by: its best mean stands."""
    def mean_first(i: int) -> tuple[int, int]:
        return sum(places[i]), i

    best = min(range(len(places)), key=mean_first)
    n = len(places[0])
    if best == 0 or n < 2:
        return best
    diffs = [a - b for a, b in zip(places[0], places[best], strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > MARGIN * math.sqrt(variance / n) else 0


def _candidates(view: PlayerView, heuristic: Action) -> list[PlayOption | None]:
    """The moves worth simulating: the heuristic's, pass, then the cheapest options."""
    first = heuristic.option
    out: list[PlayOption | None] = [first]
    if view.can_pass and first is not None:
        out.append(None)
    seen = {None if first is None else first.key}
    def cheapest(o: PlayOption) -> tuple[bool, int, bool, int, int]:
        return (o.announce is not None, o.wilds, o.special is not None,
                view.strength(o.level), -o.count)

    ranked = sorted(view.legal, key=cheapest)
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
