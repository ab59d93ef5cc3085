"""Cards in words ("deux Rois", "a pair of Kings") and in symbols ("R♥" / "K♥", "Rey🪙")."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from bot.i18n import LocaleLike, lang, t
from engine import Card

FRENCH_SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SPANISH_SUITS = {"O": "🪙", "C": "🍷", "E": "⚔️", "B": "🪵"}
SPANISH_NAMED = ("J", "N", "K", "A")
FRENCH_NAMED = ("J", "Q", "K")  # a French player reads V, D, R (Valet, Dame, Roi)


def rank_short(locale: LocaleLike, rank: str, spanish: bool) -> str:
    """A rank as players write it: "D" for a French Queen, "Caballo" in a Spanish deck."""
    if spanish:
        return t(locale, f"short.spanish.{rank}") if rank in SPANISH_NAMED else rank
    return t(locale, f"short.french.{rank}") if rank in FRENCH_NAMED else rank


def short(locale: LocaleLike, card: Card, spanish: bool) -> str:
    """Compact form for hands and tricks: rank then suit symbol."""
    return _short(lang(locale), card, spanish)


# The words for cards depend on the language, the card (or rank and count) and the deck
# alone, and the catalogues never change: a table message or a hand spells the same few
# dozen cards over and over (the hand, every option of its menus, the trick, the history),
# so each is worked out once. Bounded by the decks: 2 languages × 54 cards × 2, and
# 2 × 15 ranks × 4 counts × 2.
@functools.cache
def _short(language: str, card: Card, spanish: bool) -> str:
    if card.is_joker:
        return t(language, f"card.short.{card.rank}")
    suits = SPANISH_SUITS if spanish else FRENCH_SUITS
    return rank_short(language, card.rank, spanish) + suits[card.suit]


def face_alt(locale: LocaleLike, card: Card, spanish: bool) -> str:
    """A card face's name as the reader's client reads it out: « dame_de_coeur »,
    "queen_of_hearts". A custom emoji in a message's text is written `<:NAME:ID>`
    (discord-api-docs, Reference, Message Formatting) and drawn from its id; the name
    written there is its text, what a screen reader says and what a server that blocks
    external emojis shows (`:dame_de_coeur:`), which the docs do not state (their pull
    request 4983 would have): a client showing the emoji's own name instead reads what it
    did before. That name (« fr_DH_534d3f ») read as a string of letters and digits, card
    after card (play-test 25). An emoji name in that markup is letters, digits and
    underscores: accents and « œ » are spelt out in ASCII."""
    return _face_alt(lang(locale), card, spanish)


@functools.cache
def _face_alt(language: str, card: Card, spanish: bool) -> str:
    if card.is_joker:
        words = t(language, f"face.{card.rank}")
    else:
        deck = "spanish" if spanish else "french"
        rank = t(language, f"face.rank.{deck}.{card.rank}") if card.rank.isalpha() \
            else card.rank
        words = t(language, "face.card", rank=rank,
                  suit=t(language, f"face.suit.{deck}.{card.suit}"))
    plain = unicodedata.normalize("NFKD", words.replace("œ", "oe"))
    return re.sub(r"\W+", "_", "".join(c for c in plain if not unicodedata.combining(c)),
                  flags=re.ASCII).strip("_")


def shorts(locale: LocaleLike, cards: Sequence[Card], spanish: bool) -> str:
    return " ".join(short(locale, c, spanish) for c in cards)


def rank_words(locale: LocaleLike, rank: str, count: int, spanish: bool) -> str:
    """"deux Rois" / "a pair of Kings"; Spanish court cards keep their names."""
    return _rank_words(lang(locale), rank, min(max(count, 1), 4), spanish)


@functools.cache
def _rank_words(language: str, rank: str, count: int, spanish: bool) -> str:
    deck = "spanish" if spanish and rank in SPANISH_NAMED else "french"
    one = t(language, f"rank.{deck}.{rank}.one")
    many = t(language, f"rank.{deck}.{rank}.many")
    return t(language, f"count.{count}", one=one, many=many)


def card_words(locale: LocaleLike, card: Card, spanish: bool,
               top_single: Card | None = None) -> str:
    """One card in words: "a King", "le joker couleur". The card that wins any trick alone
    (``top_single``, presi's 2 of oros) is named: as « un 2 » it would read like any 2."""
    if card.is_joker:
        return t(locale, f"card.{card.rank}")
    if card == top_single:
        return top_single_words(locale, card, spanish)
    return rank_words(locale, card.rank, 1, spanish)


def top_single_words(locale: LocaleLike, card: Card | None, spanish: bool) -> str:
    """The card that wins any trick alone, in words: « le 2 de deniers » (presi's), or the
    one the host chose instead (« le A♠ »)."""
    if card is None or str(card) == "2O":
        return t(locale, "card.top_single")
    return t(locale, "card.top_single_other", card=short(locale, card, spanish))


def play_words(
    locale: LocaleLike, cards: Sequence[Card], value: str, count: int, spanish: bool,
    special: str | None = None, announce: str | None = None, wild_rank: str | None = None,
) -> str:
    """A whole play in words, mentioning wild 7s and their announced value."""
    if special == "joker" or (cards and cards[0].is_joker):
        return t(locale, f"card.{cards[0].rank}")
    if special == "top_single":
        return top_single_words(locale, cards[0] if cards else None, spanish)
    words = rank_words(locale, value, count, spanish)
    if announce is not None and cards and announce == cards[0].rank:
        return words  # wilds played as their own value: « un 7 », not « un 7 comme un 7 »
    if announce is not None:
        return t(locale, "card.announced", cards=rank_words(locale, "7", count, spanish),
                 value=rank_words(locale, announce, count, spanish))
    wilds = sum(1 for c in cards if wild_rank is not None and c.rank == wild_rank)
    if wild_rank is not None and wilds and value != wild_rank:
        return t(locale, "card.with_wilds", cards=words,
                 wilds=wild_words(locale, wild_rank, wilds, spanish))
    return words


def wild_words(locale: LocaleLike, rank: str, count: int, spanish: bool) -> str:
    """The wilds inside a play, counted rather than grouped: "three Kings, including two
    7s", where a play of its own would be "a pair of 7s"."""
    return _wild_words(lang(locale), rank, min(max(count, 1), 3), spanish)


@functools.cache
def _wild_words(language: str, rank: str, count: int, spanish: bool) -> str:
    deck = "spanish" if spanish and rank in SPANISH_NAMED else "french"
    return t(language, f"count.among.{count}", one=t(language, f"rank.{deck}.{rank}.one"),
             many=t(language, f"rank.{deck}.{rank}.many"))
