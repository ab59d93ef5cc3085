"""Play-test 25: a player on a phone with a screen reader, in French and English. Every
message, button, option and picture of a game at each preset was read as a screen reader
reads it: emoji by their names, pictures by their alt text (docs/bot.md)."""

from __future__ import annotations

import re

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.cards.emojis import faces
from bot.packages.game.lines import seat_name
from bot.tables.table import Table
from engine import Card, Game
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots, message, tick
from .test_e2e_card_faces import start

TEXT_FACE = re.compile(r"<:(\w+):(\d+)>")


async def the_reader_dealt(fake: FakeDiscord, clock: LinkedClock, locale: str
                           ) -> tuple[PresidentBot, Player, Table, Game]:
    """A screen reader's user (in ``locale``) dealt Q♥ J♠ K♦ 10♣ against two bots, to open
    the round: a court card of each suit and a ten, read out in their words."""
    bot = await start(fake, clock)
    host = Player(fake.add_user("reader", locale=locale))
    table, game = await dealt_against_two_bots(
        fake, clock, bot, host,
        [["QH", "JS", "KD", "10C"], ["4H", "6H", "8C", "9D"], ["7D", "8S", "9C", "5S"]],
        opener=0)
    return bot, host, table, game


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
    bot, host, _, _ = await the_reader_dealt(fake, clock, locale)
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


@pytest.mark.parametrize(("locale", "read"), [
    ("fr", [":dame_de_coeur:", ":valet_de_pique:", ":roi_de_carreau:", ":10_de_trefle:"]),
    ("en-US", [":queen_of_hearts:", ":jack_of_spades:", ":king_of_diamonds:",
               ":10_of_clubs:"]),
])
async def test_a_screen_reader_hears_each_option_s_face_as_its_card(
    fake: FakeDiscord, clock: LinkedClock, locale: str, read: list[str],
) -> None:
    """Left by the play-test: a play option's face is an emoji object, which was sent under
    the emoji's own name and read « fr_RD_b79afa, R♦, un Roi ». It carries the reader's
    words as its name, as the message's text does; the picture is the same emoji, by id."""
    bot, host, _, _ = await the_reader_dealt(fake, clock, locale)
    options = [o for s in host.hand.selects for o in s.options]
    assert sorted(o.emoji or "" for o in options) == sorted(read)
    king = faces.emoji(Card.parse("KD"), False, locale)
    court = "fr_RD" if locale == "fr" else "fr_KD"
    assert king is not None and king.id == faces.emojis[court].id
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_hand_says_whose_turn_it_is_before_its_cards(
    fake: FakeDiscord, clock: LinkedClock, locale: str,
) -> None:
    """Left by the play-test: the hand read its cards and their faces (a dozen names) before
    « Ce n’est pas ton tour… » or « À toi de jouer ». The turn comes first, marked ➡️ (read
    « flèche droite », "right arrow"), not ▶️ (« bouton lecture », "play button", a control
    beside « de jouer »), on the hand as on the table's seat lines."""
    bot, host, table, game = await the_reader_dealt(fake, clock, locale)
    lines = host.hand.content.splitlines()
    assert lines[0].startswith(t(locale, "hand.your_turn", countdown="").strip())
    assert lines[0].startswith("➡️ ") and lines[1].startswith("🂠 ")  # then the hand
    board = message(host.user, table.table_message_id).content.splitlines()
    assert any(line.startswith("➡️ ") and "reader" in line for line in board)
    assert not any("▶️" in line for line in [*lines, *board])
    await host.user.select(host.hand, [host.hand.selects[0].options[0].value],
                           select=host.hand.selects[0].custom_id)
    await tick(fake, clock, 1)
    lines = host.hand.content.splitlines()
    assert game.to_act != 0  # a bot's turn, whichever the hand last saw
    assert lines[0] in [t(locale, "hand.waiting", name=seat_name(table, seat)) for seat in (1, 2)]
    fake.assert_no_errors()
    await fake.disconnect(bot)
