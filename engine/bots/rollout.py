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
import random
from collections.abc import Mapping

from ..game import Game, Phase
from ..leads import Unseen
from ..players import GreedyPlayer
from ..plays import PlayOption
from ..view import PlayerView
from .endsearch import END_CARDS, searches
from .moves import candidates, same
from .tactics import judge

__all__ = ["HOLD_BACK_SHARE", "NAIVE_SHARE", "Style", "draw_styles", "end_choice", "place",
           "rollout"]


class Style(enum.Enum):
    """How a seat plays in the rollouts: hard's model of another player."""

    TACTICS = "tactics"  # the shared tactics: answers whatever it takes (the bot levels)
    NAIVE = "naive"  # the reference bot's own code: whole groups only, 2s included, else pass
    HOLD_BACK = "hold_back"  # the tactics, but passes rather than spend or break (see HOLD_BACK)


# Each sampled deal also draws each opponent's style in the rollouts: naive (plays like the
# reference bot: whole groups only, 2s included, else passes) or holding back (passes rather
# than spend a control card or break a group), even odds. The search is only as good as its
# model of the others (docs/bots.md). Classic, 400 first rounds of seed 1 at 20 samples,
# against 3x greedy / 3x normal: half the opponents playing the tactics (never passing) and
# half holding back gave 1.75 / 2.17, this even mix of naive and holding back 1.65 / 2.20.
NAIVE_SHARE = 0.5
HOLD_BACK_SHARE = 0.5
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


def draw_styles(view: PlayerView, rng: random.Random, known: Mapping[int, Style],
                tacticians: frozenset[int]) -> tuple[frozenset[int], frozenset[int]]:
    """Which opponents hold back and which play naively in one sample's rollouts. A seat
    whose player is known plays as known; a seat seen splitting a group, or answering with a
    joker, a wild or the top single (``tacticians``), plays the tactics (it answers whatever
    it takes); the others are drawn."""
    holders: set[int] = set()
    naive: set[int] = set()
    for seat in view.order:
        if seat != view.seat:
            draw = rng.random()  # drawn for every seat: samples stay seeded alike
            style = known.get(seat)
            if style is None and seat not in tacticians:
                style = Style.NAIVE if draw < NAIVE_SHARE else \
                    Style.HOLD_BACK if draw < NAIVE_SHARE + HOLD_BACK_SHARE else None
            if style is Style.NAIVE:
                naive.add(seat)
            elif style is Style.HOLD_BACK:
                holders.add(seat)
    return frozenset(holders), frozenset(naive)


def rollout(game: Game, seat: int, holders: frozenset[int] = frozenset(),
            naive: frozenset[int] = frozenset(), waiting: frozenset[int] = frozenset(),
            searchers: frozenset[int] = frozenset(), own_end: int = 0, beat: int = 0) -> int:
    """Play ``game`` on with the tactics until ``seat``'s place is settled; that place.
    ``waiting``: the seats that play the one-lap lead of normal and hard (``lone_waits``).
    ``searchers``: seats of normal players, which search their end where the rules let them
    (:mod:`.endsearch`): modelled by :func:`end_choice`. ``own_end``: ``seat`` itself
    plays by :func:`end_choice` once it holds that many cards or fewer (0: never), as the
    hard bot searches its real end. ``beat``: stop once ``seat`` can no longer place better
    than that, and return it (0: play on to the end), where only a better place matters."""
    rules = game.rules
    hands = game.hands
    order = game.order  # the round's seats: fixed until the round ends, where this stops
    if not searches(rules):
        searchers = frozenset()
    finished = -1
    mine = hands[seat]  # the seat's hand: while it holds cards in play, nothing is settled
    play = Phase.PLAY
    while True:
        if not mine or game.phase is not play:
            settled = place(game, seat)
            if settled is not None:
                return settled
        if beat and len(game.out) != finished:
            finished = len(game.out)
            if _free_place(game) >= beat:
                return beat
        actor = game.to_act
        assert actor is not None, "rollouts need turn-based play"
        if actor in naive:
            game.step(actor, _NAIVE.pick(game, actor))
            continue
        trick = game.trick
        others = [len(hands[s]) for s in order if s != actor and hands[s]]
        can_pass = game.can_pass(actor)
        # The tactics count cards only to open a trick: the counter is built for leads alone.
        unseen = None if trick else \
            Unseen([card for s in order if s != actor for card in hands[s]], rules)
        option, reason = judge(hands[actor], game.legal_plays(actor), can_pass,
                               trick[-1] if trick else None, rules, game.revolution, others,
                               unseen, actor in waiting)
        if (actor in holders and can_pass and reason in HOLD_BACK
                and len(hands[actor]) > HOLD_BACK_ABOVE):
            option = None
        elif (actor in searchers and len(hands[actor]) <= END_CARDS) or (
                actor == seat and len(hands[actor]) <= own_end):
            option = end_choice(game, actor, option, holders, naive, waiting)
        game.step(actor, option)


def end_choice(game: Game, actor: int, default: PlayOption | None, holders: frozenset[int],
               naive: frozenset[int], waiting: frozenset[int]) -> PlayOption | None:
    """Hard's model of a normal seat searching its end: each of its search's candidates
    rolled out once on the rollout's own deal (a clairvoyant stand-in for its sampled
    deals, which would cost their number of rollouts per move), the best played; ties go
    to the tactics' move. Those rollouts play the tactics for every seat."""
    options = candidates(default, game.legal_plays(actor), game.can_pass(actor),
                         game.revolution)
    if len(options) == 1:
        return default
    # Only a strictly better place replaces the earlier candidate (ties keep it), and none
    # places better than the next place free: once one reaches it, the rest need no
    # rollout, and each later one is cut once it can no longer beat the best so far.
    floor = _free_place(game)
    best, top = default, 0
    for option in options:
        copy = game.clone(rng=game.rng)
        copy.step(actor, same(copy.legal_plays(actor), option))
        settled = rollout(copy, actor, holders, naive, waiting, beat=top)
        if not top or settled < top:
            best, top = option, settled
            if top == floor:
                break
    return best


def _free_place(game: Game) -> int:
    """The best place a seat still playing may reach: the next after the finishers."""
    return 1 + sum(1 for s in game.out if s not in game.penalised)
