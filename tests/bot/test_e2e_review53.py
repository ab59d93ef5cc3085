"""Stop 53's review: what a hand's message shows when an edit through an older token of
its player lands on it after the click that made it the player's hand again.

A « moved » farewell is an edit through the token of the hand the player left (Edit
Original Interaction Response, one bucket per "webhook_id + webhook_token": Rate Limits,
https://discord.com/developers/docs/topics/rate-limits); discord.py waits out its 429 and
sends it again. Meanwhile the player clicks that older hand (« Actualiser »), which makes
it their hand again, answered through the click's token. The held farewell then lands on
that same message: « ta main est passée dans un autre message » on the one message that
shows their hand, both messages saying the hand moved, and the bot believing (and, at a
stop, keeping for its restart: `Publisher.landed`) that it shows the hand."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.table import Table
from engine import Game
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, message, tick, two_humans_against_a_bot, waits  # noqa: F401
from .test_e2e_hand_rate_limits import HAND_EDIT, latest, until_the_turn_of


async def marie_and_bob(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                        turn_of: str) -> tuple[Player, Player, Table, Game, int]:
    """marie (fr) and bob against two bots, played until `turn_of`'s turn: the players, the
    table, its game and the message of marie's first hand."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob, bots=2)
    await until_the_turn_of(fake, clock, table, game, [marie, bob],
                            marie if turn_of == "marie" else bob)
    await tick(fake, clock, 1)
    first = marie.hand_id
    assert first is not None
    return marie, bob, table, game, first


@pytest.mark.usefixtures("waits")
async def test_a_held_farewell_landing_on_the_hand_clicked_since_is_drawn_over(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie presses « Ma main » again while her first hand's token is held by a 429: the
    first hand's « moved » edit waits 10 s. She clicks « Actualiser » on that first hand
    meanwhile: it is her hand again. Once the held farewell lands there, the hand is drawn
    over it, and that message shows her hand, not « moved »; nothing is known shown
    through the click's token until then."""
    marie, bob, table, game, first = await marie_and_bob(fake, president, clock, "marie")
    mark = fake.mark()
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=10.0, user=marie.user)
    await marie.open_hand(president)  # « Ma main » again: a second message
    await tick(fake, clock, 1)
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if c.user == "marie"] == [429]
    await marie.user.click(message(marie.user, first), cid(table, "refresh"))
    clicked = table.hands[marie.user.id]
    assert clicked.message_id == first
    assert message(marie.user, first).content == latest(table, marie, clock)

    await tick(fake, clock, 10.0)  # the held farewell lands on the first message
    await tick(fake, clock, 1)
    assert game.to_act == table.seat_of(marie.user.id)  # nothing moved meanwhile
    assert table.hands[marie.user.id] is clicked
    # What a stop would keep for the restart: not the hand, which the farewell replaced.
    shown = president.publisher.hands.acks.get(clicked.token)
    moved = t("fr", "hand.moved")
    assert message(marie.user, first).content != moved or shown is None
    assert message(marie.user, first).content == latest(table, marie, clock)
    fake.assert_no_errors()


@pytest.mark.usefixtures("waits")
async def test_a_farewell_to_the_hand_clicked_since_is_not_sent(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's first hand's redraw is held by a 429 for 10 s (her lane busy); she presses
    « Ma main » again, which owes the first hand a « moved » farewell, then clicks
    « Actualiser » on that first hand: it is her hand again. The farewell, still waiting
    for her lane, is not sent (sent, it landed beside the redraw the held edit calls for:
    one call for nothing, and « moved » on the one message showing her hand if it landed
    last), and that message shows her hand once the held edit is over."""
    marie, bob, table, game, first = await marie_and_bob(fake, president, clock, "bob")
    token = table.hands[marie.user.id].token
    mark = fake.mark()
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=10.0, user=marie.user)
    assert await bob.act()  # marie's hand redrawn: held
    await tick(fake, clock, 1)
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if c.user == "marie"] == [429]
    await marie.open_hand(president)  # « Ma main » again: a second message
    await marie.user.click(message(marie.user, first), cid(table, "refresh"))
    clicked = table.hands[marie.user.id]
    assert clicked.message_id == first
    for _ in range(3):  # the bots answer in their time; it is then marie's turn
        await tick(fake, clock, 1)
    moved = t("fr", "hand.moved")
    contents: list[str] = []
    for _ in range(12):  # the held edit lands, and what follows it
        await tick(fake, clock, 1)
        contents.append(message(marie.user, first).content)
    assert moved not in contents
    # Through the first hand's token: the held edit and discord.py's retry of it, no farewell.
    assert [c.status for c in fake.calls_since(mark, HAND_EDIT) if token in c.path] \
        == [429, 200]
    assert table.hands[marie.user.id] is clicked
    assert message(marie.user, first).content == latest(table, marie, clock)
    fake.assert_no_errors()
