"""End-to-end findings of stop 60's review of the interaction paths (docs/bot.md « A review
of the interaction paths (stop 60) »)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import create_table
from .test_e2e_settings import open_form

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
