"""The sandbox shows what a terminal can of pictures: card faces as text, images by name."""

from bot.i18n.typography import french
from bot.sandbox import as_terminal


def test_faces_read_as_cards_and_images_as_their_description() -> None:
    shown = "\n".join([
        "<:king_of_clubs:11><:10_of_hearts:12><:caballo_of_oros:13><:red_joker:14>",
        "<:fr_KC_3fa2c1:11><:dame_de_coeur:15><:unknown:16>",
        "  1. :fr_KC_3fa2c1: K♣",
        "[file: points.png]",
        "[file: notes.txt]",
    ])
    images = {"points.png": "Points per round, 4 players, 5 rounds"}
    assert as_terminal(shown, "en", images).splitlines() == [
        "K♣ 10♥ Caballo🪙 red🃏",
        "K♣ Q♥ <:unknown:16>",
        "  1. K♣",
        "[image: Points per round, 4 players, 5 rounds]",
        "[file: notes.txt]",
    ]
    assert as_terminal("[file: points.png]", "fr", {"points.png": "points par manche"}) == \
        french("[image : points par manche]")
