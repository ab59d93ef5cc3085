"""Older leftovers (stop 56): a hand edited for a change that was not its player's, and a
farewell's button left at a closed table. Each test counts the Discord calls through the
fake (`fake.calls_since`) or reads what the player's message shows; the fixes' tests
failed before, the first pins play-test 32's diagnosis."""

from __future__ import annotations

import re

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    deal,
    host_against_bots,
    leave_game,
    message,
    tick,
    two_humans_against_a_bot,
    waits,  # noqa: F401 (a fixture, used by name)
)
from .test_e2e_hand_rate_limits import HAND_EDIT

LOCALES = ["fr", "en-US"]
# A card face in a message's text (`CardFaces.written`).
FACE = re.compile(r"<:[a-z0-9_]+:\d+>")


def other_locale(locale: str) -> str:
    return "en-US" if locale == "fr" else "fr"


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_second_device_s_hand_leaves_the_other_player_s_hand_alone(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Play-test 32 saw marie's « Ma main » on a second device edit bob's unchanged hand.
    Not unchanged: bob's hand had been drawn while the card faces uploaded (a first
    start, as every test's fake is), with text cards, and that edit brought the faces. With
    the faces known before the table opens, marie's second hand costs two calls, her
    answer and her first hand's farewell, and bob's hand is not touched: what his « Ma
    main » answer recorded is what the refresh draws. (Passed before: a pin of the
    diagnosis, not a fix.)"""
    await fake.settle()
    while president.faces_sync is not None and not president.faces_sync.done():
        await tick(fake, clock, 1)
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=other_locale(locale)))
    await two_humans_against_a_bot(fake, clock, president, marie, bob)
    await tick(fake, clock, 1)
    assert FACE.search(bob.hand.content) and FACE.search(marie.hand.content)

    mark = fake.mark()
    await marie.open_hand(president)  # the phone
    await tick(fake, clock, 1)
    assert [(c.route.split("/")[-1], c.user) for c in fake.calls_since(mark)] == [
        ("callback", "marie"), ("@original", "marie")]
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_turned_to_its_second_page_stays_there_when_someone_else_clicks(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """wild7 at two seats: marie's 26 cards need two pages of menus, and she turns to the
    second (« Autres coups ») to play a four. dave, passing by, presses « Rejoindre » on the
    table message: he is listed for the next game, and the table message says so. marie's
    hand is not edited: it stays on the page she turned to. Before, the refresh drew her
    hand's first page, which differed from what her click's answer had left there, and
    edited it: one call, and the menus she was reading turned back under her eyes. A
    move still draws the hand afresh, from its first page."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(president, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    game = deal(president, table, [deck[0::2], deck[1::2]], opener=0)
    await marie.open_hand(president)
    await tick(fake, clock, 1)
    first = [s.custom_id for s in marie.hand.selects]
    turn = next(b for b in marie.hand.buttons if b.custom_id and ":page:" in b.custom_id)
    await marie.user.click(marie.hand, turn.custom_id or "")
    second = [s.custom_id for s in marie.hand.selects]
    assert second and not set(second) & set(first)
    await tick(fake, clock, 1)

    dave = fake.add_user("dave", locale=other_locale(locale))
    mark = fake.mark()
    await dave.click(message(dave, table.table_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    assert [c.user for c in fake.calls_since(mark, HAND_EDIT)] == []
    assert [s.custom_id for s in marie.hand.selects] == second
    assert "dave" in message(marie.user, table.table_message_id).content

    four = marie.hand.selects[-1]
    await marie.user.select(marie.hand, [four.options[0].value], select=four.custom_id)
    assert len(game.hand(0)) == 22
    await tick(fake, clock, 1)
    assert not set(s.custom_id for s in marie.hand.selects) & set(second)
    fake.assert_no_errors()


@pytest.mark.usefixtures("waits")
@pytest.mark.parametrize("locale", LOCALES)
async def test_a_farewell_held_as_the_table_closes_loses_its_button(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie opens her hand on the computer, then on the phone: the computer's farewell
    (« Ta main suit maintenant un autre message », with « Afficher ma main ici ») meets a
    10-second 429 on its token. She leaves meanwhile, the last one there, and the table
    closes. Once the farewell lands it is edited into « Cette table est fermée », without
    its button, as the phone's hand is. Before, the closing had edited the farewells still
    owed, not the one on its way, which kept a button whose click could only say the table
    no longer exists."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    computer = marie.last_ephemeral().id
    token = table.hands[marie.id].token
    await tick(fake, clock, 1)
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=10.0, user=marie)
    mark = fake.mark()
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    phone = marie.last_ephemeral().id
    await tick(fake, clock, 1)
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT)] == [429]
    await leave_game(marie)
    await tick(fake, clock, 1)
    assert table.closed
    for _ in range(12):  # the held farewell lands, and what follows it
        await tick(fake, clock, 1)
    for hand in (computer, phone):
        closed = message(marie, hand)
        assert closed.text == t(locale, "hand.closed") and not closed.controls
    # Through the computer's token: the farewell held, then sent, then the closing's word.
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if token in c.path] \
        == [429, 200, 200]
    fake.assert_no_errors()
