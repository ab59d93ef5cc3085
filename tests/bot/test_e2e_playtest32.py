"""End-to-end: play-test 32, « two devices »: a player with the game open on a phone and a
computer at once, each with its own ephemeral hand. Discord lets the bot edit an ephemeral
message only through the token of the interaction that created it, for 15 minutes
(discord-api-docs, developers/interactions/receiving-and-responding.mdx, « Interaction
tokens are valid for 15 minutes »): the hand follows one message at a time, and the other
says it moved. That one now offers « Afficher ma main ici », a new interaction, so it works
whatever the age of the message; in French and in English, answered privately, nothing
played."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord, TestUser
from fakediscord.snapshots import Message
from fakediscord.state import InteractionRecord

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
)

LOCALES = ["fr", "en-US"]
EPHEMERAL = 64


def answered_in_place(record: InteractionRecord) -> None:
    """Answered (never « This interaction failed ») by redrawing the clicked ephemeral."""
    assert record.acknowledged and record.response_type == 7


def moved_away(user: TestUser, message_id: int, locale: str) -> Message:
    """The hand's farewell on the device it left, with the one button to bring it back."""
    shown = message(user, message_id)
    assert shown.text == t(locale, "hand.moved")
    assert [b.label for b in shown.buttons] == [t(locale, "btn.hand_here")]
    assert not shown.selects
    return shown


def shows_the_hand(shown: Message) -> bool:
    return any(line.startswith("🂠") for line in shown.text.split("\n"))


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_device_the_hand_left_brings_it_back_in_one_click(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie opens her hand on her computer, then on her phone: the computer's says the
    hand moved and offers « Afficher ma main ici », which she presses back at her desk.
    The hand is drawn there, in her language, with its controls, followed from then on;
    the phone's says it moved; nothing was played. Before, the computer's had no control:
    she had to find the table message, scrolled away, to press « Ma main »."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale="fr" if locale != "fr" else "en-US"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    computer = marie.hand_id
    assert computer is not None
    await tick(fake, clock, 1)
    await marie.open_hand(president)  # the phone
    phone = marie.hand_id
    assert phone is not None and phone != computer
    await tick(fake, clock, 1)
    farewell = moved_away(marie.user, computer, locale)
    version = game.version
    seat = table.seat_of(marie.user.id)
    assert seat is not None
    cards = list(game.hand(seat))

    mark = fake.mark()
    back = await marie.user.click(farewell, t(locale, "btn.hand_here"))
    answered_in_place(back)
    await tick(fake, clock, 1)
    # Two calls: the answer, and the phone's farewell through its own token; the table
    # message and bob's hand are left alone.
    assert [(c.route.split("/")[-1], c.user) for c in fake.calls_since(mark)] == [
        ("callback", "marie"), ("@original", "marie")]
    assert game.version == version and list(game.hand(seat)) == cards
    here = message(marie.user, computer)
    assert shows_the_hand(here) and t(locale, "btn.refresh") in [b.label for b in here.buttons]
    assert table.hands[marie.user.id].message_id == computer
    moved_away(marie.user, phone, locale)
    # A second tap sent before the first's redraw reached the computer: the same hand, in
    # place, nothing else edited.
    mark = fake.mark()
    answered_in_place(await marie.user.click_shown(farewell, t(locale, "btn.hand_here")))
    await tick(fake, clock, 1)
    assert [c.route.split("/")[-1] for c in fake.calls_since(mark)] == ["callback"]
    assert shows_the_hand(message(marie.user, computer))
    assert table.hands[marie.user.id].message_id == computer
    # bob, whose hand is in the other language, never sees hers nor her button.
    assert not [m for m in bob.user.visible() if m.id in (computer, phone)]
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_back_at_the_computer_after_the_phones_token_ran_out(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Ten-minute turns: marie opens her hand on the computer, then the phone, and leaves
    both for sixteen minutes, past every token. The phone's last edit said it stopped
    following the game; the computer's still says the hand moved, with its button, which
    still answers (a new interaction): the current hand, her turn, the table no longer
    asking her for « Ma main ». She plays there; the phone, its old menu still shown,
    picks a card: refused privately as her earlier move, nothing played."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale="fr" if locale != "fr" else "en-US"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 turn_seconds=600)
    seat = table.seat_of(marie.user.id)
    computer = marie.hand_id
    assert computer is not None and seat is not None
    await marie.open_hand(president)
    phone = marie.hand_id
    assert phone is not None
    for _ in range(96):  # sixteen minutes: bob's turn runs out, then marie's comes
        await tick(fake, clock, 10)
    assert game.to_act == seat
    stale = message(marie.user, phone)
    assert stale.text.startswith("⏸️")
    farewell = moved_away(marie.user, computer, locale)

    back = await marie.user.click(farewell, t(locale, "btn.hand_here"))
    answered_in_place(back)
    await tick(fake, clock, 1)
    here = message(marie.user, computer)
    assert here.text.startswith(t(locale, "hand.your_turn", countdown="").split("<")[0].strip())
    assert table.hands[marie.user.id].valid(president.service.clock.now())
    board = message(marie.user, table.table_message_id).text
    assert not [line for line in board.split("\n") if line.startswith("🔔") and "marie" in line]

    menu = next(s for s in here.selects if ":play:" in s.custom_id)
    played = await marie.user.select(here, [menu.options[0].value], select=menu.custom_id)
    answered_in_place(played)
    assert game.to_act != seat
    version, cards = game.version, len(game.hand(seat))
    old = next(s for s in stale.selects if ":play:" in s.custom_id)
    late = await marie.user.select_shown(stale, [old.options[-1].value], select=old.custom_id)
    assert late.acknowledged and late.response_type in (4, 7)
    assert game.version == version and len(game.hand(seat)) == cards
    assert t(locale, "err.already_played") in marie.user.last_ephemeral().text
    fake.assert_no_errors()


def picked_line(shown: Message, locale: str) -> str:
    """The split exchange's line of the cards picked so far, as the hand shows it."""
    start = t(locale, "hand.give_selected", cards="\0", left="").split("\0")[0]
    return next(line for line in shown.text.split("\n") if line.startswith(start))


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_half_made_exchange_follows_the_hand_from_one_device_to_the_other(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie, President, owes 2 of 28 cards: two menus, whose picks add up. She picks one
    on the computer, opens her hand on the phone (the same pick shown) and picks the
    second there. The computer, its client still showing the half-made exchange, sends its
    « Donner les cartes choisies » and a pick: each refused privately, nothing given or
    picked. « Afficher ma main ici » brings the phone's picks to the computer, where she
    gives them."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(president, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    game = deal(president, table, [deck[0::2], deck[1::2]], previous_ranking=[0, 1])
    await marie.open_hand(president)
    computer = marie.hand
    first, _ = [s for s in computer.selects if ":give:" in s.custom_id]
    await marie.user.select(computer, [first.options[0].value], select=first.custom_id)
    computer = message(marie.user, computer.id)  # as the computer's client keeps showing it
    await marie.open_hand(president)
    phone = marie.hand
    assert phone.id != computer.id
    assert picked_line(phone, locale) == picked_line(computer, locale)
    second = next(s for s in phone.selects if s.custom_id.endswith(":1"))
    await marie.user.select(phone, [second.options[0].value], select=second.custom_id)
    await tick(fake, clock, 1)
    picks = {part: list(codes) for part, codes in table.gift_picks[marie.user.id].items()}
    assert sum(len(codes) for codes in picks.values()) == 2

    confirm = next(b.custom_id for b in computer.buttons
                   if b.custom_id and ":give_ok:" in b.custom_id)
    for late in (marie.user.click_shown(computer, confirm),
                 marie.user.select_shown(computer, [first.options[5].value],
                                         select=first.custom_id)):
        record = await late
        assert record.acknowledged and record.response_type == 4
        assert record.response is not None and record.response["flags"] & EPHEMERAL
        assert marie.user.last_ephemeral().text == "⚠️ " + t(locale, "err.hand_moved")
        assert table.gift_picks[marie.user.id] == picks
    assert game.exchange_due(0) is not None  # nothing given yet

    farewell = moved_away(marie.user, computer.id, locale)
    answered_in_place(await marie.user.click(farewell, t(locale, "btn.hand_here")))
    here = message(marie.user, computer.id)
    assert picked_line(here, locale) == picked_line(message(marie.user, phone.id), locale)
    give = next(b.custom_id for b in here.buttons if b.custom_id and ":give_ok:" in b.custom_id)
    answered_in_place(await marie.user.click(here, give))
    assert marie.user.id not in table.gift_picks
    due = game.exchange_due(0)
    assert due is None or not due.ready  # given
    await tick(fake, clock, 1)
    moved_away(marie.user, phone.id, locale)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_two_tables_in_two_channels_keep_their_hands_apart(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie plays a classic table here and a fast one in another channel, whose hand she
    opens on the computer then the phone. She plays from the phone; the computer's old
    menu is refused privately; its « Afficher ma main ici » brings that table's hand back
    there. Her hand at the first table, on the computer, is left alone throughout."""
    marie = fake.add_user("marie", locale=locale)
    first = await host_against_bots(president, marie, "classic", 2)
    here = marie.channel
    there = fake.add_channel(fake.guild, "second")
    await fake.settle()
    marie.channel = there
    second = await host_against_bots(president, marie, "classic", 2, fast=True)
    await tick(fake, clock, 1)
    await marie.click(message(marie, second.table_message_id), cid(second, "hand"))
    computer = marie.last_ephemeral()
    await marie.click(message(marie, second.table_message_id), cid(second, "hand"))
    phone = marie.last_ephemeral()
    marie.channel = here
    await marie.click(message(marie, first.table_message_id), cid(first, "hand"))
    first_hand = marie.last_ephemeral().id
    await tick(fake, clock, 1)
    marie.channel = there
    menu = next(s for s in phone.selects if ":play:" in s.custom_id)
    answered_in_place(await marie.select(phone, [menu.options[0].value], select=menu.custom_id))
    await tick(fake, clock, 1)
    assert second.game is not None
    version = second.game.version
    old = next(s for s in computer.selects if ":play:" in s.custom_id)
    late = await marie.select_shown(computer, [old.options[1].value], select=old.custom_id)
    assert late.acknowledged and late.response_type == 4
    assert marie.last_ephemeral().text == "⚠️ " + t(locale, "err.hand_moved")
    assert second.game.version == version

    farewell = moved_away(marie, computer.id, locale)
    answered_in_place(await marie.click(farewell, t(locale, "btn.hand_here")))
    assert shows_the_hand(message(marie, computer.id))
    assert second.hands[marie.id].message_id == computer.id
    await tick(fake, clock, 1)
    moved_away(marie, phone.id, locale)
    marie.channel = here
    assert first.hands[marie.id].message_id == first_hand
    assert message(marie, first_hand).selects  # her turn there, still live
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_farewell_shown_loses_its_button_when_the_table_closes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie opens her hand on the computer, then on the phone, then brings it back to the
    computer with « Afficher ma main ici »: the phone's says the hand moved, with that
    button. Five minutes on she leaves, the last one there, and the table closes: within
    its token's 15 minutes, the phone's farewell is told the table closed, its button
    gone, as the computer's hand is (before: it kept the button, whose click was then told
    the table no longer exists). One edit per message, each through its own token: the
    computer's, a farewell before it showed the hand again, is edited once."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    computer = marie.last_ephemeral().id
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
    phone = marie.last_ephemeral().id
    await tick(fake, clock, 1)
    answered_in_place(await marie.click(moved_away(marie, computer, locale),
                                        t(locale, "btn.hand_here")))
    await tick(fake, clock, 1)
    moved_away(marie, phone, locale)
    await tick(fake, clock, 300)
    mark = fake.mark()
    await leave_game(marie)
    await tick(fake, clock, 1)
    assert table.closed
    for hand in (computer, phone):
        closed = message(marie, hand)
        assert closed.text == t(locale, "hand.closed") and not closed.controls
    edits = [c.path for c in fake.calls_since(mark) if c.route.endswith("@original")]
    assert len(edits) == len(set(edits)) == 2
    fake.assert_no_errors()
