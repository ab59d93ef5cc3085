"""The flat search hard decides by, and the normal level at its end (:mod:`.endsearch`).

For each sampled deal, every candidate move is played in that same deal and the game is
rolled out (:func:`.rollout.rollout`) until the searching seat's place is settled; the move
with the best mean place wins. With a few dozen samples the best of several noisy means is
often a candidate that merely had lucky deals, so another move replaces the default (the
first candidate: the tactics') only when its lead over it, sample by sample, exceeds
:data:`MARGIN` standard errors (docs/bots.md: this took hard in classic from 1.93 to 1.82
against greedy on the same 240 rounds).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from ..determinize import Dealer
from ..plays import PlayOption
from ..tells import Beliefs
from ..view import PlayerView
from .moves import same
from .rollout import rollout

__all__ = ["MARGIN", "best", "search"]

MARGIN = 1.0  # standard errors of the paired differences (see the module docstring)

# Which seats hold back and which play naively in one sample's rollouts (drawn per sample).
Styles = Callable[[], tuple[frozenset[int], frozenset[int]]]


def search(view: PlayerView, options: Sequence[PlayOption | None], rng: random.Random,
           more: Callable[[int], bool], believed: Beliefs, styles: Styles,
           waiting: frozenset[int], searchers: frozenset[int] = frozenset(),
           own_end: int = 0) -> PlayOption | None:
    """The best of ``options`` (the default first) over sampled deals, drawn while
    ``more(samples done)``; ``waiting``, ``searchers``, ``own_end``: see
    :func:`.rollout.rollout`."""
    places: list[list[int]] = [[] for _ in options]
    dealer = Dealer(view, believed)  # reads the view once for every sampled deal
    done = 0
    while more(done):
        sample = dealer.game(random.Random(rng.random()))
        holders, naive = styles()
        sample.prime()  # its copies below share the hands' options
        sample.scratch()  # ... and record no tells: the rollouts read none
        for i, option in enumerate(options):
            game = sample.clone(rng=sample.rng)
            game.step(view.seat, same(game.legal_plays(view.seat), option))
            places[i].append(rollout(game, view.seat, holders, naive, waiting, searchers,
                                     own_end))
        done += 1
    return options[best(places)]


def best(places: list[list[int]]) -> int:
    """The candidate with the best mean place, if it beats the default's (index 0) by
    more than MARGIN standard errors of the per-sample differences; else the default's.
    A single sample has no error to judge by: its best mean stands."""
    def mean_first(i: int) -> tuple[int, int]:
        return sum(places[i]), i

    top = min(range(len(places)), key=mean_first)
    n = len(places[0])
    if top == 0 or n < 2:
        return top
    diffs = [a - b for a, b in zip(places[0], places[top], strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return top if mean > MARGIN * math.sqrt(variance / n) else 0
