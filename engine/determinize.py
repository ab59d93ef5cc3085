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
from collections.abc import Callable

from .cards import Card
from .game import Game, Phase
from .tells import Beliefs, beliefs
from .view import PlayerView

__all__ = ["Dealer", "determinize", "sample_hands"]

_TRIES = 20  # constrained deals retried before the soft inferences are dropped
_REPAIRS = 60  # swaps tried to mend the beliefs a deal breaks (engine.tells)
_NONE: frozenset[int] = frozenset()


class Dealer:
    """Deals one view's hidden cards, deal after deal. Search samples dozens of deals from
    one view: what the view fixes (the unseen cards, what each seat lacks, its caps and
    absences, the beliefs and the counts they are judged by) is read here once, and each
    :meth:`hands` draws only what is random, with the same draws as a dealer built anew."""

    __slots__ = ("view", "_hands", "_pool", "_need", "_caps", "_facts", "_believed",
                 "_absent", "_held", "_forbidden", "_seats", "_soft", "_hard")

    def __init__(self, view: PlayerView, believed: Beliefs | None = None) -> None:
        me = view.seat
        hands: list[list[Card]] = [[] for _ in range(view.seats)]
        hands[me] = list(view.hand)
        seen = set(view.pile) | set(view.hand)
        for seat, cards in view.known:
            hands[seat].extend(cards)
            seen.update(cards)
        self.view = view
        self._hands = hands
        self._pool = [c for c in view.rules.deck_kind.cards() if c not in seen]
        need = [0 if s == me else view.hand_sizes[s] - len(hands[s])
                for s in range(view.seats)]
        self._need = need
        caps = {seat: cap for seat, cap in view.caps}
        lacks: dict[tuple[int, int], int] = {}
        for seat, level, count in view.lacks:
            key = (seat, level)
            lacks[key] = min(lacks.get(key, count), count)
        self._caps = caps
        self._facts = bool(caps or lacks)
        # The facts alone: what a deal falls back on when the beliefs cannot be honoured.
        self._hard = _Constraints(self._pool, need, caps, lacks)
        believed = beliefs(view) if believed is None else believed
        self._believed = bool(believed.none or believed.not_exact or believed.fewer)
        absent = dict(lacks)  # (seat, level): holds fewer than this many
        for seat, level in believed.none:
            absent[(seat, level)] = 1
        for seat, level, limit in believed.fewer:
            absent[(seat, level)] = min(absent.get((seat, level), limit), limit)
        self._absent = absent
        self._soft = _Constraints(self._pool, need, caps, absent) if self._believed else None
        # What _repair judges a deal by: the counts the view fixes, the counts believed not.
        forbidden: dict[tuple[int, int], set[int]] = {}
        for seat, level, n in believed.not_exact:
            forbidden.setdefault((seat, level), set()).add(n)
        self._forbidden = forbidden
        held: dict[tuple[int, int], int] = {}
        for seat, hand in enumerate(hands):
            for card in hand:
                key = (seat, card.value)
                held[key] = held.get(key, 0) + 1
        self._held = held
        self._seats = [s for s, n in enumerate(need) if n > 0]

    def hands(self, rng: random.Random) -> list[list[Card]]:
        """Hands for every seat consistent with the view: the seat's own, the others
        sampled (see :func:`sample_hands`)."""
        hands = [list(h) for h in self._hands]
        dealt = None
        soft = self._soft
        if soft is not None:
            for _ in range(_TRIES):
                dealt = soft.deal(rng)
                if dealt is not None:
                    if self._forbidden:
                        self._repair(dealt, rng)
                    break
        if dealt is None and self._facts:
            for _ in range(_TRIES):
                dealt = self._hard.deal(rng)
                if dealt is not None:
                    break
        if dealt is None:
            dealt = _plain(self._pool, self._need, rng)
        for seat, sampled in enumerate(dealt):
            hands[seat].extend(sampled)
        return hands

    def game(self, rng: random.Random) -> Game:
        """A game in the view's position with sampled hidden hands (see
        :func:`determinize`)."""
        view = self.view
        game = Game(view.rules, view.seats, rng)
        game.phase = view.phase
        game.round_no = view.round_no
        game.hands = self.hands(rng)
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

    def _repair(self, dealt: list[list[Card]], rng: random.Random) -> None:
        """Swap sampled cards between seats while that breaks fewer « not exactly n »
        beliefs and keeps caps and absences: a short local search, not a guarantee. Each
        try swaps a random card of a seat with a broken belief for a random card of
        another seat."""
        forbidden, caps, absent = self._forbidden, self._caps, self._absent
        held = dict(self._held)
        for seat, cards in enumerate(dealt):
            for card in cards:
                key = (seat, card.value)
                held[key] = held.get(key, 0) + 1
        seats = self._seats
        wrong = {key for key in forbidden if held.get(key, 0) in forbidden[key]}
        if len(seats) < 2:  # nothing sampled to swap (every hidden card known): it stands
            return
        below = _below(rng)
        broken = sorted(wrong)  # sorted again only when a kept swap changes ``wrong``
        for _ in range(_REPAIRS):
            if not broken:
                return
            seat = broken[below(len(broken))][0]
            mine = dealt[seat]
            other = seats[below(len(seats))]
            if other == seat or not mine:
                continue
            theirs = dealt[other]
            i, j = below(len(mine)), below(len(theirs))
            give, take = mine[i], theirs[j]
            gv, tv = give.value, take.value
            if gv == tv:
                continue
            # Four distinct keys (two seats, two values), counted and moved one by one:
            # this loop runs up to _REPAIRS times for every sampled deal.
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
                broken = sorted(wrong)


def _below(rng: random.Random) -> Callable[[int], int]:
    """``rng.randrange(n)`` for n > 0, which ``rng.choice`` draws by too: the same bits
    drawn the same way as CPython's ``Random._randbelow``, without its two calls a draw
    (the repairs draw four a try)."""
    getrandbits = rng.getrandbits

    def below(n: int) -> int:
        k = n.bit_length()
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    return below


def sample_hands(view: PlayerView, rng: random.Random,
                 believed: Beliefs | None = None) -> list[list[Card]]:
    """Hands for every seat consistent with ``view``: the seat's own, the others sampled.
    ``believed``: ``beliefs(view)``, for a caller sampling many deals from one view (a
    :class:`Dealer` reads the view once for them all)."""
    return Dealer(view, believed).hands(rng)


def _plain(pool: list[Card], need: list[int], rng: random.Random) -> list[list[Card]]:
    cards = list(pool)
    rng.shuffle(cards)
    out: list[list[Card]] = []
    start = 0
    for n in need:
        out.append(cards[start:start + n])
        start += n
    return out


class _Constraints:
    """Deals honouring caps and absences, the most constrained cards placed first. What
    the constraints fix (each seat's cap and absences, how many seats could take each
    value) is read once; each :meth:`deal` draws as a fresh reading would."""

    __slots__ = ("pool", "need", "capped", "homes", "eligible")

    def __init__(self, pool: list[Card], need: list[int], caps: dict[int, int],
                 lacks: dict[tuple[int, int], int]) -> None:
        self.pool = pool
        self.need = need
        # Each seat's cap (None: none) and absences (value: fewer than this many).
        self.capped = [(s, caps.get(s), {v: n for (t, v), n in lacks.items() if t == s})
                       for s, n in enumerate(need) if n > 0]
        # How many seats could take a card of each value, nothing placed yet: the cards
        # with the fewest are placed first.
        self.homes: dict[int, int] = {}
        # The seats under their cap for each value, with their absence (None: none).
        self.eligible: dict[int, list[tuple[int, int | None]]] = {}
        for card in pool:
            value = card.value
            if value not in self.homes:
                self.homes[value] = sum(1 for _, cap, limits in self.capped
                                        if (cap is None or value <= cap)
                                        and limits.get(value, 2) > 1)
                self.eligible[value] = [(s, limits.get(value)) for s, cap, limits in self.capped
                                        if cap is None or value <= cap]

    def deal(self, rng: random.Random) -> list[list[Card]] | None:
        """One deal; None if this attempt painted itself into a corner."""
        left = list(self.need)
        out: list[list[Card]] = [[] for _ in left]
        held: dict[tuple[int, int], int] = {}
        eligible = self.eligible
        homes = self.homes
        cards = list(self.pool)
        rng.shuffle(cards)

        def placed_first(card: Card) -> int:
            return homes[card.value]

        cards.sort(key=placed_first)  # stable: the shuffle orders equals
        random_ = rng.random
        for card in cards:
            value = card.value
            # The seats open to the card and the running totals of their cards left, in
            # one pass over the value's eligible seats.
            open_seats = []
            totals = []
            total = 0
            for s, limit in eligible[value]:
                n = left[s]
                if n > 0 and (limit is None or held.get((s, value), 0) + 1 < limit):
                    open_seats.append(s)
                    total += n
                    totals.append(total)
            if not open_seats:
                return None
            # rng.choices(open_seats, weights=left's)[0], its draw inlined: the first seat
            # whose running total of cards left exceeds random() times their sum.
            last = len(open_seats) - 1
            point = random_() * (total + 0.0)
            k = 0
            while k < last and totals[k] <= point:
                k += 1
            seat = open_seats[k]
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
    return Dealer(view, believed).game(rng)
