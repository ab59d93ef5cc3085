"""Determinization: a full game built from one seat's view plus sampled hidden hands.

Search cannot see the other hands, so it samples them: the unseen cards (the deck minus the
seat's hand and the cards played) are dealt to the other seats, each getting exactly as many
as it holds, the cards the view knows a seat holds going to that seat, and the view's
inferences (caps, lacks) respected when a deal allows it, then, as far as a few tries allow,
the beliefs the seats' passes and leads suggest (:mod:`engine.tells`). Everything public is
copied, so the sampled game continues under the same rules from the same position.

>>> import random
>>> from engine import Game, Rules
>>> from engine.view import player_view
>>> game = Game.new(Rules.preset("wild7"), seats=4, seed=2)
>>> sample = determinize(player_view(game, 0), random.Random(1))
>>> sample.hand(0) == game.hand(0), sample.hand_sizes() == game.hand_sizes()
(True, True)
"""

from __future__ import annotations

import random

from .cards import Card
from .game import Game, Phase
from .tells import Beliefs, beliefs
from .view import PlayerView

__all__ = ["determinize", "sample_hands"]

_TRIES = 20  # constrained deals retried before the soft inferences are dropped
_REPAIRS = 60  # swaps tried to mend the beliefs a deal breaks (engine.tells)
_NONE: frozenset[int] = frozenset()


def sample_hands(view: PlayerView, rng: random.Random,
                 believed: Beliefs | None = None) -> list[list[Card]]:
    """Hands for every seat consistent with ``view``: the seat's own, the others sampled.
    ``believed``: ``beliefs(view)``, for a caller sampling many deals from one view."""
    me = view.seat
    hands: list[list[Card]] = [[] for _ in range(view.seats)]
    hands[me] = list(view.hand)
    seen = set(view.pile) | set(view.hand)
    for seat, cards in view.known:
        hands[seat].extend(cards)
        seen.update(cards)
    pool = [c for c in view.rules.deck_kind.cards() if c not in seen]
    need = [0 if s == me else view.hand_sizes[s] - len(hands[s]) for s in range(view.seats)]
    caps = {seat: cap for seat, cap in view.caps}
    lacks: dict[tuple[int, int], int] = {}
    for seat, level, count in view.lacks:
        key = (seat, level)
        lacks[key] = min(lacks.get(key, count), count)
    dealt = _believed(beliefs(view) if believed is None else believed, pool, need, caps,
                      lacks, hands, rng)
    if dealt is None and (caps or lacks):
        for _ in range(_TRIES):
            dealt = _constrained(pool, need, caps, lacks, rng)
            if dealt is not None:
                break
    if dealt is None:
        dealt = _plain(pool, need, rng)
    for seat, sampled in enumerate(dealt):
        hands[seat].extend(sampled)
    return hands


def _believed(believed: Beliefs, pool: list[Card], need: list[int], caps: dict[int, int],
              lacks: dict[tuple[int, int], int], hands: list[list[Card]],
              rng: random.Random) -> list[list[Card]] | None:
    """A deal honouring the facts and the values believed absent or few, then repaired by swaps
    towards the other beliefs; None if no try could honour the absences."""
    if not believed.none and not believed.not_exact and not believed.fewer:
        return None
    absent = dict(lacks)  # (seat, level): holds fewer than this many
    for seat, level in believed.none:
        absent[(seat, level)] = 1
    for seat, level, limit in believed.fewer:
        absent[(seat, level)] = min(absent.get((seat, level), limit), limit)
    for _ in range(_TRIES):
        dealt = _constrained(pool, need, caps, absent, rng)
        if dealt is not None:
            if believed.not_exact:
                _repair(dealt, hands, believed.not_exact, caps, absent, rng)
            return dealt
    return None


def _repair(dealt: list[list[Card]], hands: list[list[Card]],
            not_exact: tuple[tuple[int, int, int], ...], caps: dict[int, int],
            absent: dict[tuple[int, int], int], rng: random.Random) -> None:
    """Swap sampled cards between seats while that breaks fewer « not exactly n » beliefs
    and keeps caps and absences: a short local search, not a guarantee. Each try swaps a
    random card of a seat with a broken belief for a random card of another seat."""
    forbidden: dict[tuple[int, int], set[int]] = {}
    for seat, level, n in not_exact:
        forbidden.setdefault((seat, level), set()).add(n)
    held: dict[tuple[int, int], int] = {}
    for seat, cards in enumerate(hands):
        for card in (*cards, *dealt[seat]):
            key = (seat, card.value)
            held[key] = held.get(key, 0) + 1

    def broken(key: tuple[int, int]) -> bool:
        return held.get(key, 0) in forbidden.get(key, ())

    seats = [s for s, cards in enumerate(dealt) if cards]
    wrong = {key for key in forbidden if broken(key)}
    if len(seats) < 2:  # nothing sampled to swap (every hidden card known): the deal stands
        return
    for _ in range(_REPAIRS):
        if not wrong:
            return
        seat = rng.choice(sorted(wrong))[0]
        mine = dealt[seat]
        other = rng.choice(seats)
        if other == seat or not mine:
            continue
        theirs = dealt[other]
        i, j = rng.randrange(len(mine)), rng.randrange(len(theirs))
        give, take = mine[i], theirs[j]
        gv, tv = give.value, take.value
        if gv == tv:
            continue
        # Four distinct keys (two seats, two values), counted and moved one by one: this
        # loop runs up to _REPAIRS times for every sampled deal.
        k1, k2, k3, k4 = (seat, gv), (other, gv), (seat, tv), (other, tv)
        h1, h2, h3, h4 = held.get(k1, 0), held.get(k2, 0), held.get(k3, 0), held.get(k4, 0)
        f1, f2, f3, f4 = (forbidden.get(k1, _NONE), forbidden.get(k2, _NONE),
                          forbidden.get(k3, _NONE), forbidden.get(k4, _NONE))
        before = (h1 in f1) + (h2 in f2) + (h3 in f3) + (h4 in f4)
        h1, h2, h3, h4 = h1 - 1, h2 + 1, h3 + 1, h4 - 1
        limit_take, limit_give = absent.get(k3), absent.get(k2)
        fits = (tv <= caps.get(seat, tv) and (limit_take is None or h3 < limit_take)
                and gv <= caps.get(other, gv) and (limit_give is None or h2 < limit_give))
        if fits and (h1 in f1) + (h2 in f2) + (h3 in f3) + (h4 in f4) < before:
            held[k1], held[k2], held[k3], held[k4] = h1, h2, h3, h4
            mine[i], theirs[j] = take, give
            for key, count, banned in ((k1, h1, f1), (k2, h2, f2), (k3, h3, f3),
                                       (k4, h4, f4)):
                if count in banned:
                    wrong.add(key)
                else:
                    wrong.discard(key)


def _plain(pool: list[Card], need: list[int], rng: random.Random) -> list[list[Card]]:
    cards = list(pool)
    rng.shuffle(cards)
    out: list[list[Card]] = []
    start = 0
    for n in need:
        out.append(cards[start:start + n])
        start += n
    return out


def _constrained(pool: list[Card], need: list[int], caps: dict[int, int],
                 lacks: dict[tuple[int, int], int],
                 rng: random.Random) -> list[list[Card]] | None:
    """One deal honouring caps and lacks, the most constrained cards placed first; None if
    this attempt painted itself into a corner."""
    left = list(need)
    out: list[list[Card]] = [[] for _ in need]
    held: dict[tuple[int, int], int] = {}
    cards = list(pool)
    rng.shuffle(cards)
    seats = [s for s, n in enumerate(need) if n > 0]
    # Each seat's cap (None: none) and absences (value: fewer than this many), looked up
    # once per seat rather than once per card and seat: this runs for every sampled deal.
    capped = [(s, caps.get(s), {v: n for (t, v), n in lacks.items() if t == s})
              for s in seats]

    # How many seats could take a card of each value, nothing placed yet: the cards with
    # the fewest are placed first (one count per value; the sort is stable, as before).
    homes: dict[int, int] = {}
    for card in cards:
        value = card.value
        if value not in homes:
            homes[value] = sum(1 for _, cap, limits in capped
                               if (cap is None or value <= cap)
                               and limits.get(value, 2) > 1)

    def placed_first(card: Card) -> int:
        return homes[card.value]

    cards.sort(key=placed_first)
    for card in cards:
        value = card.value
        open_seats = [s for s, cap, limits in capped
                      if left[s] > 0 and (cap is None or value <= cap)
                      and ((limit := limits.get(value)) is None
                           or held.get((s, value), 0) + 1 < limit)]
        if not open_seats:
            return None
        weights = [left[s] for s in open_seats]
        seat = rng.choices(open_seats, weights)[0]
        out[seat].append(card)
        left[seat] -= 1
        held[(seat, value)] = held.get((seat, value), 0) + 1
    return out


def determinize(view: PlayerView, rng: random.Random,
                believed: Beliefs | None = None) -> Game:
    """A game in ``view``'s position with sampled hidden hands, ready to play on.

    Only for the play phase: the exchange's pending gifts are not part of a view. The
    game's own generator is ``rng`` too (it deals later rounds, if search goes that far).
    """
    if view.phase is not Phase.PLAY:
        raise ValueError("determinize needs a position in the play phase")
    game = Game(view.rules, view.seats, rng)
    game.phase = view.phase
    game.round_no = view.round_no
    game.hands = sample_hands(view, rng, believed)
    game.active = [s in view.order for s in range(view.seats)]
    game.order = list(view.order)
    game.points = list(view.points)
    game.ranking = view.ranking
    game.out = list(view.out)
    game.penalised = list(view.penalised)
    game.revolution = view.revolution
    game.trick = list(view.trick)
    game.pile = list(view.pile)
    game.passed = set(view.passed)
    game._run = game._run_length()
    game.last_player = view.last_player
    game.to_act = view.to_act
    game.opener = view.opener
    game.constraint = view.constraint
    game.lap = list(view.lap)
    game.lacks = list(view.lacks)
    game.played = [list(p) for p in view.played]
    game.tells = list(view.tells)
    return game
