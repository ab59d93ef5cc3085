"""The committed card faces: one per card the presets deal, emoji-sized, within Discord's cap."""

from __future__ import annotations

from PIL import Image

from bot.packages.cards.faces import ASSETS, MAX_BYTES, SIZE, face_cards, face_key


def test_every_card_has_a_committed_face_within_discords_limits() -> None:
    cards = face_cards()
    keys = {face_key(card, spanish, french) for card, spanish, french in cards}
    # French clubs and Spanish copas both "C"; French readers' courts: V D R, a Sota a V.
    assert len(cards) == len(keys) == 52 + 2 + 48 + 12 + 4
    assert {p.stem for p in ASSETS.glob("*.png")} == keys
    for key in keys:
        path = ASSETS / f"{key}.png"
        assert path.stat().st_size < MAX_BYTES
        with Image.open(path) as image:
            assert image.size == (SIZE, SIZE)
