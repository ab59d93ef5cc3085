"""Play-test 41d: an English group tried unusual knob combinations and read the words of
the rules page, the settings, the hand and the history against what the engine does."""
from __future__ import annotations

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.lines import entry_text
from bot.tables.log import note
from engine.events import Skipped
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import after_an_equal
from .test_display import table_for


def test_ta_gueule_is_english_where_it_recurs_and_named_once_where_it_is_explained() -> None:
    """« ta gueule » stayed French in every skip of classic's history and on the hand,
    while wild7's « ou rien » read “or nothing!”: the lines met every turn speak English;
    the rules page and the knob keep the French name once, in English quotes."""
    classic = table_for("classic", 3)
    note(classic, Skipped(1))
    assert entry_text("en", classic, classic.log[-1]) == "p1 holds none of that value: skipped"
    for key in ("ev.skipped.skip_unless_holding", "hand.equal_rule.skip_unless_holding"):
        assert "gueule" not in t("en", key, name="p1")
    for key in ("knob.on_equal.skip_unless_holding", "howto.variant.on_equal.skip_unless_holding"):
        assert "“ta gueule”" in t("en", key) and "«" not in t("en", key)


async def test_ta_gueule_on_an_english_hand_is_named_in_english(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    alice = await after_an_equal(fake, clock, president, "en-US", "classic",
                                 [["5H", "9C", "AC"], ["5C", "KC", "KD"], ["5D", "QC", "QD"]])
    assert "🤐 Skip unless holding: play a 5 or pass." in alice.hand.content
