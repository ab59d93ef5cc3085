"""The hard level: determinized Monte-Carlo search over the hidden cards.

For each sample, the other hands are dealt at random consistently with the view and, as
far as a deal allows, with what the others' plays and passes suggest (see
:mod:`engine.determinize` and :mod:`engine.tells`); every candidate move is played in that
same sample and the game is rolled out with the shared tactics until the bot's place is
settled. The move with the best mean place wins (ties go to the default move, listed
first: the normal level's tactics with its one-lap lead, ``lone_waits`` in
:mod:`engine.bots.tactics`, which its own seat and the known normal seats also play in the
rollouts; where no finish is penalised, its own seat's last :data:`OWN_END_CARDS` cards
there are searched as it searches them in play, :func:`own_end`). Samples run
until the time budget is spent, read from a clock the caller supplies (the engine owns no
clock), or exactly ``samples`` times, which makes decisions deterministic for tests.

With a few dozen samples the best of several noisy means is often a candidate that merely had
lucky deals, so another move replaces the heuristic's only when its lead over it, sample by
sample, exceeds :data:`.flat.MARGIN` standard errors (docs/bots.md: this took classic from 1.93 to
1.82 against greedy on the same 240 rounds).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from ..actions import Action
from ..game import Phase
from ..rules import Rules
from ..tells import beliefs, breakers, spenders
from ..view import PlayerView
from .endsearch import END_CARDS, searches
from .flat import search
from .moves import candidates
from .normal import exchange_action, explain
from .rollout import Style, draw_styles

__all__ = ["OWN_END_CARDS", "HardBot", "own_end"]

# Hard's own seat, in its rollouts, searches its last cards this many or fewer as it does
# in play (:func:`.rollout.end_choice`, each candidate rolled out once on the rollout's
# deal), where :func:`own_end` lets it. Stop 55 measured 3 better than 4 in presi; stop 59
# 4 flat in proletario against 3× normal (−0.008 ± 0.030 on 351 deals, 1.2× the CPU).
OWN_END_CARDS = 3


def own_end(rules: Rules) -> int:
    """How many cards or fewer hard's own seat searches its end with in its rollouts: where
    no finish is penalised (``finish_penalty``), :data:`OWN_END_CARDS`; else 0, the
    tactics. At 20 samples, paired per deal (docs/bots.md): presi better against 3× greedy
    on fresh deals (« Hard's own end in its rollouts, gated (stop 57) »); proletario's
    one-lap tricks better against 3× normal and flat against 3× greedy (« Hard's own end in
    proletario's rollouts (stop 58) »); classic (a penalised 2) flat on 320 fresh deals at
    stop 58. The model pays where hard's real end beats the tactics' by much: from its first
    turn with 3 cards or fewer, by 0.15 of a place in presi and 0.19 in classic without its
    penalty, but 0.03 where a 2 may not finish (classic, presi with the penalty) (« Hard's
    own end in classic (stop 58) »)."""
    return OWN_END_CARDS if rules.finish_penalty == "none" else 0


class HardBot:
    """``samples``: a fixed number of sampled deals; otherwise ``budget`` seconds of ``clock``.
    ``known``: how the seats whose player is known play (a bot's level is public at the
    table: the lobby shows it); the others' styles are drawn per sample. ``answerers``: the
    known seats whose player answers whenever it can, so that a pass says more
    (:func:`engine.tells.beliefs`). ``searchers``: the known seats of normal players, which
    search their last cards where the rules let them (:mod:`.endsearch`): their moves then
    say nothing, and the rollouts model that search (:func:`.rollout.end_choice`) wherever
    it runs, one-lap tricks too (:func:`.endsearch.searches`). ``naive``: the known seats of
    reference players all round: their answers and passes are read by that player's own
    rule (:func:`engine.tells.beliefs`). ``own``: how many cards or fewer its own seat
    searches its end with in the rollouts; None, as the rules say (:func:`own_end`).
    """

    level = "hard"

    def __init__(self, seed: int | None = None, *, samples: int | None = None,
                 budget: float = 0.08, clock: Callable[[], float] | None = None,
                 known: Mapping[int, Style] | None = None,
                 answerers: frozenset[int] = frozenset(),
                 searchers: frozenset[int] = frozenset(),
                 naive: frozenset[int] = frozenset(), own: int | None = None) -> None:
        if samples is None and clock is None:
            raise ValueError("give a fixed sample count or a clock for the time budget")
        self.rng = random.Random(seed)
        self.samples = samples
        self.budget = budget
        self.clock = clock
        self.known = dict(known or {})
        self.answerers = answerers
        self.searchers = searchers
        self.naive = naive
        self.own = own
        # How many deals the last decision sampled (0: it did not search): what a timed
        # search fit in its budget, which the table service reports under load.
        self.sampled = 0

    def choose(self, view: PlayerView) -> Action:
        self.sampled = 0
        give = exchange_action(view)
        if give is not None:
            return give
        heuristic = explain(view)[0]
        if view.rules.fast or view.phase is not Phase.PLAY or view.to_act != view.seat:
            return heuristic  # search assumes turn order; fast mode plays by the tactics
        options = candidates(heuristic.option, view.legal, view.can_pass, view.revolution)
        if len(options) == 1:
            return heuristic
        deadline = self.clock() + self.budget if self.clock is not None else 0.0
        searched = END_CARDS if searches(view.rules) and self.searchers else 0
        # Known normal players lead as it does in one-lap tricks (``lone_waits``).
        believed = beliefs(view, self.answerers, searched_end=searched, naive=self.naive,
                           waiting=self.answerers)
        tacticians = breakers(view) | spenders(view)
        # Its own later leads in the rollouts are its own; known normal players lead so too.
        waiting = self.searchers | {view.seat}
        # Their end search is modelled (rollout.end_choice) where tricks last until all
        # pass; in one-lap tricks the model cost more than it told (docs/bots.md, « Hard
        # against the stronger normal in proletario (stop 55) »: with its truer reading
        # of their leads, 2.40 → 2.30 against 3× normal, about 4× faster).
        modelled = self.searchers if view.rules.trick_end != "one_lap" else frozenset()
        option = search(view, options, self.rng, self._more(deadline), believed,
                        lambda: draw_styles(view, self.rng, self.known, tacticians), waiting,
                        modelled, own_end(view.rules) if self.own is None else self.own)
        return Action.pass_() if option is None else Action.play(option)

    def _more(self, deadline: float) -> Callable[[int], bool]:
        samples, clock = self.samples, self.clock

        def more(done: int) -> bool:
            self.sampled = done
            if samples is not None:
                return done < samples
            assert clock is not None
            return done == 0 or clock() < deadline

        return more
