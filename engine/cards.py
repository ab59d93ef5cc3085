"""Cards, values and decks.

A card's *value* is an integer in normal order, weakest first: 3 is 0 and 2 is 12 in every
deck, so French and Spanish cards compare with the same arithmetic (the Spanish caballo sits
where the French queen does; decks without 8, 9 or 10 simply leave gaps). Jokers sit above
every value (13 and 14) and are only ever compared with each other or in the exchange.

Cards are interned: ``Card.parse("QH") is Card.parse("QH")``, which keeps hands cheap to copy
and compare in the hot loop of the engine.

>>> Card.parse("10H"), str(Card.parse("RJ"))
(Card('10H'), 'RJ')
>>> Deck.SPANISH40.size
40
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

__all__ = [
    "Card",
    "Deck",
    "RANK_VALUE",
    "TWO",
    "THREE",
    "SEVEN",
]

_ALL_SUITS = ("S", "H", "D", "C", "O", "E", "B", "")
#: Normal-order value of every rank string used by any deck.
RANK_VALUE: dict[str, int] = {
    "3": 0, "4": 1, "5": 2, "6": 3, "7": 4, "8": 5, "9": 6, "10": 7,
    "J": 8, "Q": 9, "N": 9, "K": 10, "A": 11, "2": 12, "BJ": 13, "RJ": 14,
}
THREE = 0
SEVEN = 4
TWO = 12


class Card:
    """One physical card; interned, hashable, ordered by nothing (order depends on the rules)."""

    __slots__ = ("rank", "suit", "value", "text", "_hash")
    _interned: ClassVar[dict[str, Card]] = {}

    rank: str
    suit: str
    value: int
    text: str
    _hash: int

    def __new__(cls, rank: str, suit: str = "") -> Card:
        text = rank + suit
        card = cls._interned.get(text)
        if card is not None:
            return card
        jokers = rank in ("RJ", "BJ")
        if rank not in RANK_VALUE or (suit not in _ALL_SUITS) or jokers != (suit == ""):
            raise ValueError(f"unknown card {text!r}")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "value", RANK_VALUE[rank])
        object.__setattr__(card, "text", text)
        object.__setattr__(card, "_hash", RANK_VALUE[rank] * 8 + _ALL_SUITS.index(suit))
        cls._interned[text] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the scenario notation: rank then suit (``10H``, ``2O``), or ``RJ``/``BJ``."""
        text = text.strip().upper()
        card = cls._interned.get(text)
        if card is not None:
            return card
        if text in ("RJ", "BJ"):
            return cls(text)
        if len(text) < 2:
            raise ValueError(f"unknown card {text!r}")
        return cls(text[:-1], text[-1])

    @property
    def is_joker(self) -> bool:
        return self.suit == ""

    # Equality is identity (object's, in C): cards are interned. The hash is a small
    # deterministic code rather than id() or a salted str hash, so sets of cards iterate
    # in the same order in every process.
    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text!r})"


class Deck(Enum):
    """The four decks of RULES.md; ``.value`` is the knob value."""

    FRENCH52 = "french52"
    FRENCH54 = "french54"
    SPANISH48 = "spanish48"
    SPANISH40 = "spanish40"

    @property
    def spanish(self) -> bool:
        return self in (Deck.SPANISH48, Deck.SPANISH40)

    @property
    def suits(self) -> tuple[str, ...]:
        return ("O", "C", "E", "B") if self.spanish else ("S", "H", "D", "C")

    @property
    def ranks(self) -> tuple[str, ...]:
        """Ranks weakest first, jokers excluded."""
        return _RANKS[self.value]

    @property
    def values(self) -> tuple[int, ...]:
        return _VALUES[self.value]

    @property
    def has_jokers(self) -> bool:
        return self is Deck.FRENCH54

    def cards(self) -> list[Card]:
        """Every card, in a fixed order (the order before shuffling): a new list of the
        deck's cards, built once per deck (cards are interned; search asks at every
        sampled deal)."""
        cards = _CARDS.get(self.value)
        if cards is None:
            cards = _CARDS[self.value] = tuple(
                [Card(rank, suit) for rank in self.ranks for suit in self.suits]
                + self.jokers())
        return list(cards)

    def jokers(self) -> list[Card]:
        """The deck's jokers, weaker first (none but in french54): what reads a joker asks
        for, rather than building the whole deck to find them."""
        return [Card("BJ"), Card("RJ")] if self.has_jokers else []

    @property
    def size(self) -> int:
        return len(self.ranks) * 4 + (2 if self.has_jokers else 0)

    def contains(self, card: Card) -> bool:
        if card.is_joker:
            return self.has_jokers
        return card.rank in self.ranks and card.suit in self.suits

    @property
    def rank_table(self) -> dict[int, str]:
        """Value → rank string for this deck (jokers included where the deck has them)."""
        return _RANK_OF[self.value]

    def rank_of(self, value: int) -> str:
        """The rank string of a normal-order value in this deck."""
        try:
            return _RANK_OF[self.value][value]
        except KeyError:
            raise ValueError(f"value {value} is not in {self.value}") from None

    def parse_value(self, text: str) -> int:
        """Parse a value as written in scenarios and announcements (``K``, ``10``, ``3``)."""
        rank = text.strip().upper()
        if rank not in self.ranks:
            raise ValueError(f"{text!r} is not a value of {self.value}: {', '.join(self.ranks)}")
        return RANK_VALUE[rank]


_FRENCH_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
_RANKS: dict[str, tuple[str, ...]] = {
    "french52": _FRENCH_RANKS,
    "french54": _FRENCH_RANKS,
    "spanish48": ("3", "4", "5", "6", "7", "8", "9", "J", "N", "K", "A", "2"),
    "spanish40": ("3", "4", "5", "6", "7", "J", "N", "K", "A", "2"),
}
_VALUES = {deck: tuple(RANK_VALUE[r] for r in ranks) for deck, ranks in _RANKS.items()}
_RANK_OF = {deck: {RANK_VALUE[r]: r for r in ranks} for deck, ranks in _RANKS.items()}
_RANK_OF["french54"].update({13: "BJ", 14: "RJ"})
_CARDS: dict[str, tuple[Card, ...]] = {}  # Deck.cards(), by deck
