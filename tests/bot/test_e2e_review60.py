"""End-to-end findings of stop 60's review of the interaction paths (docs/bot.md « A review
of the interaction paths (stop 60) »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.saving import STORE_BUDGET
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import create_table, tick
from .test_e2e_settings import open_form
from .test_e2e_slow_store import DEFERRED_UPDATE, _play, alice_to_play, slow_commits

LOCALES = ("fr", "en")


def told_vanished(user: TestUser, locale: str) -> int:
    """How many private lines tell the user their table in #cartes went with its channel."""
    said = t(locale, "vanished.named", channel="cartes")
    return sum(m.content == said for m in user.visible() if m.ephemeral)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_vanished_table_is_told_with_the_settings_form_answer_not_under_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
) -> None:
    """marie's table in #cartes went with its channel; her first action since picks a typed
    rule in her new table's settings, which opens a form. The word was sent as a followup
    under the open form, where she, typing, did not see it, and was not owed any more: it
    comes with the form's answer, as the notices of `controls.opened_form` do."""
    marie = fake.add_user("marie", locale=locale)
    await create_table(president, marie)
    await marie.slash("president settings")
    assert fake.guild.id is not None
    await president.service.vanished.record(fake.guild.id, [marie.id], "cartes")
    await open_form(marie, "turn_seconds")
    assert marie.modal is not None and told_vanished(marie, locale) == 0
    await marie.modal_submit({t(locale, "settings.modal.field"): "45"})
    assert told_vanished(marie, locale) == 1
    fake.assert_no_errors()


async def test_a_move_stored_past_its_token_is_not_answered(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice plays while the database is away; it is back 16 minutes later. Her click was
    acknowledged in time (deferred) and the move stands, but its token died at 15 minutes:
    nothing can answer it any more, as past Discord's 3 seconds (`controls.too_late`).
    Answering anyway was a 401 « Invalid Webhook Token », logged as the play failing, and
    its « something went wrong » a second 401, raised out of the handler; so was the word
    owed her of a vanished table, sent after it through the same dead token."""
    alice, table = await alice_to_play(fake, president, clock)
    assert fake.guild.id is not None  # and her table in #cartes went with its channel
    await president.service.vanished.record(fake.guild.id, [alice.user.id], "cartes")
    release, _ = slow_commits(president, monkeypatch)
    record = await _play(fake, alice)
    await tick(fake, clock, STORE_BUDGET)
    assert fresh(record).response_type == DEFERRED_UPDATE
    await tick(fake, clock, 16 * 60)
    release.set()
    await fake.settle()
    assert table.hands[alice.user.id].token != record.token
    fake.assert_no_errors()
    await alice.user.slash("president hand")  # the word, owed still, comes with her next
    assert told_vanished(alice.user, "en") == 1
    fake.assert_no_errors()


async def test_a_hand_answered_late_counts_its_token_from_the_click(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice's play waits a minute for the database. Her hand then follows the game through
    that click's token, whose 15 minutes began at the click: counted from the answer, the
    bot took it for alive a minute past its death, every edit then a 401."""
    alice, table = await alice_to_play(fake, president, clock)
    release, _ = slow_commits(president, monkeypatch)
    clicked = president.service.clock.now()
    record = await _play(fake, alice)
    await tick(fake, clock, STORE_BUDGET)
    assert fresh(record).response_type == DEFERRED_UPDATE
    await tick(fake, clock, 60)
    release.set()
    await fake.settle()
    link = table.hands[alice.user.id]
    assert link.token == record.token
    assert link.created <= clicked + STORE_BUDGET
    fake.assert_no_errors()
