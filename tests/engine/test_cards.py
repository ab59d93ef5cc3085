import pytest

from engine import Card, Deck


@pytest.mark.parametrize("deck", list(Deck))
def test_every_card_round_trips_through_its_notation(deck: Deck) -> None:
    cards = deck.cards()
    assert len(cards) == deck.size == len(set(cards))
    for card in cards:
        assert Card.parse(str(card)) is card
        assert deck.contains(card)


def test_deck_sizes_and_contents() -> None:
    assert [d.size for d in Deck] == [52, 54, 48, 40]
    assert Card.parse("RJ").is_joker and Card.parse("BJ").is_joker
    assert not Deck.FRENCH52.contains(Card.parse("RJ"))
    assert not Deck.SPANISH40.contains(Card.parse("8O"))
    assert Deck.SPANISH48.contains(Card.parse("NC"))
    assert not Deck.SPANISH48.contains(Card.parse("QH"))


def test_values_compare_across_decks() -> None:
    # 3 weakest, 2 strongest; the caballo sits where the queen does; jokers above all.
    assert Card.parse("3H").value == 0 and Card.parse("2O").value == 12
    assert Card.parse("NC").value == Card.parse("QH").value
    assert Card.parse("BJ").value < Card.parse("RJ").value
    assert Card.parse("2S").value < Card.parse("BJ").value


@pytest.mark.parametrize("text", ["", "1H", "11H", "QX", "J", "RJH", "ZZ"])
def test_unknown_cards_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card.parse("QH").rank = "K"


def test_parse_value_names_the_choices() -> None:
    assert Deck.FRENCH52.parse_value("k") == 10
    with pytest.raises(ValueError, match="Sota|J, N, K"):
        Deck.SPANISH48.parse_value("Q")
