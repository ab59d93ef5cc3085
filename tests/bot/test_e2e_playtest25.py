"""Play-test 25: a player on a phone with a screen reader, in French and English. Every
message, button, option and picture of a game at each preset was read as a screen reader
reads it: emoji by their names, pictures by their alt text (docs/bot.md)."""

from __future__ import annotations

import re

import pytest

from bot.packages.cards.emojis import faces
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots
from .test_e2e_card_faces import start

TEXT_FACE = re.compile(r"<:(\w+):(\d+)>")


@pytest.mark.parametrize(("locale", "read"), [
    ("fr", ["dame_de_coeur", "valet_de_pique", "roi_de_carreau", "10_de_trefle"]),
    ("en-US", ["queen_of_hearts", "jack_of_spades", "king_of_diamonds", "10_of_clubs"]),
])
async def test_a_screen_reader_hears_each_face_as_its_card_in_the_readers_language(
    fake: FakeDiscord, clock: LinkedClock, locale: str, read: list[str],
) -> None:
    """From the play-test: under « Ta main : V♠ D♥ R♦ 10♣ » the line of faces read
    « fr_VS_bba38a, fr_DH_534d3f, fr_RD_b79afa, fr_10C_c52c50 », a string of letters and
    digits per card, at every redraw of the hand and of the trick. A message's text writes
    each face under the reader's words for it (Discord draws the face from its id and
    reads out the name written with it); the picture is the same emoji."""
    bot = await start(fake, clock)
    host = Player(fake.add_user("reader", locale=locale))
    await dealt_against_two_bots(
        fake, clock, bot, host,
        [["QH", "JS", "KD", "10C"], ["4H", "6H", "8C", "9D"], ["7D", "8S", "9C", "5S"]],
        opener=0)
    lines = host.hand.content.splitlines()
    at = next(i for i, line in enumerate(lines) if TEXT_FACE.search(line))
    shown = TEXT_FACE.findall(lines[at])
    by_id = {emoji.id: key for key, emoji in faces.emojis.items()}
    assert sorted(name for name, _ in shown) == sorted(read)
    # Each is the face of the card it names, a French reader's court its own (« D »).
    courts = {"fr": {"dame_de_coeur": "fr_DH", "valet_de_pique": "fr_VS",
                     "roi_de_carreau": "fr_RD", "10_de_trefle": "fr_10C"},
              "en-US": {"queen_of_hearts": "fr_QH", "jack_of_spades": "fr_JS",
                        "king_of_diamonds": "fr_KD", "10_of_clubs": "fr_10C"}}[locale]
    assert {name: by_id[int(emoji_id)] for name, emoji_id in shown} == courts
    fake.assert_no_errors()
    await fake.disconnect(bot)
