"""Plays: what a player may put down, grouped the way a player thinks of it.

A :class:`PlayOption` is one *kind* of play — "two kings", "a king and a wild 7 as two kings",
"two 7s announced as aces", "the red joker" — together with the concrete cards the engine would
use. Suits never matter except for named cards, so the engine picks them; a player who cares
(or the scenario runner) may name exact cards instead, and :func:`signature` maps those cards
back to the same kind.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

from .cards import TWO, Card, Deck
from .errors import IllegalAction

__all__ = ["PlayOption", "Signature", "TrickTop", "legal_options", "signature"]

#: (special, level, count, wilds): what kind of play a set of cards is.
Signature = tuple[str | None, int, int, int]


class PlayOption(NamedTuple):
    """One legal kind of play and the cards the engine would use for it.

    A named tuple rather than a dataclass: the engine builds thousands per second.
    """

    value: str  # effective rank (``"K"``), or the joker itself (``"RJ"``)
    level: int  # effective value in normal order (see engine.cards)
    count: int  # type: ignore[assignment]  # shadows tuple.count, on purpose: it is the rules' word
    cards: tuple[Card, ...]
    wilds: int = 0
    announce: str | None = None
    special: str | None = None  # None, "joker", "top_single"

    @property
    def key(self) -> Signature:
        return (self.special, self.level, self.count, self.wilds)

    def __str__(self) -> str:
        if self.special:
            return str(self.cards[0])
        if self.announce is not None:
            return f"{self.cards[0].rank}→{self.value}×{self.count}"
        if self.wilds:
            return f"{self.value}×{self.count}+{self.wilds}w"
        return f"{self.value}×{self.count}"


class TrickTop(Protocol):
    """What an answer must beat: the last play of the trick (a :class:`TrickPlay`)."""

    @property
    def level(self) -> int: ...
    @property
    def count(self) -> int: ...
    @property
    def special(self) -> str | None: ...


def signature(
    cards: Sequence[Card],
    announce: str | None,
    deck: Deck,
    wild_level: int | None,
    top_single: Card | None,
) -> Signature:
    """The kind of play these cards make, or IllegalAction if they make none."""
    if not cards:
        raise IllegalAction("no_cards", "A play needs at least one card.")
    if len(set(cards)) != len(cards):
        raise IllegalAction("duplicate_cards", "The same card was named twice.")
    if len(cards) > 4:
        raise IllegalAction("too_many_cards", "A play has at most four cards.")
    if any(c.is_joker for c in cards):
        if len(cards) > 1:
            raise IllegalAction("joker_alone", "A joker is only ever played alone.")
        return ("joker", cards[0].value, 1, 0)
    if len(cards) == 1 and cards[0] is top_single:
        return ("top_single", TWO, 1, 0)
    naturals = [c for c in cards if c.value != wild_level]
    wilds = len(cards) - len(naturals)
    if naturals:
        level = naturals[0].value
        if any(c.value != level for c in naturals):
            raise IllegalAction("mixed_values", "All cards of a play must have the same value.")
        if announce is not None and _announced(announce, deck) != level:
            raise IllegalAction(
                "bad_announce", "Wild cards played with other cards take their value.",
                value=deck.rank_of(level),
            )
        return (None, level, len(cards), wilds)
    if announce is None:
        assert wild_level is not None
        return (None, wild_level, len(cards), wilds)
    return (None, _announced(announce, deck), len(cards), wilds)


def _announced(announce: str, deck: Deck) -> int:
    """The value a play announces; one the deck lacks is a refused play, whether the cards
    are all wild or not (the announcement of natural cards must name their own value)."""
    try:
        return deck.parse_value(announce)
    except ValueError as err:
        raise IllegalAction("bad_announce", str(err), value=announce) from None


_PLAIN: dict[tuple[tuple[Card, ...], bool], list[PlayOption]] = {}


def plain_options(naturals: tuple[Card, ...], top_single_held: bool) -> list[PlayOption]:
    """Options from cards of one value without wilds, memoised: a deck has few such sets."""
    key = (naturals, top_single_held)
    cached = _PLAIN.get(key)
    if cached is None:
        first = naturals[0]
        start = 2 if top_single_held and len(naturals) == 1 else 1
        cached = [PlayOption(first.rank, first.value, count, naturals[:count])
                  for count in range(start, len(naturals) + 1)]
        _PLAIN[key] = cached
    return cached


def opening_options(
    hand: Sequence[Card],
    *,
    deck: Deck,
    wild_level: int | None,
    top_single: Card | None,
) -> list[PlayOption]:
    """Every kind of play ``hand`` can make on an empty trick, weakest value first.

    Every answer is one of these too, so the engine builds this list once per hand and
    :func:`legal_options` filters it at each decision (the engine's hot loop).
    """
    groups: dict[int, list[Card]] = {}
    wilds: list[Card] = []
    jokers: list[Card] = []
    for card in hand:
        value = card.value
        if value > TWO:
            jokers.append(card)
        elif value == wild_level:
            wilds.append(card)
        elif value in groups:
            groups[value].append(card)
        else:
            groups[value] = [card]
    held_single = top_single if top_single is not None and top_single in hand else None
    ts_held = held_single is not None
    if held_single is not None:
        # Alone, the top single card is its own play; it joins other 2s only in groups.
        twos = groups[TWO]
        twos.remove(held_single)
        twos.append(held_single)
    rank_of = deck.rank_table
    options: list[PlayOption] = []
    append = options.append
    nwild = len(wilds)
    if not nwild:
        for level in sorted(groups):
            options.extend(plain_options(tuple(groups[level]), ts_held and level == TWO))
    for level in deck.values if nwild else ():
        naturals = groups.get(level, [])
        held = len(naturals)
        rank = rank_of[level]
        for count in (1, 2, 3, 4):
            usable = held - (1 if count == 1 and ts_held and level == TWO else 0)
            if usable > 0:
                for used in range(max(0, count - usable), min(nwild, count - 1) + 1):
                    cards = tuple(naturals[: count - used]) + tuple(wilds[:used])
                    append(PlayOption(rank, level, count, cards, used))
            if nwild >= count:
                append(PlayOption(rank, level, count, tuple(wilds[:count]), count, rank))
    if held_single is not None:
        append(PlayOption(rank_of[TWO], TWO, 1, (held_single,), 0, None, "top_single"))
    def joker_value(joker: Card) -> int:
        return joker.value

    for joker in sorted(jokers, key=joker_value):
        append(PlayOption(joker.rank, joker.value, 1, (joker,), 0, None, "joker"))
    return options


def legal_options(
    base: list[PlayOption],
    top: TrickTop | None,
    revolution: bool,
    equal_allowed: bool,
    two_beats_larger: bool,
    constraint: tuple[int, int] | None,
) -> list[PlayOption]:
    """The options of ``base`` (see :func:`opening_options`) that may answer ``top`` now."""
    if constraint is not None:
        level, count = constraint
        return [o for o in base if o.level == level and o.count == count and o.wilds == 0
                and o.special is None]
    if top is None:
        return base
    if top.special == "joker":
        return [o for o in base if o.special == "joker" and o.level > top.level]
    top_level, top_count = top.level, top.count
    # The 2s beat a larger play, and only a joker answers them, while they are the best
    # value: in revolution a 2 is the weakest (RULES §7), answered by any higher play, and a
    # host's revolution at proletario let 2s opened as the weakest cards win the trick.
    two_beats_larger = two_beats_larger and not revolution
    if two_beats_larger and top_level == TWO and top.special is None:
        return [o for o in base if o.special is not None]  # after 2s, only jokers answer
    # A plain answer has the top's count (or, where 2s beat a larger play, a 2 one card
    # shorter) and a stronger value, or an equal one where equals are allowed; the special
    # cards (jokers, the top single) answer anything here. One comprehension per order:
    # this runs at every answer of every rollout.
    shorter = top_count - 1 if two_beats_larger and top_count > 1 else -1
    if shorter < 0 and not revolution:  # the common answer: no 2 one card shorter answers
        lowest = top_level if equal_allowed else top_level + 1
        return [o for o in base if o.special is not None
                or (o.count == top_count and o.level >= lowest)]
    if revolution:
        highest = top_level if equal_allowed else top_level - 1
        return [o for o in base if o.special is not None
                or ((o.count == top_count or (o.count == shorter and o.level == TWO))
                    and o.level <= highest)]
    lowest = top_level if equal_allowed else top_level + 1
    return [o for o in base if o.special is not None
            or ((o.count == top_count or (o.count == shorter and o.level == TWO))
                and o.level >= lowest)]
