"""A second, independent reading of the trick rules (RULES.md §5–§8), played beside the engine.

The scenarios check the cases someone thought of; this plays random turn-based rounds under
random knob combinations (every value of the trick knobs, wild 7s, jokers, the 2 of oros,
two to six seats) and, at every decision, asks both readings whether random sets of cards
(wild plays with random announcements) may be played, then applies the same action to both
and compares who acts, the top of the trick, the order, who went out and the final ranking.
The reference is written straight from the rules, sharing no code with the engine but the
cards and the knobs' parsing: a change to one reading that the other does not share fails here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from engine import Game, Rules
from engine.cards import SEVEN, THREE, TWO, Card
from engine.rules import RulesError

#: (special, level, count, wilds), special being None, "joker" or "top_single".
Kind = tuple[str | None, int, int, int]


@dataclass
class Play:
    level: int
    count: int
    special: str | None


@dataclass
class Reference:
    rules: Rules
    hands: list[set[Card]]
    order: list[int]
    to_act: int | None
    trick: list[Play] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)
    last: int | None = None
    revolution: bool = False
    constraint: tuple[int, int, int] | None = None  # seat, level, count
    out: list[int] = field(default_factory=list)
    penalised: list[int] = field(default_factory=list)
    over: bool = False
    run: int = 0  # cards of the top value lying together at the top of the trick
    lap: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        assert self.to_act is not None
        self._new_lap(self.to_act)

    # -- reading the cards ----------------------------------------------------------------
    @property
    def wild(self) -> int | None:
        return SEVEN if self.rules.wild_rank == "7" else None

    def kind(self, cards: list[Card], announce: int | None) -> Kind | None:
        """What the cards make as a play (RULES §1, §7), or None if nothing."""
        if not cards or len(set(cards)) != len(cards) or len(cards) > 4:
            return None
        if any(c.is_joker for c in cards):
            return ("joker", cards[0].value, 1, 0) if len(cards) == 1 else None
        if len(cards) == 1 and cards[0] is self.rules.top_single:
            return ("top_single", TWO, 1, 0)
        naturals = [c for c in cards if c.value != self.wild]
        wilds = len(cards) - len(naturals)
        if naturals:
            if len({c.value for c in naturals}) > 1:
                return None
            level = naturals[0].value
            if announce is not None and announce != level:
                return None
            return (None, level, len(cards), wilds)
        assert self.wild is not None
        return (None, self.wild if announce is None else announce, len(cards), wilds)

    def beats(self, level: int, top: int) -> bool:
        return level < top if self.revolution else level > top

    def legal(self, seat: int, cards: list[Card], announce: int | None) -> bool:
        if self.over or seat != self.to_act or not set(cards) <= self.hands[seat]:
            return False
        kind = self.kind(cards, announce)
        if kind is None:
            return False
        special, level, count, wilds = kind
        if self.constraint is not None and self.constraint[0] == seat:  # §6: same or pass
            return special is None and not wilds and self.constraint[1:] == (level, count)
        if not self.trick:
            return True
        top = self.trick[-1]
        if top.special == "joker":
            return special == "joker" and level > top.level
        if special is not None:  # a joker or the top single card beats any play
            return True
        r = self.rules
        twos_best = r.two_beats_larger and not self.revolution  # in revolution 2s are weakest
        if twos_best and top.level == TWO:
            return False  # after 2s only a joker
        if count != top.count and not (twos_best and level == TWO
                                       and count == top.count - 1):
            return False
        if level == top.level:
            return r.equal_allowed
        return self.beats(level, top.level)

    # -- turns ----------------------------------------------------------------------------
    def _after(self, seat: int) -> list[int]:
        i = self.order.index(seat)
        return [self.order[(i + k) % len(self.order)] for k in range(1, len(self.order) + 1)]

    def _new_lap(self, opener: int) -> None:
        self.lap = self._after(opener)[:-1]

    def _following(self, seat: int) -> int | None:
        if self.rules.trick_end == "one_lap":
            while self.lap:
                candidate = self.lap.pop(0)
                if self.hands[candidate]:
                    return candidate
            return None
        for candidate in self._after(seat):
            if candidate == self.last:
                return None
            if self.hands[candidate] and candidate not in self.passed:
                return candidate
        return None

    def _close(self) -> None:
        winner = self.last
        assert winner is not None
        opener = winner if self.hands[winner] else next(
            s for s in self._after(winner) if self.hands[s])
        self.trick, self.passed, self.constraint, self.last, self.run = [], set(), None, None, 0
        self.to_act = opener
        self._new_lap(opener)

    def _holders(self) -> list[int]:
        return [s for s in self.order if self.hands[s]]

    def play(self, seat: int, cards: list[Card], announce: int | None) -> None:
        kind = self.kind(cards, announce)
        assert kind is not None
        special, level, count, _ = kind
        r = self.rules
        previous = self.trick[-1] if self.trick else None
        self.hands[seat] -= set(cards)
        same_run = previous is not None and previous.special is None and special is None \
            and previous.level == level
        self.run = self.run + count if same_run else (count if special is None else 0)
        self.trick.append(Play(level, count, special))
        self.last, self.constraint = seat, None
        if special == "top_single":
            closes = True
        elif special == "joker":
            closes = r.jokers_close
        else:
            before = self.revolution
            if count == 4 and r.revolution:
                self.revolution = not before
            closes = ((r.closing_rank == "best" and level == (THREE if before else TWO))
                      or (r.closing_rank == "two" and level == TWO)
                      or (r.four_closes and self.run >= 4))
        if not self.hands[seat]:
            self.out.append(seat)
            if r.finish_penalty != "none" and special != "joker" and (
                level == TWO or (r.finish_penalty == "two_or_wild"
                                 and any(c.value == SEVEN for c in cards))):
                self.penalised.append(seat)
            if len(self._holders()) <= 1:
                self.over, self.to_act = True, None
                return
            closes = closes or r.finishing_closes_trick
        if closes:
            self._close()
            return
        following = self._following(seat)
        equal = previous is not None and previous.special is None and special is None \
            and (previous.level, previous.count) == (level, count)
        if following is not None and equal:
            if r.on_equal == "skip_next":
                following = self._following(following)
            elif r.on_equal == "skip_unless_holding":
                held = [c for c in self.hands[following] if c.value == level
                        and not (count == 1 and c is r.top_single)]
                if len(held) >= count:
                    self.constraint = (following, level, count)
                else:
                    following = self._following(following)
            elif r.on_equal == "same_or_pass":
                self.constraint = (following, level, count)
        if following is None:
            self._close()
        else:
            self.to_act = following

    def pass_turn(self, seat: int) -> None:
        if self.rules.pass_is_final:
            self.passed.add(seat)
        self.constraint = None
        following = self._following(seat)
        if following is None:
            self._close()
        else:
            self.to_act = following

    def ranking(self) -> list[int]:
        finishers = [s for s in self.out if s not in self.penalised]
        return finishers + self._holders() + list(reversed(self.penalised))


_TRICK_KNOBS: dict[str, list[object]] = {
    "equal_allowed": [True, False],
    "on_equal": ["none", "skip_unless_holding", "skip_next", "same_or_pass"],
    "trick_end": ["all_passed", "one_lap"],
    "pass_is_final": [True, False],
    "finishing_closes_trick": [True, False],
    "closing_rank": ["none", "best", "two"],
    "four_closes": [True, False],
    "revolution": [True, False],
    "two_beats_larger": [True, False],
    "finish_penalty": ["none", "two", "two_or_wild"],
    "jokers_close": [True, False],
}


def _rules(rng: random.Random) -> Rules | None:
    preset = rng.choice(["classic", "presi", "proletario", "wild7"])
    overrides: dict[str, object] = {
        name: rng.choice(values) for name, values in _TRICK_KNOBS.items() if rng.random() < 0.4}
    overrides.update(fast=False, min_players=2, max_players=8)
    if preset != "presi" and rng.random() < 0.3:
        overrides["deck"] = rng.choice(["french52", "french54"])
    if preset in ("classic", "proletario") and rng.random() < 0.2:
        overrides["wild_rank"] = "7"
    try:
        return Rules.preset(preset, **overrides)
    except RulesError:  # a combination the knobs refuse
        return None


def _play_one(seed: int) -> None:
    rng = random.Random(seed)
    rules = _rules(rng)
    if rules is None:
        return
    seats, size = rng.randint(2, 6), rng.randint(2, 6)
    deck = rules.deck_kind.cards()
    rng.shuffle(deck)
    if rng.random() < 0.5:  # hands of few values: quads, revolutions, four of a kind closing
        start = rng.randrange(len(deck))
        deck = sorted(deck, key=lambda c: c.value)
        deck = deck[start:] + deck[:start]
    hands = [deck[i * size:(i + 1) * size] for i in range(seats)]
    game = Game.new(rules, seats, seed=seed, hands=hands, opener=rng.randrange(seats))
    ref = Reference(rules, [set(h) for h in hands], list(game.order), game.to_act)
    where = f"seed {seed}, {rules.describe()}"
    parse = rules.deck_kind.parse_value
    while game.phase.value == "play":
        seat = game.to_act
        assert seat is not None and seat == ref.to_act, where
        hand = list(game.hands[seat])
        for _ in range(6):
            cards = rng.sample(hand, rng.randint(1, min(4, len(hand))))
            announce = None
            if ref.wild is not None and all(c.value == SEVEN for c in cards) and rng.random() < .7:
                announce = rng.choice(rules.deck_kind.ranks)
            expected = ref.legal(seat, cards, None if announce is None else parse(announce))
            assert game.can_play(seat, cards, announce) == expected, (
                where, [str(c) for c in cards], announce)
        options = game.legal_plays(seat)
        if game.can_pass(seat) and (not options or rng.random() < 0.3):
            game.pass_turn(seat)
            ref.pass_turn(seat)
        else:
            option = rng.choice(options)
            game.play(seat, option.cards, option.announce)
            ref.play(seat, list(option.cards),
                     None if option.announce is None else parse(option.announce))
        assert game.revolution == ref.revolution and list(game.out) == ref.out, where
        if not ref.over:
            top = game.top
            want = ref.trick[-1] if ref.trick else None
            assert (None if top is None else (top.level, top.count)) == (
                None if want is None else (want.level, want.count)), where
    assert ref.over and game.ranking is not None and list(game.ranking) == ref.ranking(), where


@pytest.mark.parametrize("block", range(4))
def test_the_engine_plays_tricks_as_an_independent_reading_of_the_rules(block: int) -> None:
    for seed in range(block * 100, (block + 1) * 100):
        _play_one(seed)
