from bot.i18n.cards import card_words, play_words, rank_words, short, shorts
from engine import Card


def cards(*codes: str) -> list[Card]:
    return [Card.parse(c) for c in codes]


def test_event_words_in_both_languages() -> None:
    assert rank_words("fr", "K", 2, False) == "deux Rois"
    assert rank_words("en", "K", 2, False) == "a pair of Kings"
    assert rank_words("en", "8", 1, False) == "an 8"
    assert rank_words("fr", "Q", 1, False) == "une Dame"
    assert rank_words("en", "A", 3, False) == "three Aces"


def test_spanish_court_cards_in_each_language() -> None:
    # The French seed says valet, cavalier, roi, as; English keeps the Spanish names.
    assert rank_words("fr", "N", 2, True) == "deux Cavaliers"
    assert rank_words("fr", "K", 2, True) == "deux Rois"
    assert short("fr", Card.parse("JO"), True) == "V🪙"
    assert rank_words("en", "K", 1, True) == "a Rey"
    assert short("en", Card.parse("KO"), True) == "Rey🪙"
    assert short("fr", Card.parse("5C"), True) == "5🍷"


def test_suits_and_jokers_as_symbols() -> None:
    assert shorts("en", cards("10H", "QS", "2D", "3C"), False) == "10♥ Q♠ 2♦ 3♣"
    assert shorts("fr", cards("JH", "QS", "KD", "AC"), False) == "V♥ D♠ R♦ A♣"
    assert short("fr", Card.parse("RJ"), False) == "couleur🃏"


def test_special_plays() -> None:
    assert play_words("en", cards("2O"), "2", 1, True, special="top_single") == "the 2 of oros"
    assert play_words("fr", cards("RJ"), "RJ", 1, False, special="joker") == "le joker couleur"
    assert play_words("en", cards("7H", "KS", "KD"), "K", 3, False, wild_rank="7") == \
        "three Kings, including a 7"
    assert play_words("fr", cards("7H", "7S", "KD"), "K", 3, False, wild_rank="7") == \
        "trois Rois, dont deux 7"
    assert play_words("fr", cards("7H", "7S"), "A", 2, False, announce="A", wild_rank="7") == \
        "deux 7 comme deux As"
    assert play_words("fr", cards("7H"), "3", 1, False, announce="3", wild_rank="7") == \
        "un 7 comme un 3"


def test_single_cards_in_words() -> None:
    assert card_words("en", Card.parse("BJ"), False) == "the black joker"
    assert card_words("fr", Card.parse("QH"), False) == "une Dame"


def test_remembered_card_words_are_the_catalogues_words() -> None:
    """`short` and `rank_words` keep their answers (a render spells the same cards over and
    over): every card of every deck, in both languages and any locale form, reads as the
    catalogue says, whichever language asked first."""
    import discord

    from bot.i18n import t
    from bot.i18n.cards import FRENCH_NAMED, FRENCH_SUITS, SPANISH_NAMED, SPANISH_SUITS
    from engine.cards import Deck

    for locale, language in (("fr", "fr"), (discord.Locale.french, "fr"), ("en-US", "en"),
                             (None, "en")):
        for deck in Deck:
            spanish = deck.spanish
            named = SPANISH_NAMED if spanish else FRENCH_NAMED
            suits = SPANISH_SUITS if spanish else FRENCH_SUITS
            for card in deck.cards() + cards("BJ", "RJ"):
                if card.is_joker:
                    expected = t(language, f"card.short.{card.rank}")
                else:
                    rank = t(language, f"short.{'spanish' if spanish else 'french'}."
                                       f"{card.rank}") if card.rank in named else card.rank
                    expected = rank + suits[card.suit]
                assert short(locale, card, spanish) == expected
            for rank in deck.ranks:
                kind = "spanish" if spanish and rank in SPANISH_NAMED else "french"
                for count in range(0, 6):
                    expected = t(language, f"count.{min(max(count, 1), 4)}",
                                 one=t(language, f"rank.{kind}.{rank}.one"),
                                 many=t(language, f"rank.{kind}.{rank}.many"))
                    assert rank_words(locale, rank, count, spanish) == expected
