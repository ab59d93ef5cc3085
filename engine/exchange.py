"""The exchange between rounds: who gives what, and which cards a giver may choose.

Pure functions over a hand; :class:`engine.rounds.Rounds` keeps the gifts and moves the cards.
In the exchange the order is always the normal one, the top single card (presi's 2 of oros)
ranks above the other 2s, and jokers above everything (RULES.md §7–§8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .errors import IllegalAction

__all__ = ["ExchangeDue", "Gift", "allowed_cards", "check_gift", "default_gift"]


@dataclass(frozen=True, slots=True)
class ExchangeDue:
    """What a seat still has to give in the exchange, and which cards it may choose from."""

    giver: int
    receiver: int
    count: int
    mode: str  # best | choice | weakest
    allowed: tuple[Card, ...]
    ready: bool  # False while a high role waits for its gift (non-blind exchange)


@dataclass(slots=True)
class Gift:
    """One giver's part of the exchange, open until ``cards`` is set."""

    giver: int
    receiver: int
    count: int
    mode: str  # best (the low role) | choice | weakest (the high role)
    cards: tuple[Card, ...] | None = None
    automatic: bool = False
    transferred: bool = False


def _key(card: Card, top_single: Card | None) -> int:
    return card.value * 2 + (1 if card is top_single else 0)


def _ranked(hand: Sequence[Card], top_single: Card | None) -> list[Card]:
    """Weakest first; suits only break ties, so the engine's choices are deterministic."""
    def weakest(card: Card) -> tuple[int, str]:
        return _key(card, top_single), card.suit

    return sorted(hand, key=weakest)


def default_gift(hand: Sequence[Card], gift: Gift, top_single: Card | None) -> tuple[Card, ...]:
    """The low role's best cards; anyone else's weakest (also what a timeout gives)."""
    if gift.mode == "best":
        def best(card: Card) -> tuple[int, str]:
            return -_key(card, top_single), card.suit

        return tuple(sorted(hand, key=best)[:gift.count])
    return tuple(_ranked(hand, top_single)[:gift.count])


def allowed_cards(hand: Sequence[Card], gift: Gift, top_single: Card | None) -> tuple[Card, ...]:
    """Cards the giver may pick from: any for ``choice``; else those of the due values."""
    ranked = _ranked(hand, top_single)
    if gift.mode == "choice":
        return tuple(ranked)
    levels = {_key(c, top_single) for c in default_gift(hand, gift, top_single)}
    return tuple(c for c in ranked if _key(c, top_single) in levels)


def check_gift(hand: Sequence[Card], cards: Sequence[Card], gift: Gift,
               top_single: Card | None) -> None:
    """IllegalAction unless ``cards`` is a gift the rules accept (free among equal values)."""
    if len(cards) != gift.count or len(set(cards)) != len(cards):
        raise IllegalAction("wrong_give_count", f"Give exactly {gift.count} card(s).",
                            count=gift.count)
    for card in cards:
        if card not in hand:
            raise IllegalAction("not_in_hand", f"You do not hold {card}.", card=str(card))
    if gift.mode == "choice":
        return
    expected = default_gift(hand, gift, top_single)
    if sorted(_key(c, top_single) for c in cards) != sorted(_key(c, top_single)
                                                             for c in expected):
        code = "must_give_best" if gift.mode == "best" else "must_give_weakest"
        raise IllegalAction(code, f"You must give your {gift.mode} {gift.count} card(s).",
                            count=gift.count)
