"""The normal level: the shared tactics with card counting, a search of its last cards
where the rules allow it (:mod:`.endsearch`), and a considered exchange."""

from __future__ import annotations

import random

from ..actions import Action
from ..cards import TWO, Card
from ..leads import Unseen
from ..tells import beliefs, breakers, spenders
from ..view import PlayerView
from .endsearch import END_SAMPLES, searching, view_seed
from .flat import search
from .moves import candidates
from .rollout import draw_styles
from .tactics import judge

__all__ = ["GIFT_REASONS", "SEARCHED", "NormalBot", "decided", "exchange_action", "explain",
           "explain_gift", "opponents", "play_of", "unseen"]

# Why the normal level plays what its end search chose, where that departs from the
# tactics (the « Conseil » says so).
SEARCHED = "searched"

# Why :func:`explain_gift` gives what it gives: the rules' best or weakest cards, else lone
# low cards, or the cheapest even from a group when no lone low card is left to spare.
GIFT_REASONS = ("give_best", "give_weakest", "give_lone", "give_group")


def opponents(view: PlayerView) -> list[int]:
    """Hand sizes of the other seats still holding cards."""
    return [view.hand_sizes[s] for s in view.order if s != view.seat and view.hand_sizes[s]]


def unseen(view: PlayerView) -> Unseen:
    """The cards in other hands: neither in this hand nor played this round."""
    gone = set(view.hand) | set(view.pile)
    return Unseen([c for c in view.rules.deck_kind.cards() if c not in gone], view.rules)


def play_of(view: PlayerView) -> Action:
    """The normal level's play (or pass) in this position."""
    return explain(view)[0]


def explain(view: PlayerView, *, lone_waits: bool = True) -> tuple[Action, str]:
    """The normal level's play (or pass) and why, one of :data:`tactics.REASONS`: what the
    bot's « Conseil » button tells a player. ``lone_waits``: the one-lap lead that lets a
    lone weakest card wait (:func:`tactics.judge`), hard's since stop 43 and normal's since
    stop 54 (docs/bots.md « Proletario's normal, continued (stop 54) »); False gives the
    plain lead the easy level's tactics keep."""
    option, reason = judge(view.hand, view.legal, view.can_pass,
                           view.trick[-1] if view.trick else None, view.rules,
                           view.revolution, opponents(view), unseen(view), lone_waits)
    return (Action.pass_() if option is None else Action.play(option)), reason


def decided(view: PlayerView) -> tuple[Action, str]:
    """The normal level's play (or pass) and why: the tactics' (:func:`explain`), or, at
    the end of its hand where the rules let it search, the search's (reason
    :data:`SEARCHED` where it departs from the tactics). The same view gives the same move."""
    action, reason = explain(view)
    if not searching(view):
        return action, reason
    rng = random.Random(view_seed(view))
    tacticians = breakers(view) | spenders(view)
    options = candidates(action.option, view.legal, view.can_pass, view.revolution)
    if len(options) == 1:
        return action, reason
    me = frozenset((view.seat,))  # its own later leads in the rollouts are its own
    option = search(view, options, rng, lambda done: done < END_SAMPLES, beliefs(view),
                    lambda: draw_styles(view, rng, {}, tacticians), me)
    if option == action.option:
        return action, reason
    return (Action.pass_() if option is None else Action.play(option)), SEARCHED


def _keep_value(card: Card, view: PlayerView, groups: dict[int, int]) -> int:
    """How much giving this card away costs: control cards most, cards of a group more."""
    rules = view.rules
    if card.is_joker or card is rules.top_single or card.value in (TWO, rules.wild_level):
        return 100 + card.value
    return card.value + (4 if groups[card.value] >= 2 else 0)


def exchange_action(view: PlayerView) -> Action | None:
    """What to give when this seat owes cards: the rules' cards, or (free choice) the cheapest
    to lose, lone low cards before cards of a pair; None when nothing is due yet."""
    explained = explain_gift(view)
    return None if explained is None else explained[0]


def explain_gift(view: PlayerView) -> tuple[Action, str] | None:
    """:func:`exchange_action`'s gift and why, one of :data:`GIFT_REASONS` (what the bot's
    « Conseil » says in the exchange); None when nothing is due yet."""
    due = view.exchange
    if due is None or not due.ready:
        return None
    if due.mode == "best":
        return Action.give(tuple(due.allowed[-due.count:])), "give_best"
    if due.mode == "weakest":
        return Action.give(tuple(due.allowed[:due.count])), "give_weakest"
    groups: dict[int, int] = {}
    for card in view.hand:
        groups[card.value] = groups.get(card.value, 0) + 1
    def kept(card: Card) -> tuple[int, str]:
        return _keep_value(card, view, groups), card.suit

    ranked = sorted(due.allowed, key=kept)
    gift = ranked[:due.count]
    grouped = any(not c.is_joker and groups[c.value] >= 2 for c in gift)
    return Action.give(tuple(gift)), "give_group" if grouped else "give_lone"


class NormalBot:
    """Heuristic play (see :mod:`engine.bots.tactics`), under a millisecond per decision,
    and a short search of its last cards (:mod:`engine.bots.endsearch`, tens of ms)."""

    level = "normal"

    def choose(self, view: PlayerView) -> Action:
        give = exchange_action(view)
        if give is not None:
            return give
        return decided(view)[0]
