"""End-to-end: play-test 21, « a host who reads the settings »: a host opening the settings
panel at each preset, changing its knobs one at a time and together, reading what
`/president règles` and the lobby then say and playing to see the knob act, in French and in
English."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.rules_text import knob_label
from engine import Rules
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import create_table, message, tick

LOCALES = ["fr", "en-US"]


async def pick(user: TestUser, knob: str, value: str) -> Message:
    """From the host's open settings panel, pick `knob` in its menu, then `value` in the
    menu of its values; the panel as it then reads."""
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await user.select(panel, [knob], select=menu.custom_id)
    panel = user.last_ephemeral()
    values = next(s for s in panel.selects if ":value:" in s.custom_id)
    await user.select(panel, [value], select=values.custom_id)
    return user.last_ephemeral()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_new_deck_refused_names_every_knob_to_set_first(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at presi, the host picked a 52-card deck. The refusal said to set
    « Carte seule qui gagne tout pli » to « aucune » first; done, the deck was refused
    again, this time for the 3 of oros opening the first round. The engine names one clash
    at a time: the refusal now names both knobs, and once both are set the deck is taken."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "presi")
    await marie.slash("president settings")
    before = table.rules
    panel = await pick(marie, "deck", "french52")
    assert table.rules == before
    lines = panel.content.split("\n")
    deck = knob_label(locale, "deck")
    assert lines[0] == "⚠️ " + t(locale, "rules.conflict.top_single_deck.deck", knob=deck,
                                other=knob_label(locale, "top_single"))
    assert lines[1] == "⚠️ " + t(locale, "rules.conflict.oros_not_french.deck", knob=deck,
                                other=knob_label(locale, "first_opener"))
    if locale == "fr":
        assert french("« Carte seule qui gagne tout pli » sur « aucune »") in lines[0]
        assert french("« Ouvre la première manche » sur « au hasard »") in lines[1]
    # As told: the card to none (typed), the opener to random, then the deck.
    menu = next(s for s in panel.selects if any(o.value == "top_single" for o in s.options))
    await marie.select(panel, ["top_single"], select=menu.custom_id)
    await marie.modal_submit({t(locale, "settings.modal.field"): t(locale, "none")})
    await pick(marie, "first_opener", "random")
    panel = await pick(marie, "deck", "french52")
    assert panel.content.startswith("✅")
    assert table.rules == Rules.preset("presi", top_single="none", first_opener="random",
                                       deck="french52")
    await tick(fake, clock, 1)
    assert knob_label(locale, "deck") in message(marie, table.lobby_message_id).content
    fake.assert_no_errors()
