"""End-to-end: a break's reason by the button, the host making a player's break theirs, a
latecomer at a game with no end (« Breaks, leaderboard and latecomers, leftovers (stop 51) »).

- « Pause » gave no way to say why: only `/president pause` took a reason. The click still
  pauses at once; its private answer offers a form (a modal) with one optional field.
- The host could only end bob's five minutes and pause anew; their « Pause » now makes
  the break theirs (the host's hour, ended by « Continuer »).
- A latecomer at a game with no end waited for « Terminer »; they take a bot's seat at the
  next round where one is left.

Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.packages.controls import WARNING
from bot.tables.deadlines import OWN_PAUSE_SECONDS, PAUSE_LIMIT_SECONDS
from engine import Phase
from fakediscord import FakeDiscord
from fakediscord.snapshots import TextInput
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, message, play_until, tick, two_humans_against_a_bot
from .test_e2e_playtest29 import a_humans_turn, board, keys, pause, play_on

LOCALES = ["fr", "en-US"]
#: (the table's language, the latecomers'): each reads the other's.
PAIRS = [("fr", "en-US"), ("en-US", "fr")]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_break_started_by_the_button_takes_a_reason_by_a_form(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob presses « Pause »: his break begins at the click, as before, and his private
    answer says so and offers « Donner une raison ». It opens a form with one optional
    field; « pizza » sent, the table shows it beside the break, and the answer says what
    was kept. Sent empty, the break shows none."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    since = clock.now()

    await pause(fake, clock, bob.user, table)

    assert table.pause is not None and table.pause.own and table.pause.reason == ""
    offer = bob.user.last_ephemeral()
    assert offer.content.startswith(t(locale, "done.paused_own", button=t(loc, "btn.play_on"),
                                      minutes=OWN_PAUSE_SECONDS // 60))
    await bob.user.click(offer, t(locale, "btn.pause_reason"))
    form = bob.user.modal
    assert form is not None and form.title == t(locale, "pause.form.title")
    [field] = [i for i in form.inputs if isinstance(i, TextInput)]
    assert field.label == t(locale, "pause.form.field") and not field.required
    assert fresh(table).pause is not None  # the break did not wait for the form

    await bob.user.modal_submit({field.custom_id: "  la   pizza  est là "})
    await tick(fake, clock, 1)  # the table message follows, coalesced
    given = fresh(table).pause
    assert given is not None and given.reason == "la pizza est là"
    assert t(loc, "table.paused_reason", name="bob", since=f"<t:{int(since)}:t>",
             reason="la pizza est là") in board(marie.user, table)
    assert message(bob.user, offer.id).content == \
        t(locale, "done.pause_reason", reason="la pizza est là")

    assert not message(bob.user, offer.id).buttons  # the answer replaced the offer


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_form_sent_once_the_break_is_no_longer_theirs_changes_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob opens the form, and before he sends it his break ends (he came back and pressed
    « Continuer » on another device): his reason is refused, in his language, and changes
    nothing; the offer's button after the break says the same."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, bob.user, table)
    offer = bob.user.last_ephemeral()
    await bob.user.click(offer, t(locale, "btn.pause_reason"))
    await play_on(fake, bob.user, table)
    assert fresh(table).pause is None

    await bob.user.modal_submit({t(locale, "pause.form.field"): "pizza"})
    assert bob.user.last_ephemeral().content == WARNING + t(locale, "err.pause_reason_late")
    assert table.pause is None and "pizza" not in board(marie.user, table)
    await bob.user.click(offer, t(locale, "btn.pause_reason"))
    assert bob.user.modal is None
    assert bob.user.last_ephemeral().content == WARNING + t(locale, "err.pause_reason_late")


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_s_pause_makes_a_player_s_break_theirs(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob's doorbell was a parcel and a neighbour: two minutes into his break marie, the
    host, types `/president pause` (before: « already paused »). The break becomes hers, bob's
    reason kept (the table told her how: `/president pause`): it does not end at bob's five
    minutes, only the host ends it (bob is told so), its limit the host's hour from hers; « Continuer » gives the turn the time it
    had, and the history says who lengthened whose break."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    await bob.user.slash("president pause", options={"reason": "colis"})
    await tick(fake, clock, 120)

    own = fresh(table).pause
    assert own is not None
    told = t(loc, "table.paused_own_until", button=t(loc, "btn.play_on"), name="bob",
             at=f"<t:{int(own.since + OWN_PAUSE_SECONDS)}:R>",
             lengthen=t(loc, "btn.lengthen"))
    assert "`/president pause`" in told and t(loc, "btn.lengthen") in told
    assert told in board(marie.user, table)
    taken = clock.now()
    await marie.user.slash("president pause")  # (the table shows « Continuer » meanwhile)
    await tick(fake, clock, 1)

    pause_now = fresh(table).pause
    assert pause_now is not None and not pause_now.own and pause_now.by == marie.user.id
    assert pause_now.reason == "colis" and table.host_id == marie.user.id
    assert keys(table)[-1] == "ev.pause_lengthened"
    shown = board(marie.user, table)
    assert t(loc, "ev.pause_lengthened", name="marie", owner="bob") in shown
    assert t(loc, "table.paused_until", button=t(loc, "btn.play_on"),
             at=f"<t:{int(taken + PAUSE_LIMIT_SECONDS)}:R>") in shown
    assert marie.user.last_ephemeral().content == \
        t(locale, "done.paused", button=t(loc, "btn.play_on"))

    await tick(fake, clock, OWN_PAUSE_SECONDS)  # bob's five minutes are long past
    assert fresh(table).pause is not None and not table.closed
    await play_on(fake, bob.user, table)
    assert fresh(table).pause is not None  # bob is not the host: his click ends nothing
    assert bob.user.last_ephemeral().content.startswith(WARNING)

    await play_on(fake, marie.user, table)
    assert fresh(table).pause is None and keys(table)[-1] == "ev.pause_over"
    assert table.timer_deadline is not None
    assert table.timer_deadline - clock.now() == pytest.approx(left, abs=2)


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_at_a_game_with_no_end_takes_a_bot_s_seat_at_the_next_round(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """Play-test 31's long evening: marie and bob play classic with one bot and no end but
    « Terminer ». carol asks for a seat in round 1: she was put on the list for the next
    game, which would come in hours. She now reads that she takes a bot's seat at the next
    round, the table says she waits for it; dave, asking next, is on the list for the next
    game (one bot, one seat), and the table says so too. At « Manche suivante » carol sits
    in the bot's seat, with 0 points, and is asked to open her hand; dave waits on."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    carol = fake.add_user("carol", locale=theirs)
    dave = fake.add_user("dave", locale=theirs)
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 game_end="unlimited")
    await tick(fake, clock, 1)
    (bot_seat,) = [seat for seat, player in enumerate(table.seats) if player.is_bot]
    names = button_names(locale)
    board = message(carol, table.table_message_id)
    await carol.click(board, cid(table, "hand"))
    assert t(theirs, "hand.join_no_end", **names) in carol.last_ephemeral().content
    await carol.click(board, cid(table, "join"))
    assert carol.last_ephemeral().content == t(theirs, "lobby.queued_no_end", **names)
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.listed_no_end", **names)
    await tick(fake, clock, 1)
    shown = message(marie.user, table.table_message_id).content
    assert t(locale, "table.waiting_round", names="carol") in shown
    assert t(locale, "table.waiting_next", names="dave") in shown

    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(carol.id) == bot_seat and not table.seats[bot_seat].is_bot
    assert fresh(game).points[bot_seat] == 0 and bot_seat not in game.bots
    assert [p.user_id for p in table.queue] == [dave.id]
    shown = message(marie.user, table.table_message_id).content
    assert "carol" in shown and t(locale, "table.waiting_next", names="dave") in shown
    assert t(locale, "table.waiting_round", names="dave") not in shown
    await carol.click(message(carol, table.table_message_id), cid(table, "hand"))
    assert t(theirs, "hand.not_seated") not in carol.last_ephemeral().content  # her hand
    fake.assert_no_errors()
