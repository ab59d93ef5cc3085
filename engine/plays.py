"""Plays: what a player may put down, grouped the way a player thinks of it.

A :class:`PlayOption` is one *kind* of play — "two kings", "a king and a wild 7 as two kings",
"two 7s announced as aces", "the red joker" — together with the concrete cards the engine would
use. Suits never matter except for named cards, so the engine picks them; a player who cares
(or the scenario runner) may name exact cards instead, and :func:`signature` maps those cards
back to the same kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import TWO, Card, Deck
from .errors import IllegalAction

__all__ = ["PlayOption", "Signature", "TrickTop", "legal_options", "signature"]

#: (special, level, count, wilds): what kind of play a set of cards is.
Signature = tuple[str | None, int, int, int]


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One legal kind of play and the cards the engine would use for it."""

    value: str  # effective rank (``"K"``), or the joker itself (``"RJ"``)
    level: int  # effective value in normal order (see engine.cards)
    count: int
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


@dataclass(frozen=True, slots=True)
class TrickTop:
    """What an answer must beat: the last play of the trick."""

    level: int
    count: int
    special: str | None
    twos_group: bool  # a group of 2s under two_beats_larger: only jokers answer


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
        if announce is not None and deck.parse_value(announce) != level:
            raise IllegalAction(
                "bad_announce", "Wild cards played with other cards take their value.",
                value=deck.rank_of(level),
            )
        return (None, level, len(cards), wilds)
    if announce is None:
        assert wild_level is not None
        return (None, wild_level, len(cards), wilds)
    try:
        return (None, deck.parse_value(announce), len(cards), wilds)
    except ValueError as err:
        raise IllegalAction("bad_announce", str(err), value=announce) from None


def _groups(
    hand: Iterable[Card], wild_level: int | None
) -> tuple[dict[int, list[Card]], list[Card], list[Card]]:
    groups: dict[int, list[Card]] = {}
    wilds: list[Card] = []
    jokers: list[Card] = []
    for card in hand:
        if card.is_joker:
            jokers.append(card)
        elif card.value == wild_level:
            wilds.append(card)
        else:
            groups.setdefault(card.value, []).append(card)
    return groups, wilds, jokers


def legal_options(
    hand: Sequence[Card],
    *,
    deck: Deck,
    top: TrickTop | None,
    revolution: bool,
    equal_allowed: bool,
    two_beats_larger: bool,
    wild_level: int | None,
    top_single: Card | None,
    constraint: tuple[int, int] | None,
) -> list[PlayOption]:
    """Every legal kind of play from ``hand`` against ``top`` (``None``: opening)."""
    groups, wilds, jokers = _groups(hand, wild_level)
    options: list[PlayOption] = []
    ts_held = top_single is not None and top_single in hand

    def add(level: int, count: int, nwild: int, announce: bool = False) -> None:
        naturals = groups.get(level, [])
        if count - nwild == 1 and ts_held and level == TWO:
            naturals = [c for c in naturals if c is not top_single]
        if len(naturals) < count - nwild:
            return
        cards = tuple(naturals[: count - nwild]) + tuple(wilds[:nwild])
        rank = deck.rank_of(level)
        options.append(
            PlayOption(rank, level, count, cards, nwild, rank if announce else None, None)
        )

    if constraint is not None:
        add(constraint[0], constraint[1], 0)
        return options

    if top is None or not (top.twos_group or top.special == "joker"):
        if top is None:
            counts: tuple[int, ...] = (1, 2, 3, 4)
        else:
            counts = (top.count,)
        for level in deck.values:
            if top is not None:
                here = level if not revolution else TWO - level
                there = top.level if not revolution else TWO - top.level
                if here < there or (here == there and not equal_allowed):
                    continue
            level_counts = counts
            if top is not None and two_beats_larger and level == TWO and top.count > 1:
                level_counts = (top.count, top.count - 1)
            natural_n = len(groups.get(level, ()))
            for count in level_counts:
                if natural_n:
                    for nwild in range(max(0, count - natural_n), min(len(wilds), count - 1) + 1):
                        add(level, count, nwild)
                if len(wilds) >= count:
                    add(level, count, count, announce=True)
        if top_single is not None and ts_held:
            options.append(PlayOption(str(top_single.rank), TWO, 1, (top_single,), 0, None,
                                      "top_single"))
    for joker in sorted(jokers, key=lambda c: c.value):
        if top is not None and top.special == "joker" and joker.value <= top.level:
            continue
        options.append(PlayOption(joker.rank, joker.value, 1, (joker,), 0, None, "joker"))
    return options
