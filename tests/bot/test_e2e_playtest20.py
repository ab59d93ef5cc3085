"""End-to-end: play-test 20, « a player on the move »: one player's evening when they are
not sitting still. They dismiss their hand and reopen it, open it on two devices and click
the older copy, let it grow older than its interaction token, change Discord's language
mid-game, play at two tables at once, leave and come back, go idle under the autopilot
and resume, and click an old hand across a restart; in French and in English. Each click
is answered privately, in the clicker's language of the moment, changes nothing when it is
stale, and brings back the current hand; nobody else reads their cards."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.service import TableService
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.state import InteractionRecord

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    cid,
    database_url,
    host_against_bots,
    leave_game,
    message,
    play_until,
    restart,
    tick,
    two_humans_against_a_bot,
)

LOCALES = ["fr", "en-US"]
EPHEMERAL = 64


def answered_privately(record: InteractionRecord) -> None:
    """Answered at all (never « This interaction failed »), and only to its user: a new
    ephemeral message, or their own ephemeral redrawn in place."""
    assert record.acknowledged
    assert record.response_type in (4, 7)
    if record.response_type == 4:
        assert record.response is not None
        assert record.response.get("flags", 0) & EPHEMERAL


def hand_line(user: TestUser, message_id: int | None) -> str:
    """The line of a hand's cards, as their player reads them (below whose turn it is)."""
    return next(line for line in message(user, message_id).content.split("\n")
                if line.startswith("🂠"))


def asked_for_my_hand(user: TestUser, message_id: int | None) -> str:
    """The table message's line asking players to press « Ma main », or nothing."""
    return next((line for line in message(user, message_id).content.split("\n")
                 if line.startswith("🔔")), "")


def nobody_else_reads(fake: FakeDiscord, owner: TestUser, line: str,
                      others: list[TestUser]) -> None:
    """No message another user's client shows, in any channel, holds ``owner``'s cards."""
    channels = {m.channel_id for m in fake.messages()}
    for other in others:
        for channel_id in channels:
            seen = other.visible(fake.world.channels[channel_id])
            assert not [m for m in seen if line in m.text], (other.name, line)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_dismissed_reopened_and_open_on_two_devices(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie dismisses her hand and reopens it from the table's « Ma main »; opens it a
    second time (her phone), plays there, then picks a card in the older copy as her
    laptop still showed it: the older copy said where the hand went, and the late pick is
    told it changed nothing, privately, nothing played."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale="fr" if locale != "fr" else "en-US"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    seat = table.seat_of(marie.user.id)
    assert seat is not None
    dismissed = marie.hand
    marie.user.dismiss(dismissed)
    await marie.open_hand(president)
    laptop = marie.hand
    assert laptop.id != dismissed.id and laptop.text == dismissed.text  # the current hand
    await marie.open_hand(president)  # the phone
    phone_id = marie.hand_id
    assert phone_id != laptop.id
    await play_until(fake, clock, [bob], lambda: game.to_act == seat)
    await tick(fake, clock, 1)
    assert message(marie.user, laptop.id).text == t(locale, "hand.moved")
    assert [b.label for b in message(marie.user, laptop.id).buttons] == \
        [t(locale, "btn.hand_here")]  # its one control brings the hand back (play-test 32)
    assert await marie.act()  # on the phone
    version, cards = game.version, len(game.hand(seat))

    # The laptop's client had not yet drawn the farewell: she presses its « Actualiser ».
    late = await marie.user.click_shown(laptop, t(locale, "btn.refresh"))
    answered_privately(late)
    assert late.response_type == 4  # a line of its own: the phone's hand is left alone
    assert game.version == version and len(game.hand(seat)) == cards
    assert marie.user.last_ephemeral().text == "⚠️ " + t(locale, "err.hand_moved")
    assert table.hands[marie.user.id].message_id == phone_id
    assert message(marie.user, phone_id).selects or message(marie.user, phone_id).buttons
    nobody_else_reads(fake, marie.user, hand_line(marie.user, phone_id), [bob.user])
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_older_than_its_token_is_answered_and_followed_again(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A slow game (ten-minute turns): marie's hand outlives its 15-minute token. Its last
    edit said it stopped following the game and the table asked her for « Ma main »; her
    pick in it, a new interaction, is played and the hand follows the game again."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 turn_seconds=600)
    seat = table.seat_of(marie.user.id)
    for _ in range(96):  # sixteen minutes: bob's turn runs out, then marie's comes
        await tick(fake, clock, 10)
    assert game.to_act == seat
    link = table.hands[marie.user.id]
    assert not link.valid(president.service.clock.now())
    old = marie.hand
    assert old.text.startswith(t(locale, "hand.lapsing", refresh=t(locale, "btn.refresh"),
                                 hand=t(table.locale, "btn.my_hand")))
    assert "marie" in asked_for_my_hand(marie.user, table.table_message_id)
    menu = next(s for s in old.selects if ":play:" in s.custom_id)
    played = await marie.user.select(old, [menu.options[0].value], select=menu.custom_id)
    answered_privately(played)
    assert played.response_type == 7 and game.to_act != seat
    assert table.hands[marie.user.id].valid(president.service.clock.now())
    await tick(fake, clock, 1)
    assert "marie" not in asked_for_my_hand(marie.user, table.table_message_id)
    assert not marie.hand.text.startswith("⏸️")
    fake.assert_no_errors()


async def test_a_language_switch_reaches_every_hand_of_the_player(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie plays two tables in two channels with Discord in French, then switches it to
    English and types a command at her second table. Only a click on a hand used to carry
    the new language to the bot: both hands went on being redrawn in French, as did their
    last words (the hand moved, she left, the table closed) after answers in English;
    every hand of hers now follows the language of her latest command or click on the
    server."""
    marie = fake.add_user("marie", locale="fr")
    first = await host_against_bots(president, marie, "classic", 2)
    here = marie.channel
    there = fake.add_channel(fake.guild, "second")
    await fake.settle()
    marie.channel = there
    second = await host_against_bots(president, marie, "wild7", 2)
    await tick(fake, clock, 1)
    await marie.click(message(marie, second.table_message_id), cid(second, "hand"))
    second_hand = marie.last_ephemeral().id
    marie.channel = here
    await marie.click(message(marie, first.table_message_id), cid(first, "hand"))
    first_hand = marie.last_ephemeral().id
    assert hand_line(marie, first_hand).startswith("🂠 **Ta main**")

    marie.user.locale = "en-US"  # she switches Discord to English
    marie.channel = there
    await marie.slash("president rules")
    assert marie.last_ephemeral().text.startswith("📜 Rules of this table")
    await tick(fake, clock, 2)
    assert hand_line(marie, second_hand).startswith("🂠 **Your hand**")
    marie.channel = here
    assert hand_line(marie, first_hand).startswith("🂠 **Your hand**")
    assert t("en", "btn.refresh") in [b.label for b in message(marie, first_hand).buttons]

    # A hand opened again now says in English that the one before moved, and leaving by
    # command (the last person there: the table closes) says in English that it closed.
    await marie.click(message(marie, first.table_message_id), cid(first, "hand"))
    await tick(fake, clock, 1)
    assert message(marie, first_hand).text == t("en", "hand.moved")
    newest = marie.last_ephemeral().id
    await leave_game(marie)
    await tick(fake, clock, 1)
    assert message(marie, newest).text == t("en", "hand.closed")
    fake.assert_no_errors()


@pytest.fixture
def marie_wins_bob_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals under which marie (playing through her hand) ends first and bob, on autopilot,
    second against the normal bot, so the next exchange waits for marie's choice, with bob
    in it with nothing to give. Who places where follows how the bot plays: stop 51's
    lone-card lead turned the suite's usual deal (`seeded_deals`) into one marie loses,
    the exchange then over before bob's hand could be read in it."""
    defaults = TableService.__init__.__kwdefaults__
    assert defaults is not None
    monkeypatch.setitem(defaults, "seed", 15)


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_autopilot_seat_says_so_between_rounds_and_resumes_from_the_hand(
    marie_wins_bob_second: None, fake: FakeDiscord, president: PresidentBot,
    clock: LinkedClock, locale: str
) -> None:
    """bob went idle: the autopilot played his turns to the round's end. His hand said only
    his result, then in the next exchange only « nothing to exchange », with no word of
    the autopilot and no « Reprendre », while the table read « 🤖 pilote auto » beside his
    name and the autopilot went on into the next round. The hand now says it between
    rounds and in the exchange, and its « Reprendre » takes his seat back there."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(
        fake, clock, president, marie, bob, autopilot_after_timeouts=1, turn_seconds=10)
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert seat in game.autopilot
    assert game.roles == ["P", "N", "L"]  # the deal the test needs (`marie_wins_bob_second`)
    resume = t(locale, "btn.resume")
    # The round is over: the autopilot plays his next one, as his hand said once he was
    # out (`hand_plays.autopilot_next`), not « joue pour toi » in a round with nothing left.
    lines = bob.hand.text.split("\n")
    assert t(locale, "hand.autopilot_next") in lines and t(locale, "hand.autopilot") not in lines
    assert resume in [b.label for b in bob.hand.buttons]

    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.phase is Phase.EXCHANGE and seat in game.autopilot
    assert t(locale, "hand.autopilot") in bob.hand.text.split("\n")
    pressed = await bob.user.click(bob.hand, resume)
    answered_privately(pressed)
    assert seat not in game.autopilot
    assert t(locale, "hand.autopilot") not in bob.hand.text
    assert t(locale, "hand.autopilot_next") not in bob.hand.text
    assert resume not in [b.label for b in bob.hand.buttons]
    await tick(fake, clock, 1)
    assert t(table.locale, "table.auto") not in message(
        bob.user, table.table_message_id).text
    fake.assert_no_errors()


async def test_leaving_and_coming_back_where_a_bot_takes_the_seat(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """At proletario a bot takes a leaver's seat. bob leaves mid-round and joins again in
    the same round: the seat and its cards are his again, in a hand of its own, and the
    hand that said he left follows the newer one. He leaves again; once the round is over
    he waits in the queue and sits at the next deal."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 "proletario", bots=2)
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    cards = list(game.hand(seat))
    left_hand = bob.hand_id
    await leave_game(bob.user)
    await tick(fake, clock, 1)
    assert message(bob.user, left_hand).text == t("en", "hand.folded")
    assert table.seats[seat].is_bot or table.seats[seat].user_id is None
    joined = await bob.user.slash("president join")
    answered_privately(joined)
    assert table.seat_of(bob.user.id) == seat
    back = bob.user.last_ephemeral()
    assert t("en", "hand.title", count=len(game.hand(seat)), cards="").split("(")[0] in back.text
    assert set(game.hand(seat)) <= set(cards)
    await tick(fake, clock, 1)
    assert message(bob.user, left_hand).text == t("en", "hand.moved")

    bob.hand_id = back.id
    await leave_game(bob.user)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await bob.user.slash("president join")
    assert table.queued(bob.user.id)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(bob.user.id) is not None
    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "hand"))
    assert bob.user.last_ephemeral().text.startswith("🂠 **Your hand**")
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seat_freed_at_the_rounds_end_says_its_player_left(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At classic a bot finishes the round of a leaver, and the seat goes as it ends. The
    table message then listed « **bob** · Vice-trou · 0 pt » among the seats, as if he still
    sat, under results naming « 🤖 bob »; bob, back and told he was on the list for the
    next game, read himself seated. The row now says he left the table."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 bots=2, game_end="rounds:3")
    await leave_game(bob.user)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await bob.user.slash("president join")
    assert table.queued(bob.user.id) and table.seat_of(bob.user.id) is None
    rows = [line for line in message(bob.user, table.table_message_id).content.split("\n")
            if line.startswith("**bob**")]
    assert len(rows) == 1 and rows[0].endswith(t(locale, "table.seat_left"))
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    board = message(bob.user, table.table_message_id).content
    assert t(locale, "table.seat_left") not in board
    assert not [line for line in board.split("\n") if line.startswith("**bob**")]
    fake.assert_no_errors()


async def test_an_old_hand_clicked_after_a_restart_gets_the_current_one(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The bot restarts while alice's and bob's hands are open. alice clicks « Refresh »
    as her client showed it before: answered in place with the hand as it is now, and
    followed from then on; bob's pick from before the restart plays, as the trick has not
    moved."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:3",
                                                              bob_locale="fr")
    before_alice, before_bob = alice.hand, bob.hand
    bot = await restart(fake, clock, bot, database_url(tmp_path), down=30)
    restored = bot.service.registry.by_id(table.id)
    assert restored is not None and restored.game is not None
    bob_seat = restored.seat_of(bob.user.id)
    assert restored.game.to_act == bob_seat
    menu = next(s for s in before_bob.selects if ":play:" in s.custom_id)
    played = await bob.user.select_shown(before_bob, [menu.options[0].value],
                                         select=menu.custom_id)
    answered_privately(played)
    assert played.response_type == 7 and restored.game.to_act != bob_seat
    refreshed = await alice.user.click_shown(before_alice, t("en", "btn.refresh"))
    answered_privately(refreshed)
    assert refreshed.response_type == 7
    assert restored.hands[alice.user.id].message_id == before_alice.id
    await tick(fake, clock, 2)
    assert restored.game.version > 0
    nobody_else_reads(fake, bob.user, hand_line(bob.user, before_bob.id), [alice.user])
    await fake.disconnect(bot)
    fake.assert_no_errors()
