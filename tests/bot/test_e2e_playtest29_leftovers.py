"""End-to-end: play-test 29's leftovers (« Play-test 29, leftovers », stop 50).

- A table message that gave way to a fresh one during a break kept, for good, the
  leaver's line as the break words it (« sa place l’attend 60 s à partir de la reprise
  (**Continuer**) »), a button it no longer has and a promise the break's end breaks.

Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.messages import FRESH_TABLE_AGE
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import leave_game, message, tick
from .test_e2e_playtest29 import a_humans_turn, board, pause, play_on

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_message_replaced_during_the_break_keeps_what_held_then(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Under presi's rule the table waits a minute for a leaver. marie pauses; nearly an
    hour on, the table message is too old to edit freely (`FRESH_TABLE_AGE`), and bob's
    leaving gives it way to a fresh one. The old one kept bob's line as the break words
    it live, « sa place l’attend 60 s à partir de la reprise (**Continuer**) », for good:
    a button it no longer has, and once marie continues, a promise past. It now keeps
    what held when it was replaced, and the fresh message goes on as before."""
    marie, bob, table, _ = await a_humans_turn(fake, clock, president, locale,
                                               on_leave="wait_then_cancel",
                                               leave_grace_seconds=60)
    loc = table.locale
    old = table.table_message_id
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, FRESH_TABLE_AGE)
    await leave_game(bob.user)
    await tick(fake, clock, 1)

    assert table.table_message_id != old and old is not None
    live = t(loc, "ev.away_paused", name="bob", seconds=60, button=t(loc, "btn.play_on"))
    assert f"• {live}" in board(marie.user, table)
    await play_on(fake, marie.user, table)
    deadline = int(clock.now() + 60)
    assert f"• {t(loc, 'ev.away', name='bob', deadline=deadline)}" in board(marie.user, table)
    await tick(fake, clock, 1)

    kept = message(marie.user, old).content
    assert live not in kept
    assert f"• {t(loc, 'ev.away_paused_kept', name='bob', seconds=60)}" in kept
    assert t(loc, "table.moved_on") in kept and not message(marie.user, old).buttons
