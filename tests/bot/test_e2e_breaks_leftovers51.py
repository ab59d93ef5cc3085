"""End-to-end: a break's reason by the button, and the host making a player's break theirs
(« Breaks, leaderboard and latecomers, leftovers (stop 51) »).

- « Pause » gave no way to say why: only `/president pause` took a reason. The click still
  pauses at once; its private answer offers a form (a modal) with one optional field.
- The host could only end bob's five minutes and pause anew; their « Pause » now makes
  the break theirs (the host's hour, ended by « Continuer »).

Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.controls import WARNING
from bot.tables.deadlines import OWN_PAUSE_SECONDS, PAUSE_LIMIT_SECONDS
from fakediscord import FakeDiscord
from fakediscord.snapshots import TextInput
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import message, tick
from .test_e2e_playtest29 import a_humans_turn, board, keys, pause, play_on

LOCALES = ["fr", "en-US"]


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
    reason kept: it does not end at bob's five minutes, only the host ends it (bob is told
    so), its limit the host's hour from her click; « Continuer » gives the turn the time it
    had, and the history says who lengthened whose break."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    loc = table.locale
    left = table.timer_deadline - clock.now() if table.timer_deadline else 0.0
    await bob.user.slash("president pause", options={"reason": "colis"})
    await tick(fake, clock, 120)

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
